"""Properties of the engine with stacks, amounts and steps (hypothesis), over the test deltas:
the order of the order lines never changes a result, no unit is lost or duplicated, the board
after a phase is one the variant allows, and a stacked position with variant state round-trips
through the store's codec and the interchange."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.adjudicator.engine import PhaseReport, adjudicate
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location, Terrain
from gm.domain.orders import Hold, Move, MoveAlongPath, MoveInRounds, MoveThen, Order, SupportHold, SupportMove, UnitRef
from gm.domain.position import Position, sorted_units
from gm.domain.units import Mobility, Unit
from gm.interchange import read_request
from gm.store.codec import decode_position, encode_position

from .deltas import DOUBLE_ARMY, FLEET, LEADER, Garrisons, GARRISON, LeadersAndBridges, Lead, Roads, Rounds

DELTAS: dict[str, Variant] = {v.name: v for v in (LeadersAndBridges(), Rounds(), Roads(), Garrisons())}
POWERS = ["Red", "Blue", "Green"]


class _Catalog:
    def get(self, name: str) -> Variant:
        return DELTAS[name]


def _types_for(variant: Variant, province: str) -> list:
    terrain = variant.map.provinces[province]
    return [t for t in variant.unit_types if t.mobility is not Mobility.NONE and t is not LEADER
            and ((t.mobility is Mobility.LAND and terrain.holds_armies) or (t.mobility is Mobility.SEA and terrain.holds_fleets
                                                                            and not terrain.coasts))]


@st.composite
def boards(draw: st.DrawFn, variant: Variant) -> Position:
    """Units crowded into one region of the board (so that they fight); where the variant
    allows, a leader or a garrison beside a unit of its own power."""
    provinces = sorted(p.id for p in variant.map.provinces.values()
                       if p.terrain is not Terrain.IMPASSABLE and _types_for(variant, p.id))
    region = [draw(st.sampled_from(provinces))]
    size = draw(st.integers(2, 20))
    for here in region:
        if len(region) >= size:
            break
        region.extend(p for p in sorted(variant.map.neighbours.get(here, ())) if p in provinces and p not in region)
    chosen = [p for p in region[:size] if draw(st.integers(0, 4))]
    units = []
    for province in chosen or region[:2]:
        power = draw(st.sampled_from((variant.powers or POWERS)[:3]))
        unit_type = draw(st.sampled_from(_types_for(variant, province)))
        units.append(Unit(power, unit_type, Location(province)))
        companion = LEADER if LEADER in variant.unit_types else GARRISON if GARRISON in variant.unit_types else None
        if companion is not None and draw(st.integers(0, 3)) == 0:
            units.append(Unit(power, companion, Location(province)))
    phase = variant.calendar.first_phase(variant.first_year)
    return Position(phase, sorted_units(units), {})


def _neighbours(variant: Variant, unit: Unit) -> list[Location]:
    return [loc for p in sorted(variant.map.neighbours.get(unit.location.province, ()))
            for loc in variant.destinations(unit, p)]


def _orders(variant: Variant, board: Position, rng: random.Random) -> list[tuple[str, Order]]:
    """One order for each unit: holds, moves, supports of its neighbours, journeys, leads."""
    orders: dict[int, tuple[str, Order]] = {}
    agreed: dict[int, Order] = {}  # moves that a support was given for
    for slot, unit in enumerate(board.units):
        me = UnitRef(unit.location, unit.type)
        near = _neighbours(variant, unit)
        roll = rng.random()
        order: Order = Hold(me)
        if unit.type is LEADER and roll < 0.4:
            led = next((u for u in board.units if u.location == unit.location and u is not unit), None)
            order = Lead(me, UnitRef(led.location, led.type)) if led else Hold(me)
        elif near and roll < 0.45:
            order = Move(me, rng.choice(near))
        elif near and roll < 0.65:
            route = [rng.choice(near)]
            here = unit.moved_to(route[0])
            for _ in range(rng.randint(1, 3)):
                onward = [loc for loc in _neighbours(variant, here) if loc.province not in {r.province for r in route}
                          and loc.province != unit.location.province]
                if not onward:
                    break
                route.append(rng.choice(onward))
                here = here.moved_to(route[-1])
            shape = rng.choice((MoveInRounds, MoveAlongPath, MoveThen))
            if shape is MoveThen:
                order = MoveThen(me, tuple(route[:1]), tuple(route[1:]))
            else:
                order = shape(me, tuple(route))
        elif near and roll < 0.9:
            reach = {n.province for n in near}
            held = [u for u in board.units if u is not unit and u.location.province in reach]
            moving = [(u, n) for u in board.units if u is not unit for n in _neighbours(variant, u) if n.province in reach]
            if moving and (rng.random() < 0.6 or not held):
                helped, into = rng.choice(moving)
                order = SupportMove(me, UnitRef(helped.location, helped.type), into.whole)
                if rng.random() < 0.7:
                    agreed[board.units.index(helped)] = Move(UnitRef(helped.location, helped.type), into)
            elif held:
                helped = rng.choice(held)
                order = SupportHold(me, UnitRef(helped.location, helped.type))
        orders[slot] = (unit.power, order)
    for slot, move in agreed.items():
        orders[slot] = (board.units[slot].power, move)
    return [orders[slot] for slot in sorted(orders)]


def _results(report: PhaseReport) -> list[tuple[str, str, bool, str | None, tuple[str, ...]]]:
    return sorted((r.power, r.text, r.succeeded, r.reason_text, r.notes) for r in report.results)


def _board(report: PhaseReport) -> tuple:
    return (sorted(f"{u.power} {u}" for u in report.resolved.units),
            sorted((f"{d.unit.power} {d.unit}", d.attacker_from, tuple(map(str, d.retreats))) for d in report.resolved.dislodged),
            sorted(f"{u.power} {u}" for u in report.next.units))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(DELTAS)), st.data(), st.integers(0, 2**32))
def test_the_order_of_the_order_lines_never_changes_a_result(name: str, data: st.DataObject, seed: int) -> None:
    variant = DELTAS[name]
    board = data.draw(boards(variant))
    orders = _orders(variant, board, random.Random(seed))
    shuffled = orders[:]
    random.Random(seed + 1).shuffle(shuffled)
    first, second = adjudicate(variant, board, orders), adjudicate(variant, board, shuffled)
    assert _results(first) == _results(second)
    assert _board(first) == _board(second)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(DELTAS)), st.data(), st.integers(0, 2**32))
def test_no_unit_is_lost_or_duplicated_and_every_stack_is_allowed(name: str, data: st.DataObject, seed: int) -> None:
    variant = DELTAS[name]
    board = data.draw(boards(variant))
    report = adjudicate(variant, board, _orders(variant, board, random.Random(seed)))
    resolved = report.resolved
    for power in {u.power for u in board.units}:
        before = sum(1 for u in board.units if u.power == power)
        after = sum(1 for u in resolved.units if u.power == power)
        gone = sum(1 for d in resolved.dislodged if d.unit.power == power) + sum(1 for u, _ in report.destroyed if u.power == power)
        assert before == after + gone, power
    by_province: dict[str, list[Unit]] = {}
    for unit in resolved.units:
        by_province.setdefault(unit.location.province, []).append(unit)
    for together in by_province.values():
        assert variant.stack_problem(together) is None, together


def _interchange(position: Position) -> dict[str, Any]:
    units: dict[str, list[str]] = {}
    for unit in position.units:
        units.setdefault(unit.power, []).append(str(unit))
    return {"variant": "", "phase": str(position.phase), "units": units, "centers": dict(position.centres),
            "extra": dict(position.extra)}


EXTRA = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                     max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["leaders", "garrisons"]), st.data(), st.dictionaries(st.text(min_size=1, max_size=8), EXTRA, max_size=4))
def test_a_stacked_position_round_trips_through_the_store_and_the_interchange(
        name: str, data: st.DataObject, extra: dict[str, Any]) -> None:
    variant = DELTAS[name]
    board = data.draw(boards(variant)).replace(extra=extra)
    if DOUBLE_ARMY in variant.unit_types and board.units and board.units[0].type.mobility is Mobility.LAND:
        first = board.units[0]
        board = board.replace(units=sorted_units([Unit(first.power, DOUBLE_ARMY, first.location), *board.units[1:]]))
    decoded = decode_position(variant, encode_position(board))  # the store keeps units by power, then text
    assert decoded.replace(units=sorted_units(decoded.units)) == board
    document = _interchange(board)
    document["variant"] = name
    request = read_request(document, _Catalog())  # type: ignore[arg-type]
    assert request.position.units == board.units
    assert dict(request.position.extra) == extra
