"""Many small SVG marks drawn by resvg in one call: each in a cell of one sheet, cut out again.

resvg costs about 25 ms a megapixel of canvas whatever is drawn on it (it fills, then encodes,
the whole PNG), so the marks of a board (names, units, arrows) are laid side by side on a sheet
about their own size instead of on the whole picture. A mark is moved onto its sheet by whole
pixels, so it falls on the pixel grid as it does on the picture. A mark whose ink reaches the
edge of its cell may have been cut: it is drawn again in a larger cell, and in the end over the
whole picture.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gm.render.bounds import Box
from gm.render.raster import decode_rgba

GAP = 2  # between cells: pixels no mark's cell reaches
MARGINS = (2, 12)  # pixels around a mark's estimated box: the first try, the second


@dataclass(frozen=True)
class Mark:
    """One mark: its SVG (within its ancestors' groups, so it inherits what it did on the
    picture) and where it draws on the picture (None: unknown)."""

    svg: str
    box: Box | None


@dataclass(frozen=True)
class Sheet:
    """The document a sheet is drawn from: the picture's root attributes and definitions."""

    root: str  # attributes of <svg> besides its size, as written
    defs: str  # "<defs>...</defs>" or ""
    width: int  # of the whole picture
    height: int


def draw_marks(sheet: Sheet, marks: Sequence[Mark], render) -> list[tuple[int, int, np.ndarray]]:  # type: ignore[no-untyped-def]
    """Each mark as (x, y, RGBA pixels): drawn on the picture at (x, y). ``render(svg) -> png``.
    A mark without a box is drawn over the whole picture (so cut to its size)."""
    done: list[tuple[int, int, np.ndarray] | None] = [None] * len(marks)
    waiting = list(range(len(marks)))
    for margin in MARGINS:
        boxed = [i for i in waiting if marks[i].box is not None]
        waiting = [i for i in waiting if marks[i].box is None]
        if not boxed:
            break
        cells = [_cell(marks[i].box, margin, sheet) for i in boxed]  # type: ignore[arg-type]
        for i, (x, y, pixels) in zip(boxed, _draw_sheet(sheet, [marks[i].svg for i in boxed], cells, render),
                                     strict=True):
            if _touches_edge(pixels):
                waiting.append(i)
            else:
                done[i] = (x, y, pixels)
    for i in waiting:  # over the whole picture
        whole = (0, 0, sheet.width, sheet.height)
        done[i] = _draw_sheet(sheet, [marks[i].svg], [whole], render)[0]
    return [d for d in done if d is not None]


def _cell(box: Box, margin: int, sheet: Sheet) -> tuple[int, int, int, int]:
    """The whole pixels around ``box``, with ``margin``: x, y, width, height. Not cut to the
    picture, so that the mark is the same on a picture of any height (the legend's)."""
    left, top = math.floor(box[0]) - margin, math.floor(box[1]) - margin
    return left, top, math.ceil(box[2]) + margin - left, math.ceil(box[3]) + margin - top


def _draw_sheet(sheet: Sheet, svgs: Sequence[str], cells: Sequence[tuple[int, int, int, int]],
                render) -> list[tuple[int, int, np.ndarray]]:  # type: ignore[no-untyped-def]
    """The marks drawn on one sheet, cells packed in rows (tallest first), and cut out."""
    order = sorted(range(len(cells)), key=lambda i: -cells[i][3])
    area = sum((c[2] + GAP) * (c[3] + GAP) for c in cells)
    row_width = max(max(c[2] for c in cells) + GAP, int(math.sqrt(area) * 1.2))
    places: list[tuple[int, int]] = [(0, 0)] * len(cells)
    x = y = row_height = 0
    for i in order:
        w, h = cells[i][2], cells[i][3]
        if x + w > row_width:
            x, y, row_height = 0, y + row_height + GAP, 0
        places[i] = (x, y)
        x += w + GAP
        row_height = max(row_height, h)
    width, height = row_width, y + row_height
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"{sheet.root}>', sheet.defs]
    for (px, py), (cx, cy, _, _), svg in zip(places, cells, svgs, strict=True):
        parts.append(f'<g transform="translate({px - cx},{py - cy})">{svg}</g>')
    parts.append("</svg>")
    pixels = decode_rgba(render("".join(parts)))
    return [(cx, cy, pixels[py:py + h, px:px + w]) for (px, py), (cx, cy, w, h) in zip(places, cells, strict=True)]


def _touches_edge(pixels: np.ndarray) -> bool:
    alpha = pixels[:, :, 3]
    return bool(alpha[0].any() or alpha[-1].any() or alpha[:, 0].any() or alpha[:, -1].any())
