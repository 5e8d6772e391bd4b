"""Which movement and retreat orders count, before anything is resolved.

DATC 4.E.1: an illegal order (one that could never be valid, whatever the other orders) is
ignored and its unit holds. Orders that are legal but match nothing (a support of a move
nobody ordered) are not decided here: they are "void", found during resolution.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from gm.adjudicator.convoys import ConvoyGeometry
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import (
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
)
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.position import Dislodgement, Position
from gm.domain.units import Mobility, Unit


class Ruling:
    """One submitted order after review: normalised, or the reason it does not count.

    A plain class, not a dataclass: compiled (setup.py), its constructor then runs no Python.
    """

    __slots__ = ("power", "order", "unit", "illegal", "superseded")

    def __init__(self, power: str, order: Order, unit: Unit | None, illegal: str | None = None):
        self.power = power
        self.order = order
        self.unit = unit
        self.illegal = illegal
        self.superseded = False  # a later legal order for the same unit replaced this one

    @property
    def counts(self) -> bool:
        return self.illegal is None and not self.superseded


class Illegal(Exception):
    pass


class _FleetsMatter:
    """In the verdict cache: look again, with where the fleets that could convoy are."""


FLEETS_MATTER: Final = _FleetsMatter()


def review_movement(variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]) -> list[Ruling]:
    units = {u.location.province: u for u in position.units}
    reviewer = _MovementReview(variant, units)
    # Legality depends only on the map, the order and the units it names (and, for convoys,
    # where the fleets that could convoy are), so each verdict is kept for later phases and games.
    verdicts = variant.legality_verdicts
    rulings: list[Ruling] = []
    for power, order in submitted:
        ref = order.unit
        unit = units.get(ref.location.province) if ref is not None else None
        if unit is None or unit.power != power:
            rulings.append(Ruling(power, order, unit, illegal=reviewer.not_yours(power, ref, unit)))
            continue
        kind = type(order)
        if kind is Hold or kind is Move:  # quicker to decide again than to look up
            verdict = reviewer.verdict(unit, order)
        else:
            verdict = _cached_verdict(reviewer, verdicts, order, unit, units)
        if isinstance(verdict, str):
            rulings.append(Ruling(power, order, unit, illegal=verdict))
        else:
            rulings.append(Ruling(power, verdict, unit))
    return last_order_wins(rulings)


def _cached_verdict(
    reviewer: _MovementReview, verdicts: dict, order: Order, unit: Unit, units: dict[str, Unit]
) -> Order | str:
    """A support's or a convoy's verdict, decided once per combination and kept by the variant."""
    key = _verdict_key(order, unit, units)
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


def refusal(ruling: Ruling) -> OrderResult:
    """The result of an order that does not count."""
    if ruling.superseded:
        return OrderResult(ruling.power, ruling.order, ruling.unit, False, Reason.SUPERSEDED)
    return OrderResult(ruling.power, ruling.order, ruling.unit, False, Reason.ILLEGAL, ruling.illegal or "")


def _verdict_key(order: Order, unit: Unit, units: dict[str, Unit]) -> tuple:
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
    elif isinstance(order, Convoy):
        other, to = order.army, order.destination
    else:
        return (type(order), unit, order)
    helped = units.get(other.location.province)
    return (
        type(order), unit.type, unit.location.province, unit.location.coast, other.location.province,
        None if helped is None else helped.type, None if helped is None else helped.location.coast,
        None if to is None else to.province, None if to is None else to.coast,
    )


def review_retreats(variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]) -> list[Ruling]:
    dislodged = {d.unit.location.province: d for d in position.dislodged}
    rulings = []
    for power, order in submitted:
        entry = dislodged.get(order.unit.province) if order.unit is not None else None
        unit = entry.unit if entry else None
        try:
            if entry is None or unit is None:
                raise Illegal(
                    "only dislodged units have orders in a retreat phase"
                    if order.unit is not None
                    else "not an order for a dislodged unit"
                )
            if unit.power != power:
                raise Illegal(f"the unit in {unit.location.province} is not {power}'s")
            rulings.append(Ruling(power, _normalise_retreat(variant, entry, order), unit))
        except Illegal as why:
            rulings.append(Ruling(power, order, unit, illegal=str(why)))
    return last_order_wins(rulings)


def last_order_wins(rulings: list[Ruling]) -> list[Ruling]:
    """A unit given several legal orders follows the last one (as a mail judge revises orders)."""
    last: dict[str, Ruling] = {}
    for ruling in rulings:
        if ruling.illegal is None and ruling.unit is not None:
            earlier = last.get(ruling.unit.location.province)
            if earlier is not None:
                earlier.superseded = True
            last[ruling.unit.location.province] = ruling
    return rulings


def _ref(unit: Unit, written: UnitRef | None = None) -> UnitRef:
    """The unit as the order should name it (DATC 4.B.5, 4.C.2: a wrong type or coast is ignored)."""
    if written is not None and written.type is unit.type and written.location == unit.location:
        return written
    return UnitRef(unit.location, unit.type)


class _MovementReview:
    def __init__(self, variant: Variant, units: dict[str, Unit]):
        self.variant = variant
        self.map = variant.map
        self.units = units
        self.consulted_fleets = False
        self._geometry: ConvoyGeometry | None = None

    @property
    def convoys(self) -> ConvoyGeometry:
        self.consulted_fleets = True
        if self._geometry is None:
            carriers = [p for p, u in self.units.items() if u.type.convoys and self.variant.convoy_province(p)]
            self._geometry = ConvoyGeometry(self.map.fleet_province_adjacency, carriers)
        return self._geometry

    def convoy_possible(self, origin: str, destination: str, avoid: str | None = None) -> bool:
        provinces = self.map.provinces
        return (
            provinces[origin].holds_fleets
            and provinces[destination].holds_fleets
            and self.convoys.route_exists(origin, destination, avoid)
        )

    def verdict(self, unit: Unit, order: Order) -> Order | str:
        """The order as it counts, or why it does not."""
        try:
            return self.normalise(unit, order)
        except Illegal as why:
            return str(why)

    def normalise(self, unit: Unit, order: Order) -> Order:
        if isinstance(order, Hold):
            return order if order.unit.type is unit.type and order.unit.location == unit.location else Hold(_ref(unit))
        if isinstance(order, Move):
            destination = self.move_target(unit, order.destination, order.via_convoy)
            if destination == order.destination and _ref(unit, order.unit) is order.unit:
                return order
            return Move(_ref(unit), destination, order.via_convoy)
        if isinstance(order, SupportHold):
            target = self.other_unit(order.supported, unit)
            self.require_support_reach(unit, target.location.province)
            return SupportHold(_ref(unit), _ref(target))
        if isinstance(order, SupportMove):
            return self.support_move(unit, order)
        if isinstance(order, Convoy):
            return self.convoy(unit, order)
        raise Illegal(f"'{order}' is not a movement-phase order")

    def name(self, province: str) -> str:
        return self.map.provinces[province].name

    def not_yours(self, power: str, ref: UnitRef | None, unit: Unit | None) -> str:
        if ref is None:
            return "not an order for a unit in a movement phase"
        if unit is None:
            return f"there is no unit in {self.name(ref.location.province)}"
        return f"the unit in {self.name(unit.location.province)} is not {power}'s"

    def other_unit(self, ref: UnitRef, acting: Unit) -> Unit:
        target = self.units.get(ref.province)
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
        if not reachable:
            raise Illegal(f"the unit in {self.name(target.location.province)} cannot reach {self.name(province)}")
        coast = order.destination.coast if order.destination.coast in self.map.provinces[province].coasts else None
        return SupportMove(_ref(unit), _ref(target), Location(province, coast))

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
        return Convoy(_ref(unit), _ref(army), Location(destination))


def _normalise_retreat(variant: Variant, entry: Dislodgement, order: Order) -> Order:
    unit = entry.unit
    if isinstance(order, Disband):
        return Disband(_ref(unit))
    if not isinstance(order, (Retreat, Move)):
        raise Illegal("a dislodged unit may only retreat or disband")
    wanted = order.destination
    options = [loc for loc in entry.retreats if loc.province == wanted.province]
    if not options:
        name = variant.map.provinces[wanted.province].name
        raise Illegal(f"{name} is not among the places it may retreat to")
    if wanted.coast and any(loc.coast == wanted.coast for loc in options):
        return Retreat(_ref(unit), Location(wanted.province, wanted.coast))
    if wanted.coast and wanted.coast in variant.map.provinces[wanted.province].coasts:
        raise Illegal(f"it cannot retreat to the {variant.map.coast_names[wanted.coast]}")
    if len(options) > 1:
        raise Illegal(f"say which coast of {variant.map.provinces[wanted.province].name}")
    return Retreat(_ref(unit), options[0])
