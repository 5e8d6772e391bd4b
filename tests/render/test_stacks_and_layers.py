"""Units sharing a province drawn side by side, unit types drawn by the style table, and a
variant's own layers (tints, markers, links) drawn from its state, on the engine's test deltas."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from render_pixels import Picture, rgb

from gm.adjudicator.engine import adjudicate
from gm.domain.orders import Move, SupportMove
from gm.domain.units import Mobility, Unit, UnitType
from gm.render import render_phase_png, render_phase_svg, style
from gm.render.layers import DrawsMapLayers
from gm.render.scene import Scene, UnitMark, build_scene
from gm.render.stacks import unit_style
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
    """The Rise of Rome II delta with layers from ``extra``, as a rules module draws them."""

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
            apart_y = abs(a.y - b.y) >= half_width(a) + half_width(b) - 1e-6
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
        assert covered(picture, mark, mark.fill) > 0.3, mark


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
        (style.normal(seas.map.powers[p].colour), len(units)) for p, units in fleets.items())
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
    assert {m.fill for m in build_scene(ROR, board).units} == {style.UNPLAYED[0],
                                                               style.normal(ROR.map.powers["Rome"].colour)}


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
    assert isinstance(ROR, DrawsMapLayers) and not isinstance(LeadersAndBridges(), DrawsMapLayers)
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
    rome = style.normal(ROR.map.powers["Rome"].colour)
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

        def map_layers(self, position, pen) -> None:  # type: ignore[no-untyped-def]
            pen.marker(**self.kwargs)

    board = position(ROR, "S-220M", {"Rome": ["A ROM"]})
    with pytest.raises(ValueError, match="no province 'XYZ'"):
        build_scene(Wrong(province="XYZ", symbol="square", legend="city"), board)
    with pytest.raises(ValueError, match="no symbol 'blob'"):
        build_scene(Wrong(province="ROM", symbol="blob", legend="city"), board)
