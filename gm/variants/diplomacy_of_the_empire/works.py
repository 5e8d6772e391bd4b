"""Rules 2, 6 and 7: the build phase. Upkeep first, then payments, then every build of a claimant
together (all fail if they cost more than it has left, or if it also disbanded); then the works:
razing, cities and forts, each new city joined by road to its owner's neighbouring cities. Units
are built only in vacant cities joined by roads to the capital, while the home is held."""

from __future__ import annotations

import math
from collections.abc import Sequence

from typing import TYPE_CHECKING

from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.variant import Adjustment
from gm.domain.orders import Build, Disband
from gm.domain.outcomes import OrderResult
from gm.domain.position import Position, sorted_units
from gm.domain.geography import Terrain
from gm.variants.diplomacy_of_the_empire import economy
from gm.variants.diplomacy_of_the_empire.treasury import fail, home_lost, payments
from gm.variants.diplomacy_of_the_empire.economy import talents
from gm.variants.diplomacy_of_the_empire.orders import INFANTRY, BuildCity, BuildFort, Raze
from gm.variants.diplomacy_of_the_empire.roads import RoadMap
from gm.variants.diplomacy_of_the_empire.state import City, EmpireState

if TYPE_CHECKING:
    from gm.variants.diplomacy_of_the_empire.rules import DiplomacyOfTheEmpire


def works_problem(variant: DiplomacyOfTheEmpire, position: Position, state: EmpireState, power: str,
                  order: BuildCity | BuildFort | Raze) -> str | None:
    province = order.location.province
    name = variant.name_of(province)
    if variant.map.provinces[province].terrain is Terrain.SEA:
        return f"{name} is a sea"
    if state.control.get(province) != power:
        return f"{power} does not control {name}"
    city = state.cities.get(province)
    if isinstance(order, Raze):
        return None if city is not None else f"there is no city in {name}"
    if isinstance(order, BuildCity) and city is not None:
        return f"{name} has a city already"
    if isinstance(order, BuildFort) and city is not None and city.fort:
        return f"the city of {name} is fortified already"
    return None


def build_phase(variant: DiplomacyOfTheEmpire, position: Position, state: EmpireState,
                results: Sequence[OrderResult], log: PhaseLog) -> Position:
    """2, 6, 7: upkeep first, then payments, then every build of a power together: all of them
    fail if they cost more than it has left, or if it also disbanded a unit. Then the
    works: cities, forts, roads, razing. A claimant without its home keeps no treasury."""
    built = [r for r in results if isinstance(r.order, Build) and r.succeeded and r.unit is not None]
    new = {r.unit for r in built}
    kept = {p: len([u for u in position.units if u.power == p and u not in new]) for p in state.treasury}
    treasury = {p: t - economy.upkeep(kept[p], state.inflation) for p, t in state.treasury.items()}
    state = payments(variant, position, state.changed(treasury=treasury), results, log)
    treasury = dict(state.treasury)
    undone: set[int] = set()
    for power in sorted(state.treasury):
        spending = [r for r in results if r.power == power and r.succeeded
                    and isinstance(r.order, (Build, BuildCity, BuildFort))]
        disbanded = any(isinstance(r.order, Disband) and r.succeeded and r.power == power for r in results)
        unit_builds = [r for r in spending if isinstance(r.order, Build)]
        if unit_builds and disbanded:
            for r in unit_builds:
                fail(r, f"{power} disbands this build phase, so it may not also build")
                undone.add(id(r))
            spending = [r for r in spending if id(r) not in undone]
        cost = sum(price(state, r) for r in spending)
        if cost > max(treasury[power], 0):
            for r in spending:
                fail(r, f"{power}'s builds cost {talents(cost)} and it has {talents(max(treasury[power], 0))}: "
                         "every build fails")
                undone.add(id(r))
            continue
        treasury[power] -= cost
    state = _works(variant, state.changed(treasury=treasury), results, log)
    for r in built:
        if id(r) in undone or r.unit is None:
            continue
        province = r.unit.location.province
        if province not in state.cities or province not in connected(variant, state, r.power):
            fail(r, f"no city joined by roads to {r.power}'s capital in {variant.name_of(province)}")
            undone.add(id(r))
            treasury = dict(state.treasury)
            treasury[r.power] += price(state, r)
            state = state.changed(treasury=treasury)
    removed = [r.unit for r in built if id(r) in undone and r.unit is not None]
    units = list(position.units)
    for unit in removed:
        units.remove(unit)
    treasury = {p: (0 if home_lost(variant, state, p) else t) for p, t in state.treasury.items()}
    state = state.changed(treasury=treasury, tribute={})
    return position.replace(units=sorted_units(units), extra=state.extra(position))

def price(state: EmpireState, result: OrderResult) -> int:
    order, m = result.order, state.inflation
    if isinstance(order, Build) and result.unit is not None:
        return economy.unit_price(result.unit.type, m)
    if isinstance(order, BuildCity):
        return economy.CITY * m
    if isinstance(order, BuildFort):
        has_city = order.location.province in state.cities
        return (economy.FORT_ON_CITY if has_city else economy.FORT_WITH_CITY) * m
    return 0

def _works(variant: DiplomacyOfTheEmpire, state: EmpireState, results: Sequence[OrderResult], log: PhaseLog) -> EmpireState:
    """6: razing first (a unit may not be built in a city razed), then new cities and forts,
    each new city joined by road to its owner's adjacent cities."""
    for result in results:
        if isinstance(result.order, Raze) and result.succeeded:
            province = result.order.location.province
            cities = {p: c for p, c in state.cities.items() if p != province}
            state = state.changed(cities=cities, roads=RoadMap.without_city(state, province))
    for result in results:
        order = result.order
        if not isinstance(order, (BuildCity, BuildFort)) or not result.succeeded:
            continue
        province = order.location.province
        capital = variant.home_of_province.get(province) is not None
        cities = dict(state.cities)
        cities[province] = City(result.power, fort=isinstance(order, BuildFort), capital=capital)
        state = state.changed(cities=cities)
        state = state.changed(roads=variant.roads.with_city(state, province))
    return state


def connected(variant: DiplomacyOfTheEmpire, state: EmpireState, power: str) -> set[str]:
    """The cities of ``power`` joined by roads to its capital (none without its home and capital)."""
    home = variant.homes[power]
    if home_lost(variant, state, power) or home not in state.cities:
        return set()
    return RoadMap.network(state, home, owner=power)

def build_sites(variant: DiplomacyOfTheEmpire, position: Position, power: str) -> frozenset[str]:
    """7: vacant cities joined by roads to the capital, and the territories where a city
    built this phase would be joined so (a unit built there needs that city built too)."""
    state = EmpireState.of(position)
    joined = connected(variant, state, power)
    new_city = {p for p, owner in state.control.items() if owner == power and p not in state.cities
                and any(variant.roads.may_join(p, c) for c in joined)}
    if not joined and state.control.get(variant.homes[power]) == power and variant.homes[power] not in state.cities:
        new_city.add(variant.homes[power])  # a capital razed may be built again
    occupied = {u.location.province for u in position.units}
    return frozenset((joined | new_city) - occupied)

def build_site_refusal(variant: DiplomacyOfTheEmpire, position: Position, power: str, province: str) -> str:
    """7: why no unit of ``power`` is built in ``province`` (there are no supply centres)."""
    state = EmpireState.of(position)
    name, home = variant.name_of(province), variant.homes[power]
    if home_lost(variant, state, power):
        return f"{power} does not hold its home, {variant.name_of(home)}: it builds no units until it takes it back"
    if home not in state.cities and province != home:
        return f"{power}'s capital is razed: it builds no units until it builds a city in {variant.name_of(home)}"
    city, joined = state.cities.get(province), connected(variant, state, power)
    mine = state.control.get(province) == power
    joinable = mine and any(variant.roads.may_join(province, c) for c in joined)  # a city built now
    if city is None and province != home and not joinable:
        far = f", and one built there now would not be joined by road to {power}'s capital"
        return f"there is no city in {name}{far * mine}"
    if city is not None and city.owner != power:
        return f"the city of {name} is {city.owner}'s"
    if city is not None and province not in joined:
        return f"the city of {name} is not joined by roads to {power}'s capital"
    return f"a unit stands in {name}"


def builds_refusal(variant: DiplomacyOfTheEmpire, position: Position, power: str, count: int) -> str:
    """7, 2: a claimant builds where it has room, as far as its talents go."""
    state = EmpireState.of(position)
    if count > 0:
        sites = ", ".join(sorted(variant.name_of(p) for p in variant.build_sites(position, power)))
        return (f"{power} has room to build in {count} {'city' if count == 1 else 'cities'} only ({sites}), "
                "and its orders fill them")
    left = state.treasury.get(power, 0) - economy.upkeep(len(position.units_of(power)), state.inflation)
    price = economy.unit_price(INFANTRY, state.inflation)
    if left < price:
        return (f"{power} has {talents(max(left, 0))} after upkeep, less than an infantry costs "
                f"({talents(price)}): it builds nothing")
    if home_lost(variant, state, power):
        return build_site_refusal(variant, position, power, variant.homes[power])
    return f"{power} has no vacant city joined by roads to its capital to build in"


def adjustments(variant: DiplomacyOfTheEmpire, position: Position) -> list[Adjustment]:
    """2: a claimant that cannot pay its units' upkeep must disband down to a treasury of 0
    or more; otherwise it may build wherever it has room, as far as its money goes."""
    state = EmpireState.of(position)
    plan = []
    for power in sorted(state.treasury):
        units = len(position.units_of(power))
        each = economy.upkeep(1, state.inflation)
        short = economy.upkeep(units, state.inflation) - state.treasury[power]
        if short > 0:
            plan.append(Adjustment(power, -min(units, math.ceil(short / each)), frozenset()))
            continue
        sites = variant.build_sites(position, power)
        affords = -short >= economy.unit_price(INFANTRY, state.inflation)
        plan.append(Adjustment(power, len(sites) if affords else 0, sites))
    return plan
