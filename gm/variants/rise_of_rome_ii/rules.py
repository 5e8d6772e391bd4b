"""Rise of Rome II (Stephen Agar): what differs from standard play, as a delta on the engine.

Rules: *Rise of Rome II* (docs/rules/rise-of-rome-ii.md); board: maps/rise-of-rome-ii.yaml (its land bridges,
the Barbarian build areas and the leaders' names are map data); the rulings this judge applies
are written for players in templates/rules/rise-of-rome-ii.txt.j2, and each rule is traced to its
tests in docs/rules/rise-of-rome-ii.md. Each rule, and where it lives:

- 1, 9: the calendar: Spring, Autumn, Winter adjustments, years counting down from 220 B.C.
- 3 (``leaders``): leaders (``L``) of strength 1/2, moving by any border an army or a fleet could use, needing
  no supply centre (``supplied``); placed with the first Spring orders (``prepare_movement``);
  sharing a space with one unit of their own (``may_share``: moving in and retreating in) and
  leading it (``before_movement``: the leader goes with the unit and adds 1/2); a leader giving
  support exposes its space: any attack cuts every support given from it (``leaders.lead``);
  never taking a centre alone (``update_ownership``); named in any order (``leader_at``, a
  dislodged one too).
- 4, 5.2: Barbarians build armies only in their vacant build areas, which no one else enters
  (``destinations``, ``build_sites``); civilised powers build in any vacant centre they own.
- 5.1: a captured Barbarian home centre left without a unit of its owner (a leader counts) at
  the end of two Autumns in a row (one, in the strict reading: ``extra.rebellion_after``) rebels
  (``end_of_season``); its Barbarian army rises only if the centre is vacant.
- 6: a sack (``Sack``) holds, is spoilt by any attack, removes the centre for good and makes the
  unit a double unit (``2A``/``2F``, strength 2, in retreats too: ``retreat_strength``) for the
  next two movement phases and their retreats; an attack on a double unit's support takes the
  attack's value (its supports counted) off it.
- 7: an army (not a leader) may not cross a land bridge when an enemy fleet in the bridged sea
  attacks its space or supports an attack on it (``before_movement`` closes the border).
- 10: a clear majority of the centres left on the board, once the Autumn adjustments are over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gm.adjudicator.effects import Effects
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import Illegal, MoveChecks, MovementOutcome
from gm.adjudicator.variant import SupportCut, Variant
from gm.domain.geography import Location
from gm.domain.orders import Hold, Move, MoveThen, Order, SupportMove, UnitRef
from gm.domain.outcomes import Reason
from gm.domain.phases import Calendar, Era, PhaseKind, Season
from gm.domain.position import Position, sorted_units
from gm.domain.units import ARMY, FLEET, Unit, UnitType
from gm.maps.model import GameMap
from gm.variants.rise_of_rome_ii import leaders
from gm.variants.rise_of_rome_ii.orders import Lead, Sack, StartsIn
from gm.variants.rise_of_rome_ii.state import REBELLION_AFTER, RomeState
from gm.variants.rise_of_rome_ii.units import DOUBLE_ARMY, DOUBLE_FLEET, DOUBLED, LEADER, SINGLE
from gm.variants.seasons import after_adjustments
from gm.variants.standard import first_year

CALENDAR = Calendar(
    seasons=(
        Season("S", "Spring", (PhaseKind.MOVEMENT, PhaseKind.RETREATS)),
        Season("F", "Autumn", (PhaseKind.MOVEMENT, PhaseKind.RETREATS), updates_ownership=True),
        Season("W", "Winter", (PhaseKind.ADJUSTMENTS,)),
    ),
    era=Era.BC_AD,
)
DOUBLE_PHASES = 2  # a sacking unit is double for the next two movement phases (6.1)
ARMIES = frozenset({ARMY, DOUBLE_ARMY})  # what a land bridge's closing stops (7.3)


@dataclass(frozen=True)
class Bridge:
    ends: tuple[str, str]
    sea: str  # the sea space it crosses (7.3)


class RiseOfRome(Variant):
    def __init__(self, game_map: GameMap):
        super().__init__("rise-of-rome-ii", game_map, CALENDAR, first_year(game_map, CALENDAR),
                         unit_types=(ARMY, FLEET, LEADER, DOUBLE_ARMY, DOUBLE_FLEET))
        self.stacks = True
        self.partial_cuts = True
        self.legality_cacheable = False  # who may enter a build area depends on the unit's power
        rules = game_map.rules
        self.barbarians: str = rules["barbarian_power"]
        self.leaders: dict[str, str] = dict(rules["leaders"])  # power -> its leader's name
        self.bridges = tuple(Bridge(tuple(b["between"]), b["crosses"]) for b in rules["land_bridges"])  # type: ignore[arg-type]
        self.build_areas = frozenset(p.id for p in game_map.provinces.values() if p.extra.get("barbarian_build_area"))
        self.options = {"rebellion_after": REBELLION_AFTER}  # 1: the strict reading of 5.1

    # -- vocabulary: leaders by name, sacks, leads, placements ----------------------------

    def leader_name(self, unit: Unit) -> str:
        return self.leaders.get(unit.power, str(unit))

    # -- the start and the placing of leaders (3.3) --------------------------------------

    def initial_position(self) -> Position:
        start = super().initial_position()
        waiting = {power: self.map.powers[power].home[0] for power in self.leaders}
        return start.replace(extra=RomeState(unplaced=waiting).extra(start))

    def prepare_movement(self, position: Position, submitted: Sequence[tuple[str, Order]]
                         ) -> tuple[Position, Sequence[tuple[str, Order]]]:
        return leaders.placed(self, position, submitted)

    # -- geography -----------------------------------------------------------------------

    def destinations(self, unit: Unit, province: str) -> tuple[Location, ...]:
        if province in self.build_areas and unit.power != self.barbarians:
            return ()  # 4.2: no one but the Barbarians enters their build areas
        return super().destinations(unit, province)

    # -- units -------------------------------------------------------------------------

    def strength(self, unit: Unit) -> float:
        kind = unit.type
        if kind is LEADER:
            return 0.5
        return 2 if kind is DOUBLE_ARMY or kind is DOUBLE_FLEET else 1

    def may_share(self, a: Unit, b: Unit) -> bool:
        """3.4: a leader with one unit of its own power (never two leaders, never a foreign unit)."""
        return a.power == b.power and (a.type is LEADER) != (b.type is LEADER)

    def support_cut(self, unit: Unit) -> SupportCut:
        return SupportCut.BY_ATTACK if unit.type in SINGLE else SupportCut.WHOLE  # 6.2: "the value of the attack"

    def retreat_strength(self, unit: Unit) -> float:
        """6.2: a double unit retreats with the strength of two; the text gives no other unit
        (a leader included) a strength in retreats, so the usual rule holds among them."""
        return 2 if unit.type in SINGLE else 1

    def supplied(self, unit: Unit) -> bool:
        return unit.type is not LEADER  # 3.1

    # -- orders of this variant ------------------------------------------------------------

    def review_order(self, review: MoveChecks, unit: Unit | None, order: Order) -> Order:
        if isinstance(order, StartsIn):
            return leaders.review_placement(self, review, unit, order)
        if unit is None:
            return super().review_order(review, unit, order)
        if isinstance(order, Sack):
            return self._review_sack(review, unit)
        if isinstance(order, Lead):
            return leaders.review_lead(self, review, unit, order)
        return super().review_order(review, unit, order)

    def _review_sack(self, review: MoveChecks, unit: Unit) -> Order:
        province = unit.location.province
        where = _place_of(self, unit)
        if unit.type is LEADER:
            raise Illegal("a leader cannot sack")
        sacked = RomeState.of(review.position).sacked if review.position is not None else ()
        if province not in self.map.supply_centres or province in sacked:
            raise Illegal(f"{where} is not a supply centre")
        if province in self.map.powers[self.barbarians].home:
            raise Illegal(f"{where} is a Barbarian home centre, which cannot be sacked")
        return Sack(UnitRef(unit.location, unit.type))

    # -- before the battles: leaders, sacks, land bridges ---------------------------------

    def before_movement(self, effects: Effects) -> None:
        for index, ruling in enumerate(effects.rulings):
            if ruling.acts and isinstance(ruling.order, Sack):
                effects.resolve_as(index, Hold(ruling.order.unit))
        leaders.lead(self, effects)
        self._close_bridges(effects)

    def _close_bridges(self, effects: Effects) -> None:
        for bridge in self.bridges:
            for ruling in effects.rulings:
                fleet = ruling.unit
                if not ruling.acts or fleet is None or fleet.type not in (FLEET, DOUBLE_FLEET) \
                        or fleet.location.province != bridge.sea:
                    continue
                order = ruling.order
                attacked = order.destination.province if isinstance(order, (Move, SupportMove)) else None
                a, b = bridge.ends
                for here, there in ((a, b), (b, a)):
                    if attacked == here:  # 7.3 names armies: a leader still crosses
                        effects.close(here, there, f"the land bridge to {self.map.provinces[there].name} is closed "
                                                   f"by {fleet} ({fleet.power})", open_to=fleet.power, types=ARMIES)

    # -- after the battles: sacks and double units ----------------------------------------

    def after_movement(self, effects: Effects, outcome: MovementOutcome) -> MovementOutcome:
        state = RomeState.of(effects.position)
        served = {p: n - 1 for p, n in state.doubles.items()}  # they have done one movement phase
        went = {u.location.province: w.province for u, w in outcome.moves if u.type in SINGLE}
        beaten = {d.unit.location.province for d in outcome.dislodged if d.unit.type in SINGLE}
        doubles = {went.get(p, p): n for p, n in served.items() if p not in beaten}
        retreating = {p: n for p, n in served.items() if p in beaten}
        sacked = set(state.sacked)
        units = list(outcome.units)
        for index, ruling in enumerate(effects.rulings):
            if not (ruling.acts and isinstance(ruling.order, Sack) and ruling.unit is not None):
                continue
            result = outcome.results[index]
            province = ruling.unit.location.province
            if not result.succeeded or _attacked(effects, province, ruling.power):
                result.succeeded, result.reason, result.detail = False, Reason.PREVENTED, "the sacking unit was attacked"
                continue
            sacked.add(province)
            units = [Unit(u.power, DOUBLED.get(u.type, u.type), u.location)
                     if u == ruling.unit else u for u in units]
            doubles[province] = DOUBLE_PHASES
            result.notes = result.notes + (f"{self.map.provinces[province].name} is sacked for good: the unit is a "
                                           f"double unit for the next {DOUBLE_PHASES} movement phases",)
        outcome.units = tuple(units)
        outcome.extra = state.changed(doubles=doubles, retreating_doubles=retreating, sacked=tuple(sorted(sacked))
                                      ).extra(effects.position)
        return outcome

    def after_retreats(self, position: Position, moves: Sequence[tuple[Unit, Location | None]],
                       log: PhaseLog) -> Position:
        state = RomeState.of(position)
        if not state.retreating_doubles:
            return position
        doubles = dict(state.doubles)
        for unit, where in moves:
            left = state.retreating_doubles.get(unit.location.province)
            if unit.type in SINGLE and left is not None and where is not None:
                doubles[where.province] = left
        return position.replace(extra=state.changed(doubles=doubles, retreating_doubles={}).extra(position))

    # -- season ends: ownership, sacked centres, double units, rebellion ----------------------

    def update_ownership(self, position: Position) -> dict[str, str]:
        """3.5: a leader never takes a centre; sacked centres belong to no one."""
        sacked = set(RomeState.of(position).sacked)
        centres = {c: owner for c, owner in position.centres.items() if c not in sacked}
        for unit in position.units:
            province = unit.location.province
            if unit.type is not LEADER and province in self.map.supply_centres and province not in sacked:
                centres[province] = unit.power
        return centres

    def end_of_season(self, position: Position, log: PhaseLog) -> Position:
        position = super().end_of_season(position, log)
        state = RomeState.of(position)
        units = list(position.units)
        doubles = {}
        for province, left in state.doubles.items():
            if left > 0:
                doubles[province] = left
            else:  # its two movement phases and their retreats are over
                units = [Unit(u.power, SINGLE[u.type], u.location) if u.type in SINGLE and u.location.province == province
                         else u for u in units]
        centres = {c: o for c, o in position.centres.items() if c not in state.sacked}
        rebellion = dict(state.rebellion)
        if self.calendar.season_of(position.phase).updates_ownership:
            units = self._rebellions(units, centres, rebellion, state.rebellion_after, log)
        return position.replace(units=sorted_units(units), centres=centres,
                                extra=state.changed(doubles=doubles, rebellion=rebellion).extra(position))

    def _rebellions(self, units: list[Unit], centres: dict[str, str], rebellion: dict[str, int], after: int,
                    log: PhaseLog) -> list[Unit]:
        """5.1: each captured Barbarian home centre left without a unit of its owner."""
        for centre in self.map.powers[self.barbarians].home:
            owner = centres.get(centre)
            if owner is None or owner == self.barbarians:
                rebellion.pop(centre, None)
                continue
            if any(u.location.province == centre and u.power == owner for u in units):
                rebellion.pop(centre, None)  # occupied, by its owner's leader too
                continue
            empty = rebellion.get(centre, 0) + 1
            if empty < after:
                rebellion[centre] = empty
                continue
            rebellion.pop(centre, None)
            centres[centre] = self.barbarians
            name = self.map.provinces[centre].name
            adjective = self.map.powers[self.barbarians].adjective
            standing = [u for u in units if u.location.province == centre]  # only another power's leader can be
            if standing:  # a unit is raised only in a vacant centre (5.2): the leader keeps its space
                rises = (f"; no {adjective} army rises there while "
                         + ", ".join(f"{self.leader_name(u)} ({u.power})" for u in standing) + " stands in it")
            else:
                units = units + [Unit(self.barbarians, ARMY, Location(centre))]
                rises = f", and a {adjective} army rises there"
            log.announce(f"{name} rebels against {owner}: it returns to the {self.barbarians}{rises}")
        return units

    # -- builds -------------------------------------------------------------------------

    def build_sites(self, position: Position, power: str) -> frozenset[str]:
        if power == self.barbarians:  # 4.2: only in the vacant build areas
            taken = {u.location.province for u in position.units}
            return frozenset(self.build_areas - taken)
        # 5.2: any vacant centre the power owns (not one where its own leader stands)
        taken = {u.location.province for u in position.units}
        sacked = set(RomeState.of(position).sacked)
        return frozenset(c for c, owner in position.centres.items() if owner == power and c not in taken and c not in sacked)

    def buildable_types(self, power: str, province: str) -> tuple[UnitType, ...]:
        return (ARMY,) if power == self.barbarians else (ARMY, FLEET)  # 4.1: Barbarians never build fleets

    # -- victory (10) ------------------------------------------------------------------------

    def victory_threshold(self, position: Position) -> int:
        on_board = len(self.map.supply_centres) - len(RomeState.of(position).sacked)
        return on_board // 2 + 1

    def winner(self, position: Position) -> str | None:
        """10: "at the end of Autumn Adjustments": once the Winter after an Autumn is over."""
        if not after_adjustments(self.calendar, position.phase):
            return None
        return super().winner(position)


def _place_of(variant: Variant, unit: Unit) -> str:
    return variant.map.provinces[unit.location.province].name


def _attacked(effects: Effects, province: str, power: str) -> bool:
    """Did any other power's unit try to move into the province (6.1: like a cut support)?"""
    for ruling in effects.rulings:
        order = ruling.acting or ruling.order
        if not ruling.acts or ruling.power == power:
            continue
        if isinstance(order, Move) and order.destination.province == province:
            return True
        if isinstance(order, MoveThen) and order.first[0].province == province:
            return True
    return False


def make(game_map: GameMap) -> Variant:
    return RiseOfRome(game_map)
