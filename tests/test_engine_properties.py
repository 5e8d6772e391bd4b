"""Properties of the engine over random positions and random legal orders (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.adjudicator.engine import adjudicate
from gm.bots.plausible import PlausiblePlayer
from gm.domain.geography import Location
from gm.domain.orders import Hold, Move, Order, UnitRef
from gm.domain.phases import PhaseKind
from gm.domain.position import Position, sorted_units
from gm.domain.units import ARMY, FLEET, Unit
from gm.variants.catalog import VariantCatalog

VARIANT = VariantCatalog().get("standard")
POWERS = sorted(VARIANT.map.powers)
PROVINCES = sorted(p.id for p in VARIANT.map.provinces.values() if p.holds_armies or p.holds_fleets)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Units scattered over the board: any power, any type the terrain allows."""
    chosen = draw(st.lists(st.sampled_from(PROVINCES), min_size=2, max_size=34, unique=True))
    units = []
    for province_id in chosen:
        province = VARIANT.map.provinces[province_id]
        types = [t for t in (ARMY, FLEET) if (t is ARMY and province.holds_armies) or (t is FLEET and province.holds_fleets)]
        unit_type = draw(st.sampled_from(types))
        location = Location(province_id)
        if unit_type is FLEET and province.coasts:
            location = Location(province_id, draw(st.sampled_from(province.coasts)))
        units.append(Unit(draw(st.sampled_from(POWERS)), unit_type, location))
    phase = VARIANT.calendar.parse(draw(st.sampled_from(["S1901M", "F1901M"])))
    return Position(phase, sorted_units(units), VARIANT.default_centres(units))


def _noise(position: Position, rng: random.Random) -> list[tuple[str, Order]]:
    """Orders a careless player writes: moves anywhere, some to impossible places."""
    orders: list[tuple[str, Order]] = []
    for unit in position.units:
        target = rng.choice(PROVINCES)
        order: Order = Move(UnitRef(unit.location, unit.type), Location(target), via_convoy=rng.random() < 0.2)
        if rng.random() < 0.2:
            order = Hold(UnitRef(unit.location))
        orders.append((unit.power, order))
    return orders


def _board(report) -> tuple:
    return (
        tuple(sorted(map(str, report.resolved.units))),
        tuple(sorted((str(d.unit), d.attacker_from, tuple(map(str, d.retreats))) for d in report.resolved.dislodged)),
    )


def _assert_sound(position: Position, orders: list[tuple[str, Order]]) -> None:
    report = adjudicate(VARIANT, position, orders)
    assert len(report.results) == len(orders)
    provinces = [u.location.province for u in report.resolved.units]
    assert len(provinces) == len(set(provinces)), "two units in one province"
    occupied = set(provinces)
    for d in report.resolved.dislodged:
        assert d.unit.location.province in occupied, "a dislodged unit's province is empty"
        assert not {r.province for r in d.retreats} & occupied, "retreat into an occupied province"
    for unit in report.next.units:
        assert VARIANT.can_stand(unit.type, unit.location), f"{unit} stands where it cannot"


@settings(max_examples=150, deadline=None)
@given(positions(), st.integers(0, 2**32 - 1))
def test_plausible_orders_never_break_the_board(position: Position, seed: int) -> None:
    _assert_sound(position, PlausiblePlayer(VARIANT, random.Random(seed)).movement(position))


@settings(max_examples=100, deadline=None)
@given(positions(), st.integers(0, 2**32 - 1))
def test_careless_orders_never_break_the_board(position: Position, seed: int) -> None:
    _assert_sound(position, _noise(position, random.Random(seed)))


@settings(max_examples=150, deadline=None)
@given(positions(), st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_order_of_the_lines_does_not_matter(position: Position, seed: int, shuffler: random.Random) -> None:
    orders = PlausiblePlayer(VARIANT, random.Random(seed)).movement(position)
    shuffled = list(orders)
    shuffler.shuffle(shuffled)
    first = adjudicate(VARIANT, position, orders)
    second = adjudicate(VARIANT, position, shuffled)
    assert _board(first) == _board(second)
    outcome = {(r.power, r.text): (r.succeeded, r.reason) for r in first.results}
    assert outcome == {(r.power, r.text): (r.succeeded, r.reason) for r in second.results}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_whole_random_games_stay_sound(seed: int) -> None:
    player = PlausiblePlayer(VARIANT, random.Random(seed))
    position = VARIANT.initial_position()
    for _ in range(40):
        orders = player.orders(position)
        report = adjudicate(VARIANT, position, orders)
        units = report.next.units
        assert len({u.location.province for u in units}) == len(units)
        assert set(report.next.centres) <= VARIANT.map.supply_centres
        if report.next.phase.kind is PhaseKind.ADJUSTMENTS:
            assert VARIANT.has_adjustments(report.next)
        if report.winner:
            break
        position = report.next
