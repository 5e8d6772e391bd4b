"""Plausible orders of Rise of Rome II's own kinds, for the bot that plays demos, benchmarks and
recorded games (gm.bots.plausible's ``PLAUSIBLE_ORDERS``): leaders placed with the first Spring orders,
leaders leading the unit beside them, a sack now and then."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from gm.domain.geography import Location
from gm.domain.orders import Order, UnitRef
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import Unit, UnitType
from gm.variants.rise_of_rome_ii.orders import Lead, Sack, StartsIn

LEAD_RATE = 0.6
SACK_RATE = 0.08


def plausible_orders(position: Position, orders: list[tuple[str, Order]], rng: random.Random, *,
                     leader: UnitType, unplaced: Mapping[str, str], homes: Mapping[str, Sequence[str]],
                     sackable: frozenset[str]) -> list[tuple[str, Order]]:
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return orders
    placements: list[tuple[str, Order]] = []
    for power, waiting in sorted(unplaced.items()):
        start = rng.choice(list(homes[power]))
        placements.append((power, StartsIn(UnitRef(Location(waiting), leader), Location(start))))
    changed = []
    for power, order in orders:
        unit = _unit_of(position, power, order)
        if unit is not None and unit.type is leader and rng.random() < LEAD_RATE:
            led = next((u for u in position.units if u.location.province == unit.location.province
                        and u.power == power and u.type is not leader), None)
            if led is not None:
                order = Lead(UnitRef(unit.location, leader), UnitRef(led.location, led.type))
        elif (unit is not None and unit.type is not leader and unit.location.province in sackable
              and position.centres.get(unit.location.province) != power and rng.random() < SACK_RATE):
            order = Sack(UnitRef(unit.location, unit.type))
        changed.append((power, order))
    return placements + changed


def _unit_of(position: Position, power: str, order: Order) -> Unit | None:
    ref = order.unit
    if ref is None:
        return None
    return next((u for u in position.units if u.power == power and u.location == ref.location
                 and (ref.type is None or u.type is ref.type)), None)
