"""Units sharing a province drawn side by side, unit types drawn by the style table, and a
variant's own layers (tints, markers, links) drawn from its state, on the engine's test deltas."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from render_pixels import Picture, rgb

from gm.adjudicator.engine import adjudicate
from gm.adjudicator.parts import Parts
from gm.domain.orders import Move, SupportMove
from gm.domain.units import Mobility, Unit, UnitType
from gm.orders.grammar import ORDER_GRAMMAR
from gm.render import render_phase_png, render_phase_svg, style
from gm.render.colours import UNPLAYED, Palette
from gm.render.layers import MAP_LAYERS
from gm.render.scene import Scene, UnitMark, build_scene, unit_mark
from gm.render.shapes import load_shapes
from gm.render.stacks import Piece, lay_out, unit_style
from tests.engine.deltas import (
    CATAPULT,
    CAVALRY,
    DOUBLE_ARMY,
    GARRISON,
    INFANTRY,
    LEADER,
    Garrisons,
    LeadersAndBridges,
    Seas,
    loc,
    position,
    ref,
)
from tests.orders.variant_grammars import BARBARIAN

SVG = "{http://www.w3.org/2000/svg}"


class Drawn(LeadersAndBridges):
    """The Rise of Rome II delta with layers from ``extra``, as a variant's part draws them."""

    def __init__(self) -> None:
        super().__init__()
        self.parts = Parts({ORDER_GRAMMAR.name: lambda: self.extend_order_grammar,
                            MAP_LAYERS.name: lambda: self.map_layers})

    def map_layers(self, position, pen) -> None:  # type: ignore[no-untyped-def]
        for province in position.extra.get("barbarians", []):
            pen.tint(province, "barbarian land", colour="#8b5a2b")
        for province in position.extra.get("sacked", []):
            pen.marker(province, "cross", "sacked centre")
        for province, owner in position.extra.get("cities", {}).items():
            pen.marker(province, "square", "city", power=owner)
            pen.marker(province, "castle", "fort", power=owner)
        for a, b in position.extra.get("roads", []):
            pen.link(a, b, "road")


ROR = Drawn()
STACKED = {"Rome": ["A ROM", "L ROM", "2A CAM", "F TYR", "F TYR"], "Carthage": ["A CAR", "L CAR", "2F AFR"],
           "Neutral": ["A SIC"]}


def half_width(mark: UnitMark) -> float:
    """The room a mark takes: its shape, and its count's badge."""
    badge = style.BADGE_RADIUS if mark.count > 1 else 0.0
    return style.UnitStyle(mark.shape, mark.scale, mark.double).half_width(mark.double) + badge


def half_height(mark: UnitMark) -> float:
    """The height a mark takes, up and down alike: its shape, or its count's badge above its corner."""
    badge = mark.scale * (style.BADGE_CORNER * style.UNIT_RADIUS + style.BADGE_RADIUS) if mark.count > 1 else 0.0
    return max(style.UnitStyle(mark.shape, mark.scale, mark.double).half_height(mark.double), badge)


def marks_by_spot(scene: Scene, variant, board) -> dict[str, list[UnitMark]]:  # type: ignore[no-untyped-def]
    """The unit marks of each province, found as the marks nearest its spot."""
    from gm.render.shapes import load_shapes

    shapes = load_shapes(variant.map.name)
    found: dict[str, list[UnitMark]] = {}
    for mark in scene.units:
        nearest = min({u.location.province for u in board.units},
                      key=lambda p: math.dist(shapes.provinces[p].unit, (mark.x, mark.y)))
        found.setdefault(nearest, []).append(mark)
    return found


def assert_apart(marks: list[UnitMark]) -> None:
    for i, a in enumerate(marks):
        for b in marks[i + 1:]:
            apart_x = abs(a.x - b.x) >= half_width(a) + half_width(b) - 1e-6
            apart_y = abs(a.y - b.y) >= half_height(a) + half_height(b) - 1e-6
            assert apart_x or apart_y, f"{a} overlaps {b}"


def test_units_sharing_a_province_stand_side_by_side_and_never_overlap() -> None:
    board = position(ROR, "S-220M", STACKED)
    scene = build_scene(ROR, board)
    assert sum(m.count for m in scene.units) == len(board.units)
    by_province = marks_by_spot(scene, ROR, board)
    assert [m.letter for m in by_province["ROM"]] == ["A", "L"]
    assert len(by_province["TYR"]) == 2 and {m.count for m in by_province["TYR"]} == {1}
    for marks in by_province.values():
        assert_apart(marks)
        if len(marks) > 1:
            assert len({round(m.y, 6) for m in marks}) == 1  # one row, centred on the spot


def test_each_unit_of_a_stack_shows_in_its_power_colour_in_the_png() -> None:
    board = position(ROR, "S-220M", STACKED)
    scene = build_scene(ROR, board)
    picture = Picture(render_phase_png(ROR, board))
    for mark in scene.units:
        assert covered(picture, mark, mark.fill) > 0.25, mark


def covered(picture: Picture, mark: UnitMark, colour: str) -> float:
    """The share of the mark's inner square in ``colour`` (the letter takes the rest)."""
    want, r = rgb(colour), 0.6 * half_width(mark)
    points = [(mark.x + dx * r / 4, mark.y + style.TITLE_HEIGHT + dy * r / 4) for dx in range(-4, 5) for dy in range(-4, 5)]
    return sum(all(abs(a - b) <= 12 for a, b in zip(picture.at(x, y), want)) for x, y in points) / len(points)


def test_past_a_row_identical_units_share_a_mark_with_their_count() -> None:
    seas = Seas()
    fleets = {"Alexandria": ["F MIN"] * 5, "Byzantium": ["F MIN"] * 2, "Ephesus": ["F MIN"]}
    board = position(seas, "S118M", fleets)
    scene = build_scene(seas, board)
    assert sorted((m.fill, m.count) for m in scene.units) == sorted(
        (Palette(seas).colour(p), len(units)) for p, units in fleets.items())
    assert_apart(scene.units)
    badges = re.findall(r'font-size="9" font-weight="bold" text-anchor="middle" fill="#111111">(\d+)</text>',
                        render_phase_svg(seas, board))
    assert sorted(badges) == ["2", "5"]


def test_many_kinds_in_one_sea_wrap_into_rows() -> None:
    seas = Seas()
    powers = list(seas.map.powers)[:6]
    board = position(seas, "S118M", {p: ["F MIN"] for p in powers})
    scene = build_scene(seas, board)
    assert len(scene.units) == 6 and len({round(m.y, 3) for m in scene.units}) == 2
    assert_apart(scene.units)


def area_of(variant, province: str):  # type: ignore[no-untyped-def]
    """The province's area as drawn (its rings filled even-odd), as a shapely geometry."""
    from shapely.geometry import Polygon

    area = None
    for ring in re.findall(r"M([^MZ]+)Z", load_shapes(variant.map.name).provinces[province].path):
        polygon = Polygon([tuple(map(float, point.split())) for point in ring.split("L")])
        area = polygon if area is None else area.symmetric_difference(polygon)
    return area


def footprint(mark: UnitMark):  # type: ignore[no-untyped-def]
    from shapely.geometry import box

    w, h = half_width(mark), half_height(mark)
    return box(mark.x - w, mark.y - h, mark.x + w, mark.y + h)


@pytest.mark.parametrize(("sea", "count"), [("MIN", 2), ("SMI", 3), ("MGA", 5), ("MTY", 5)])
def test_a_stack_too_wide_for_its_sea_around_the_spot_is_drawn_inside_the_sea(sea: str, count: int) -> None:
    seas = Seas()
    powers = list(seas.map.powers)[:count]
    board = position(seas, "S118M", {p: [f"F {sea}"] for p in powers})
    scene = build_scene(seas, board)
    area = area_of(seas, sea)
    spot = load_shapes(seas.map.name).provinces[sea].unit
    in_rows = lay_out([Piece(u, unit_style(u.type), False) for u in board.units], spot)  # as stacks stood before
    assert not all(area.contains(footprint(unit_mark(p, "#000000"))) for p in in_rows)
    assert sorted(m.fill for m in scene.units) == sorted(Palette(seas).colour(p) for p in powers)
    assert all(area.contains(footprint(m)) for m in scene.units), [m for m in scene.units
                                                                  if not area.contains(footprint(m))]
    assert_apart(scene.units)


def test_a_stack_too_big_for_a_narrow_sea_is_drawn_smaller_inside_it_and_at_worst_centred_in_it() -> None:
    seas = Seas()
    powers = list(seas.map.powers)
    shrunk = build_scene(seas, position(seas, "S118M", {p: ["F MCR"] for p in powers[:3]})).units
    assert {m.scale for m in shrunk} == {style.STACK_SHRINK}
    assert all(area_of(seas, "MCR").contains(footprint(m)) for m in shrunk)
    assert_apart(shrunk)
    tiny = build_scene(seas, position(seas, "S118M", {p: ["F PRO"] for p in powers[:3]})).units
    from shapely.geometry import Point

    assert all(area_of(seas, "PRO").contains(Point(m.x, m.y)) for m in tiny)  # no room for the whole marks
    assert_apart(tiny)


def test_a_stack_that_fits_around_its_spot_stays_there() -> None:
    seas = Seas()
    spot = load_shapes(seas.map.name).provinces["OAT"].unit
    marks = build_scene(seas, position(seas, "S118M", {p: ["F OAT"] for p in list(seas.map.powers)[:3]})).units
    assert {round(m.y, 6) for m in marks} == {spot[1]} and sum(m.x for m in marks) / 3 == pytest.approx(spot[0])
    assert {m.scale for m in marks} == {1.0}


def test_a_provinces_room_is_its_area_with_holes() -> None:
    from gm.render.room import Room, nearest_fit

    room = Room.of_path("M0 0L100 0L100 100L0 100ZM40 40L60 40L60 60L40 60Z")  # a sea with an island
    assert room is not None
    assert room.contains(10, 10) and not room.contains(50, 50) and not room.contains(150, 50)
    assert room.holds((5, 5, 35, 35)) and not room.holds((30, 30, 45, 45)) and not room.holds((90, 90, 110, 95))
    assert not room.holds((30, 30, 70, 70))  # around the island: its coast crosses the box
    assert nearest_fit(room, (50, 50), [(-10, -10, 10, 10)]) in {(50.0, 29.0), (29.0, 50.0), (50.0, 71.0), (71.0, 50.0)}
    assert nearest_fit(room, (50, 50), [(-60, -5, 60, 5)]) is None
    assert Room.of_path("M0 0C10 10 20 20 30 0Z") is None  # curves: no room known, the spot as ever


@pytest.mark.parametrize(("unit_type", "shape", "double"), [
    (LEADER, "star", False), (GARRISON, "square", False), (DOUBLE_ARMY, "army", True), (BARBARIAN, "burst", False),
    (INFANTRY, "army", False), (CAVALRY, "diamond", False), (CATAPULT, "triangle", False),
    (UnitType("Q", "war elephant", Mobility.LAND), "hexagon", False),
    (UnitType("T", "trireme", Mobility.SEA), "fleet", False),
    (UnitType("W", "watchtower", Mobility.NONE), "square", False),
])
def test_unit_types_are_drawn_by_the_style_table(unit_type: UnitType, shape: str, double: bool) -> None:
    assert (unit_style(unit_type).shape, unit_style(unit_type).double) == (shape, double)


def test_a_unit_worth_two_gets_a_second_rim_and_every_type_shows_its_letter() -> None:
    class Heavy(Garrisons):
        def strength(self, unit: Unit) -> float:
            return 2 if unit.type is GARRISON else 1

    variant = Heavy()
    board = position(variant, "S100M", {"Latium": ["G ROM", "A ROM", "F TYS"]})
    marks = {m.letter: m for m in build_scene(variant, board).units}
    assert marks["G"].double and marks["G"].shape == "square" and not marks["A"].double
    svg = render_phase_svg(variant, board)
    for letter in ("G", "A", "F"):
        assert f">{letter}</text>" in svg
    assert svg.count(f'scale({style.DOUBLE_RIM})') == 1


def test_unplayed_powers_units_are_grey() -> None:
    board = position(ROR, "S-220M", {"Neutral": ["A SIC"], "Rome": ["A ROM"]})
    assert {m.fill for m in build_scene(ROR, board).units} == {UNPLAYED[0], Palette(ROR).colour("Rome")}


def start_of(d: str) -> tuple[float, float]:
    x, y = re.match(r"M([\d.]+),([\d.]+)", d).groups()  # type: ignore[union-attr]
    return float(x), float(y)


def test_orders_of_units_sharing_a_province_start_at_their_own_marks() -> None:
    board = position(ROR, "S-220M", {"Rome": ["A ROM", "L ROM", "F TYR", "F TYR"]})
    orders = [("Rome", Move(ref(ROR, "A ROM"), loc("ETU"))), ("Rome", Move(ref(ROR, "L ROM"), loc("UMB"))),
              ("Rome", Move(ref(ROR, "F TYR"), loc("LIS"))), ("Rome", Move(ref(ROR, "F TYR"), loc("ION")))]
    report = adjudicate(ROR, board, orders)
    scene = build_scene(ROR, board, report)
    assert len(scene.strokes) == 4
    nearest = [min(scene.units, key=lambda m: math.dist((m.x, m.y), start_of(k.d))) for k in scene.strokes]
    assert [m.letter for m in nearest] == ["A", "L", "F", "F"]
    assert nearest[2] is not nearest[3], "identical units take their orders' arrows in turn"


def test_a_stack_overpowered_is_drawn_dislodged_side_by_side() -> None:
    board = position(ROR, "S-220M", {"Rome": ["A ROM", "L ROM"], "Carthage": ["A CAM", "A APU", "A ETU"]})
    orders = [("Carthage", Move(ref(ROR, "A CAM"), loc("ROM"))),
              ("Carthage", SupportMove(ref(ROR, "A APU"), ref(ROR, "A CAM"), loc("ROM"))),
              ("Carthage", SupportMove(ref(ROR, "A ETU"), ref(ROR, "A CAM"), loc("ROM")))]
    report = adjudicate(ROR, board, orders)
    assert len(report.resolved.dislodged) == 2
    dislodged = [m for m in build_scene(ROR, board, report).units if m.dislodged]
    assert sorted(m.letter for m in dislodged) == ["A", "L"]
    assert_apart(dislodged)
    retreat = build_scene(ROR, report.next)
    assert sorted(m.letter for m in retreat.units if m.dislodged) == ["A", "L"]


LAYERED = {"barbarians": ["GAU", "GER"], "sacked": ["SYR"], "cities": {"ROM": "Rome", "NUM": "Carthage"},
           "roads": [["ROM", "ETU"], ["CAR", "NUM"]]}


def test_a_variants_layers_are_drawn_from_its_state_with_a_legend() -> None:
    assert ROR.parts.get(MAP_LAYERS) is not None and LeadersAndBridges().parts.get(MAP_LAYERS) is None
    board = position(ROR, "S-220M", {"Rome": ["A ROM"]}, extra=LAYERED)
    plain = build_scene(ROR, position(ROR, "S-220M", {"Rome": ["A ROM"]}))
    scene = build_scene(ROR, board)
    assert len(scene.tints) == 2 and [p.pattern for p in scene.tint_patterns] == ["hatch"]
    assert len(scene.links) == 2
    assert sorted(m.symbol for m in scene.markers) == ["castle", "castle", "cross", "square", "square"]
    assert [e.text for e in scene.mark_legend] == ["barbarian land", "road", "sacked centre", "city", "fort"]
    assert scene.height > plain.height and not plain.mark_legend and not plain.tints
    city = next(e for e in scene.mark_legend if e.text == "city")
    assert city.colour == style.MARK_INK  # cities of two owners: the sample in neutral ink
    rome = Palette(ROR).colour("Rome")
    assert any(m.symbol == "square" and m.colour == rome for m in scene.markers)
    svg = render_phase_svg(ROR, board)
    root = ET.fromstring(svg)
    assert len(root.findall(f".//{SVG}pattern")) == 1
    assert [t.text for g in root.iter(f"{SVG}g") if g.get("class") == "mark-legend"
            for t in g.findall(f"{SVG}text")] == ["barbarian land", "road", "sacked centre", "city", "fort"]


def test_the_tints_and_markers_show_in_the_png() -> None:
    from gm.render.shapes import load_shapes

    board = position(ROR, "S-220M", {"Rome": ["A ROM"]}, extra=LAYERED)
    picture = Picture(render_phase_png(ROR, board))
    shapes = load_shapes(ROR.map.name)
    x, y = shapes.provinces["GER"].label
    hatch = [picture.at(x + dx, y + style.TITLE_HEIGHT + dy) for dx in range(-30, 31, 2) for dy in (-14, 14)]
    assert any(all(abs(a - b) <= 12 for a, b in zip(c, rgb("#8b5a2b"))) for c in hatch)
    cx, cy = shapes.provinces["SYR"].centre  # type: ignore[misc]
    assert picture.has(cx + style.MARK_SIZE + 1, cy + style.TITLE_HEIGHT + style.MARK_SIZE + 1, style.MARK_INK,
                       tolerance=20, radius=0)


def test_a_layer_on_an_unknown_province_or_symbol_is_refused() -> None:
    class Wrong(LeadersAndBridges):
        def __init__(self, **kwargs: str) -> None:
            super().__init__()
            self.kwargs = kwargs
            self.parts = Parts({MAP_LAYERS.name: lambda: self.map_layers})

        def map_layers(self, position, pen) -> None:  # type: ignore[no-untyped-def]
            pen.marker(**self.kwargs)

    board = position(ROR, "S-220M", {"Rome": ["A ROM"]})
    with pytest.raises(ValueError, match="no province 'XYZ'"):
        build_scene(Wrong(province="XYZ", symbol="square", legend="city"), board)
    with pytest.raises(ValueError, match="no symbol 'blob'"):
        build_scene(Wrong(province="ROM", symbol="blob", legend="city"), board)
