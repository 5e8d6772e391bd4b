"""Roman Diplomacy I and II (Pete Calcraft): what differs from standard play, as a delta on the
engine. One rules module for both boards; the map decides the rest (its Imperial City sites,
map edge, victory count and first year).

Rules: *Roman Diplomacy* (docs/rules/roman-diplomacy.md); the rulings this judge applies are written for players
in templates/rules/_roman-diplomacy.txt.j2, and each rule is traced to its tests in
docs/rules/roman-diplomacy.md. Each rule, and where it lives:

- 1: every supply centre starts neutral with a neutral garrison (``G`` under ``Neutral``); every
  other land province is barbarian (``extra.barbarians``) — ``initial_position``.
- 2 (``joining``): empires join by mail naming a neutral Imperial City site; they wait in
  ``extra.joining`` and come in at the next adjustment phase (``joining.admit``, which checks the
  site again; the game opens with one), owning their city and its garrison, with one build there
  at once.
- 3: an Imperial City's garrison never moves, supports like an army, needs no supply centre and
  shares its province with a friendly unit, a federation partner's too (``sides_share``; both
  must be beaten); builds only there (board II: and in owned special build centres).
- 4: a power has as many fleet steps as fleets; a fleet may take several (``MoveInRounds``, in
  rounds), others then stand (``review_on_board`` refuses a step too many).
- 5, 6 (``federations``): ``FEDERATE``/``DEFEDERATE``/``GIVE``; a federation is one side in
  battle (``sides``; a support against a partner is reported void, ``after_movement``), for
  victory, and for the capture of centres by armies (``update_ownership``); gifts follow their
  units' moves and are carried out after the Fall retreats, or before the builds when made in
  the build phase (``prepare_adjustments``).
- 7 (``barbarians``): barbarian occupation spreads at the end of each Spring and Fall, after the
  retreats (``end_of_season``), and is cleared by armies at once (``end_of_phase``); a centre it
  reaches turns neutral again, with a garrison.
- 8 (``barbarians``): barbarian armies (``B``): raised with a build in a barbarian province,
  re-hired, or released (``REMOVE B X``: it stands in civil disorder under ``Barbarian``);
  centres they capture turn neutral with a garrison.
- 9 (``disorder``): civil disorder after two movement phases without any order in a row or
  three in all (counted in ``extra.missed`` at the end of each movement phase).
- 10: 15 (I) or 24 (II) centres for an empire or a federation (``winner``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from gm.adjudicator.effects import Effects
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import MoveChecks, MovementOutcome, Ruling
from gm.adjudicator.variant import Adjustment, Variant
from gm.domain.geography import Location, Terrain
from gm.domain.orders import Hold, MoveInRounds, Order
from gm.domain.outcomes import OrderResult
from gm.domain.phases import PhaseKind
from gm.domain.position import Position, sorted_units
from gm.domain.units import ARMY, FLEET, Unit, UnitType
from gm.maps.model import GameMap, normalise_name
from gm.variants.roman_diplomacy import barbarians, disorder, federations, joining
from gm.variants.roman_diplomacy.orders import Defederate, Federate, Give
from gm.variants.roman_diplomacy.state import RomanState
from gm.variants.roman_diplomacy.units import BARBARIAN, BARBARIAN_ARMY, GARRISON, NEUTRAL
from gm.variants.standard import ANCIENT_CALENDAR as CALENDAR
from gm.variants.standard import first_year

__all__ = ["BARBARIAN", "BARBARIAN_ARMY", "GARRISON", "NEUTRAL", "RomanDiplomacy", "make_i", "make_ii"]


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

    def power_named(self, name: str) -> str | None:
        """Empires are named as players join: any name is an empire's."""
        return super().power_named(name) or (name.strip() or None)

    # -- the start (1) and joining (2) -----------------------------------------------------

    def initial_position(self) -> Position:
        year = self.first_year - 1 if self.first_year != 1 else -1
        phase = self.calendar.phase(year, "W", PhaseKind.ADJUSTMENTS)  # the game opens with builds
        garrisons = [Unit(NEUTRAL, GARRISON, Location(c)) for c in sorted(self.map.supply_centres)]
        barbarians = frozenset(p for p in self.land if p not in self.map.supply_centres)
        start = Position(phase, sorted_units(garrisons), {})
        return start.replace(extra=RomanState(barbarians=barbarians).extra(start))

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
        state = federations.declarations(self, position, state, results, log)
        units = list(position.units)
        if position.phase.kind is PhaseKind.ADJUSTMENTS:
            units = barbarians.released(units, results)
            state = state.changed(gifts=tuple(g for g in state.gifts if g["what"] != "build"))
        board = position.replace(units=sorted_units(units), extra=state.extra(position))
        if position.phase.kind is PhaseKind.MOVEMENT:
            board = disorder.missed_orders(self, board, results, log)
        return barbarians.cleared(self, board)

    def review_on_board(self, position: Position, rulings: Sequence[Ruling]) -> None:
        """Declarations that can never succeed, and fleet steps beyond the ration, are refused
        when they are written."""
        state = RomanState.of(position)
        for ruling in rulings:
            if ruling.illegal is None and isinstance(ruling.order, Federate):
                ruling.illegal = federations.federate_problem(self, position, state, ruling.power, ruling.order)
            elif ruling.illegal is None and isinstance(ruling.order, Give):
                ruling.illegal = federations.gift_problem(self, position, state, ruling.power, ruling.order)
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

    # -- gifts: "Such trades occur after retreats, but before builds" (5) ----------------------------

    def after_movement(self, effects: Effects, outcome: MovementOutcome) -> MovementOutcome:
        return federations.after_movement(self, effects, outcome)

    def after_retreats(self, position: Position, moves: Sequence[tuple[Unit, Location | None]],
                       log: PhaseLog) -> Position:
        return federations.after_retreats(position, moves)

    def prepare_adjustments(self, position: Position, declarations: Sequence[tuple[str, Order]],
                            log: PhaseLog) -> Position:
        return federations.before_builds(self, position, declarations, log)

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
            position = self._special_centres(barbarians.garrisoned(self, position))
        position = barbarians.spread(self, position, log)  # 7: "at the end of each turn"
        if not season.updates_ownership:
            return position
        position = federations.hand_over(self, position, log)
        return joining.admit(self, position, log)  # 2: they come in at the adjustment phase

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
        return disorder.civil_disorder(self, position, power, log)

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


def make_i(game_map: GameMap) -> Variant:
    return RomanDiplomacy("roman-diplomacy-i", game_map)


def make_ii(game_map: GameMap) -> Variant:
    return RomanDiplomacy("roman-diplomacy-ii", game_map)
