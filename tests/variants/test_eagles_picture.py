"""Eagles' board picture: fleets of several powers sharing a sea, two, three and five of them,
each drawn in its owner's colour inside its sea and clear of the others; the neutral defending
armies drawn in the unplayed grey; the barbarian lands hatched with their legend.

The picture does not mark a fleet damaged by a winter storm: the results say which ones are
(and ``extra.damaged``); on the board it is drawn as any fleet."""

from __future__ import annotations

import io
import re

from PIL import Image
from shapely.geometry import Point, Polygon, box

from gm.interchange import read_request
from gm.render import render_phase_png, render_phase_svg, style
from gm.render.colours import UNPLAYED, Palette
from gm.render.scene import UnitMark, build_scene
from gm.render.shapes import load_shapes
from gm.variants.catalog import VariantCatalog

CATALOG = VariantCatalog()
EAGLES = CATALOG.get("eagles")

STACKS = {  # sea: the owners of its fleets, one entry per fleet
    "MIN": ["Alexandria", "Byzantium"],
    "SMI": ["Carthago Nova", "Leptis Magna", "Alexandria"],
    "MIO": ["Alexandria", "Alexandria", "Byzantium", "Ephesus", "Carthago Nova"],
}
NEUTRAL = ["A CAR", "A PAL", "A APU", "A SIC"]


def _board():  # type: ignore[no-untyped-def]
    units: dict[str, list[str]] = {"Neutral": list(NEUTRAL), "Lutetia": ["A ROM"]}
    for sea, owners in STACKS.items():
        for owner in owners:
            units.setdefault(owner, []).append(f"F {sea}")
    centres = {"Alexandria": ["ALX"], "Byzantium": ["BYZ"], "Lutetia": ["LUT", "ROM"]}
    extra = {"damaged": [{"power": "Byzantium", "unit": "F MIN", "damage": "light"}]}
    return read_request({"variant": "eagles", "phase": "S119M", "units": units, "centers": centres,
                         "extra": extra}, CATALOG).position


def _area(province: str):  # type: ignore[no-untyped-def]
    """The province's area as drawn: its rings of the shape file, filled even-odd."""
    area = None
    for ring in re.findall(r"M([^MZ]+)Z", load_shapes(EAGLES.map.name).provinces[province].path):
        polygon = Polygon([tuple(map(float, point.split())) for point in ring.split("L")])
        area = polygon if area is None else area.symmetric_difference(polygon)
    return area


def _extent(mark: UnitMark) -> tuple[float, float]:
    """Half the width and half the height the mark takes, its count's badge included."""
    look = style.UnitStyle(mark.shape, mark.scale, mark.double)
    badge = mark.scale * (style.BADGE_CORNER * style.UNIT_RADIUS + style.BADGE_RADIUS) if mark.count > 1 else 0.0
    return (look.half_width(mark.double) + (style.BADGE_RADIUS if mark.count > 1 else 0.0),
            max(look.half_height(mark.double), badge))


def _footprint(mark: UnitMark):  # type: ignore[no-untyped-def]
    w, h = _extent(mark)
    return box(mark.x - w, mark.y - h, mark.x + w, mark.y + h)


def _colour(power: str) -> str:
    return Palette(EAGLES).colour(power)


def test_fleets_sharing_a_sea_are_each_drawn_inside_it_apart_in_their_owners_colours() -> None:
    board = _board()
    marks = build_scene(EAGLES, board).units
    assert sum(m.count for m in marks) == len(board.units)  # every unit drawn (identical ones counted)
    for sea, owners in STACKS.items():
        area = _area(sea)
        here = [m for m in marks if area.contains(Point(m.x, m.y))]
        counted = {(_colour(p), owners.count(p)) for p in owners}
        assert {(m.fill, m.count) for m in here} == counted, sea
        assert all(m.letter == "F" and m.shape == "fleet" for m in here)
        assert all(area.contains(_footprint(m)) for m in here), [m for m in here if not area.contains(_footprint(m))]
        for i, a in enumerate(here):  # no two marks of one sea overlap
            for b in here[i + 1:]:
                (aw, ah), (bw, bh) = _extent(a), _extent(b)
                assert abs(a.x - b.x) >= aw + bw - 1e-6 or abs(a.y - b.y) >= ah + bh - 1e-6, (a, b)
    alexandria = next(m for m in marks if m.fill == _colour("Alexandria") and _area("MIO").contains(Point(m.x, m.y)))
    assert alexandria.count == 2  # five fleets past a row: Alexandria's two share a mark with its count
    svg = render_phase_svg(EAGLES, board)
    assert re.findall(r'fill="#111111">(\d+)</text>', svg) == ["2"]


def test_neutral_defending_armies_are_drawn_grey_and_barbarian_lands_hatched() -> None:
    board = _board()
    marks = build_scene(EAGLES, board).units
    for text in NEUTRAL:
        province = text.split()[1]
        (mark,) = [m for m in marks if _area(province).contains(Point(m.x, m.y))]
        assert (mark.letter, mark.shape, mark.fill) == ("A", "army", UNPLAYED[0])
    svg = render_phase_svg(EAGLES, board)
    assert "barbarian land" in svg and "Neutral" in svg


def test_each_fleet_of_a_stack_shows_in_its_owners_colour_in_the_png() -> None:
    board = _board()
    picture = Image.open(io.BytesIO(render_phase_png(EAGLES, board))).convert("RGB")
    for mark in build_scene(EAGLES, board).units:
        want = tuple(int(mark.fill[i:i + 2], 16) for i in (1, 3, 5))
        r = 0.5 * _extent(mark)[1]  # the body of the mark, under its letter and badge
        points = [(mark.x + dx * r / 3, mark.y + style.TITLE_HEIGHT + dy * r / 3) for dx in range(-3, 4)
                  for dy in range(-3, 4)]
        hits = sum(all(abs(a - b) <= 12 for a, b in zip(picture.getpixel((round(x), round(y))), want))
                   for x, y in points)
        assert hits / len(points) > 0.3, mark
