"""Diplomacy of the Empire (Zachary Jarvie): talents, legions, cities, roads and forts, as a delta
on the engine.

Rules: shared/rules/diplomacy-of-the-empire.txt (the designer's later forum answers win); issue
16's rulings, and this judge's where the text is open, are written for players in
templates/rules/diplomacy-of-the-empire.txt.j2, and each rule is traced to its tests in
docs/rules/diplomacy-of-the-empire.md. Each rule, and where it lives:

- 1 start: seven claimants (six: no Macedonia, Syria worth 5), an Infantry and a fortified
  capital in each home, no talents (``opening``).
- 2 units: Infantry, Cavalry, Catapult (strength 1½; an Infantry once it has retreated:
  ``after_retreats``), Fleet (``orders.UNIT_TYPES``, ``strength``); prices and upkeep in
  ``economy``; a power builds or disbands in one build phase, never both (``_build_phase``).
- 3 second moves: cavalry and fleets only (``review_on_board``); the engine's ``MoveThen``.
- 4, 5 tribute after the Fall, control of territories, inflation (``end_of_season``).
- 6 cities, forts, roads: ``BUILD CITY``, ``BUILD FORT``, ``RAZE`` (``_build_phase``); a fort
  adds 1 to its owner's hold (``before_movement``); roads come by themselves (``roads``).
- 7 builds only at cities joined by roads to the capital, while the home is held
  (``build_sites``); a lost home: tribute only where its units stand, no treasury, no PAY
  received; the taker's one-time bonus (``_collect``).
- 8 road moves: land units in a city, along roads (``review_on_board``), in step with each
  other, and meeting a plain move into any province of the route whatever the step (the
  engine's ``MoveAlongPath``); supports into any province of the route (``reaches_otherwise``);
  each province the road unit tries to enter is attacked, its supports cut, as by any move (the
  engine's steps, ``_cut_by_paths``); no retreat along roads (the engine's one-province retreats).
- 9 straits: crossed in one move (the map's borders); no retreat across them (``retreat_options``).
- 10 PAY: in any phase, multiples of 5, never more than the payer has; to the payee's home:
  intercepted by whoever holds it, or stands in it at the end of a Fall phase (``_payments``).
- 11 victory: the last claimant standing (``winner``); draws by the players' vote.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from gm.adjudicator.effects import Effects
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import Illegal, MoveChecks, Ruling
from gm.adjudicator.variant import Adjustment, Variant
from gm.domain.geography import Location, Terrain
from gm.domain.orders import Build, Disband, Hold, Move, MoveAlongPath, MoveThen, Order
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.phases import Calendar, Era, PhaseKind, Season
from gm.domain.position import Position, sorted_units
from gm.domain.units import FLEET, Unit
from gm.maps.model import GameMap
from gm.orders import OrderGrammar
from gm.orders.forms import OrderForm
from gm.variants.diplomacy_of_the_empire import economy, forms, orders, picture, play
from gm.variants.diplomacy_of_the_empire.economy import talents
from gm.variants.diplomacy_of_the_empire.orders import (
    CATAPULT,
    CAVALRY,
    INFANTRY,
    UNIT_TYPES,
    BuildCity,
    BuildFort,
    Pay,
    Raze,
)
from gm.variants.diplomacy_of_the_empire.roads import RoadMap
from gm.variants.diplomacy_of_the_empire.state import City, EmpireState
from gm.variants.standard import first_year

CALENDAR = Calendar(
    seasons=(
        Season("S", "Spring", (PhaseKind.MOVEMENT, PhaseKind.RETREATS)),
        Season("F", "Fall", (PhaseKind.MOVEMENT, PhaseKind.RETREATS)),
        Season("W", "Winter", (PhaseKind.ADJUSTMENTS,)),
    ),
    era=Era.BC_AD,
)
DOUBLE_AT, TRIPLE_AT = "inflation_double_at", "inflation_triple_at"


class DiplomacyOfTheEmpire(Variant):
    def __init__(self, name: str, game_map: GameMap):
        super().__init__(name, game_map, CALENDAR, first_year(game_map, CALENDAR, -43), UNIT_TYPES)
        self.legality_cacheable = False  # supports of road moves follow the roads in the position
        self.options = {DOUBLE_AT: economy.DOUBLE_AT, TRIPLE_AT: economy.TRIPLE_AT}
        rules = game_map.rules
        self.straits = tuple((s["between"][0], s["between"][1]) for s in rules["straits"])
        self.roads = RoadMap(game_map, self.straits)
        self.homes = {power.name: power.home[0] for power in game_map.powers.values()}
        self.home_of_province = {home: power for power, home in self.homes.items()}
        self.left_out_of_six = tuple(rules["six_players"]["without"])
        self.six_player_tribute: dict[str, int] = dict(rules["six_players"]["tribute"])
        self.tribute_of = {p.id: int(p.extra.get("tribute", 0)) for p in game_map.provinces.values()
                           if p.terrain is not Terrain.SEA}

    # -- vocabulary ----------------------------------------------------------------------

    def extend_order_grammar(self, grammar: OrderGrammar) -> OrderGrammar:
        return orders.grammar(grammar)

    def order_forms(self) -> tuple[OrderForm, ...]:
        return forms.order_forms(self)

    def player_counts(self) -> tuple[int, int]:
        return len(self.map.powers) - len(self.left_out_of_six), len(self.map.powers)

    def name_of(self, province: str) -> str:
        return self.map.provinces[province].name

    # -- the start (rule 1) ------------------------------------------------------------------

    def powers_in_play(self, count: int, log: PhaseLog) -> list[str]:
        if count < len(self.map.powers):
            return [p for p in self.map.powers if p not in self.left_out_of_six]
        return list(self.map.powers)

    def opening(self, powers: Sequence[str], log: PhaseLog, requests: Mapping[str, str] | None = None) -> Position:
        return self._start(tuple(powers))

    def initial_position(self) -> Position:
        return self._start(tuple(self.map.powers))

    def _start(self, powers: tuple[str, ...]) -> Position:
        units = [Unit(p, INFANTRY, Location(self.homes[p])) for p in powers]
        state = EmpireState(
            treasury={p: 0 for p in powers},
            cities={self.homes[p]: City(p, fort=True, capital=True) for p in powers},
            control={self.homes[p]: p for p in powers},
        )
        start = Position(self.calendar.first_phase(self.first_year), sorted_units(units), {})
        extra = state.extra(start)
        if len(powers) < len(self.map.powers):
            extra["six_players"] = True
        return start.replace(extra=extra)

    def default_centres(self, units: Iterable[Unit]) -> dict[str, str]:
        return {}  # no supply centres: what a claimant holds is ``extra.control``

    def tribute_value(self, position: Position, province: str) -> int:
        if position.extra.get("six_players") and province in self.six_player_tribute:
            return self.six_player_tribute[province]
        return self.tribute_of.get(province, 0)

    def _option(self, position: Position, name: str) -> int:
        return int(position.extra.get(name, self.options[name]))  # type: ignore[call-overload]

    # -- strength, forts, roads, straits (rules 2, 6, 8, 9) --------------------------------------

    def strength(self, unit: Unit) -> float:
        return 1.5 if unit.type is CATAPULT else 1

    def before_movement(self, effects: Effects) -> None:
        """6: a fortified city adds 1 to its owner's unit there while it does not move. The
        results say so under a hold, and under another order (a support, a payment) only where
        a move is ordered into the city, so the +1 may count: no note where it does nothing."""
        state = EmpireState.of(effects.position)
        moves = [r for r in effects.rulings if r.counts and isinstance(r.order, (Move, MoveAlongPath, MoveThen))]
        moving = {r.slot for r in moves}
        entered = {place.province for r in moves for place in _entered(r.order)}
        for slot, unit in enumerate(effects.position.units):
            city = state.cities.get(unit.location.province)
            if city is None or not city.fort or city.owner != unit.power or slot in moving:
                continue
            order = effects.order_of(slot)
            if order is None or isinstance(order, Hold):
                effects.add_hold_strength(slot, 1, "fortified city: +1 while it holds")
            elif unit.location.province in entered:
                effects.add_hold_strength(slot, 1, "fortified city: +1 against the attack")
            else:  # the +1 all the same, unsaid: nothing is ordered against it
                effects.hold_bonus[slot] = effects.hold_bonus.get(slot, 0.0) + 1

    def reaches_otherwise(self, unit: Unit, province: str, position: Position) -> bool:
        """8: a land unit in a city may be supported into any province of a road route."""
        if unit.type is FLEET:
            return False
        state = EmpireState.of(position)
        here = unit.location.province
        return here in state.cities and province in RoadMap.network(state, here)

    def review_on_board(self, position: Position, rulings: Sequence[Ruling]) -> None:
        state = EmpireState.of(position)
        for ruling in rulings:
            if ruling.illegal is not None:
                continue
            order = ruling.order
            if isinstance(order, MoveThen):
                ruling.illegal = self._second_move_problem(state, ruling.unit, order)
            elif isinstance(order, MoveAlongPath):
                ruling.illegal = self._road_problem(state, ruling.unit, order.path)
            elif isinstance(order, Pay):
                ruling.illegal = self._payment_problem(position, state, ruling.power, order)
            elif isinstance(order, (BuildCity, BuildFort, Raze)):
                ruling.illegal = self._works_problem(position, state, ruling.power, order)

    def _second_move_problem(self, state: EmpireState, unit: Unit | None, order: MoveThen) -> str | None:
        if unit is None or unit.type not in (CAVALRY, FLEET):
            return "only cavalry and fleets make a second move"
        if len(order.first) > 1 and (problem := self._road_problem(state, unit, order.first)):
            return problem
        if len(order.then) > 1:
            return self._road_problem(state, unit.moved_to(order.first[-1]), order.then)
        return None

    def _road_problem(self, state: EmpireState, unit: Unit | None, path: Sequence[Location]) -> str | None:
        """8: a move of several provinces goes along roads, from a city, by a land unit."""
        if unit is None:
            return None
        if unit.type is FLEET:
            return "fleets do not move along roads: one province a move"
        here = unit.location.province
        if here not in state.cities:
            return f"no city in {self.name_of(here)}: only a unit in a city moves along roads"
        for step in path:
            if frozenset((here, step.province)) not in state.roads:
                return f"no road from {self.name_of(here)} to {self.name_of(step.province)}"
            here = step.province
        return None

    def retreat_options(self, dislodged: Unit, attacker_from: str | None, attacker_convoyed: bool,
                        standing: Mapping[str, Sequence[Unit]], contested: AbstractSet[str],
                        sides: Mapping[str, str] | None = None) -> tuple[Location, ...]:
        """9: no retreat across a strait (a unit ordered so is destroyed, as any retreat that
        cannot be made)."""
        here = dislodged.location.province
        across = {b if a == here else a for a, b in self.straits if here in (a, b)}
        options = super().retreat_options(dislodged, attacker_from, attacker_convoyed, standing, contested, sides)
        return tuple(loc for loc in options if loc.province not in across)

    def after_retreats(self, position: Position, moves: Sequence[tuple[Unit, Location | None]],
                       log: PhaseLog) -> Position:
        """2: a catapult that retreated is an Infantry from then on."""
        retreated = {(unit.power, to.province) for unit, to in moves if unit.type is CATAPULT and to is not None}
        if not retreated:
            return position
        units = [Unit(u.power, INFANTRY, u.location) if u.type is CATAPULT and (u.power, u.location.province) in retreated
                 else u for u in position.units]
        return position.replace(units=sorted_units(units))

    # -- declarations (rules 6, 10) ------------------------------------------------------------

    def review_order(self, review: MoveChecks, unit: Unit | None, order: Order) -> Order:
        if isinstance(order, Pay):
            return order  # the payer and its treasury are known in review_on_board
        if isinstance(order, (BuildCity, BuildFort, Raze)):
            if review.position is not None and review.position.phase.kind is not PhaseKind.ADJUSTMENTS:
                raise Illegal("cities, forts and razing are ordered in the build phase")
            return order
        return super().review_order(review, unit, order)

    def _payment_problem(self, position: Position, state: EmpireState, payer: str, order: Pay) -> str | None:
        if order.to == payer:
            return f"{payer} cannot pay itself"
        if order.to not in state.treasury:
            return f"{order.to} is not a claimant of this game"
        have = state.treasury.get(payer, 0)
        if order.amount > have:
            return f"{payer} has {talents(have)}, not {order.amount}"
        return None

    def _works_problem(self, position: Position, state: EmpireState, power: str,
                       order: BuildCity | BuildFort | Raze) -> str | None:
        province = order.location.province
        name = self.name_of(province)
        if self.map.provinces[province].terrain is Terrain.SEA:
            return f"{name} is a sea"
        if state.control.get(province) != power:
            return f"{power} does not control {name}"
        city = state.cities.get(province)
        if isinstance(order, Raze):
            return None if city is not None else f"there is no city in {name}"
        if isinstance(order, BuildCity) and city is not None:
            return f"{name} has a city already"
        if isinstance(order, BuildFort) and city is not None and city.fort:
            return f"the city of {name} is fortified already"
        return None

    # -- the end of every phase: payments, and the build phase's accounts ------------------------

    def end_of_phase(self, position: Position, results: Sequence[OrderResult], log: PhaseLog) -> Position:
        state = EmpireState.of(position)
        if position.phase.kind is PhaseKind.ADJUSTMENTS:
            return self._build_phase(position, state, results, log)
        state = self._payments(position, state, results, log)
        return position.replace(extra=state.extra(position))

    def _payments(self, position: Position, state: EmpireState, results: Sequence[OrderResult],
                  log: PhaseLog) -> EmpireState:
        """10: each payment in the order given, never more than the payer has then; paid to the
        payee's home province, so whoever holds it (or, at the end of a Fall phase, stands in
        it) takes it."""
        treasury = dict(state.treasury)
        fall = self.calendar.season_of(position.phase).code == "F"
        for result in results:
            order = result.order
            if not isinstance(order, Pay) or not result.succeeded:
                continue
            payer = result.power
            if order.amount > treasury.get(payer, 0):
                _fail(result, f"{payer} has only {talents(treasury.get(payer, 0))} left")
                continue
            home = self.homes[order.to]
            standing = {u.power for u in position.units if u.location.province == home} if fall else set()
            taker = next(iter(standing - {order.to}), None) or state.control.get(home, order.to)
            treasury[payer] -= order.amount
            treasury[taker] = treasury.get(taker, 0) + order.amount
            if taker != order.to:
                result.notes = (*result.notes, f"intercepted by {taker}, who holds {self.name_of(home)}")
                log.announce(f"{taker} intercepts {talents(order.amount)} paid by {payer} to {order.to}")
        return state.changed(treasury=treasury)

    def _build_phase(self, position: Position, state: EmpireState, results: Sequence[OrderResult],
                     log: PhaseLog) -> Position:
        """2, 6, 7: upkeep first, then payments, then every build of a power together: all of them
        fail if they cost more than it has left, or if it also disbanded a unit. Then the
        works: cities, forts, roads, razing. A claimant without its home keeps no treasury."""
        built = [r for r in results if isinstance(r.order, Build) and r.succeeded and r.unit is not None]
        new = {r.unit for r in built}
        kept = {p: len([u for u in position.units if u.power == p and u not in new]) for p in state.treasury}
        treasury = {p: t - economy.upkeep(kept[p], state.inflation) for p, t in state.treasury.items()}
        state = self._payments(position, state.changed(treasury=treasury), results, log)
        treasury = dict(state.treasury)
        undone: set[int] = set()
        for power in sorted(state.treasury):
            spending = [r for r in results if r.power == power and r.succeeded
                        and isinstance(r.order, (Build, BuildCity, BuildFort))]
            disbanded = any(isinstance(r.order, Disband) and r.succeeded and r.power == power for r in results)
            unit_builds = [r for r in spending if isinstance(r.order, Build)]
            if unit_builds and disbanded:
                for r in unit_builds:
                    _fail(r, f"{power} disbands this build phase, so it may not also build")
                    undone.add(id(r))
                spending = [r for r in spending if id(r) not in undone]
            cost = sum(self._price(state, r) for r in spending)
            if cost > max(treasury[power], 0):
                for r in spending:
                    _fail(r, f"{power}'s builds cost {talents(cost)} and it has {talents(max(treasury[power], 0))}: "
                             "every build fails")
                    undone.add(id(r))
                continue
            treasury[power] -= cost
        state = self._works(state.changed(treasury=treasury), results, log)
        for r in built:
            if id(r) in undone or r.unit is None:
                continue
            province = r.unit.location.province
            if province not in state.cities or province not in self._connected(state, r.power):
                _fail(r, f"no city joined by roads to {r.power}'s capital in {self.name_of(province)}")
                undone.add(id(r))
                treasury = dict(state.treasury)
                treasury[r.power] += self._price(state, r)
                state = state.changed(treasury=treasury)
        removed = [r.unit for r in built if id(r) in undone and r.unit is not None]
        units = list(position.units)
        for unit in removed:
            units.remove(unit)
        treasury = {p: (0 if self._home_lost(state, p) else t) for p, t in state.treasury.items()}
        state = state.changed(treasury=treasury, tribute={})
        return position.replace(units=sorted_units(units), extra=state.extra(position))

    def _price(self, state: EmpireState, result: OrderResult) -> int:
        order, m = result.order, state.inflation
        if isinstance(order, Build) and result.unit is not None:
            return economy.unit_price(result.unit.type, m)
        if isinstance(order, BuildCity):
            return economy.CITY * m
        if isinstance(order, BuildFort):
            has_city = order.location.province in state.cities
            return (economy.FORT_ON_CITY if has_city else economy.FORT_WITH_CITY) * m
        return 0

    def _works(self, state: EmpireState, results: Sequence[OrderResult], log: PhaseLog) -> EmpireState:
        """6: razing first (a unit may not be built in a city razed), then new cities and forts,
        each new city joined by road to its owner's adjacent cities."""
        for result in results:
            if isinstance(result.order, Raze) and result.succeeded:
                province = result.order.location.province
                cities = {p: c for p, c in state.cities.items() if p != province}
                state = state.changed(cities=cities, roads=RoadMap.without_city(state, province))
        for result in results:
            order = result.order
            if not isinstance(order, (BuildCity, BuildFort)) or not result.succeeded:
                continue
            province = order.location.province
            capital = self.home_of_province.get(province) is not None
            cities = dict(state.cities)
            cities[province] = City(result.power, fort=isinstance(order, BuildFort), capital=capital)
            state = state.changed(cities=cities)
            state = state.changed(roads=self.roads.with_city(state, province))
        return state

    # -- builds (rule 7) ----------------------------------------------------------------------

    def _home_lost(self, state: EmpireState, power: str) -> bool:
        return state.control.get(self.homes[power]) != power

    def _connected(self, state: EmpireState, power: str) -> set[str]:
        """The cities of ``power`` joined by roads to its capital (none without its home and capital)."""
        home = self.homes[power]
        if self._home_lost(state, power) or home not in state.cities:
            return set()
        return RoadMap.network(state, home, owner=power)

    def build_sites(self, position: Position, power: str) -> frozenset[str]:
        """7: vacant cities joined by roads to the capital, and the territories where a city
        built this phase would be joined so (a unit built there needs that city built too)."""
        state = EmpireState.of(position)
        connected = self._connected(state, power)
        new_city = {p for p, owner in state.control.items() if owner == power and p not in state.cities
                    and any(self.roads.may_join(p, c) for c in connected)}
        if not connected and state.control.get(self.homes[power]) == power and self.homes[power] not in state.cities:
            new_city.add(self.homes[power])  # a capital razed may be built again
        occupied = {u.location.province for u in position.units}
        return frozenset((connected | new_city) - occupied)

    def build_site_refusal(self, position: Position, power: str, province: str) -> str:
        """7: why no unit of ``power`` is built in ``province`` (there are no supply centres)."""
        state = EmpireState.of(position)
        name, home = self.name_of(province), self.homes[power]
        if self._home_lost(state, power):
            return f"{power} does not hold its home, {self.name_of(home)}: it builds no units until it takes it back"
        if home not in state.cities and province != home:
            return f"{power}'s capital is razed: it builds no units until it builds a city in {self.name_of(home)}"
        city, connected = state.cities.get(province), self._connected(state, power)
        mine = state.control.get(province) == power
        joinable = mine and any(self.roads.may_join(province, c) for c in connected)  # a city built now
        if city is None and province != home and not joinable:
            far = f", and one built there now would not be joined by road to {power}'s capital"
            return f"there is no city in {name}{far * mine}"
        if city is not None and city.owner != power:
            return f"the city of {name} is {city.owner}'s"
        if city is not None and province not in connected:
            return f"the city of {name} is not joined by roads to {power}'s capital"
        return f"a unit stands in {name}"

    def kept_by_choice(self, unit: Unit) -> bool:
        return True  # 2: any unit may be disbanded in a build phase

    def builds_refusal(self, position: Position, power: str, count: int) -> str:
        """7, 2: a claimant builds where it has room, as far as its talents go."""
        state = EmpireState.of(position)
        if count > 0:
            sites = ", ".join(sorted(self.name_of(p) for p in self.build_sites(position, power)))
            return (f"{power} has room to build in {count} {'city' if count == 1 else 'cities'} only ({sites}), "
                    "and its orders fill them")
        left = state.treasury.get(power, 0) - economy.upkeep(len(position.units_of(power)), state.inflation)
        price = economy.unit_price(INFANTRY, state.inflation)
        if left < price:
            return (f"{power} has {talents(max(left, 0))} after upkeep, less than an infantry costs "
                    f"({talents(price)}): it builds nothing")
        if self._home_lost(state, power):
            return self.build_site_refusal(position, power, self.homes[power])
        return f"{power} has no vacant city joined by roads to its capital to build in"

    def adjustments(self, position: Position) -> list[Adjustment]:
        """2: a claimant that cannot pay its units' upkeep must disband down to a treasury of 0
        or more; otherwise it may build wherever it has room, as far as its money goes."""
        state = EmpireState.of(position)
        plan = []
        for power in sorted(state.treasury):
            units = len(position.units_of(power))
            each = economy.upkeep(1, state.inflation)
            short = economy.upkeep(units, state.inflation) - state.treasury[power]
            if short > 0:
                plan.append(Adjustment(power, -min(units, math.ceil(short / each)), frozenset()))
                continue
            sites = self.build_sites(position, power)
            affords = -short >= economy.unit_price(INFANTRY, state.inflation)
            plan.append(Adjustment(power, len(sites) if affords else 0, sites))
        return plan

    def shown_adjustments(self, position: Position) -> list[Adjustment]:
        """Removals only: what a claimant may build is what its money pays (``state_report``)."""
        return [a for a in self.adjustments(position) if a.count < 0]

    def state_report(self, position: Position) -> list[tuple[str, list[str]]]:
        """Every claimant's treasury; before a build phase its accounts, and the prices."""
        state = EmpireState.of(position)
        claimants = sorted(self.in_play(position))
        if position.phase.kind is not PhaseKind.ADJUSTMENTS:
            return [("Treasuries", [", ".join(f"{p} {state.treasury[p]}" for p in claimants) + " talents"])]
        m = state.inflation
        accounts = []
        for power in claimants:
            units = len(position.units_of(power))
            due = economy.upkeep(units, m)
            left = state.treasury[power] - due
            line = (f"{power}: {talents(state.treasury[power])} (tribute {state.tribute.get(power, 0)}), "
                    f"upkeep {due} for {units} unit{'s' * (units != 1)}, ")
            if left < 0:
                line += f"must disband {math.ceil(-left / economy.upkeep(1, m))} to pay the rest"
            else:
                line += f"{left} to spend"
            if self._home_lost(state, power):
                line += f"; its home is held by {state.control.get(self.homes[power])}: no builds, nothing kept"
            accounts.append(line)
        inflation = {1: "", 2: " (doubled by inflation)", 3: " (tripled by inflation)"}[m]
        prices = [f"Infantry {economy.unit_price(INFANTRY, m)}, Cavalry {economy.unit_price(CAVALRY, m)}, "
                  f"Catapult {economy.unit_price(CATAPULT, m)}, Fleet {economy.unit_price(FLEET, m)}; "
                  f"city {economy.CITY * m}, fort {economy.FORT_WITH_CITY * m} with a new city or "
                  f"{economy.FORT_ON_CITY * m} on a city; upkeep {economy.UPKEEP * m} a unit{inflation}"]
        return [("Accounts for the build phase", accounts), ("Prices in talents", prices)]

    def orders_note(self, position: Position, power: str, orders: Sequence[Order]) -> list[str]:
        """What the orders cost against the treasury (payments; in the build phase, the builds
        after the upkeep), and whether they can all be paid."""
        state = EmpireState.of(position)
        if power not in state.treasury:
            return []
        m = state.inflation
        paid = sum(o.amount for o in orders if isinstance(o, Pay))
        have = state.treasury[power]
        if position.phase.kind is not PhaseKind.ADJUSTMENTS:
            return [f"Payments: {paid} of your {talents(have)}."] if paid else []
        have -= economy.upkeep(len(position.units_of(power)), m) + paid
        cost = 0
        for order in orders:
            if isinstance(order, Build) and order.unit.type is not None:
                cost += economy.unit_price(order.unit.type, m)
            elif isinstance(order, BuildCity):
                cost += economy.CITY * m
            elif isinstance(order, BuildFort):
                has_city = order.location.province in state.cities
                cost += (economy.FORT_ON_CITY if has_city else economy.FORT_WITH_CITY) * m
        if not cost:
            return [f"You have {talents(max(have, 0))} to spend after upkeep{' and payments' * bool(paid)}."]
        verdict = "" if cost <= have else ": more than you have, so every build would fail"
        return [f"Your builds cost {talents(cost)} of the {talents(max(have, 0))} you have after upkeep"
                f"{' and payments' * bool(paid)}{verdict}."]

    def orders_owed(self, adjustment: Adjustment) -> int:
        """A removal for every unit it cannot pay; one order (a build, or WAIVE to save its
        money) from a claimant that can pay for something."""
        return -adjustment.count if adjustment.count < 0 else min(adjustment.count, 1)

    def has_adjustments(self, position: Position) -> bool:
        """A build phase after every Fall, for every claimant still in the game."""
        return bool(self.in_play(position))

    # -- the end of a season: control, tribute, inflation (rules 4, 5, 7) --------------------------

    def end_of_season(self, position: Position, log: PhaseLog) -> Position:
        season = self.calendar.season_of(position.phase).code
        if season == "W":
            return position
        state = EmpireState.of(position)
        control = dict(state.control)
        for unit in position.units:
            province = unit.location.province
            if province in self.tribute_of and (season == "F" or province not in control):
                control[province] = unit.power  # 4: blank land any season; another's only in the Fall
        taken = {p: control[h] for p, h in self.homes.items()
                 if p in state.treasury and state.control.get(h) == p and control.get(h) not in (p, None)}
        was = state.cities
        cities = {p: City(control.get(p, c.owner), c.fort, c.capital) for p, c in was.items()}
        state = state.changed(control=control, cities=cities)
        for province, city in sorted(cities.items()):
            if city.owner != was[province].owner:
                state = state.changed(roads=self.roads.with_city(state, province))
                log.announce(f"{city.owner} takes the {'fortified ' * city.fort}city of {self.name_of(province)}")
        if season == "F":
            state = self._collect(position, state, taken, log)
        return position.replace(extra=state.extra(position))

    def _collect(self, position: Position, state: EmpireState, taken: Mapping[str, str], log: PhaseLog) -> EmpireState:
        """4, 5, 7: each claimant's tribute after the Fall; a claimant without its home only where
        its units stand; the taker of a home takes its treasury and the tribute of its
        territories without its units, once (not counted for inflation)."""
        occupied = {(u.power, u.location.province) for u in position.units}
        collected: dict[str, int] = {}

        def tribute(power: str, province: str) -> int:  # a territory's, with its city's if the power's
            city = state.cities.get(province)
            return self.tribute_value(position, province) + (
                economy.CITY_TRIBUTE if city is not None and city.owner == power else 0)

        for power in sorted(state.treasury):
            mine = [p for p, owner in state.control.items() if owner == power
                    and (not self._home_lost(state, power) or (power, p) in occupied)]
            collected[power] = sum(tribute(power, p) for p in mine)
        treasury = {p: t + collected[p] for p, t in state.treasury.items()}
        for loser, taker in sorted(taken.items()):
            lost = [p for p, owner in state.control.items() if owner == loser and (loser, p) not in occupied]
            bonus = state.treasury[loser] + sum(tribute(loser, p) for p in lost)
            treasury[taker] = treasury.get(taker, 0) + bonus
            treasury[loser] -= state.treasury[loser]
            log.announce(f"{taker} takes {self.name_of(self.homes[loser])}, {loser}'s home, and with it "
                         f"{talents(bonus)} of its treasury and tribute")
        for power in sorted(collected):
            if collected[power] or power in self.in_play(position):
                log.announce(f"{power} collects {talents(collected[power])} of tribute "
                             f"(treasury {talents(treasury[power])})")
        stage = economy.inflation_after(state.inflation, collected, self._option(position, DOUBLE_AT),
                                        self._option(position, TRIPLE_AT))
        if stage > state.inflation:
            log.announce(f"inflation: from this build phase every price and the upkeep are "
                         f"{'doubled' if stage == 2 else 'tripled'}")
        return state.changed(treasury=treasury, tribute=collected, inflation=stage)

    # -- victory (rule 11) ------------------------------------------------------------------------

    def in_play(self, position: Position) -> set[str]:
        """A claimant is out once it has no unit (a dislodged one still retreating counts) and no
        longer holds its home."""
        state = EmpireState.of(position)
        with_units = {u.power for u in position.units} | {d.unit.power for d in position.dislodged}
        return {p for p in state.treasury if p in with_units or not self._home_lost(state, p)}

    def draw_problem(self, powers: Sequence[str]) -> str | None:
        """11: a draw splits the empire in two or forms a triumvirate, never more."""
        if len(powers) > 3:
            return f"a draw includes two or three claimants, and {len(powers)} are still in the game"
        return None

    def winner(self, position: Position) -> str | None:
        left = self.in_play(position)
        return next(iter(left)) if len(left) == 1 else None

    # -- the bot (gm.bots.plausible.OwnOrders) ------------------------------------------------------

    def plausible_orders(self, position: Position, orders: list[tuple[str, Order]],
                         rng: random.Random) -> list[tuple[str, Order]]:
        return play.plausible_orders(self, position, orders, rng)

    # -- the picture (gm.render.layers.DrawsMapLayers): cities, forts, capitals, roads, control --

    def map_layers(self, position: Position, pen: object) -> None:
        picture.map_layers(position, pen)


def _fail(result: OrderResult, why: str) -> None:
    result.succeeded = False
    result.reason = Reason.PREVENTED
    result.detail = why


def _entered(order: Order) -> tuple[Location, ...]:
    """The places a move enters in the movement phase (a second move's come with the retreats)."""
    if isinstance(order, Move):
        return (order.destination,)
    if isinstance(order, MoveAlongPath):
        return order.path
    if isinstance(order, MoveThen):
        return order.first
    return ()


def make(game_map: GameMap) -> DiplomacyOfTheEmpire:
    return DiplomacyOfTheEmpire("diplomacy-of-the-empire", game_map)

