"""Which retreat orders count: a dislodged unit may retreat to a place among its retreats where
nothing stands that it may not stand beside, or disband."""

from __future__ import annotations

from collections.abc import Sequence

from gm.adjudicator.rulings import Illegal, Ruling
from gm.adjudicator.unit_finder import UnitFinder, last_order_wins, unit_ref
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Disband, Move, Order, Retreat, UnitRef
from gm.domain.position import Dislodgement, Position
from gm.domain.units import Unit


def review_retreats(variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]) -> list[Ruling]:
    board = UnitFinder([d.unit for d in position.dislodged])
    rulings = []
    for count, (power, order) in enumerate(submitted):
        slot = board.find(power, order.unit, count) if order.unit is not None else -1
        problem = board.problem if slot >= 0 else ""
        entry = position.dislodged[slot] if slot >= 0 else None
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
            if problem:
                raise Illegal(problem)
            rulings.append(Ruling(power, _normalise_retreat(variant, position, entry, order), unit, None, slot))
        except Illegal as why:
            rulings.append(Ruling(power, order, unit, str(why), slot))
    return last_order_wins(rulings)


def _retreat_problem(variant: Variant, position: Position, unit: Unit, province: str) -> str | None:
    """Why the rules forbid the unit's retreat to ``province`` on the board of a retreat phase,
    whatever list of retreats the position came with (one written by hand, or by an older
    judge): a unit stands there that it may not stand beside (``Variant.may_stand_with``, the
    rule a move in follows). None: they allow it. Where the unit could go otherwise (the map, its
    attacker's origin, a standoff) is the list's to say: the board no longer shows all of it."""
    there = position.units_in(province)
    if not there:
        return None
    sides = variant.sides(position) if variant.sides_share else None
    arrived = unit.moved_to(Location(province))
    for other in there:
        if not variant.may_stand_with(arrived, (other,), sides):
            name = variant.map.provinces[province].name
            if not variant.stacks:
                return f"{name} is occupied by {other} ({other.power})"
            return f"{other} ({other.power}) stands in {name}: it may not retreat beside it"
    return None


def _normalise_retreat(variant: Variant, position: Position, entry: Dislodgement, order: Order) -> Order:
    unit = entry.unit
    ref = unit_ref(unit, order.unit)  # the order's own when it names the unit exactly (most do): none made
    if isinstance(order, Disband):
        return _retreat_as_written(order, ref)
    if not isinstance(order, (Retreat, Move)):
        raise Illegal("a dislodged unit may only retreat or disband")
    wanted = order.destination
    options = [loc for loc in entry.retreats if loc.province == wanted.province]
    if not options:
        name = variant.map.provinces[wanted.province].name
        raise Illegal(f"{name} is not among the places it may retreat to")
    problem = _retreat_problem(variant, position, unit, wanted.province)
    if problem is not None:
        raise Illegal(problem)
    if wanted.coast and any(loc.coast == wanted.coast for loc in options):
        return _retreat_as_written(order, ref, wanted)
    if wanted.coast and wanted.coast in variant.map.provinces[wanted.province].coasts:
        raise Illegal(f"it cannot retreat to the {variant.map.coast_names[wanted.coast]}")
    if len(options) > 1:
        raise Illegal(f"say which coast of {variant.map.provinces[wanted.province].name}")
    return _retreat_as_written(order, ref, options[0])


def _retreat_as_written(order: Order, unit: UnitRef, destination: Location | None = None) -> Order:
    """A retreat (or, without ``destination``, a disband) of ``unit``: the order given when it
    says exactly that (most do), else a new one."""
    if destination is None:
        return order if type(order) is Disband and order.unit == unit else Disband(unit)
    if type(order) is Retreat and order.unit == unit and order.destination == destination:
        return order
    return Retreat(unit, destination)
