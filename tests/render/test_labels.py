"""Nothing hides a province's name: on every board, at its start and crowded (every province
filled, stacks where the variant allows, units dislodged), no name overlaps a unit, a supply
centre's mark, a variant's marker or another name, and none is cut by the picture's edge.

The names' room is measured here with the font itself (Pillow reads DejaVu Sans Bold), the
units' from their shapes in the style table, both independently of the placement's own sums."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from pathlib import Path

import pytest
from crowded import EMPIRES, crowded, founded
from PIL import ImageFont

from gm.render import style
from gm.render.labels import Label, Taken, Wanted, place_labels
from gm.render.png import font_files
from gm.render.scene import Scene, UnitMark, build_scene
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

CATALOG = VariantCatalog()
BOARDS = ["standard", "classical", "rise-of-rome-ii", "roman-diplomacy-i", "roman-diplomacy-ii", "eagles",
          "diplomacy-of-the-empire"]
Box = tuple[float, float, float, float]


@lru_cache(maxsize=8)
def bold(size: float) -> ImageFont.FreeTypeFont:
    found = [f for f in font_files() if f.endswith("DejaVuSans-Bold.ttf")]
    if not found:
        pytest.skip("DejaVu Sans Bold is not installed")
    return ImageFont.truetype(found[0], size=round(size * 10))  # ten times over, for precision


def name_box(label: Label) -> Box:
    """The ink of the name's letters as resvg draws them (middle-anchored at x, on the
    baseline), with its halo."""
    font = bold(label.size)
    left, top, right, bottom = font.getbbox(label.text, anchor="ls")
    advance = font.getlength(label.text)
    halo = style.LABEL_HALO / 2
    x0 = label.x - advance / 20
    return (x0 + left / 10 - halo, label.baseline + top / 10 - halo, x0 + right / 10 + halo,
            label.baseline + bottom / 10 + halo)


def unit_box(mark: UnitMark) -> Box:
    """The unit's shape (its second rim, its count's badge, its ring or cross) and outline."""
    r = style.UNIT_RADIUS * mark.scale
    rim = style.DOUBLE_RIM if mark.double else 1.0
    half_w = r * style.SHAPE_HALF_WIDTH[mark.shape] * rim + 0.65
    half_h = r * style.SHAPE_HALF_HEIGHT[mark.shape] * rim + 0.65
    box = [mark.x - half_w, mark.y - half_h, mark.x + half_w, mark.y + half_h]
    if mark.count > 1:
        corner = r * style.BADGE_CORNER + style.BADGE_RADIUS * mark.scale + 0.55
        box[2], box[1] = max(box[2], mark.x + corner), min(box[1], mark.y - corner)
    ring = max(r + 3.5 + 1.2 if mark.dislodged else 0, r + 4 + 1.7 if mark.new else 0,
               style.UNIT_RADIUS + 3 + 1.6 if mark.removed else 0)
    if ring:
        box = [min(box[0], mark.x - ring), min(box[1], mark.y - ring), max(box[2], mark.x + ring),
               max(box[3], mark.y + ring)]
    return box[0], box[1], box[2], box[3]


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] - 0.01 and b[0] < a[2] - 0.01 and a[1] < b[3] - 0.01 and b[1] < a[3] - 0.01


def hidden(scene: Scene) -> list[str]:
    problems = []
    names = {label.text: name_box(label) for label in scene.labels}
    for text, box in names.items():
        if box[0] < 0 or box[1] < 0 or box[2] > scene.map_width or box[3] > scene.map_height:
            problems.append(f"{text} cut by the edge: {box}")
        for mark in scene.units:
            if overlap(box, unit_box(mark)):
                problems.append(f"{text} under the {mark.letter} at {mark.x:.0f},{mark.y:.0f}")
        for centre in scene.centres:
            k = style.CENTRE_RADIUS + 0.65
            if overlap(box, (centre.x - k, centre.y - k, centre.x + k, centre.y + k)):
                problems.append(f"{text} under the centre mark at {centre.x:.0f},{centre.y:.0f}")
        for marker in scene.markers:
            if overlap(box, marker.box):
                problems.append(f"{text} under a {marker.symbol} at {marker.x:.0f},{marker.y:.0f}")
    for (one, a), (other, b) in combinations(names.items(), 2):
        if overlap(a, b):
            problems.append(f"{one} and {other} overlap")
    return problems


def draw(name: str, crowd: bool) -> Scene:
    variant = CATALOG.get(name)
    if crowd:
        return build_scene(variant, crowded(variant), arrivals=EMPIRES)
    start = variant.initial_position()
    return build_scene(variant, founded(variant, start) if setup_of(variant).open_membership else start, arrivals=EMPIRES)


@pytest.mark.parametrize("crowd", [False, True], ids=["start", "crowded"])
@pytest.mark.parametrize("name", BOARDS)
def test_no_name_is_hidden(name: str, crowd: bool) -> None:
    scene = draw(name, crowd)
    variant = CATALOG.get(name)
    playable = [p for p, d in variant.map.provinces.items() if d.terrain.value != "impassable"]
    assert sorted(label.text for label in scene.labels) == sorted(playable)
    if crowd:
        assert len(scene.units) >= len(playable) * 0.8
    assert hidden(scene) == []


def test_most_names_stay_where_the_map_puts_them() -> None:
    scene = draw("standard", False)
    moved = [label.text for label in scene.labels if label.leader or label.size != style.LABEL_SIZE]
    assert len(moved) <= 3, moved


SQUARE = "M0,0L40,0L40,20L0,20Z"


def test_a_name_with_no_room_in_its_province_moves_out_with_a_leader_line() -> None:
    taken = Taken([(0.0, 0.0, 40.0, 20.0)])  # the whole province is covered
    (label,) = place_labels([Wanted("ABC", False, (20.0, 10.0), SQUARE)], taken, 200.0, 200.0)
    assert label.leader is not None
    assert not overlap(label.box, (0.0, 0.0, 40.0, 20.0))
    assert label.leader[2:] == (20.0, 10.0)  # it points at the province


def test_a_name_partly_covered_moves_within_its_province_before_it_shrinks() -> None:
    province = "M0,0L100,0L100,40L0,40Z"
    taken = Taken([(30.0, 10.0, 70.0, 30.0)])  # a unit over the name's spot
    (label,) = place_labels([Wanted("ABC", False, (50.0, 20.0), province)], taken, 200.0, 200.0)
    assert label.size == style.LABEL_SIZE and label.leader is None
    assert not overlap(label.box, (30.0, 10.0, 70.0, 30.0))
    left, top, right, bottom = label.box
    assert left >= 0 and top >= 0 and right <= 100 and bottom <= 40


def test_a_name_is_kept_inside_the_picture() -> None:
    (label,) = place_labels([Wanted("WXYZ", True, (3.0, 3.0), "M0,0L60,0L60,60L0,60Z")], Taken(), 300.0, 300.0)
    left, top, _, _ = label.box
    assert left >= 0 and top >= 0


def test_the_font_is_there() -> None:
    assert any(Path(f).name == "DejaVuSans-Bold.ttf" for f in font_files())
