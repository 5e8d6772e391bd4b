"""Rules 7 and 8: barbarians. Barbarian occupation spreads at the end of each Spring and Fall,
after the retreats, and is cleared by armies at once; a centre it reaches turns neutral again,
with a garrison. Barbarian armies are raised with a build in a barbarian province, re-hired, or
released (they stand in civil disorder under ``Barbarian``); centres they take turn neutral."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gm.adjudicator.phaselog import PhaseLog
from gm.domain.geography import Location
from gm.domain.orders import Disband
from gm.domain.outcomes import OrderResult
from gm.domain.position import Position, sorted_units
from gm.domain.units import ARMY, Unit
from gm.variants.roman_diplomacy.state import RomanState
from gm.variants.roman_diplomacy.units import BARBARIAN, BARBARIAN_ARMY, GARRISON, NEUTRAL

if TYPE_CHECKING:
    from gm.variants.roman_diplomacy.rules import RomanDiplomacy


def released(units: list[Unit], results: Sequence[OrderResult]) -> list[Unit]:
    """8: a barbarian army no longer kept stands in civil disorder; one hired again leaves it."""
    for result in results:
        order, unit = result.order, result.unit
        if result.succeeded and isinstance(order, Disband) and unit is not None and unit.type is BARBARIAN_ARMY:
            units.append(Unit(BARBARIAN, BARBARIAN_ARMY, unit.location))
    hired = {u.location.province for u in units if u.type is BARBARIAN_ARMY and u.power != BARBARIAN}
    return [u for u in units if not (u.power == BARBARIAN and u.location.province in hired)]


def cleared(variant: RomanDiplomacy, position: Position) -> Position:
    """7, 8: an army of an empire clears the barbarian land it entered, at once; a barbarian
    army in civil disorder makes its province barbarian."""
    state = RomanState.of(position)
    barbarians = set(state.barbarians)
    for unit in position.units:
        province = unit.location.province
        if unit.type is ARMY and unit.power not in variant.unplayed_powers:
            barbarians.discard(province)
        elif unit.power == BARBARIAN:
            barbarians.add(province)
    if barbarians == set(state.barbarians):
        return position
    return position.replace(extra=state.changed(barbarians=frozenset(barbarians)).extra(position))


def spread(variant: RomanDiplomacy, position: Position, log: PhaseLog) -> Position:
    """7: "At the end of each turn" (a Spring or a Fall, its retreats made) every unoccupied
    land province next to barbarian land or the map's edge becomes barbarian, and a centre it
    reaches turns neutral with a garrison; a special build centre it reaches is lost."""
    state = RomanState.of(position)
    units, centres = list(position.units), position.centres_dict()
    barbarians, special = set(state.barbarians), dict(state.special)
    occupied = {u.location.province for u in units}
    near = variant.map.army_adjacency
    reached = sorted(p for p in variant.land if p not in occupied and p not in barbarians
                     and (p in variant.edge or any(q in barbarians for q in near.get(p, ()))))
    for province in reached:
        name = variant.map.provinces[province].name
        if province in variant.map.supply_centres:
            owner = centres.pop(province, None)
            units.append(Unit(NEUTRAL, GARRISON, Location(province)))
            if owner:
                log.announce(f"barbarians overrun {name}, {owner}'s: it is neutral again, with a garrison")
            continue
        barbarians.add(province)
        owner = special.pop(province, None)
        if owner:
            log.announce(f"barbarians overrun {name}, {owner}'s special build centre: {owner} loses it")
    board = position.replace(units=sorted_units(units), centres=centres)
    return board.replace(extra=state.changed(barbarians=frozenset(barbarians), special=special).extra(board))


def garrisoned(variant: RomanDiplomacy, position: Position) -> Position:
    """8: centres taken by barbarian armies get a neutral garrison (at the end of a Fall)."""
    units = list(position.units)
    for unit in position.units:
        province = unit.location.province
        if unit.type is BARBARIAN_ARMY and province in variant.map.supply_centres \
                and province not in position.centres and Unit(NEUTRAL, GARRISON, unit.location) not in units:
            units.append(Unit(NEUTRAL, GARRISON, unit.location))
    return position.replace(units=sorted_units(units))
