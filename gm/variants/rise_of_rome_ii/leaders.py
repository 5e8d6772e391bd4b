"""Rule 3: leaders (``L``). Each power's leader, of strength ½, moves by any border an army or a
fleet could use and needs no supply centre; it is placed with the first Spring orders (where its
player says, or its first home centre); it shares a space with one unit of its own and leads it
(goes where it goes and adds ½); a leader giving support exposes its space: any attack cuts every
support given from it. Leaders are named in any order, a dislodged one too."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING

from gm.adjudicator.effects import Effects
from gm.adjudicator.rulings import Illegal, MoveChecks
from gm.domain.geography import Location
from gm.domain.orders import Order, SupportHold, SupportMove, UnitRef
from gm.domain.position import Position, sorted_units
from gm.domain.units import Unit
from gm.variants.rise_of_rome_ii.orders import Lead, StartsIn
from gm.variants.rise_of_rome_ii.state import RomeState
from gm.variants.rise_of_rome_ii.units import LEADER

if TYPE_CHECKING:
    from gm.variants.rise_of_rome_ii.rules import RiseOfRome


def leader_at(variant: RiseOfRome, power: str, position: Position | None) -> Location | None:
    """Where the power's leader stands (dislodged, in a retreat phase), or waits to be placed."""
    if position is None:
        return None
    for unit in position.units:
        if unit.power == power and unit.type is LEADER:
            return unit.location
    for entry in position.dislodged:
        if entry.unit.power == power and entry.unit.type is LEADER:
            return entry.unit.location
    waiting = RomeState.of(position).unplaced.get(power)
    return Location(waiting) if waiting else None


def units_off_board(position: Position) -> list[Unit]:
    """The leaders not yet placed (3.3), where each starts unless its player places it."""
    return [Unit(power, LEADER, Location(home)) for power, home in sorted(RomeState.of(position).unplaced.items())]

def unit_name(variant: RiseOfRome, unit: Unit) -> str | None:
    """A leader's name, for every text that names units (gm.reports.names.UNIT_NAMES)."""
    return variant.leaders.get(unit.power) if unit.type is LEADER else None


def placed(variant: RiseOfRome, position: Position, submitted: Sequence[tuple[str, Order]]
                     ) -> tuple[Position, Sequence[tuple[str, Order]]]:
    """With the first Spring orders each leader comes onto the board where its player says
    (or its first home centre); orders naming it where it waited name it where it stands."""
    state = RomeState.of(position)
    if not state.unplaced:
        return position, submitted
    starts = {power: Location(home) for power, home in state.unplaced.items()}
    for power, order in submitted:
        if isinstance(order, StartsIn) and power in starts and placement_problem(variant, power, order) is None:
            starts[power] = Location(order.start.province)
    placed = []
    for power, order in submitted:
        if power in starts:
            order = _rebased(order, UnitRef(Location(state.unplaced[power]), LEADER), UnitRef(starts[power], LEADER))
        placed.append((power, order))
    leaders = [Unit(power, LEADER, where) for power, where in starts.items()]
    board = position.replace(units=sorted_units([*position.units, *leaders]),
                             extra=state.changed(unplaced={}).extra(position))
    return board, placed

def placement_problem(variant: RiseOfRome, power: str, order: StartsIn) -> str | None:
    home = variant.map.powers[power].home
    if order.start.province not in home:
        names = ", ".join(variant.map.provinces[h].name for h in home)
        return (f"{variant.map.provinces[order.start.province].name} is not a home centre of {power} "
                f"({names}): {variant.leaders[power]} starts in {variant.map.provinces[home[0]].name}")
    return None


def review_lead(variant: RiseOfRome, review: MoveChecks, unit: Unit, order: Lead) -> Lead:
    if unit.type is not LEADER:
        raise Illegal(f"only a leader leads: the {unit.type.name} in "
                      f"{variant.map.provinces[unit.location.province].name} is not one")
    led = review.other_unit(order.led, unit)
    if led.location.province != unit.location.province or led.power != unit.power or led.type is LEADER:
        raise Illegal(f"{variant.leader_name(unit)} leads only a unit of {unit.power} in its own space")
    return Lead(UnitRef(unit.location, LEADER), UnitRef(led.location, led.type))


def review_placement(variant: RiseOfRome, review: MoveChecks, unit: Unit | None, order: StartsIn) -> Order:
    position = review.position
    if unit is None or unit.type is not LEADER:
        raise Illegal("only a leader is placed (write e.g. Hannibal starts in Carthage)")
    if position is None or position.phase != variant.calendar.first_phase(variant.first_year):
        raise Illegal("leaders are placed with the first Spring orders only")
    problem = placement_problem(variant, unit.power, order)
    if problem is not None:
        raise Illegal(problem)
    return StartsIn(UnitRef(unit.location, LEADER), Location(order.start.province))


def lead(variant: RiseOfRome, effects: Effects) -> None:
    """3.4: each leader goes with the unit it leads and adds ½; a leader giving support exposes its
    space."""
    rulings = effects.rulings
    units = effects.position.units
    orders_of = {r.slot: r for r in rulings if r.acts and r.slot >= 0}
    for ruling in rulings:
        if not ruling.acts or ruling.unit is None or ruling.unit.type is not LEADER:
            continue
        led = _led(ruling.slot, ruling.order, units, orders_of)
        if led is not None:
            name = variant.leaders.get(ruling.power, "the leader")
            effects.carry(ruling.slot, led, f"goes with {units[led]}")
            effects.add_strength(led, 0.5, f"led by {name}: +½")
    _expose_supports(effects)


def _expose_supports(effects: Effects) -> None:
    """3.4: any attack on a space where a leader gives support cuts that support and every
    other support given from the space, even an attack from where a support goes."""
    units = effects.position.units
    supports = {r.slot for r in effects.rulings if r.acts and r.slot >= 0
                and isinstance(r.acting or r.order, (SupportHold, SupportMove))}
    supporting = {units[slot].location.province for slot in supports if units[slot].type is LEADER}
    supporting |= {units[leader].location.province for leader, led in effects.carried.items()
                   if led in supports}  # a leader leading a support gives it too
    for slot, unit in enumerate(units):
        if unit.location.province in supporting:
            effects.expose(slot)

def _led(leader: int, order: Order, units: tuple[Unit, ...], orders_of: dict) -> int | None:  # type: ignore[type-arg]
    """The slot of the unit the leader leads: named by a lead order, or ordered as the leader is."""
    here = units[leader]
    for slot, unit in enumerate(units):
        if slot == leader or unit.location.province != here.location.province or unit.power != here.power:
            continue
        if isinstance(order, Lead):
            if unit.type is order.led.type:
                return slot
        elif slot in orders_of and _same_action(order, orders_of[slot].order):
            return slot
    return None


def _rebased(order: Order, waiting: UnitRef, placed: UnitRef) -> Order:
    """The order with every mention of the leader where it waited turned into where it stands."""
    changes = {f.name: placed for f in fields(order) if getattr(order, f.name) == waiting}  # type: ignore[arg-type]
    return replace(order, **changes) if changes else order  # type: ignore[type-var]


def _same_action(a: Order, b: Order) -> bool:
    """Do two orders ask the same of two units (a leader ordered as the unit beside it)?"""
    return type(a) is type(b) and replace(a, unit=getattr(b, "unit")) == b  # type: ignore[type-var]
