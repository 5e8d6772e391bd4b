"""Diplomacy of the Empire's board picture ("cities, forts and roads drawn on the map"):
each city a mark in its province in its owner's colour, a dot, or a walled square when
fortified; each capital ringed in its owner's colour; each road a pale line edged dark between
its two cities' marks; each controlled territory filled with its claimant's colour; a legend
entry for each; all of it under the units."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from tests.render.render_pixels import Picture

from gm.cli.main import main
from gm.interchange import read_request
from gm.render import render_phase_png, render_phase_svg, style
from gm.render.colours import Palette, owned_fill
from gm.render.room import Room
from gm.render.scene import MarkerMark, Scene, build_scene
from gm.render.shapes import load_shapes
from gm.variants.diplomacy_of_the_empire import picture
from tests.variants.test_diplomacy_of_the_empire import CATALOG, EMPIRE, city, state

SVG = "{http://www.w3.org/2000/svg}"
SHAPES = load_shapes(EMPIRE.map.name)

CITIES = {
    "HIS": city("Hispania", fort=True, capital=True),
    "NAR": city("Hispania"),
    "AQU": city("Hispania", fort=True),
    "ITA": city("Italia", fort=True, capital=True),
    "DAL": city("Macedonia"),
    "MAC": city("Macedonia", capital=True),  # a capital rebuilt, not yet fortified
    "SYR": city("Mesopotamia", fort=True),
    "ARM": city("Mesopotamia"),
    "MES": city("Galatia", fort=True, capital=True),  # Mesopotamia's capital, taken by Galatia
}
ROADS = [["AQU", "HIS"], ["AQU", "NAR"], ["DAL", "ITA"], ["DAL", "MAC"], ["HIS", "NAR"], ["ITA", "NAR"],
         ["ARM", "MES"], ["ARM", "SYR"], ["MES", "SYR"]]
CONTROL = {"HIS": "Hispania", "NAR": "Hispania", "AQU": "Hispania", "LUS": "Hispania", "ITA": "Italia",
           "DAL": "Macedonia", "MAC": "Macedonia", "SYR": "Mesopotamia", "ARM": "Mesopotamia", "MES": "Galatia",
           "GAL": "Galatia"}
UNITS = {"Hispania": ["I HIS", "C NAR", "K AQU"], "Italia": ["I ITA", "F MAD"], "Macedonia": ["I DAL", "C MAC"],
         "Mesopotamia": ["I SYR"], "Galatia": ["I MES", "I GAL"]}


def _board():  # type: ignore[no-untyped-def]
    """A position as a game has it: no supply centres (the homes are centres only to the map loader)."""
    extra = state(cities=CITIES, roads=ROADS, control=CONTROL)
    return read_request({"variant": "diplomacy-of-the-empire", "phase": "F-40M", "units": UNITS,
                         "centers": {}, "extra": extra}, CATALOG).position


def _colour(power: str) -> str:
    return Palette(EMPIRE).colour(power)


def _city_marks(scene: Scene) -> dict[str, MarkerMark]:
    """Each city's own mark (a dot or a walled square), found as the one inside its province."""
    found: dict[str, MarkerMark] = {}
    for mark in scene.markers:
        if mark.symbol == "ring":
            continue
        (province,) = [p for p in CITIES if _room(p).contains(mark.x, mark.y)]
        assert province not in found, f"two marks for the city in {province}"
        found[province] = mark
    return found


def _room(province: str) -> Room:
    room = Room.of_path(SHAPES.provinces[province].path)
    assert room is not None
    return room


def test_each_city_is_marked_in_its_province_in_its_owners_colour_forts_walled() -> None:
    scene = build_scene(EMPIRE, _board())
    marks = _city_marks(scene)
    assert set(marks) == set(CITIES)
    for province, spec in CITIES.items():
        mark = marks[province]
        assert mark.colour == _colour(spec["owner"]), province
        assert mark.symbol == ("castle" if spec["fort"] else "dot"), province
        k = style.MARK_SIZE
        assert _room(province).holds((mark.x - k, mark.y - k, mark.x + k, mark.y + k)), province
    for unit in scene.units:  # every city's mark clear of every unit's mark
        for province, mark in marks.items():
            assert math.dist((unit.x, unit.y), (mark.x, mark.y)) > style.UNIT_RADIUS + style.MARK_SIZE, province


def test_each_capital_is_ringed_in_its_owners_colour_on_its_home() -> None:
    scene = build_scene(EMPIRE, _board())
    rings = {(m.x, m.y): m.colour for m in scene.markers if m.symbol == "ring"}
    capitals = {p: c["owner"] for p, c in CITIES.items() if c["capital"]}
    assert rings == {SHAPES.provinces[p].centre: _colour(owner) for p, owner in capitals.items()}
    marks = _city_marks(scene)
    for province in capitals:  # the city's own mark beside the ring, clear of it
        centre = SHAPES.provinces[province].centre
        assert centre is not None
        gap = math.dist(centre, (marks[province].x, marks[province].y)) - style.MARK_SIZE
        assert gap > style.CENTRE_RADIUS + 3 + 1.8, province


def test_each_road_is_a_line_between_its_two_cities_marks() -> None:
    scene = build_scene(EMPIRE, _board())
    marks = _city_marks(scene)
    drawn = set()
    for link in scene.links:
        assert link.colour == style.normal(picture.ROAD_COLOUR) and not link.dashed
        assert link.edge == "#111111"  # a pale line edged dark
        assert link.colour not in {_colour(p) for p in EMPIRE.map.powers}
        (a, b) = [tuple(map(float, point.split(","))) for point in link.d.lstrip("M").split(" L")]
        ends = []
        for end in (a, b):
            (province,) = [p for p, m in marks.items() if math.dist((m.x, m.y), end) < 0.06]
            ends.append(province)
        drawn.add(tuple(sorted(ends)))
    assert sorted(drawn) == sorted(tuple(r) for r in ROADS) and len(scene.links) == len(ROADS)


def test_controlled_territories_are_filled_with_their_claimants_colour() -> None:
    scene = build_scene(EMPIRE, _board())
    tints = {t.path: t.fill for t in scene.tints}
    assert len(scene.tints) == len(CONTROL)
    for province, power in CONTROL.items():
        assert tints[SHAPES.provinces[province].path] == owned_fill(_colour(power)), province


def test_the_legend_names_each_layer_and_the_layers_lie_under_the_units() -> None:
    board = _board()
    scene = build_scene(EMPIRE, board)
    texts = [picture.CONTROLLED, picture.ROAD, picture.CITY, picture.FORT, picture.CAPITAL]
    assert [e.text for e in scene.mark_legend if e.kind != "unit"] == texts
    assert {e.kind for e in scene.mark_legend} == {"tint", "link", "marker", "unit"}  # then the unit kinds
    samples = {e.text: e.sample for e in scene.mark_legend}
    assert (samples[picture.CITY], samples[picture.FORT], samples[picture.CAPITAL]) == ("dot", "castle", "ring")
    svg = render_phase_svg(EMPIRE, board)
    root = ET.fromstring(svg)
    assert [t.text for g in root.iter(f"{SVG}g") if g.get("class") == "mark-legend"
            for t in g.findall(f"{SVG}text")][:len(texts)] == texts
    first_unit = min(svg.index(f'<g transform="translate({u.x},{u.y})') for u in scene.units)
    assert svg.index('class="tints"') < svg.index('class="links"') < svg.index('class="markers"') < first_unit
    assert all("centre" not in e.detail for e in scene.legend)  # none here: territories and talents instead
    assert all(" unit" in e.detail and e.detail.endswith(("talent", "talents")) and " territor" in e.detail
               for e in scene.legend)


def test_the_png_shows_the_cities_the_roads_and_the_control() -> None:
    board = _board()
    scene = build_scene(EMPIRE, board)
    shot = Picture(render_phase_png(EMPIRE, board))
    top = style.TITLE_HEIGHT
    for province, mark in _city_marks(scene).items():
        if CITIES[province]["fort"]:  # the walled square's body, under its notch
            assert shot.has(mark.x, mark.y + top + style.MARK_SIZE / 2, mark.colour, tolerance=16), province
        else:
            assert shot.has(mark.x, mark.y + top, mark.colour, tolerance=16, radius=0), province
    for ring in (m for m in scene.markers if m.symbol == "ring"):  # the ring, left of its centre mark
        assert shot.has(ring.x - style.CENTRE_RADIUS - 3, ring.y + top, ring.colour, tolerance=16, radius=0)
    road = style.normal(picture.ROAD_COLOUR)
    for link in scene.links:  # somewhere along the middle of each road, its pale colour
        (a, b) = [tuple(map(float, point.split(","))) for point in link.d.lstrip("M").split(" L")]
        along = [(a[0] + (b[0] - a[0]) * t / 20, a[1] + (b[1] - a[1]) * t / 20 + top) for t in range(6, 15)]
        assert any(shot.has(x, y, road, tolerance=16, radius=0) for x, y in along), link
    lus = SHAPES.provinces["LUS"]  # a controlled territory without a city or a unit
    tinted = owned_fill(_colour("Hispania"))
    assert shot.has(lus.unit[0], lus.unit[1] + top, tinted, tolerance=6)
    for unit in scene.units:  # the units stay on top
        assert shot.has(unit.x - style.UNIT_RADIUS / 2, unit.y + top + style.UNIT_RADIUS / 3, unit.fill,
                        tolerance=16, radius=0), unit


def test_the_start_shows_seven_fortified_capitals_and_no_roads() -> None:
    scene = build_scene(EMPIRE, EMPIRE.initial_position())
    assert sorted((m.symbol, m.colour) for m in scene.markers) == sorted(
        (symbol, _colour(p)) for p in EMPIRE.map.powers for symbol in ("castle", "ring"))
    assert not scene.links and len(scene.tints) == len(EMPIRE.map.powers)
    assert [e.text for e in scene.mark_legend] == [picture.CONTROLLED, picture.FORT, picture.CAPITAL, "infantry"]


@pytest.mark.parametrize("extra", [[], ["--sample-phases", "16", "--seed", "1"]])
def test_gm_render_map_draws_the_variants_layers(tmp_path: Path, extra: list[str]) -> None:
    svg = tmp_path / "board.svg"
    assert main(["render-map", "diplomacy-of-the-empire", *extra, "-o", str(svg)]) == 0
    text = svg.read_text()
    assert 'class="markers"' in text and picture.CAPITAL in text and picture.FORT in text
    if extra:
        assert 'class="order' in text
    png = tmp_path / "board.png"
    assert main(["render-map", "diplomacy-of-the-empire", *extra, "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
