"""Orders that a power's own other orders make void, said when the orders arrive.

A support or a convoy helps a move (or a hold) only if the unit helped is ordered to do just
that; njudge and DPjudge only say so at the deadline ("void"). Where the unit helped is the
power's own, its order is known when the orders arrive, so gm says at once why the support or
convoy would be void as the orders stand (it still counts if the other order changes). So too a
move that needs a convoy where no fleet of another power could carry it and none of the power's
own is ordered to. Moves of several steps and a variant's own orders are left to the deadline.
"""

from __future__ import annotations

from collections.abc import Sequence

from gm.adjudicator.convoys import ConvoyGeometry
from gm.adjudicator.variant import Variant
from gm.domain.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from gm.domain.phases import PhaseKind
from gm.domain.position import Position, Unit
from gm.reports.names import Namer

PLAIN = (Hold, Move, SupportHold, SupportMove, Convoy)  # orders whose meaning here is certain


def void_by_own_orders(variant: Variant, board: Position, power: str, orders: Sequence[Order],
                       namer: Namer) -> dict[int, str]:
    """For each order of the power's set (by its index) that the set itself makes void: why."""
    if board.phase.kind is not PhaseKind.MOVEMENT:
        return {}
    provinces = [u.location.province for u in board.units if u.power == power]
    # Where the power has several units in one province (a garrison beside an army, fleets
    # sharing a sea), which one an order names is the deadline's to judge: no note there.
    mine = {u.location.province: u for u in board.units
            if u.power == power and provinces.count(u.location.province) == 1}
    given: dict[str, Order] = {o.unit.province: o for o in orders if o.unit is not None}
    found: dict[int, str] = {}
    for index, order in enumerate(orders):
        why = None
        if isinstance(order, (SupportHold, SupportMove, Convoy)):
            helped = order.supported if not isinstance(order, Convoy) else order.army
            unit = mine.get(helped.province)
            if unit is not None and unit.location.province != order.unit.province:
                why = _unmatched(order, unit, given.get(helped.province), namer, power)
        elif isinstance(order, Move):
            unit = mine.get(order.unit.province)
            if unit is not None:
                why = _uncarried(variant, board, power, unit, order, given)
        if why:
            found[index] = why
    return found


def _unmatched(order: Order, unit: Unit, its_order: Order | None, namer: Namer, power: str) -> str | None:
    """Why a support or convoy of the power's own ``unit`` matches not what that unit is ordered."""
    if its_order is not None and not isinstance(its_order, PLAIN):
        return None  # a variant's own order: the deadline judges it
    name = namer.unit(unit, power)
    moving_to = its_order.destination.province if isinstance(its_order, Move) else None
    if isinstance(order, SupportHold):
        if moving_to is None:
            return None
        return f"void as your orders stand: {name} is ordered to move, and a support to hold helps a unit that stays"
    wanted = order.destination.province  # type: ignore[attr-defined]
    if moving_to == wanted:
        return None
    there = namer.place(order.destination)  # type: ignore[attr-defined]
    if its_order is None:
        doing = f"has no order (so it holds), not a move to {there}"
    elif moving_to is None:
        doing = f"is ordered to stay ({namer.order(its_order, power)}), not to move to {there}"
    else:
        doing = f"is ordered to {namer.place(its_order.destination)}, not to {there}"  # type: ignore[union-attr]
    return f"void as your orders stand: {name} {doing}"


def _uncarried(variant: Variant, board: Position, power: str, unit: Unit, order: Move,
               given: dict[str, Order]) -> str | None:
    """Why a move that needs a convoy could get none as the power's orders stand: no fleet of
    another power could carry it, and none of its own is ordered to."""
    province = order.destination.province
    if not unit.type.convoyable or (variant.destinations(unit, province) and not order.via_convoy):
        return None
    origin = unit.location.province

    def carries(fleet: Unit) -> bool:
        if fleet.power != power:
            return True  # another power's fleet may yet be ordered to
        its_order = given.get(fleet.location.province)
        return (isinstance(its_order, Convoy) and its_order.army.province == origin
                and its_order.destination.province == province)

    fleets = [u for u in board.units if u.type.convoys and variant.convoy_province(u.location.province)]
    if not fleets:
        return None  # no convoy at all: its review on arrival says so
    everyone = ConvoyGeometry(variant.map.fleet_province_adjacency, [u.location.province for u in fleets])
    if not everyone.route_exists(origin, province):
        return None
    ordered = ConvoyGeometry(variant.map.fleet_province_adjacency,
                             [u.location.province for u in fleets if carries(u)])
    if ordered.route_exists(origin, province):
        return None
    return "no convoy as your orders stand: only your own fleets could carry it, and not all are ordered to"
