"""The painter's picture (Skia, from the scene's values) is resvg's picture of the scene's SVG,
within a tolerance (gm.render.painter).

Two renderers differ in how they smooth edges and place glyphs (a name may stand a pixel
aside, each letter of a small name differs at its edges; a hatching's lines may fall half a
pixel apart). So: the pixels differ by 6 levels on average at most, and no 16 x 16 block of
pixels by more than 72 on average, which a missing or misplaced unit or province's owner
would. That every order has its mark is held by the scene's geometry (test_order_geometry). The PNG written of 128 colours is held within the same tolerance.
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
from gm.render.painter import Painter, painter_for
from gm.render.png import render_phase_png, svg_to_png
from gm.render.raster import PALETTE, encode_png
from gm.render.scene import build_scene
from gm.render.svg import scene_svg
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of
from tests.render.crowded import crowded

CATALOG = VariantCatalog()
BLOCK = 16


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(np.int16)


def assert_close(got: bytes | np.ndarray, want: bytes) -> None:
    a = got[:, :, :3].astype(np.int16) if isinstance(got, np.ndarray) else pixels(got)
    b = pixels(want)
    assert a.shape == b.shape
    difference = np.abs(a - b).max(axis=2)
    assert difference.mean() < 6, f"mean difference {difference.mean():.3f}"
    h, w = (difference.shape[0] // BLOCK) * BLOCK, (difference.shape[1] // BLOCK) * BLOCK
    blocks = difference[:h, :w].reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK).mean(axis=(1, 3))
    row, col = np.unravel_index(blocks.argmax(), blocks.shape)
    assert blocks.max() < 72, f"the block at x {col * BLOCK}, y {row * BLOCK} differs by {blocks.max():.0f}"


@lru_cache(maxsize=None)
def played(name: str, phases: int = 9, seed: int = 5):  # type: ignore[no-untyped-def]
    """A phase of a game of plausible orders, with its report (orders drawn)."""
    variant = CATALOG.get(name)
    position = plausible_start(variant, random.Random(3)) if setup_of(variant).open_membership else variant.initial_position()
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
        assert_close(painter.canvas(scene), svg_to_png(scene_svg(scene)))


@pytest.mark.parametrize("name", ["standard", "rise-of-rome-ii", "diplomacy-of-the-empire"])
def test_crowded_boards_with_layers_and_stacks_are_resvgs_picture(name: str) -> None:
    variant = CATALOG.get(name)
    scene = build_scene(variant, crowded(variant))
    assert_close(Painter().canvas(scene), svg_to_png(scene_svg(scene)))


def test_a_picture_drawn_again_is_the_same_picture() -> None:
    variant = CATALOG.get("standard")
    position, report = played("standard")
    painter = Painter()
    first = painter.png(build_scene(variant, position, report))
    painter.png(build_scene(variant, variant.initial_position()))  # others drawn meanwhile
    assert painter.png(build_scene(variant, position, report)) == first


def test_render_phase_png_draws_with_the_variants_painter() -> None:
    variant = CATALOG.get("classical")
    position, report = played("classical")
    png = render_phase_png(variant, position, report)
    assert painter_for(variant) is painter_for(variant)
    assert png == painter_for(variant).png(build_scene(variant, position, report))
    assert_close(png, svg_to_png(scene_svg(build_scene(variant, position, report))))


def test_a_png_of_few_colours_holds_them_exactly() -> None:
    rng = np.random.default_rng(1)
    for count in (2, 3, 12, 100):
        colours = rng.integers(0, 256, (count, 3), dtype=np.uint8)
        canvas = colours[rng.integers(0, count, (37, 53))]
        assert (pixels(encode_png(canvas)) == canvas).all(), count


def test_a_png_of_many_colours_keeps_the_palette_and_stays_near() -> None:
    ramp = np.linspace(0, 255, 300 * 200, dtype=np.float64).reshape(200, 300)
    canvas = np.stack([ramp, ramp[::-1], np.full_like(ramp, 90)], axis=2).astype(np.uint8)
    image = Image.open(io.BytesIO(encode_png(canvas)))
    assert image.mode == "P" and len(image.getcolors(1000)) <= PALETTE  # type: ignore[arg-type]
    assert np.abs(pixels(encode_png(canvas)) - canvas).max() <= 12
