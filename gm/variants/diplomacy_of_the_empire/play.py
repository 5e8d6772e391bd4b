"""Plausible orders of Diplomacy of the Empire's own kinds, for the bot that plays demos,
benchmarks and recorded games (gm.bots.plausible's ``PLAUSIBLE_ORDERS``): now and then a cavalry or a
fleet adds a second move, a unit in a city travels along roads, a claimant pays another; in the
build phase a claimant spends no more than it has (cities and forts too) and waives otherwise."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from gm.domain.geography import Location
from gm.domain.orders import Build, Move, MoveAlongPath, MoveThen, Order, UnitRef, Waive
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import FLEET
from gm.variants.diplomacy_of_the_empire import economy
from gm.variants.diplomacy_of_the_empire.orders import CAVALRY, BuildCity, BuildFort, Pay
from gm.variants.diplomacy_of_the_empire.state import EmpireState

if TYPE_CHECKING:
    from gm.variants.diplomacy_of_the_empire.rules import DiplomacyOfTheEmpire

SECOND_MOVE = 0.4
ROAD = 0.5
PAY = 0.03
CITY = 0.5
FORT = 0.15


def plausible_orders(variant: DiplomacyOfTheEmpire, position: Position, orders: list[tuple[str, Order]],
                     rng: random.Random) -> list[tuple[str, Order]]:
    state = EmpireState.of(position)
    if position.phase.kind is PhaseKind.ADJUSTMENTS:
        return _builds(variant, position, state, orders, rng)
    changed = list(orders)
    if position.phase.kind is PhaseKind.MOVEMENT:
        for index, (power, order) in enumerate(orders):
            if isinstance(order, Move) and not order.via_convoy:
                changed[index] = (power, _longer(variant, position, state, order, rng))
    for power in sorted(state.treasury):
        others = [p for p in sorted(state.treasury) if p != power]
        have = state.treasury[power]
        if have >= 10 and others and rng.random() < PAY:
            changed.append((power, Pay(5 * rng.randint(1, have // 10), rng.choice(others))))
    return changed


def _longer(variant: DiplomacyOfTheEmpire, position: Position, state: EmpireState, order: Move,
            rng: random.Random) -> Order:
    unit = next(u for u in position.units if u.location == order.unit.location and u.type is order.unit.type)
    here = unit.location.province
    if unit.type is not FLEET and here in state.cities and rng.random() < ROAD:
        path: list[str] = []
        seen = {here} | {u.location.province for u in position.units}  # along empty roads
        while len(path) < 3:
            roads = sorted(state.road_neighbours(path[-1] if path else here) - seen)
            if not roads:
                break
            seen.add(step := rng.choice(roads))
            path.append(step)
        if len(path) > 1:
            return MoveAlongPath(order.unit, tuple(Location(p) for p in path))
    if unit.type in (CAVALRY, FLEET) and rng.random() < SECOND_MOVE:
        moved = unit.moved_to(order.destination)
        onward = [loc for p in sorted(variant.map.neighbours.get(order.destination.province, ()))
                  if p != here for loc in variant.destinations(moved, p)]
        if onward:
            return MoveThen(order.unit, (order.destination,), (rng.choice(onward),))
    return order


def _builds(variant: DiplomacyOfTheEmpire, position: Position, state: EmpireState,
            orders: list[tuple[str, Order]], rng: random.Random) -> list[tuple[str, Order]]:
    """Disbands as the bot chose them; builds cut down to what each claimant can pay."""
    m = state.inflation
    plan = {a.power: a for a in variant.adjustments(position)}
    changed = [(p, o) for p, o in orders if not isinstance(o, (Build, Waive))]
    for power, adjustment in sorted(plan.items()):
        if adjustment.count < 0:
            continue
        left = state.treasury[power] - economy.upkeep(len(position.units_of(power)), m)
        mine: list[Order] = []
        owned = sorted(p for p, owner in state.control.items() if owner == power)
        bare = [p for p in owned if p not in state.cities]
        if bare and left >= economy.CITY * m and rng.random() < CITY:
            site = next((p for p in bare if p in adjustment.build_sites), rng.choice(bare))
            mine.append(BuildCity(Location(site)))
            left -= economy.CITY * m
        unfortified = [p for p in owned if p in state.cities and not state.cities[p].fort]
        if unfortified and left >= economy.FORT_ON_CITY * m and rng.random() < FORT:
            mine.append(BuildFort(Location(rng.choice(unfortified))))
            left -= economy.FORT_ON_CITY * m
        sites = sorted(adjustment.build_sites & (state.cities.keys() | {o.location.province for o in mine
                                                                         if isinstance(o, BuildCity)}))
        rng.shuffle(sites)
        for site in sites:
            province = variant.map.provinces[site]
            types = [t for t in variant.unit_types if economy.unit_price(t, m) <= left
                     and (t is not FLEET or province.holds_fleets)]
            if not types:
                break
            unit_type = rng.choice(types)
            location = Location(site, rng.choice(province.coasts)) if unit_type is FLEET and province.coasts \
                else Location(site)
            mine.append(Build(UnitRef(location, unit_type)))
            left -= economy.unit_price(unit_type, m)
        if not mine and adjustment.count > 0:
            mine.append(Waive())
        changed.extend((power, o) for o in mine)
    return changed
