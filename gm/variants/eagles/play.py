"""Plausible orders of Eagles' own kind, for the bot that plays demos, benchmarks and recorded
games (gm.bots.plausible's ``PLAUSIBLE_ORDERS``): now and then a fleet sails into a neighbouring sea
where another power's fleets are, and a fleet at sea that was to hold attacks another power's
fleets in its sea."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from gm.domain.geography import Location
from gm.domain.orders import Hold, Move, Order, UnitRef
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import FLEET, Unit
from gm.variants.eagles.orders import Attack
from gm.variants.eagles.seas import damage_by_slot

if TYPE_CHECKING:
    from gm.variants.eagles.rules import Eagles

ATTACK = 0.5
SEEK = 0.5  # a fleet next to a sea with another power's fleets sails there


def plausible_orders(variant: Eagles, position: Position, orders: list[tuple[str, Order]],
                     rng: random.Random) -> list[tuple[str, Order]]:
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return orders
    damaged = damage_by_slot(position)
    hurt = {str(position.units[s]) for s in damaged}
    changed = list(orders)
    for index, (power, order) in enumerate(orders):
        if isinstance(order, (Hold, Move)) and order.unit.type is FLEET and str(order.unit) not in hurt:
            seas = [sea for sea in _enemy_seas(variant, position, power, order.unit)
                    if sea.province != order.unit.province]
            if seas and rng.random() < SEEK:
                changed[index] = (power, Move(order.unit, rng.choice(seas)))
    for index, (power, order) in enumerate(changed):
        if not isinstance(order, Hold) or order.unit.type is not FLEET or order.unit.province not in variant.seas:
            continue
        if str(order.unit) in hurt:
            continue
        enemies = sorted({u.power for u in position.units if u.type is FLEET and u.power != power
                          and u.location.province == order.unit.province})
        if enemies and rng.random() < ATTACK:
            target = UnitRef(order.unit.location, FLEET)
            changed[index] = (power, Attack(order.unit, target, rng.choice(enemies)))
    return changed


def _enemy_seas(variant: Eagles, position: Position, power: str, unit: UnitRef) -> list[Location]:
    """The seas a fleet may sail into where another power's fleets are."""
    held = {u.location.province for u in position.units if u.type is FLEET and u.power != power}
    fleet = Unit(power, FLEET, unit.location)
    return [loc for p in sorted(variant.map.neighbours.get(unit.province, ())) if p in variant.seas and p in held
            for loc in variant.destinations(fleet, p)]
