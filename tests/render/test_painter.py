"""The painter's picture is resvg's picture of the same SVG, within a tolerance (gm.render.painter).

What may differ: rounding in the last bit of a blended pixel, the anti-aliased edges where an
owned province meets another, and a mark drawn on a sheet at another place than on the picture
(resvg's single-precision arithmetic may then move an edge by a quarter of a pixel row). So:
the pixels differ by 0.25 of a level on average at most, and fewer than one in ten thousand by
more than 16 levels.
"""

from __future__ import annotations

import io
import random
from functools import lru_cache

import numpy as np
import pytest
from PIL import Image

from gm.adjudicator.engine import adjudicate
from gm.bots.plausible import PlausiblePlayer, plausible_start
from gm.render.atlas import Mark, Sheet, draw_marks
from gm.render.bounds import compose, path_box
from gm.render.painter import Painter, painter_for
from gm.render.png import render_phase_png, svg_to_png
from gm.render.raster import decode_rgba, encode_png
from gm.render.scene import build_scene
from gm.render.svg import scene_svg
from gm.variants.catalog import VariantCatalog
from tests.render.crowded import crowded

CATALOG = VariantCatalog()


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(np.int16)


def assert_close(got: bytes, want: bytes) -> None:
    a, b = pixels(got), pixels(want)
    assert a.shape == b.shape
    difference = np.abs(a - b).max(axis=2)
    far = int((difference > 16).sum())
    assert difference.mean() < 0.25, f"mean difference {difference.mean():.3f}"
    assert far < difference.size / 10_000, f"{far} pixels differ by more than 16 levels"


@lru_cache(maxsize=None)
def played(name: str, phases: int = 9, seed: int = 5):  # type: ignore[no-untyped-def]
    """A phase of a game of plausible orders, with its report (orders drawn)."""
    variant = CATALOG.get(name)
    position = plausible_start(variant, random.Random(3)) if variant.open_membership else variant.initial_position()
    player = PlausiblePlayer(variant, random.Random(seed))
    for _ in range(phases):
        report = adjudicate(variant, position, player.orders(position), seed="painter")
        position = report.next
    return position, adjudicate(variant, position, player.orders(position), seed="painter")


@pytest.mark.parametrize("name", CATALOG.names())
def test_every_board_is_resvgs_picture_at_the_start_and_in_play(name: str) -> None:
    variant = CATALOG.get(name)
    painter = Painter()
    for position, report in [(variant.initial_position(), None), played(name)]:
        scene = build_scene(variant, position, report)
        assert_close(painter.png(scene), svg_to_png(scene_svg(scene)))


@pytest.mark.parametrize("name", ["standard", "rise-of-rome-ii", "diplomacy-of-the-empire"])
def test_crowded_boards_with_layers_and_stacks_are_resvgs_picture(name: str) -> None:
    variant = CATALOG.get(name)
    scene = build_scene(variant, crowded(variant))
    assert_close(Painter().png(scene), svg_to_png(scene_svg(scene)))


def test_a_picture_drawn_again_from_the_kept_marks_is_the_same_picture() -> None:
    variant = CATALOG.get("standard")
    position, report = played("standard")
    painter = Painter()
    first = painter.png(build_scene(variant, position, report))
    painter.png(build_scene(variant, variant.initial_position()))  # others drawn meanwhile
    assert painter.png(build_scene(variant, position, report)) == first


def test_marks_kept_from_other_pictures_give_the_picture_drawn_afresh() -> None:
    variant = CATALOG.get("standard")
    warm = Painter(sprite_pixels=50_000)  # most marks dropped again: the least recently used go
    for phases in (3, 6, 12):
        warm.png(build_scene(variant, *played("standard", phases)))
    scene = build_scene(variant, *played("standard"))
    assert_close(warm.png(scene), Painter().png(scene))
    assert warm._kept <= 50_000 + max(layer.pixels for layer in warm._sprites.values() if layer is not None)


def test_render_phase_png_draws_with_the_variants_painter() -> None:
    variant = CATALOG.get("classical")
    position, report = played("classical")
    png = render_phase_png(variant, position, report)
    assert painter_for(variant) is painter_for(variant)
    assert png == painter_for(variant).png(build_scene(variant, position, report))
    assert_close(png, svg_to_png(scene_svg(build_scene(variant, position, report))))


def test_a_mark_larger_than_its_box_is_drawn_again_in_a_larger_cell() -> None:
    sheet = Sheet(' font-family="DejaVu Sans"', "", 200, 100)
    circle = '<circle cx="50" cy="50" r="20" fill="#ff0000"/>'
    marks = [Mark(circle, (45.0, 45.0, 55.0, 55.0)), Mark(circle, (28.0, 28.0, 72.0, 72.0)), Mark(circle, None)]
    drawn = draw_marks(sheet, marks, svg_to_png)
    alone = decode_rgba(svg_to_png(f'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">{circle}</svg>'))
    for x, y, part in drawn:
        picture = np.zeros((100, 200, 4), np.uint8)
        picture[y:y + part.shape[0], x:x + part.shape[1]] = part
        assert np.abs(picture.astype(int) - alone.astype(int)).max() <= 1


def test_the_png_written_holds_the_canvas_exactly() -> None:
    canvas = np.random.default_rng(1).integers(0, 256, (37, 53, 3), dtype=np.uint8)
    assert (pixels(encode_png(canvas)) == canvas).all()


def test_boxes_of_paths_and_transforms() -> None:
    assert path_box("M0,20H30") == (0.0, 20.0, 30.0, 20.0)
    assert path_box("M1 2L3 4Q5,-6 7,8Z") == (1.0, -6.0, 7.0, 8.0)
    assert path_box("m1,2l3,4") is None
    assert compose((1.0, 1.0, 0.0, 38.0), "translate(10,5) scale(2)") == (2.0, 2.0, 10.0, 43.0)
    assert compose((1.0, 1.0, 0.0, 0.0), "rotate(45)") is None
