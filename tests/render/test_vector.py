"""Marks drawn without resvg (gm.render.vector) are resvg's pixels but for a rare sample.

Each mark is laid over a plain land-coloured picture and compared with resvg drawing the same
element there: at most one pixel in five hundred of the marks' boxes differs by more than 16 levels
(one sample of sixteen of a dark edge) and none more than 16 (a support's dot, whose ring
tiny-skia draws with one curve a quarter or two on the rounding of a sign), and the whole boards of every variant are held to
resvg's within the painter's tolerance (test_painter.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from gm.render import vector
from gm.render.painter import read_svg, stripped
from gm.render.png import svg_to_png
from gm.render.raster import decode_rgba, lay
from gm.render.scan import Edges, coverages
from gm.render.scene import build_scene
from gm.render.svg import scene_svg
from tests.render.test_painter import CATALOG, played

LAND = (232, 220, 192)


def _resvg(body: str, width: int, height: int, background: bool = True) -> np.ndarray:
    ground = f'<rect width="{width}" height="{height}" fill="#e8dcc0"/>' if background else ""
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">{ground}{body}</svg>'
    return decode_rgba(svg_to_png(svg)).astype(np.int16)


def _order_marks(name: str) -> list[str]:
    variant = CATALOG.get(name)
    scene = build_scene(variant, *played(name))
    return [leaf.svg for leaf in read_svg(scene_svg(stripped(scene)))[2]]


@pytest.mark.parametrize("name", ["standard", "classical", "rise-of-rome-ii"])
def test_the_marks_drawn_here_are_resvgs_pixels(name: str) -> None:
    marks = _order_marks(name)
    drawn = vector.layers(marks)
    kinds = {marks[i].split('class="order ')[1].split('"')[0] for i in drawn if 'class="order ' in marks[i]}
    assert {"move", "support"} <= {k.split()[0] for k in kinds}
    width, height = 1400, 1500
    far = area = 0
    for index, layer in drawn.items():
        want = _resvg(marks[index], width, height)[:, :, :3]
        got = np.empty((height, width, 3), np.uint8)
        got[:] = LAND
        if layer is not None:
            lay(got, layer)
        difference = np.abs(got.astype(np.int16) - want).max(axis=2)
        ink = np.argwhere(difference > 0)
        if ink.size == 0:
            continue
        area += int((ink.max(axis=0) - ink.min(axis=0) + 1).prod())
        far += int((difference > 16).sum())
        assert (difference > 16).sum() <= 16, marks[index]  # a support's dot: its ring's curves (gm.render.vector)
    assert far <= area / 500, (far, area)


def test_what_resvg_draws_differently_is_left_to_it() -> None:
    marks = ['<text x="5" y="5">A</text>',  # text
             '<circle cx="20" cy="20" r="4.5" fill="#fff" stroke="#111" stroke-width="1.3"/>',  # a centre's ring
             '<path d="M0,0L10,10" stroke="#000" stroke-width="0.9"/>',  # a hairline
             '<g opacity="0.5"><path d="M0,0L10,10" stroke="#000" stroke-width="2"/></g>',  # group opacity
             '<path d="M0,0L10,10L20,0" stroke="#000" stroke-width="2"/>',  # a miter join
             '<path d="M0,0l10,10" stroke="#000" stroke-width="2"/>',  # a relative command
             '<path d="M0,0L10,10" stroke="red" stroke-width="2"/>',  # a named colour
             '<circle cx="20" cy="20" r="3.2" fill="#c62828" stroke="#111111" stroke-width="1.1"/>']  # a dot: drawn
    assert list(vector.layers(marks)) == [7]


def test_filled_outlines_cover_as_resvg_covers() -> None:
    rng = np.random.default_rng(1)
    corners = [rng.uniform(3, 57, (3, 2)).round(1) for _ in range(40)]
    outlines = []
    for points in corners:
        edges = Edges()
        for a, b in zip(points, np.roll(points, -1, axis=0), strict=True):
            edges.line((float(a[0]), float(a[1])), (float(b[0]), float(b[1])))
        outlines.append((edges, False))
    for points, (left, top, alpha) in zip(corners, coverages(outlines), strict=True):
        body = f'<polygon points="{" ".join(f"{x},{y}" for x, y in points)}" fill="#000"/>'
        want = _resvg(body, 60, 60, background=False)[:, :, 3]
        got = np.zeros((60, 60), np.int16)
        got[top:top + alpha.shape[0], left:left + alpha.shape[1]] = alpha
        assert np.abs(got - want).max() <= 16  # one sample at most
