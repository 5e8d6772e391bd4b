"""Plausible orders of Roman Diplomacy's own kinds, for the bot that plays demos, benchmarks and
recorded games (gm.bots.plausible's ``OwnOrders``): now and then a fleet takes two steps while
another fleet of its empire stands, an empire asks a neighbour to federate, and an empire builds
in its Imperial City before it raises barbarian armies."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from gm.domain.geography import Location
from gm.domain.orders import Build, Hold, Move, MoveInRounds, Order, UnitRef
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import ARMY, FLEET, Unit
from gm.variants.roman_diplomacy.orders import Federate
from gm.variants.roman_diplomacy.state import RomanState

if TYPE_CHECKING:
    from gm.variants.roman_diplomacy.rules import RomanDiplomacy

TWO_STEPS = 0.3
FEDERATE = 0.05


def plausible_orders(variant: RomanDiplomacy, position: Position, orders: list[tuple[str, Order]],
                     rng: random.Random) -> list[tuple[str, Order]]:
    if position.phase.kind is PhaseKind.ADJUSTMENTS:
        return _city_first(variant, position, orders, rng)
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return orders
    changed = list(orders)
    standing = {power for power, order in orders if isinstance(order, Hold) and order.unit.type is FLEET}
    for index, (power, order) in enumerate(orders):
        if power in standing and isinstance(order, Move) and order.unit.type is FLEET and rng.random() < TWO_STEPS:
            here = order.destination
            onward = [loc for p in sorted(variant.map.neighbours.get(here.province, ()))
                      for loc in variant.destinations(_fleet(power, order), p)
                      if loc.province != order.unit.province]
            if onward:
                changed[index] = (power, MoveInRounds(order.unit, (here, rng.choice(onward))))
                standing.discard(power)  # its standing fleet's step is spent
    empires = sorted({p for p, _ in orders})
    for power in empires:
        if len(empires) > 1 and rng.random() < FEDERATE:
            changed.append((power, Federate(rng.choice([e for e in empires if e != power]))))
    return changed


def _city_first(variant: RomanDiplomacy, position: Position, orders: list[tuple[str, Order]],
                rng: random.Random) -> list[tuple[str, Order]]:
    """The first build of an empire whose Imperial City is free goes there."""
    changed = list(orders)
    for power, city in RomanState.of(position).empires.items():
        builds = [(i, o) for i, (p, o) in enumerate(changed) if p == power and isinstance(o, Build)]
        if not builds or city not in variant.build_sites(position, power) \
                or any(build.unit.location.province == city for _, build in builds):
            continue
        province = variant.map.provinces[city]
        unit_type = FLEET if province.holds_fleets and not province.coasts and rng.random() < 0.5 else ARMY
        changed[builds[0][0]] = (power, Build(UnitRef(Location(city), unit_type)))
    return changed


def _fleet(power: str, order: Move) -> Unit:
    return Unit(power, FLEET, order.destination)
