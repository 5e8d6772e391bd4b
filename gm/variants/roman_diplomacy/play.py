"""Plausible orders of Roman Diplomacy's own kinds, for the bot that plays demos, benchmarks and
recorded games (gm.bots.plausible's ``PLAUSIBLE_ORDERS``): now and then a fleet takes two steps and
another fleet of its empire stands, an empire asks another to federate (and the one asked often
agrees), and an empire builds in its Imperial City before it raises barbarian armies."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from gm.domain.geography import Location
from gm.domain.orders import Build, Declaration, Hold, Move, MoveInRounds, Order, UnitRef
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import ARMY, FLEET, Unit
from gm.variants.roman_diplomacy.orders import Federate
from gm.variants.roman_diplomacy.state import RomanState

if TYPE_CHECKING:
    from gm.variants.roman_diplomacy.rules import RomanDiplomacy

TWO_STEPS = 0.3
FEDERATE = 0.05
ANSWER = 0.5  # an empire asked to federate agrees


def plausible_orders(variant: RomanDiplomacy, position: Position, orders: list[tuple[str, Order]],
                     rng: random.Random) -> list[tuple[str, Order]]:
    if position.phase.kind is PhaseKind.ADJUSTMENTS:
        return _city_first(variant, position, orders, rng)
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return orders
    changed = list(orders)
    for power in sorted({p for p, _ in orders}):
        fleets = [i for i, (p, o) in enumerate(orders) if p == power and not isinstance(o, Declaration)
                  and o.unit is not None and o.unit.type is FLEET]
        movers = [i for i in fleets if isinstance(orders[i][1], Move)]
        if len(fleets) < 2 or not movers or rng.random() >= TWO_STEPS:
            continue
        index = rng.choice(movers)
        move = orders[index][1]
        assert isinstance(move, Move)
        here = move.destination
        onward = [loc for p in sorted(variant.map.neighbours.get(here.province, ()))
                  for loc in variant.destinations(_fleet(power, move), p) if loc.province != move.unit.province]
        if onward:  # the second step is the ration of another fleet, which then stands
            changed[index] = (power, MoveInRounds(move.unit, (here, rng.choice(onward))))
            stands = rng.choice([i for i in fleets if i != index])
            standing = orders[stands][1].unit
            assert standing is not None
            changed[stands] = (power, Hold(standing))
    empires = sorted({p for p, _ in orders})
    asked = RomanState.of(position).asked
    for power in empires:
        askers = sorted(e for e, others in asked.items() if power in others and e in empires)
        if askers and rng.random() < ANSWER:
            changed.append((power, Federate(rng.choice(askers))))
        elif len(empires) > 1 and rng.random() < FEDERATE:
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
