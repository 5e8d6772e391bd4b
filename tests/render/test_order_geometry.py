"""Every order is visible and unambiguous, read from the scene's geometry: over the crowded
boards of every variant (each unit given a plausible order, on a movement phase) and the
plausible bot's games, no part of an arrowhead lies under a unit's mark (a dislodged unit's
included: it stands aside, clear of the marks around it), no two supports or convoys end on the
same point, and every order of a unit has its mark (a move of several steps one per leg)."""

from __future__ import annotations

import math
import random
from functools import lru_cache

import pytest

from gm.adjudicator.engine import PhaseReport, adjudicate
from gm.bots.plausible import PlausiblePlayer, plausible_start
from gm.domain.geography import Location
from gm.domain.orders import Build, Hold, Move, MoveThen, SupportHold, SupportMove, UnitRef, Waive
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import ARMY
from gm.render import style
from gm.render.order_marks import MIN_VISIBLE, Stroke, head_points
from gm.render.room import room_of
from gm.render.scene import DISLODGED_SIDES, Scene, build_scene, dislodged_offset, order_scene
from gm.render.spacing import spaced_shapes
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of
from tests.render.crowded import crowded

CATALOG = VariantCatalog()
UNDRAWN = (Hold, Waive, Build)  # a hold is the unit standing; a build, its ring


def body(mark) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    look = style.UnitStyle(mark.shape, mark.scale)
    return look.half_width(mark.double), look.half_height(mark.double)


def in_place(order: object) -> bool:
    """An order that names nothing but its unit (a hold, a sack): the unit is its mark."""
    return not any(isinstance(v, (Location, UnitRef, tuple)) for k, v in vars_of(order).items() if k != "unit")


def vars_of(order: object) -> dict[str, object]:
    return {k: getattr(order, k) for k in getattr(order, "__slots__", ()) or vars(order)}


def under(point: tuple[float, float], mark) -> bool:  # type: ignore[no-untyped-def]
    """``point`` lies under the unit's mark (its body, or a dislodged unit's ring), more than
    the width of an outline inside it."""
    half_w, half_h = body(mark)
    if mark.dislodged:
        half_w = half_h = mark.reach + 3.5
    if mark.shape == "army" or mark.dislodged:
        return math.dist(point, (mark.x, mark.y)) < half_w - 1.0
    return abs(point[0] - mark.x) < half_w - 1.0 and abs(point[1] - mark.y) < half_h - 1.0


def check(scene: Scene, report: PhaseReport) -> None:
    for stroke in scene.strokes:
        if stroke.head:  # the whole head: its corners, the middles of its sides, its middle
            for mark in scene.units:
                assert not any(under(p, mark) for p in head_points(stroke.head)), \
                    f"{stroke.order}: its head under the unit at {mark.x},{mark.y}"
    ends = [s.end for s in scene.strokes if s.kind in ("support", "convoy")]
    for i, a in enumerate(ends):
        for b in ends[i + 1:]:
            assert a is not None and b is not None and math.dist(a, b) > 2.0, f"two lines end at {a}"
    drawn = {s.order for s in scene.strokes} | {c.order for c in scene.crosses}
    for result in report.results:
        if result.order.unit is None or getattr(result.order, "start", None) == result.order.unit.location:
            continue  # a unit placed where it stands: the unit is its mark
        if not isinstance(result.order, UNDRAWN) and not in_place(result.order):
            assert str(result.order) in drawn, f"{result.power} {result.order} has no mark"


@lru_cache(maxsize=None)
def crowded_phase(name: str) -> tuple[Position, PhaseReport]:
    variant = CATALOG.get(name)
    board = crowded(variant)
    board = board.replace(dislodged=())
    while board.phase.kind is not PhaseKind.MOVEMENT:  # Roman Diplomacy starts with a Winter
        board = board.replace(phase=variant.calendar.following(board.phase))
    orders = PlausiblePlayer(variant, random.Random(1), support_rate=0.6, convoy_rate=0.6).orders(board)
    return board, adjudicate(variant, board, orders, seed="geometry")


@pytest.mark.parametrize("name", CATALOG.names())
def test_the_orders_on_a_crowded_board_are_each_visible(name: str) -> None:
    variant = CATALOG.get(name)
    board, report = crowded_phase(name)
    assert len(report.results) > 20
    scene = build_scene(variant, board, report)
    assert sum(1 for s in scene.strokes if s.head) >= 10  # the moves drawn, each head checked
    check(scene, report)


@pytest.mark.parametrize("name", CATALOG.names())
def test_a_dislodged_unit_stands_clear_of_every_other_units_mark(name: str) -> None:
    variant = CATALOG.get(name)
    board = crowded(variant)  # a few units dislodged beside units of every province
    scene = build_scene(variant, board)
    shapes = spaced_shapes(variant.map.name)

    def province(mark) -> str:  # type: ignore[no-untyped-def]
        return next(p for p, shape in shapes.provinces.items()
                    if any(math.dist((mark.x, mark.y), dislodged_offset(shape.spot(c), side)) < 0.01
                           for c in (None, *variant.map.provinces[p].coasts) for side in range(len(DISLODGED_SIDES))))

    dislodged = [m for m in scene.units if m.dislodged]
    assert dislodged
    crowded_out = []
    for mark in dislodged:
        own = shapes.provinces[province(mark)]
        half = mark.reach + 3.5
        others = [m for m in scene.units if m is not mark and abs(m.x - mark.x) < half + body(m)[0]
                  and abs(m.y - mark.y) < half + body(m)[1] and not _inside(own.path, m)]
        if others:
            crowded_out.append(mark)
    # with every province full, all eight sides of a small province's spot may be taken: a few
    assert len(crowded_out) <= len(dislodged) // 4, f"{len(crowded_out)} of {len(dislodged)} dislodged units over others"


def _inside(path: str, mark) -> bool:  # type: ignore[no-untyped-def]
    """The mark stands in the province of ``path`` (the units that took the dislodged one's place)."""
    room = room_of(path)
    return room is not None and room.holds((mark.x - 0.5, mark.y - 0.5, mark.x + 0.5, mark.y + 0.5))


@pytest.mark.slow
@pytest.mark.parametrize("name", CATALOG.names())
def test_the_orders_of_a_played_game_are_each_visible(name: str) -> None:
    variant = CATALOG.get(name)
    position = plausible_start(variant, random.Random(3)) if setup_of(variant).open_membership else variant.initial_position()
    player = PlausiblePlayer(variant, random.Random(9), support_rate=0.5, convoy_rate=0.5)
    for _ in range(30):
        report = adjudicate(variant, position, player.orders(position), seed="geometry")
        check(build_scene(variant, position, report), report)
        position = report.next


def arrows(scene: Scene, order: str) -> list[Stroke]:
    return [s for s in scene.strokes if s.order == order and s.head]


def test_a_move_into_an_occupied_province_stops_at_the_unit_s_edge() -> None:
    variant = CATALOG.get("standard")
    start = variant.initial_position()
    move = Move(UnitRef(Location("PAR"), ARMY), Location("BUR"))
    attack = Move(UnitRef(Location("MUN"), ARMY), Location("BUR"))
    scene = order_scene(variant, start, [("France", move), ("Germany", attack)])
    (french,), (german,) = arrows(scene, str(move)), arrows(scene, str(attack))
    assert math.dist(french.head[0], german.head[0]) < 6  # into an empty province: both at its spot
    scene = order_scene(variant, start, [("Germany", Move(UnitRef(Location("KIE"), ARMY), Location("BER")))])
    (arrow,) = scene.strokes
    berlin = next(m for m in scene.units if math.dist((m.x, m.y), arrow.head[0]) < 20)
    gap = math.dist((berlin.x, berlin.y), arrow.head[0])
    assert style.UNIT_RADIUS < gap < style.UNIT_RADIUS + 4  # at the edge of the unit it enters


def test_a_short_move_keeps_a_visible_length() -> None:
    variant = CATALOG.get("standard")
    start = variant.initial_position()
    for power, unit, goal in [("Germany", "BER", "KIE"), ("Germany", "MUN", "KIE"), ("Austria", "VIE", "BUD"),
                              ("Italy", "ROM", "NAP")]:
        move = Move(UnitRef(Location(unit), ARMY), Location(goal))
        (arrow,) = arrows(order_scene(variant, start, [(power, move)]), str(move))
        assert sum(math.dist(a, b) for a, b in zip(arrow.points(2), arrow.points(2)[1:])) + 12 >= MIN_VISIBLE


def test_supports_of_one_move_end_at_different_points_along_its_arrow() -> None:
    variant = CATALOG.get("standard")
    start = variant.initial_position()
    move = Move(UnitRef(Location("VIE"), ARMY), Location("GAL"))
    supports = [SupportMove(UnitRef(Location(where), ARMY), UnitRef(Location("VIE"), ARMY), Location("GAL"))
                for where in ("BUD", "WAR")]
    scene = order_scene(variant, start, [("Austria", move), ("Austria", supports[0]), ("Russia", supports[1])])
    (arrow,) = arrows(scene, str(move))
    along = arrow.points(1)
    ends = [next(s for s in scene.strokes if s.order == str(support)).end for support in supports]
    assert math.dist(ends[0], ends[1]) > 4  # type: ignore[arg-type]
    for end in ends:
        assert min(math.dist(end, p) for p in along) < 2  # type: ignore[arg-type]
        assert math.dist(end, arrow.head[0]) > 15  # type: ignore[arg-type]  # part-way, not at the head


def test_a_support_to_hold_ends_at_the_held_unit() -> None:
    variant = CATALOG.get("standard")
    support = SupportHold(UnitRef(Location("BUD"), ARMY), UnitRef(Location("VIE"), ARMY))
    scene = order_scene(variant, variant.initial_position(), [("Austria", support)])
    (line,) = scene.strokes
    vienna = min(scene.units, key=lambda m: math.dist((m.x, m.y), line.end))  # type: ignore[arg-type]
    assert vienna.letter == "A" and math.dist((vienna.x, vienna.y), line.end) < style.UNIT_RADIUS + 6  # type: ignore[arg-type]


def test_a_second_move_is_drawn_as_its_own_arrow_from_where_the_first_ends() -> None:
    variant = CATALOG.get("diplomacy-of-the-empire")
    start = variant.initial_position()
    unit = start.units[0]
    first = sorted(variant.map.neighbours[unit.location.province])[0]
    second = next(p for p in sorted(variant.map.neighbours[first]) if p != unit.location.province)
    order = MoveThen(UnitRef(unit.location, unit.type), (Location(first),), (Location(second),))
    scene = order_scene(variant, start, [(unit.power, order)])
    legs = arrows(scene, str(order))
    assert len(legs) == 2
    assert math.dist(legs[1].steps[0][0], legs[0].head[0]) < 25  # the second starts where the first ends


def test_every_phase_kind_draws_its_orders() -> None:
    variant = CATALOG.get("standard")
    player = PlausiblePlayer(variant, random.Random(4))
    position, seen = variant.initial_position(), set()
    for _ in range(40):
        report = adjudicate(variant, position, player.orders(position))
        check(build_scene(variant, position, report), report)
        seen.add(position.phase.kind)
        position = report.next
    assert seen == {PhaseKind.MOVEMENT, PhaseKind.RETREATS, PhaseKind.ADJUSTMENTS}


@pytest.mark.parametrize(("power", "one", "other"), [("Germany", "BER", "KIE"), ("Austria", "VIE", "BUD")])
def test_two_units_swapping_over_a_short_way_draw_two_arrows_a_head_apart(power: str, one: str, other: str) -> None:
    variant = CATALOG.get("standard")
    start = variant.initial_position()
    units = {u.location.province: u for u in start.units}
    there = Move(UnitRef(Location(one), units[one].type), Location(other))
    back = Move(UnitRef(Location(other), units[other].type), Location(one))
    scene = order_scene(variant, start, [(power, there), (power, back)])
    (a,), (b,) = arrows(scene, str(there)), arrows(scene, str(back))
    middle = [s.points(1)[len(s.points(1)) // 2] for s in (a, b)]
    assert math.dist(*middle) >= 12  # a head's width and more between the two lines
    assert min(math.dist(p, q) for p in head_points(a.head) for q in head_points(b.head)) > 4
