"""Which movement orders (and declarations) count, before anything is resolved; retreat orders:
gm.adjudicator.retreat_review.

DATC 4.E.1: an illegal order (one that could never be valid, whatever the other orders) is
ignored and its unit holds. Orders that are legal but match nothing (a support of a move
nobody ordered) are not decided here: they are "void", found during resolution.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from gm.adjudicator.convoys import ConvoyGeometry
from gm.adjudicator.kept import BoundedCache, PerVariant
from gm.adjudicator.rulings import Illegal, Ruling, refusal
from gm.adjudicator.unit_finder import UnitFinder, last_order_wins, unit_ref
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import (
    Convoy,
    Declaration,
    Hold,
    Move,
    MoveAlongPath,
    MoveInRounds,
    MoveThen,
    Order,
    SupportHold,
    SupportMove,
    UnitRef,
)
from gm.domain.position import Position
from gm.domain.units import Mobility, Unit

__all__ = ["Illegal", "Ruling", "refusal", "review_declarations", "review_movement", "last_order_wins"]


class _FleetsMatter:
    """In the verdict cache: look again, with where the fleets that could convoy are."""


FLEETS_MATTER: Final = _FleetsMatter()


def _verdicts_for(variant: Variant) -> BoundedCache[tuple, object]:
    return BoundedCache(200_000)


# Each variant's verdicts, kept here by the variant (legality depends on its map alone).
_VERDICTS: Final = PerVariant(_verdicts_for)


def review_movement(variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]) -> list[Ruling]:
    board = UnitFinder(position.units)
    reviewer = _MovementReview(variant, board, position)
    # Legality depends only on the map, the order and the units it names (and, for convoys,
    # where the fleets that could convoy are), so each verdict is kept for later phases and games.
    verdicts = _VERDICTS(variant) if variant.legality_cacheable else None
    rulings: list[Ruling] = []
    for count, (power, order) in enumerate(submitted):
        ref: UnitRef | None = order.unit
        if isinstance(order, Declaration):  # attached to no unit's order: never supersedes
            rulings.append(reviewer.declaration(power, order))
            continue
        if ref is None:
            rulings.append(Ruling(power, order, None, illegal=reviewer.not_yours(power, None, None)))
            continue
        slot = board.find(power, ref, count)
        problem = board.problem
        unit = position.units[slot] if slot >= 0 else None
        if problem is not None or unit is None:
            rulings.append(Ruling(power, order, unit, problem or reviewer.not_yours(power, ref, unit), slot))
            continue
        kind = type(order)
        if verdicts is not None and (kind is SupportMove or kind is SupportHold or kind is Convoy):
            verdict = _cached_verdict(reviewer, verdicts, order, unit)
        else:  # holds and moves are quicker to decide again; other orders may depend on the board
            verdict = reviewer.verdict(unit, order)
        if isinstance(verdict, str):
            rulings.append(Ruling(power, order, unit, verdict, slot))
        else:
            rulings.append(Ruling(power, verdict, unit, None, slot))
    variant.review_on_board(position, rulings)
    return last_order_wins(rulings)


def _cached_verdict(reviewer: _MovementReview, verdicts: dict, order: Order, unit: Unit) -> Order | str:
    """A support's or a convoy's verdict, decided once per combination and kept for the variant."""
    key = _verdict_key(order, unit, reviewer.board)
    verdict = verdicts.get(key)
    if verdict is FLEETS_MATTER:
        verdict = verdicts.get((key, reviewer.convoys.carriers))
    if verdict is None:
        reviewer.consulted_fleets = False
        verdict = reviewer.verdict(unit, order)
        if reviewer.consulted_fleets:  # a convoy's verdict depends on where the fleets are
            verdicts[key] = FLEETS_MATTER
            verdicts[(key, reviewer.convoys.carriers)] = verdict
        else:
            verdicts[key] = verdict
    return verdict


def _verdict_key(order: Order, unit: Unit, board: UnitFinder) -> tuple:
    """What a support's or a convoy's legality depends on: its unit, its places, the unit it helps.

    A flat tuple of strings, unit types and flags: it hashes and compares in C without
    visiting the order objects of earlier phases (an order's own dataclass hash and equality
    would run Python code, for every order of every phase).
    """
    other: UnitRef
    to: Location | None
    if isinstance(order, SupportMove):
        other, to = order.supported, order.destination
    elif isinstance(order, SupportHold):
        other, to = order.supported, None
    else:
        assert isinstance(order, Convoy)
        other, to = order.army, order.destination
    helped = board.other(other, unit)
    return (
        type(order), unit.type, unit.location.province, unit.location.coast, other.location.province,
        None if helped is None else helped.type, None if helped is None else helped.location.coast,
        None if to is None else to.province, None if to is None else to.coast,
    )


def review_declarations(variant: Variant, position: Position,
                        submitted: Sequence[tuple[str, Declaration]]) -> list[Ruling]:
    """Declarations given in a retreat or adjustment phase, judged by the variant."""
    reviewer = _MovementReview(variant, UnitFinder(position.units), position)
    rulings = [reviewer.declaration(power, order) for power, order in submitted]
    variant.review_on_board(position, rulings)
    return rulings


class _MovementReview:
    def __init__(self, variant: Variant, board: UnitFinder, position: Position | None = None):
        self.variant = variant
        self.position = position
        self.map = variant.map
        self.board = board
        self.consulted_fleets = False
        self._geometry: ConvoyGeometry | None = None

    @property
    def convoys(self) -> ConvoyGeometry:
        self.consulted_fleets = True
        if self._geometry is None:
            variant = self.variant
            carriers = [u.location.province for u in self.board.units
                        if u.type.convoys and variant.convoy_province(u.location.province)]
            self._geometry = ConvoyGeometry(self.map.fleet_province_adjacency, carriers)
        return self._geometry

    def convoy_possible(self, origin: str, destination: str, avoid: str | None = None) -> bool:
        provinces = self.map.provinces
        return (
            provinces[origin].holds_fleets
            and provinces[destination].holds_fleets
            and self.convoys.route_exists(origin, destination, avoid)
        )

    def declaration(self, power: str, order: Declaration) -> Ruling:
        """A declaration, judged by the variant, with the unit it names (if that unit is the power's)."""
        ref = order.unit
        unit = None
        if ref is not None:
            mine = [u for u in self.board.units if u.location.province == ref.province and u.power == power]
            unit = next((u for u in mine if u.type is ref.type), mine[0] if mine else None)
        try:
            return Ruling(power, self.variant.review_order(self, unit, order), unit)
        except Illegal as why:
            return Ruling(power, order, unit, str(why))

    def verdict(self, unit: Unit, order: Order) -> Order | str:
        """The order as it counts, or why it does not."""
        try:
            return self.normalise(unit, order)
        except Illegal as why:
            return str(why)

    def normalise(self, unit: Unit, order: Order) -> Order:
        if isinstance(order, Hold):
            return order if order.unit.type is unit.type and order.unit.location == unit.location else Hold(unit_ref(unit))
        if isinstance(order, Move):
            destination = self.move_target(unit, order.destination, order.via_convoy)
            if destination == order.destination and unit_ref(unit, order.unit) is order.unit:
                return order
            return Move(unit_ref(unit), destination, order.via_convoy)
        if isinstance(order, SupportHold):
            target = self.other_unit(order.supported, unit)
            self.require_support_reach(unit, target.location.province)
            return SupportHold(unit_ref(unit), unit_ref(target))
        if isinstance(order, SupportMove):
            return self.support_move(unit, order)
        if isinstance(order, Convoy):
            return self.convoy(unit, order)
        if isinstance(order, MoveInRounds):
            return MoveInRounds(unit_ref(unit), self.route(unit, order.steps))
        if isinstance(order, MoveAlongPath):
            return MoveAlongPath(unit_ref(unit), self.route(unit, order.path))
        if isinstance(order, MoveThen):
            return self.move_then(unit, order)
        return self.variant.review_order(self, unit, order)

    def name(self, province: str) -> str:
        return self.map.provinces[province].name

    def not_yours(self, power: str, ref: UnitRef | None, unit: Unit | None) -> str:
        if ref is None:
            return "not an order for a unit in a movement phase"
        if unit is None:
            return f"there is no unit in {self.name(ref.location.province)}"
        return f"the unit in {self.name(unit.location.province)} is not {power}'s"

    def other_unit(self, ref: UnitRef, acting: Unit) -> Unit:
        target = self.board.other(ref, acting)
        if target is None:
            raise Illegal(f"there is no unit in {self.name(ref.province)}")
        if target is acting:
            raise Illegal("a unit cannot support or convoy itself")
        return target

    def require_support_reach(self, unit: Unit, province: str) -> None:
        if not self.variant.can_support_into(unit, province):
            raise Illegal(f"{self.name(unit.location.province)} cannot reach {self.name(province)}")

    def move_target(self, unit: Unit, wanted: Location, via_convoy: bool) -> Location:
        """The location a move really goes to (whether by convoy is decided with the other orders)."""
        province = wanted.province
        if province == unit.location.province:
            raise Illegal("a unit cannot move to the province it is in")
        target = self.map.provinces[province]
        mobility = unit.type.mobility
        if mobility is Mobility.LAND or (mobility is not Mobility.SEA and not target.holds_fleets):
            if not target.holds_armies:
                raise Illegal(f"an army cannot go to {target.name}")
            if via_convoy and not unit.type.convoyable:
                raise Illegal(f"a {unit.type.name} cannot be convoyed")
            if self.variant.destinations(unit, province) and not via_convoy:
                return wanted if wanted.coast is None else Location(province)
            if unit.type.convoyable and self.convoy_possible(unit.location.province, province):
                return Location(province)
            if self.variant.destinations(unit, province):
                raise Illegal(f"no convoy could take it from {self.name(unit.location.province)} to {target.name}")
            raise Illegal(f"{target.name} is not next to {self.name(unit.location.province)}")
        if via_convoy:
            raise Illegal(f"a {unit.type.name} cannot be convoyed")
        reachable = self.variant.destinations(unit, province)
        if not reachable:
            if not target.holds_fleets:
                raise Illegal(f"a fleet cannot go to {target.name}, which has no coast")
            raise Illegal(f"a fleet in {self.name(unit.location.province)} cannot reach {target.name}")
        coast = wanted.coast if wanted.coast in target.coasts else None  # DATC 4.B.6: unknown coasts ignored
        if coast is not None:
            location = Location(province, coast)
            if location not in reachable:
                raise Illegal(f"the fleet cannot reach the {self.map.coast_names[coast]} of {target.name}")
            return location
        if len(reachable) > 1:
            coasts = " or ".join(self.map.coast_names[loc.coast or ""] for loc in reachable)
            raise Illegal(f"say which coast of {target.name}: {coasts}")
        return reachable[0]  # DATC 4.B.2: the only possible coast

    def route(self, unit: Unit, wanted: tuple[Location, ...], visited: tuple[str, ...] = ()) -> tuple[Location, ...]:
        """Each step of a move of several steps, checked from where the step before ended; no
        province may be entered twice (nor one in ``visited``)."""
        steps: list[Location] = []
        seen = {unit.location.province, *visited}
        here = unit
        for location in wanted:
            if location.province in seen:
                raise Illegal(f"the route enters {self.name(location.province)} twice")
            step = self.move_target(here, location, False)
            seen.add(step.province)
            steps.append(step)
            here = here.moved_to(step)
        return tuple(steps)

    def move_then(self, unit: Unit, order: MoveThen) -> MoveThen:
        first = self.route(unit, order.first)
        if order.then and order.then[0].province == unit.location.province:
            raise Illegal(f"the second move may not return to {self.name(unit.location.province)}")
        visited = (unit.location.province, *(loc.province for loc in first[:-1]))
        then = self.route(unit.moved_to(first[-1]), order.then, visited) if order.then else ()
        return MoveThen(unit_ref(unit), first, then)

    def support_move(self, unit: Unit, order: SupportMove) -> SupportMove:
        target = self.other_unit(order.supported, unit)
        province = order.destination.province
        if province == unit.location.province:
            raise Illegal("a unit cannot support a move into its own province")
        if province == target.location.province:
            raise Illegal("a unit cannot be supported to move to where it is")
        self.require_support_reach(unit, province)
        reachable = bool(self.variant.destinations(target, province))
        if not reachable and target.type.mobility is Mobility.SEA:
            reachable = any(n.province == province for n in self.map.fleet_adjacency.get(target.location, ()))
        if not reachable and target.type.convoyable:
            # DATC 6.D.31: the route must not need the supporting fleet itself
            reachable = self.convoy_possible(target.location.province, province, avoid=unit.location.province)
        if not reachable and self.position is not None:
            reachable = self.variant.reaches_otherwise(target, province, self.position)
        if not reachable:
            raise Illegal(f"the unit in {self.name(target.location.province)} cannot reach {self.name(province)}")
        coast = order.destination.coast if order.destination.coast in self.map.provinces[province].coasts else None
        return SupportMove(unit_ref(unit), unit_ref(target), Location(province, coast))

    def convoy(self, unit: Unit, order: Convoy) -> Convoy:
        here = unit.location.province
        if not unit.type.convoys or not self.variant.convoy_province(here):
            raise Illegal(f"a {unit.type.name} in {self.name(here)} cannot convoy")
        army = self.other_unit(order.army, unit)
        if not army.type.convoyable:
            raise Illegal(f"a {army.type.name} cannot be convoyed")
        destination = order.destination.province
        if not self.map.provinces[destination].holds_armies or destination == army.location.province:
            raise Illegal(f"an army cannot be convoyed to {self.name(destination)}")
        if not self.convoys.can_be_necessary(army.location.province, destination, here):
            raise Illegal(
                f"{self.name(here)} is on no route from {self.name(army.location.province)} to {self.name(destination)}"
            )
        return Convoy(unit_ref(unit), unit_ref(army), Location(destination))
