"""Plausible orders of Eagles' own kind, for the bot that plays demos, benchmarks and recorded
games (gm.bots.plausible's ``OwnOrders``): now and then a fleet at sea that was to hold attacks
another power's fleets in its sea."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from gm.domain.orders import Hold, Order, UnitRef
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import FLEET
from gm.variants.eagles.orders import Attack

if TYPE_CHECKING:
    from gm.variants.eagles.rules import Eagles

ATTACK = 0.5


def plausible_orders(variant: Eagles, position: Position, orders: list[tuple[str, Order]],
                     rng: random.Random) -> list[tuple[str, Order]]:
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return orders
    damaged = variant.damage_by_slot(position)
    hurt = {str(position.units[s]) for s in damaged}
    changed = list(orders)
    for index, (power, order) in enumerate(orders):
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
