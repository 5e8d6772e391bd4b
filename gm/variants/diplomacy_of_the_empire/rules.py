"""Diplomacy of the Empire (Zachary Jarvie): talents, legions, cities, roads and forts, as a delta
on the engine.

Rules: *Diplomacy of the Empire* 2.0 (docs/rules/diplomacy-of-the-empire.md; the designer's later forum answers win); the
rulings this judge applies where the text is open are written for players in
templates/rules/diplomacy-of-the-empire.txt.j2, and each rule is traced to its tests in
docs/rules/diplomacy-of-the-empire.md. Each rule, and where it lives:

- 1 start: seven claimants (six: no Macedonia, Syria worth 5), an Infantry and a fortified
  capital in each home, no talents (``opening``).
- 2 units: Infantry, Cavalry, Catapult (strength 1½; an Infantry once it has retreated:
  ``after_retreats``), Fleet (``orders.UNIT_TYPES``, ``strength``); prices and upkeep in
  ``economy``; a power builds or disbands in one build phase, never both (``works``).
- 3 second moves: cavalry and fleets only (``review_on_board``); the engine's ``MoveThen``.
- 4, 5 tribute after the Fall, control of territories, inflation (``treasury``, at
  ``end_of_season``).
- 6 cities, forts, roads: ``BUILD CITY``, ``BUILD FORT``, ``RAZE`` (``works``); a fort
  adds 1 to its owner's hold (``before_movement``); roads come by themselves (``roads``).
- 7 builds only at cities joined by roads to the capital, while the home is held
  (``works.build_sites``); a lost home: tribute only where its units stand, no treasury, no PAY
  received; the taker's one-time bonus (``treasury``).
- 8 road moves: land units in a city, along roads (``review_on_board``), in step with each
  other, and meeting a plain move into any province of the route whatever the step (the
  engine's ``MoveAlongPath``); supports into any province of the route (``reaches_otherwise``);
  each province the road unit tries to enter is attacked, its supports cut, as by any move (the
  engine's steps, ``_cut_by_paths``); no retreat along roads (the engine's one-province retreats).
- 9 straits: crossed in one move (the map's borders); no retreat across them (``retreat_options``).
- 10 PAY: in any phase, multiples of 5, never more than the payer has; to the payee's home:
  intercepted by whoever holds it, or stands in it at the end of a Fall phase (``treasury``).
- 11 victory: the last claimant standing (``winner``); draws by the players' vote.

What the results and replies say of the money is in ``words``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from gm.adjudicator.effects import Effects
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import Illegal, MoveChecks, Ruling
from gm.adjudicator.variant import Adjustment, Variant
from gm.domain.geography import Location, Terrain
from gm.domain.orders import Hold, Move, MoveAlongPath, MoveThen, Order
from gm.domain.outcomes import OrderResult
from gm.domain.phases import Calendar, Era, PhaseKind, Season
from gm.domain.position import Position, sorted_units
from gm.domain.units import FLEET, Unit
from gm.maps.model import GameMap
from gm.variants.diplomacy_of_the_empire import economy, treasury, works
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


class DiplomacyOfTheEmpire(Variant):
    def __init__(self, name: str, game_map: GameMap):
        super().__init__(name, game_map, CALENDAR, first_year(game_map, CALENDAR, -43), UNIT_TYPES)
        self.legality_cacheable = False  # supports of road moves follow the roads in the position
        self.options = {treasury.DOUBLE_AT: economy.DOUBLE_AT, treasury.TRIPLE_AT: economy.TRIPLE_AT}
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

    def name_of(self, province: str) -> str:
        return self.map.provinces[province].name

    # -- the start (rule 1) ------------------------------------------------------------------

    def initial_position(self) -> Position:
        return self.start_of(tuple(self.map.powers))

    def start_of(self, powers: tuple[str, ...]) -> Position:
        """1: the start of a game of these powers (six: no Macedonia, Syria worth 5)."""
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
                ruling.illegal = treasury.payment_problem(position, state, ruling.power, order)
            elif isinstance(order, (BuildCity, BuildFort, Raze)):
                ruling.illegal = works.works_problem(self, position, state, ruling.power, order)

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

    # -- the end of every phase: payments, and the build phase's accounts ------------------------

    def end_of_phase(self, position: Position, results: Sequence[OrderResult], log: PhaseLog) -> Position:
        state = EmpireState.of(position)
        if position.phase.kind is PhaseKind.ADJUSTMENTS:
            return works.build_phase(self, position, state, results, log)
        state = treasury.payments(self, position, state, results, log)
        return position.replace(extra=state.extra(position))

    # -- builds (rules 2, 7) ----------------------------------------------------------------------

    def build_sites(self, position: Position, power: str) -> frozenset[str]:
        return works.build_sites(self, position, power)

    def kept_by_choice(self, unit: Unit) -> bool:
        return True  # 2: any unit may be disbanded in a build phase

    def adjustments(self, position: Position) -> list[Adjustment]:
        return works.adjustments(self, position)

    def orders_owed(self, adjustment: Adjustment) -> int:
        """A removal for every unit it cannot pay; one order (a build, or WAIVE to save its
        money) from a claimant that can pay for something."""
        return -adjustment.count if adjustment.count < 0 else min(adjustment.count, 1)

    def has_adjustments(self, position: Position) -> bool:
        """A build phase after every Fall, for every claimant still in the game."""
        return bool(self.in_play(position))

    # -- the end of a season: control, tribute, inflation (rules 4, 5, 7) --------------------------

    def end_of_season(self, position: Position, log: PhaseLog) -> Position:
        return treasury.season_end(self, position, log)

    # -- victory (rule 11) ------------------------------------------------------------------------

    def in_play(self, position: Position) -> set[str]:
        """A claimant is out once it has no unit (a dislodged one still retreating counts) and no
        longer holds its home."""
        state = EmpireState.of(position)
        with_units = {u.power for u in position.units} | {d.unit.power for d in position.dislodged}
        return {p for p in state.treasury if p in with_units or not treasury.home_lost(self, state, p)}

    def draw_problem(self, powers: Sequence[str]) -> str | None:
        """11: a draw splits the empire in two or forms a triumvirate, never more."""
        if len(powers) > 3:
            return f"a draw includes two or three claimants, and {len(powers)} are still in the game"
        return None

    def winner(self, position: Position) -> str | None:
        left = self.in_play(position)
        return next(iter(left)) if len(left) == 1 else None


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

