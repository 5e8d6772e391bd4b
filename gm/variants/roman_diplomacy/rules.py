"""Roman Diplomacy I and II (Pete Calcraft): what differs from standard play, as a delta on the
engine. One rules module for both boards; the map decides the rest (its Imperial City sites,
map edge, victory count and first year).

Rules: shared/rules/roman-diplomacy.txt; the rulings this judge applies are written for players
in templates/rules/_roman-diplomacy.txt.j2, and each rule is traced to its tests in
docs/rules/roman-diplomacy.md. Each rule, and where it lives:

- 1: every supply centre starts neutral with a neutral garrison (``G`` under ``Neutral``); every
  other land province is barbarian (``extra.barbarians``) — ``initial_position``.
- 2: empires join by mail naming a neutral Imperial City site (``joining_request``); they wait
  in ``extra.joining`` and come in at the next adjustment phase (``admit_joining``, which checks
  the site again; the game opens with one), owning their city and its garrison, with one build
  there at once.
- 3: an Imperial City's garrison never moves, supports like an army, needs no supply centre and
  shares its province with a friendly unit, a federation partner's too (``sides_share``; both
  must be beaten); builds only there (board II: and in owned special build centres).
- 4: a power has as many fleet steps as fleets; a fleet may take several (``MoveInRounds``, in
  rounds), others then stand (``review_on_board`` refuses a step too many).
- 5, 6: ``FEDERATE``/``DEFEDERATE``/``GIVE``; a federation is one side in battle (``sides``; a
  support against a partner is reported void, ``after_movement``), for victory, and for the
  capture of centres by armies (``update_ownership``); gifts follow their units' moves and are
  carried out after the Fall retreats, or before the builds when made in the build phase
  (``prepare_adjustments``).
- 7: barbarian occupation spreads at the end of each Spring and Fall, after the retreats
  (``end_of_season``), and is cleared by armies at once (``end_of_phase``); a centre it reaches
  turns neutral again, with a garrison.
- 8: barbarian armies (``B``): raised with a build in a barbarian province, re-hired, or released
  (``REMOVE B X``: it stands in civil disorder under ``Barbarian``); centres they capture turn
  neutral with a garrison.
- 9: civil disorder (``civil_disorder``) after two movement phases without any order in a row or
  three in all (counted in ``extra.missed`` at the end of each movement phase).
- 10: 15 (I) or 24 (II) centres for an empire or a federation (``winner``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from gm.adjudicator.effects import Effects
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import MoveChecks, MovementOutcome, Ruling
from gm.adjudicator.variant import Adjustment, Variant
from gm.domain.geography import Location, Terrain
from gm.domain.orders import Disband, Hold, Move, MoveInRounds, Order, SupportHold, SupportMove
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.phases import Calendar, Era, PhaseKind, Season
from gm.domain.position import Position, sorted_units
from gm.domain.units import ARMY, FLEET, Mobility, Unit, UnitType
from gm.maps.model import GameMap, normalise_name
from gm.orders import OrderGrammar
from gm.orders.forms import OrderForm
from gm.variants.roman_diplomacy import forms, orders, play
from gm.variants.roman_diplomacy.orders import Defederate, Federate, Give
from gm.variants.roman_diplomacy.state import RomanState
from gm.variants.standard import first_year

CALENDAR = Calendar(
    seasons=(
        Season("S", "Spring", (PhaseKind.MOVEMENT, PhaseKind.RETREATS)),
        Season("F", "Fall", (PhaseKind.MOVEMENT, PhaseKind.RETREATS), updates_ownership=True),
        Season("W", "Winter", (PhaseKind.ADJUSTMENTS,)),
    ),
    era=Era.BC_AD,
)
GARRISON = UnitType("G", "garrison", Mobility.NONE)
BARBARIAN_ARMY = UnitType("B", "barbarian army", Mobility.LAND, convoyable=True)
NEUTRAL = "Neutral"
BARBARIAN = "Barbarian"
MISSED_IN_ROW, MISSED_IN_ALL = 2, 3  # 9: movement phases without orders before civil disorder


class RomanDiplomacy(Variant):
    def __init__(self, name: str, game_map: GameMap):
        super().__init__(name, game_map, CALENDAR, first_year(game_map, CALENDAR),
                         unit_types=(ARMY, FLEET, GARRISON, BARBARIAN_ARMY))
        self.stacks = True
        self.sides_share = True  # 3, 5: a federation is "a single empire": a partner's garrison is friendly
        self.rival_builds_fail = True  # 8: two empires raising one barbarian army both fail
        self.unplayed_powers = (NEUTRAL, BARBARIAN)
        provinces = game_map.provinces.values()
        self.sites = frozenset(p.id for p in provinces if p.extra.get("imperial_city_site"))
        self.edge = frozenset(p.id for p in provinces if p.extra.get("map_edge"))
        self.land = frozenset(p.id for p in provinces if p.holds_armies)
        self.seas = frozenset(p.id for p in provinces if p.terrain is Terrain.SEA)
        self.victory = int(game_map.rules["victory_centres"])
        # Board II: "special build centers may be used by the owning player" (map data).
        self.special = frozenset(p.id for p in provinces if p.extra.get("special_build_centre"))
        self.names = {normalise_name(n): p.id for p in provinces for n in (p.id, p.name, *p.aliases)}

    # -- vocabulary ----------------------------------------------------------------------

    def extend_order_grammar(self, grammar: OrderGrammar) -> OrderGrammar:
        return orders.grammar(grammar, self.seas)

    def order_forms(self) -> tuple[OrderForm, ...]:
        return forms.order_forms(self)

    def power_named(self, name: str) -> str | None:
        """Empires are named as players join: any name is an empire's."""
        return super().power_named(name) or (name.strip() or None)

    def player_counts(self) -> tuple[int, int]:
        return 1, 99  # 2: any number of players

    # -- the start (1) and joining (2) -----------------------------------------------------

    def initial_position(self) -> Position:
        year = self.first_year - 1 if self.first_year != 1 else -1
        phase = self.calendar.phase(year, "W", PhaseKind.ADJUSTMENTS)  # the game opens with builds
        garrisons = [Unit(NEUTRAL, GARRISON, Location(c)) for c in sorted(self.map.supply_centres)]
        barbarians = frozenset(p for p in self.land if p not in self.map.supply_centres)
        start = Position(phase, sorted_units(garrisons), {})
        return start.replace(extra=RomanState(barbarians=barbarians).extra(start))

    def joining_request(self, text: str, position: Position) -> tuple[str, str]:
        """"Rome", "Rome as Latium", "Rome Latium": the city first, then the empire's name."""
        words = text.split()
        for size in range(len(words), 0, -1):
            city = self.names.get(normalise_name(" ".join(words[:size])))
            if city is not None:
                rest = words[size:]
                if rest and rest[0].lower() == "as":
                    rest = rest[1:]
                name = " ".join(rest) or f"Empire of {self.map.provinces[city].name}"
                self._check_request(position, name, city)
                return name, city
        raise ValueError(f"name a neutral supply centre on the Mediterranean or the Black Sea as your Imperial "
                         f"City (e.g. JOIN <game> {self._free_site_name(position)} as <empire>)")

    def _check_request(self, position: Position, empire: str, city: str) -> None:
        state = RomanState.of(position)
        where = self.map.provinces[city].name
        if city not in self.sites:
            raise ValueError(f"{where} is no Imperial City site: it must be a supply centre on the Mediterranean "
                             "or the Black Sea")
        if city in position.centres or city in state.empires.values() or city in state.joining.values():
            raise ValueError(f"{where} is no longer neutral or already asked for: choose another city "
                             f"(e.g. {self._free_site_name(position)})")
        taken = {*state.empires, *state.joining, *position.centres.values(), *(u.power for u in position.units)}
        if empire.casefold() in {t.casefold() for t in taken} or self.power_named(empire) in self.unplayed_powers:
            raise ValueError(f"the name {empire!r} is taken: choose another")

    def _free_site_name(self, position: Position) -> str:
        return next(iter(self.joining_choices(position)), "-")

    def joining_choices(self, position: Position) -> list[str]:
        """The Imperial City sites still neutral and not asked for, by name."""
        state = RomanState.of(position)
        free = (c for c in self.sites if c not in position.centres and c not in state.joining.values())
        return sorted(self.map.provinces[c].name for c in free)

    def with_joining(self, position: Position, power: str, choice: str) -> Position:
        self._check_request(position, power, choice)
        state = RomanState.of(position)
        return position.replace(extra=state.changed(joining={**state.joining, power: choice}).extra(position))

    def admit_joining(self, position: Position, log: PhaseLog) -> Position:
        """Each empire waiting comes in, in the order it asked: it owns its Imperial City and the
        garrison there (a city taken meanwhile: it is told, and may choose again)."""
        state = RomanState.of(position)
        if not state.joining:
            return position
        units, centres, empires = list(position.units), position.centres_dict(), dict(state.empires)
        for empire, city in state.joining.items():
            where = self.map.provinces[city].name
            garrison = Unit(NEUTRAL, GARRISON, Location(city))
            if city not in self.sites:  # 2: asked for through extra.joining, checked as a JOIN is
                log.announce(f"{empire} cannot found its Imperial City in {where}: it must be a neutral supply "
                             "centre on the Mediterranean or the Black Sea")
                continue
            if city in centres or garrison not in units:
                log.announce(f"{empire} cannot found its Imperial City in {where}: it is no longer neutral")
                continue
            units[units.index(garrison)] = Unit(empire, GARRISON, Location(city))
            centres[city] = empire
            empires[empire] = city
            log.announce(f"{empire} joins the game with its Imperial City in {where}")
        board = position.replace(units=sorted_units(units), centres=centres)
        return board.replace(extra=state.changed(empires=empires, joining={}).extra(board))

    def renamed(self, position: Position, old: str, new: str) -> Position:
        """2: the game master names the empire; its name changes in the variant's state too."""
        state = RomanState.of(position)

        def name(empire: str) -> str:
            return new if empire == old else empire

        board = super().renamed(position, old, new)
        return board.replace(extra=state.changed(
            empires={name(e): c for e, c in state.empires.items()},
            joining={name(e): c for e, c in state.joining.items()},
            federations=tuple(tuple(sorted(map(name, f))) for f in state.federations),
            asked={name(e): tuple(sorted(map(name, others))) for e, others in state.asked.items()},
            gifts=tuple({**g, "from": name(g["from"]), "to": name(g["to"])} for g in state.gifts),
            missed={name(e): counts for e, counts in state.missed.items()},
            special={c: name(e) for c, e in state.special.items()},
        ).extra(board))

    def in_play(self, position: Position) -> set[str]:
        """The empires founded and not fallen into civil disorder (whose units may still stand),
        and those waiting to join."""
        state = RomanState.of(position)
        return (super().in_play(position) & set(state.empires)) | set(state.joining)

    # -- units (3, 8) ---------------------------------------------------------------------------

    def may_share(self, a: Unit, b: Unit) -> bool:
        """3: a garrison with a friendly unit; 8: a neutral garrison beside a barbarian army."""
        if (a.type is GARRISON) == (b.type is GARRISON):
            return False
        garrison, other = (a, b) if a.type is GARRISON else (b, a)
        return garrison.power == other.power or (garrison.power == NEUTRAL and other.type is BARBARIAN_ARMY)

    def can_support_into(self, unit: Unit, province: str) -> bool:
        if unit.type is GARRISON:  # 3: supports as if it were an ordinary army
            return province in self.map.army_adjacency.get(unit.location.province, frozenset())
        return super().can_support_into(unit, province)

    def supplied(self, unit: Unit) -> bool:
        return unit.type is not GARRISON  # 3: a garrison needs no supply centre

    def kept_by_choice(self, unit: Unit) -> bool:
        return unit.type is BARBARIAN_ARMY  # 8: "maintaining a barbarian army ... is optional"

    def sides(self, position: Position) -> Mapping[str, str] | None:
        state = RomanState.of(position)
        return {member: state.side_of(member) for f in state.federations for member in f} or None

    # -- orders of this variant -----------------------------------------------------------------

    def review_order(self, review: MoveChecks, unit: Unit | None, order: Order) -> Order:
        if isinstance(order, (Federate, Defederate, Give)):
            return order  # judged with the whole phase at its end (end_of_phase), and answered there
        return super().review_order(review, unit, order)

    # -- the end of every phase: declarations, barbarian armies, barbarian lands (5-8) ------------

    def end_of_phase(self, position: Position, results: Sequence[OrderResult], log: PhaseLog) -> Position:
        state = RomanState.of(position)
        state = self._declarations(position, state, results, log)
        units = list(position.units)
        if position.phase.kind is PhaseKind.ADJUSTMENTS:
            units = self._barbarian_armies(units, results)
            state = state.changed(gifts=tuple(g for g in state.gifts if g["what"] != "build"))
        board = position.replace(units=sorted_units(units), extra=state.extra(position))
        if position.phase.kind is PhaseKind.MOVEMENT:
            board = self._missed_orders(board, results, log)
        return self._clear_barbarians(board)

    def _missed_orders(self, position: Position, results: Sequence[OrderResult], log: PhaseLog) -> Position:
        """9: an empire with units that gave no order at all this movement phase missed it; two
        in a row or three in all put it in civil disorder."""
        state = RomanState.of(position)
        ordered = {r.power for r in results}
        missed = dict(state.missed)
        for empire in sorted(state.empires):
            if empire in ordered or not position.units_of(empire):
                if empire in missed:
                    missed[empire] = (0, missed[empire][1])
                continue
            in_row, in_all = missed.get(empire, (0, 0))
            missed[empire] = (in_row + 1, in_all + 1)
        board = position.replace(extra=state.changed(missed=missed).extra(position))
        for empire, (in_row, in_all) in sorted(missed.items()):
            if in_row >= MISSED_IN_ROW or in_all >= MISSED_IN_ALL:
                board = self.civil_disorder(board, empire, log)
        return board

    def _declarations(self, position: Position, state: RomanState, results: Sequence[OrderResult],
                      log: PhaseLog) -> RomanState:
        asked = {e: set(o) for e, o in state.asked.items()}
        federations = [set(f) for f in state.federations]
        gifts = list(state.gifts)
        for result in results:
            order, power = result.order, result.power
            if not result.succeeded:
                continue
            if isinstance(order, Federate):
                problem = self._federate_problem(position, state, power, order)
                if problem:
                    result.succeeded, result.detail = False, problem
                    continue
                asked.setdefault(power, set()).add(self._empire_named(position, state, order.empire))
            elif isinstance(order, Defederate):
                for federation in federations:
                    if power in federation:
                        federation.discard(power)
                        log.announce(f"{power} leaves its federation")
            elif isinstance(order, Give) and position.phase.kind is PhaseKind.RETREATS:
                # (a movement phase's gifts are recorded with its moves, in after_movement; an
                # adjustment phase's are carried out before its builds, in prepare_adjustments)
                gifts.append(self._gift(position, state, power, order))
        federations = self._agreements(federations, asked, log)
        kept = tuple(tuple(sorted(f)) for f in federations if len(f) > 1)
        return state.changed(asked={e: tuple(sorted(o)) for e, o in asked.items() if o}, federations=kept,
                             gifts=tuple(gifts))

    def _agreements(self, federations: list[set[str]], asked: dict[str, set[str]], log: PhaseLog) -> list[set[str]]:
        """5: two empires (or federations) become one when every member of each has asked to
        federate with the other."""
        merged = True
        while merged:
            merged = False
            groups = federations + [{e} for e in sorted(set(asked) | {x for o in asked.values() for x in o})
                                    if not any(e in f for f in federations)]
            for index, one in enumerate(groups):
                for other in groups[index + 1:]:
                    if all(asked.get(m, set()) & other for m in one) and all(asked.get(m, set()) & one for m in other):
                        federations = [f for f in federations if f is not one and f is not other] + [one | other]
                        for member in one | other:
                            asked.pop(member, None)
                        log.announce(f"{' and '.join(sorted(one | other))} federate: one empire in battle and "
                                     "for victory")
                        merged = True
                        break
                if merged:
                    break
        return federations

    def _empires(self, position: Position, state: RomanState) -> set[str]:
        """Every empire on the board or founded (a board given without ``empires`` has them too)."""
        return (set(state.empires) | Variant.in_play(self, position)) - set(self.unplayed_powers)

    def _empire_named(self, position: Position, state: RomanState, text: str) -> str:
        """The empire a player means, however the name is written (or the text as written)."""
        wanted = text.strip().casefold()
        known = sorted(self._empires(position, state) | set(state.joining))
        return next((e for e in known if e.casefold() == wanted), text.strip())

    def _federate_problem(self, position: Position, state: RomanState, asker: str, order: Federate) -> str | None:
        other = self._empire_named(position, state, order.empire)
        if other not in self._empires(position, state):
            return f"there is no empire {order.empire!r} in the game"
        if other == asker:
            return "an empire cannot federate with itself"
        return None

    def review_on_board(self, position: Position, rulings: Sequence[Ruling]) -> None:
        """Declarations that can never succeed, and fleet steps beyond the ration, are refused
        when they are written."""
        state = RomanState.of(position)
        for ruling in rulings:
            if ruling.illegal is None and isinstance(ruling.order, Federate):
                ruling.illegal = self._federate_problem(position, state, ruling.power, ruling.order)
            elif ruling.illegal is None and isinstance(ruling.order, Give):
                ruling.illegal = self._gift_problem(position, state, ruling.power, ruling.order)
        self._fleet_ration(position, rulings)

    @staticmethod
    def _fleet_ration(position: Position, rulings: Sequence[Ruling]) -> None:
        """4: a power has as many fleet steps as fleets; a fleet that takes several leaves the
        others standing (a fleet holding takes none). Counted on each unit's last legal order."""
        fleets = Counter(u.power for u in position.units if u.type is FLEET)
        last = {(r.power, r.slot): r for r in rulings if r.illegal is None and r.unit is not None}
        used: Counter[str] = Counter()
        for ruling in last.values():
            if ruling.unit is not None and ruling.unit.type is FLEET and not isinstance(ruling.order, Hold):
                order = ruling.order
                used[ruling.power] += len(order.steps) if isinstance(order, MoveInRounds) else 1
        for ruling in last.values():
            if not isinstance(ruling.order, MoveInRounds) or ruling.unit is None:
                continue
            if ruling.unit.type is not FLEET:
                ruling.illegal = "only fleets move several steps"
            elif used[ruling.power] > fleets[ruling.power]:
                count = fleets[ruling.power]
                ruling.illegal = (f"a step too many: {ruling.power} has {count} fleet step{'s' * (count != 1)} "
                                  f"(one a fleet) and its fleets' orders take {used[ruling.power]}")

    def _gift_problem(self, position: Position, state: RomanState, giver: str, order: Give) -> str | None:
        receiver = self._empire_named(position, state, order.to)
        if receiver not in state.federation_of(giver) or receiver == giver:
            return f"{giver} gives only to an empire of its own federation"
        if order.what == "centre" and order.where is not None and position.centres.get(order.where.province) != giver:
            return f"{self.map.provinces[order.where.province].name} is not {giver}'s"
        if order.what == "unit" and order.unit is not None and not any(
                u.power == giver and u.location == order.unit.location for u in position.units):
            return f"{giver} has no unit in {self.map.provinces[order.unit.province].name}"
        return None

    def _gift(self, position: Position, state: RomanState, giver: str, order: Give,
              where: Location | None = None) -> dict[str, str]:
        """A gift as kept in ``extra.gifts``; ``where``: where the unit given stands now."""
        place = where or order.where or (order.unit.location if order.unit else None)
        return {"from": giver, "to": self._empire_named(position, state, order.to), "what": order.what,
                "where": str(place or "")}

    # -- gifts: "Such trades occur after retreats, but before builds" (5) ----------------------------

    def after_movement(self, effects: Effects, outcome: MovementOutcome) -> MovementOutcome:
        """The units given follow their moves; this phase's gifts are recorded where their units
        went; a support the federation makes void fails (20: reported, not only ignored)."""
        position = effects.position
        state = RomanState.of(position)
        if state.federations:
            self._void_supports(effects, outcome, state)
        given = [r for r in effects.rulings if isinstance(r.order, Give) and r.counts]
        if not given and not state.gifts:
            return outcome
        went = {(u.power, u.location): where for u, where in outcome.moves}
        gifts = [self._followed(g, went) for g in state.gifts]
        for ruling in given:
            order = ruling.order
            assert isinstance(order, Give)
            unit_at = order.unit.location if order.what == "unit" and order.unit is not None else None
            gifts.append(self._gift(position, state, ruling.power, order,
                                    went.get((ruling.power, unit_at), unit_at) if unit_at else None))
        board = position.replace(extra=dict(outcome.extra if outcome.extra is not None else position.extra))
        outcome.extra = RomanState.of(board).changed(gifts=tuple(gifts)).extra(board)
        return outcome

    @staticmethod
    def _followed(gift: Mapping[str, str], went: Mapping[tuple[str, Location], Location | None]) -> Mapping[str, str]:
        if gift["what"] != "unit" or not gift["where"]:  # not a unit, or one gone already
            return gift
        key = (gift["from"], Location.parse(gift["where"]))
        if key not in went:
            return gift
        now = went[key]
        return {**gift, "where": str(now) if now is not None else ""}

    def after_retreats(self, position: Position, moves: Sequence[tuple[Unit, Location | None]],
                       log: PhaseLog) -> Position:
        """A unit given that was dislodged: its gift follows its retreat (or goes with it)."""
        state = RomanState.of(position)
        if not any(g["what"] == "unit" for g in state.gifts):
            return position
        went = {(u.power, u.location): where for u, where in moves}
        gifts = tuple(self._followed(g, went) for g in state.gifts)
        return position.replace(extra=state.changed(gifts=gifts).extra(position))

    def prepare_adjustments(self, position: Position, declarations: Sequence[tuple[str, Order]],
                            log: PhaseLog) -> Position:
        """5: a gift made in the build phase is carried out before its builds."""
        state = RomanState.of(position)
        given = [self._gift(position, state, power, order) for power, order in declarations
                 if isinstance(order, Give) and self._gift_problem(position, state, power, order) is None]
        if not given:
            return position
        for gift in given:
            if gift["what"] == "build":
                log.announce(f"{gift['from']} gives a build to {gift['to']}")
        board = position.replace(extra=state.changed(gifts=(*state.gifts, *given)).extra(position))
        return self._gifts(board, log)

    def _void_supports(self, effects: Effects, outcome: MovementOutcome, state: RomanState) -> None:
        """5: "Units belonging to the same empire may not support against [each] other": a
        support counts for nothing against a federation partner of the supporting empire (the
        resolution leaves it out of that battle), and its result says so: void when the battles
        it was given for are all against partners (a move into a province where a partner stays,
        a hold against a partner's attack, a move a partner's move into the same province meets),
        else a note of what it did not count against."""
        side_of = {member: " + ".join(federation) for federation in state.federations for member in federation}
        results = outcome.results
        supports: list[tuple[int, SupportMove | SupportHold]] = []
        moving: dict[str, list[Unit]] = {}  # province -> the units ordered to move into it
        for index, ruling in enumerate(effects.rulings):
            if not ruling.acts:
                continue
            order = ruling.acting or ruling.order
            if isinstance(order, Move):
                if ruling.unit is not None:
                    moving.setdefault(order.destination.province, []).append(ruling.unit)
            elif isinstance(order, (SupportMove, SupportHold)) and ruling.power in side_of and results[index].succeeded:
                supports.append((index, order))
        if not supports:
            return
        staying: dict[str, list[Unit]] = {}  # province -> the units that did not move out of it
        if any(isinstance(order, SupportMove) for _, order in supports):
            for slot, unit in enumerate(effects.position.units):
                if slot not in outcome.moved:
                    staying.setdefault(unit.location.province, []).append(unit)
        for index, order in supports:
            power = effects.rulings[index].power
            result = outcome.results[index]
            side = side_of[power]
            if isinstance(order, SupportMove):
                there = order.destination.province
                kept = [u for u in staying.get(there, ()) if u.power != power and side_of.get(u.power) == side]
                if kept:
                    result.succeeded, result.reason = False, Reason.VOID
                    result.detail = (f"{kept[0]} is {kept[0].power}'s, of {power}'s own federation: "
                                     "no support against it counts")
                    continue
                against = [u for u in moving.get(there, ()) if u.location.province != order.supported.province]
            else:
                there = order.supported.province
                against = [u for u in moving.get(there, ()) if u.location.province != there]
            partners = [u for u in against if u.power != power and side_of.get(u.power) == side]
            if not partners:
                continue
            named = ", ".join(f"{u} ({u.power})" for u in partners)
            if len(partners) == len(against):
                result.succeeded, result.reason = False, Reason.VOID
                result.detail = f"given against {named}, of {power}'s own federation: no support against it counts"
            else:
                result.notes = (*result.notes, f"it counts for nothing against {named}, of {power}'s own federation")

    def _barbarian_armies(self, units: list[Unit], results: Sequence[OrderResult]) -> list[Unit]:
        """8: a barbarian army no longer kept stands in civil disorder; one hired again leaves it."""
        for result in results:
            order, unit = result.order, result.unit
            if result.succeeded and isinstance(order, Disband) and unit is not None and unit.type is BARBARIAN_ARMY:
                units.append(Unit(BARBARIAN, BARBARIAN_ARMY, unit.location))
        hired = {u.location.province for u in units if u.type is BARBARIAN_ARMY and u.power != BARBARIAN}
        return [u for u in units if not (u.power == BARBARIAN and u.location.province in hired)]

    def _clear_barbarians(self, position: Position) -> Position:
        """7, 8: an army of an empire clears the barbarian land it entered, at once; a barbarian
        army in civil disorder makes its province barbarian."""
        state = RomanState.of(position)
        barbarians = set(state.barbarians)
        for unit in position.units:
            province = unit.location.province
            if unit.type is ARMY and unit.power not in self.unplayed_powers:
                barbarians.discard(province)
            elif unit.power == BARBARIAN:
                barbarians.add(province)
        if barbarians == set(state.barbarians):
            return position
        return position.replace(extra=state.changed(barbarians=frozenset(barbarians)).extra(position))

    def _spread_barbarians(self, position: Position, log: PhaseLog) -> Position:
        """7: "At the end of each turn" (a Spring or a Fall, its retreats made) every unoccupied
        land province next to barbarian land or the map's edge becomes barbarian, and a centre it
        reaches turns neutral with a garrison; a special build centre it reaches is lost."""
        state = RomanState.of(position)
        units, centres = list(position.units), position.centres_dict()
        barbarians, special = set(state.barbarians), dict(state.special)
        occupied = {u.location.province for u in units}
        near = self.map.army_adjacency
        spread = sorted(p for p in self.land if p not in occupied and p not in barbarians
                        and (p in self.edge or any(q in barbarians for q in near.get(p, ()))))
        for province in spread:
            name = self.map.provinces[province].name
            if province in self.map.supply_centres:
                owner = centres.pop(province, None)
                units.append(Unit(NEUTRAL, GARRISON, Location(province)))
                if owner:
                    log.announce(f"barbarians overrun {name}, {owner}'s: it is neutral again, with a garrison")
                continue
            barbarians.add(province)
            owner = special.pop(province, None)
            if owner:
                log.announce(f"barbarians overrun {name}, {owner}'s special build centre: {owner} loses it")
        board = position.replace(units=sorted_units(units), centres=centres)
        return board.replace(extra=state.changed(barbarians=frozenset(barbarians), special=special).extra(board))

    # -- season ends: captures, gifts, joining (2, 5, 8) ------------------------------------

    def update_ownership(self, position: Position) -> dict[str, str]:
        """Garrisons, neutral and barbarian units take nothing; a federation's empires never take
        each other's centres; a centre a barbarian army takes is neutral again."""
        state = RomanState.of(position)
        centres = position.centres_dict()
        for unit in position.units:
            province = unit.location.province
            if province not in self.map.supply_centres or unit.type is GARRISON or unit.power in self.unplayed_powers:
                continue
            owner = centres.get(province)
            if owner is not None and owner != unit.power and state.side_of(owner) == state.side_of(unit.power) \
                    and unit.type in (ARMY, BARBARIAN_ARMY):
                continue  # 5: "cannot be captured by armies belonging to the same empire" (a fleet can)
            if unit.type is BARBARIAN_ARMY:
                centres.pop(province, None)
            else:
                centres[province] = unit.power
        return centres

    def end_of_season(self, position: Position, log: PhaseLog) -> Position:
        position = super().end_of_season(position, log)
        season = self.calendar.season_of(position.phase)
        if PhaseKind.MOVEMENT not in season.kinds:
            return position
        if season.updates_ownership:
            units = list(position.units)
            for unit in position.units:  # 8: centres taken by barbarian armies get a neutral garrison
                province = unit.location.province
                if unit.type is BARBARIAN_ARMY and province in self.map.supply_centres \
                        and province not in position.centres and Unit(NEUTRAL, GARRISON, unit.location) not in units:
                    units.append(Unit(NEUTRAL, GARRISON, unit.location))
            position = self._special_centres(position.replace(units=sorted_units(units)))
        position = self._spread_barbarians(position, log)  # 7: "at the end of each turn"
        if not season.updates_ownership:
            return position
        position = self._gifts(position, log)
        return self.admit_joining(position, log)  # 2: they come in at the adjustment phase

    def _special_centres(self, position: Position) -> Position:
        """Board II: a special build centre changes hands as a supply centre does, at the end of a
        Fall (a ruling: the text says only that its owner may use it)."""
        if not self.special:
            return position
        state = RomanState.of(position)
        special = dict(state.special)
        for unit in position.units:
            province = unit.location.province
            if province not in self.special or unit.type is GARRISON or unit.power in self.unplayed_powers:
                continue
            owner = special.get(province)
            if owner is not None and owner != unit.power and state.side_of(owner) == state.side_of(unit.power) \
                    and unit.type in (ARMY, BARBARIAN_ARMY):
                continue
            if unit.type is BARBARIAN_ARMY:
                special.pop(province, None)
            else:
                special[province] = unit.power
        return position.replace(extra=state.changed(special=special).extra(position))

    def _gifts(self, position: Position, log: PhaseLog) -> Position:
        """5: units and centres handed over after the retreats, before the builds, for good (builds
        are counted in ``adjustments``)."""
        state = RomanState.of(position)
        units, centres = list(position.units), position.centres_dict()
        for gift in state.gifts:
            giver, taker = gift["from"], gift["to"]
            if gift["what"] == "unit":
                where = Location.parse(gift["where"]) if gift["where"] else None
                found = next((u for u in units if u.power == giver and u.location == where), None)
                if found is not None:
                    units[units.index(found)] = Unit(taker, found.type, found.location)
                    log.announce(f"{giver} gives its unit in {self.map.provinces[found.location.province].name} "
                                 f"to {taker}")
                else:
                    log.announce(f"{giver}'s gift of a unit to {taker} is not carried out: the unit is gone")
            elif gift["what"] == "centre" and centres.get(gift["where"]) == giver:
                centres[gift["where"]] = taker
                log.announce(f"{giver} gives {self.map.provinces[gift['where']].name} to {taker}")
        kept = tuple(g for g in state.gifts if g["what"] == "build")
        board = position.replace(units=sorted_units(units), centres=centres)
        return board.replace(extra=state.changed(gifts=kept).extra(board))

    # -- builds (3, 5, 8) ------------------------------------------------------------------------

    def adjustments(self, position: Position) -> list[Adjustment]:
        state = RomanState.of(position)
        powers = sorted(self.in_play(position) | set(state.empires))
        counts = {p: sum(1 for o in position.centres.values() if o == p)
                  - sum(1 for u in position.units if u.power == p and self.supplied(u)) for p in powers}
        for gift in state.gifts:
            if gift["what"] == "build" and counts.get(gift["from"], 0) > 0:
                counts[gift["from"]] -= 1
                counts[gift["to"]] = counts.get(gift["to"], 0) + 1
        return [Adjustment(p, n, self.build_sites(position, p) if n > 0 else frozenset()) for p, n in counts.items()]

    def build_sites(self, position: Position, power: str) -> frozenset[str]:
        """3: the empire's Imperial City, vacant but for its garrison; 8: barbarian provinces
        without a unit, or with a barbarian army in civil disorder (hired again)."""
        state = RomanState.of(position)
        sites = set()
        city = state.empires.get(power)
        if city and position.centres.get(city) == power and all(u.type is GARRISON for u in position.units_in(city)):
            sites.add(city)
        taken = {u.location.province for u in position.units if u.power != BARBARIAN}
        sites |= {p for p in state.barbarians if p not in taken}
        occupied = {u.location.province for u in position.units}
        sites |= {p for p, owner in state.special.items() if owner == power and p not in occupied}
        return frozenset(sites)

    def buildable_types(self, power: str, province: str) -> tuple[UnitType, ...]:
        return (ARMY, FLEET) if province in self.map.supply_centres or province in self.special else (BARBARIAN_ARMY,)

    def buildable_types_at(self, position: Position, power: str, province: str) -> tuple[UnitType, ...]:
        """A special build centre (board II) held by barbarians raises a barbarian army; one an
        empire owns, an army or a fleet."""
        if province in self.special and province in RomanState.of(position).barbarians:
            return (BARBARIAN_ARMY,)
        return self.buildable_types(power, province)

    # -- civil disorder (9) ---------------------------------------------------------------------

    def civil_disorder(self, position: Position, power: str, log: PhaseLog) -> Position:
        """Every centre of the empire turns neutral; its units in supply centres are removed; the
        others stand, unordered, until dislodged; centres no foreign unit holds get a neutral
        garrison."""
        state = RomanState.of(position)
        lost = sorted(c for c, owner in position.centres.items() if owner == power)
        centres = {c: o for c, o in position.centres.items() if o != power}
        units = [u for u in position.units if not (u.power == power and u.location.province in self.map.supply_centres)]
        for centre in lost:
            if not any(u.location.province == centre and u.power != power for u in units):
                units.append(Unit(NEUTRAL, GARRISON, Location(centre)))
        log.announce(f"{power} falls into civil disorder: its centres are neutral again")
        # no retreat into a centre just garrisoned (a neutral garrison shares with no empire's unit)
        dislodged = self.retreats_left(position.dislodged, units, self.sides(position))
        board = position.replace(units=sorted_units(units), centres=centres, dislodged=dislodged)
        federations = tuple(kept for f in state.federations if len(kept := tuple(e for e in f if e != power)) > 1)
        gone = state.changed(
            empires={e: c for e, c in state.empires.items() if e != power}, federations=federations,
            asked={e: tuple(o for o in others if o != power) for e, others in state.asked.items() if e != power},
            missed={e: counts for e, counts in state.missed.items() if e != power},
            gifts=tuple(g for g in state.gifts if power not in (g["from"], g["to"])),
            special={c: e for c, e in state.special.items() if e != power})
        return board.replace(extra=gone.extra(board))

    # -- victory (10) ------------------------------------------------------------------------

    def victory_threshold(self, position: Position) -> int:
        return self.victory

    def winner(self, position: Position) -> str | None:
        """An empire or a federation with enough centres (a joint win: "Latium + Gallia")."""
        sides = self._victorious(position)
        return sides[0] if len(sides) == 1 else None

    def drawn(self, position: Position) -> tuple[str, ...]:
        """Several empires or federations with enough centres at once: a draw among them all."""
        sides = self._victorious(position)
        state = RomanState.of(position)
        return tuple(sorted(e for side in sides for e in state.federation_of(side.split(" + ")[0]))) \
            if len(sides) > 1 else ()

    def _victorious(self, position: Position) -> list[str]:
        state = RomanState.of(position)
        counts: dict[str, int] = {}
        for owner in position.centres.values():
            side = state.side_of(owner)
            counts[side] = counts.get(side, 0) + 1
        return sorted(side for side, n in counts.items() if n >= self.victory)

    # -- the bot, the picture --------------------------------------------------------------------

    def plausible_orders(self, position: Position, orders_: list[tuple[str, Order]],
                         rng: random.Random) -> list[tuple[str, Order]]:
        return play.plausible_orders(self, position, orders_, rng)

    def map_layers(self, position: Position, pen: Any) -> None:
        state = RomanState.of(position)
        for province in sorted(state.barbarians):
            pen.tint(province, "barbarian land", pattern="hatch", colour="#8b5a2b")
        for empire, city in sorted(state.empires.items()):
            if position.centres.get(city) == empire:
                pen.marker(city, "castle", "Imperial City", power=empire)


def make_i(game_map: GameMap) -> Variant:
    return RomanDiplomacy("roman-diplomacy-i", game_map)


def make_ii(game_map: GameMap) -> Variant:
    return RomanDiplomacy("roman-diplomacy-ii", game_map)
