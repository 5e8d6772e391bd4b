"""How much of each pixel a filled outline covers, computed as resvg's rasteriser (tiny-skia
0.12) computes it, so that a mark drawn here has resvg's pixels but for a rare sample.

tiny-skia samples each pixel 4 x 4 times: a sample is inside when its centre is (non-zero
winding, or even-odd), each edge's crossing of a sample row rounded to the nearest sample
boundary. A row of a pixel adds 16 a sample inside, or 64 when all four are (63 for the last
row), so a whole pixel is 255. Coordinates are first cut to 1/64 of a sample (its fixed point),
and a curve is filled as the chords tiny-skia's edge walker follows: cut where it turns in y,
each part in 2^n equal steps of t, n from how far it bends.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

SHIFT = 2  # tiny-skia's SUPERSAMPLE_SHIFT: 4 x 4 samples a pixel
SAMPLES = 1 << SHIFT
FIXED = 64  # fixed-point units a sample (FDot6)
_MAX_CURVE_SHIFT = 6  # tiny-skia's MAX_COEFF_SHIFT

Point = tuple[float, float]


class Edges:
    """An outline: lines and quadratic and cubic curves that together make closed loops (in any
    order: only each one's direction counts), gathered to be followed all at once."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, float, float, float]] = []
        self.quads: list[tuple[float, ...]] = []
        self.cubics: list[tuple[float, ...]] = []

    def line(self, a: Point, b: Point) -> None:
        self.lines.append((a[0], a[1], b[0], b[1]))

    def quad(self, p0: Point, p1: Point, p2: Point) -> None:
        self.quads.append((*p0, *p1, *p2))

    def cubic(self, p0: Point, p1: Point, p2: Point, p3: Point) -> None:
        self.cubics.append((*p0, *p1, *p2, *p3))

    def __bool__(self) -> bool:
        return bool(self.lines or self.quads or self.cubics)


def coverages(outlines: Sequence[tuple[Edges, bool]]) -> list[tuple[int, int, np.ndarray]]:
    """Each outline (with whether it is filled even-odd, else non-zero) filled: (left, top,
    alpha), alpha uint8 over the pixels it may touch. All are followed at once: a phase's marks
    are a few dozen outlines of a few hundred edges each."""
    if not outlines:
        return []
    starts, ends, owner = _segments([edges for edges, _ in outlines])
    count = len(outlines)
    order = np.argsort(owner, kind="stable")
    starts, ends, owner = starts[order], ends[order], owner[order]
    first_edge = np.searchsorted(owner, np.arange(count))
    low = np.minimum.reduceat(np.minimum(starts, ends), first_edge)
    high = np.maximum.reduceat(np.maximum(starts, ends), first_edge)
    left, top = np.floor(low[:, 0]).astype(np.int64) - 1, np.floor(low[:, 1]).astype(np.int64) - 1
    width = np.ceil(high[:, 0]).astype(np.int64) + 1 - left
    height = np.ceil(high[:, 1]).astype(np.int64) + 1 - top
    row_base = np.cumsum(height) - height  # each outline's first pixel row, its pixels stacked
    cell_base = np.cumsum(height * width) - height * width
    scale = SAMPLES * FIXED
    origin = np.stack((left[owner], top[owner]), axis=1) * SAMPLES
    a = np.trunc(starts * scale) / FIXED - origin  # in samples, on tiny-skia's fixed grid
    b = np.trunc(ends * scale) / FIXED - origin
    down = b[:, 1] > a[:, 1]
    upper = np.where(down[:, None], a, b)
    lower = np.where(down[:, None], b, a)
    first = np.floor(upper[:, 1] + 0.5).astype(np.int64)  # the first sample row whose centre it crosses
    counts = np.maximum(np.floor(lower[:, 1] + 0.5).astype(np.int64) - first, 0)
    total = int(counts.sum())
    alpha = np.zeros(int((height * width).sum()), np.int64)
    if total:
        edge = np.repeat(np.arange(len(counts)), counts)
        rows = first[edge] + (np.arange(total) - (np.cumsum(counts) - counts)[edge])
        dy = lower[:, 1] - upper[:, 1]
        slope = np.divide(lower[:, 0] - upper[:, 0], dy, out=np.zeros_like(dy), where=dy != 0)
        x = upper[edge, 0] + slope[edge] * (rows + 0.5 - upper[edge, 1])
        which = owner[edge]
        rows = rows + row_base[which] * SAMPLES
        order = np.lexsort((x, rows))
        rows, x, which = rows[order], x[order], which[order]
        inside = np.cumsum(np.where(down, 1, -1)[edge][order])
        inside = np.where(np.array([odd for _, odd in outlines])[which], inside & 1, inside)
        span = np.flatnonzero(inside[:-1] != 0)
        span = span[rows[span] == rows[span + 1]]
        which = which[span]
        limit = width[which] * SAMPLES
        s = np.clip(np.floor(x[span] + 0.5).astype(np.int64), 0, limit)
        e = np.clip(np.floor(x[span + 1] + 0.5).astype(np.int64), 0, limit)
        keep = e > s
        which, r = which[keep], rows[span][keep]
        row_start = cell_base[which] + ((r >> SHIFT) - row_base[which]) * width[which]
        _add_spans(alpha, s[keep], e[keep], r, row_start)
    alpha = np.minimum(alpha, 255).astype(np.uint8)
    return [(int(left[k]), int(top[k]), alpha[cell_base[k]:cell_base[k] + height[k] * width[k]]
             .reshape(int(height[k]), int(width[k]))) for k in range(count)]


def _segments(outlines: Sequence[Edges]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every edge tiny-skia follows for the outlines: starts, ends (n x 2), and whose each is."""
    starts, ends, owners = [np.empty((0, 2))], [np.empty((0, 2))], [np.empty(0, np.int64)]
    for kind, chords in (("lines", None), ("quads", _quad_chords), ("cubics", _cubic_chords)):
        curves = [c for edges in outlines for c in getattr(edges, kind)]
        if not curves:
            continue
        owner = np.repeat(np.arange(len(outlines)), [len(getattr(edges, kind)) for edges in outlines])
        points = np.array(curves).reshape(len(curves), -1, 2)
        if chords is None:
            starts.append(points[:, 0])
            ends.append(points[:, 1])
            owners.append(owner)
        else:
            a, b, whose = chords(points, owner)
            starts.append(a)
            ends.append(b)
            owners.append(whose)
    return np.concatenate(starts), np.concatenate(ends), np.concatenate(owners)


def _add_spans(alpha: np.ndarray, s: np.ndarray, e: np.ndarray, r: np.ndarray, row: np.ndarray) -> None:
    """Each sample row's span [s, e) added as tiny-skia's SuperBlitter adds it; ``row``: where
    its pixel row starts in ``alpha``."""
    mask = SAMPLES - 1
    full = 64 - ((r & mask) == mask)  # a whole pixel's row: the last row 63
    ps, pe, fb, fe = s >> SHIFT, e >> SHIFT, s & mask, e & mask
    one = ps == pe
    many = ~one
    head, tail = many & (fb != 0), many & (fe != 0)
    whole_from, whole_to = np.where(fb != 0, ps + 1, ps)[many], pe[many]
    runs = np.maximum(whole_to - whole_from, 0)
    first = np.repeat(row[many] + whole_from - np.cumsum(runs) + runs, runs)  # each whole pixel of each run
    at = np.concatenate((row[one] + ps[one], row[head] + ps[head], row[tail] + pe[tail],
                         first + np.arange(int(runs.sum()))))
    amount = np.concatenate(((e[one] - s[one]) * 16, (SAMPLES - fb[head]) * 16, fe[tail] * 16,
                             np.repeat(full[many], runs)))
    alpha += np.bincount(at, amount.astype(np.float64), len(alpha)).astype(np.int64)


def _quad_chords(quads: np.ndarray, owner: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The chords of quadratic curves (n x 3 x 2) as tiny-skia follows them, and whose each is."""
    p0, p1, p2 = quads[:, 0], quads[:, 1], quads[:, 2]
    denominator = p0[:, 1] - 2 * p1[:, 1] + p2[:, 1]
    t = np.divide(p0[:, 1] - p1[:, 1], denominator, out=np.full(len(quads), -1.0), where=denominator != 0)
    cut = (t > 0) & (t < 1)
    if cut.any():  # each part's control point level with the cut, as tiny-skia flattens it
        tc = t[cut][:, None]
        a, b = p0[cut] + (p1[cut] - p0[cut]) * tc, p1[cut] + (p2[cut] - p1[cut]) * tc
        mid = a + (b - a) * tc
        a[:, 1] = b[:, 1] = mid[:, 1]
        quads = np.concatenate((quads[~cut], np.stack((p0[cut], a, mid), 1), np.stack((mid, b, p2[cut]), 1)))
        owner = np.concatenate((owner[~cut], owner[cut], owner[cut]))
    fixed = np.trunc(quads * SAMPLES * FIXED).astype(np.int64)
    d = np.abs((2 * fixed[:, 1] - fixed[:, 0] - fixed[:, 2]) >> 2)
    steps = 1 << np.clip(_bit_length(_cheap_distance(d)) >> 1, 1, _MAX_CURVE_SHIFT)
    t = _steps(steps)
    q = np.repeat(quads, steps, axis=0)
    u = 1 - t
    points = u * u * q[:, 0] + 2 * u * t * q[:, 1] + t * t * q[:, 2]
    return (*_joined(points, quads[:, 0], steps), np.repeat(owner, steps))


def _cubic_chords(cubics: np.ndarray, owner: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The chords of cubic curves (n x 4 x 2) that turn no more in y (a circle's arcs), and
    whose each is."""
    f = np.trunc(cubics * SAMPLES * FIXED).astype(np.int64)
    a, b, c, d = f[:, 0], f[:, 1], f[:, 2], f[:, 3]
    one_third = np.abs(((a * 8 - b * 15 + 6 * c + d) * 19) >> 9)  # tiny-skia's cubic_delta_from_line
    two_thirds = np.abs(((a + 6 * b - c * 15 + d * 8) * 19) >> 9)
    steps = 1 << np.minimum((_bit_length(_cheap_distance(np.maximum(one_third, two_thirds))) >> 1) + 1,
                            _MAX_CURVE_SHIFT)
    t = _steps(steps)
    q = np.repeat(cubics, steps, axis=0)
    u = 1 - t
    points = u ** 3 * q[:, 0] + 3 * u * u * t * q[:, 1] + 3 * u * t * t * q[:, 2] + t ** 3 * q[:, 3]
    return (*_joined(points, cubics[:, 0], steps), np.repeat(owner, steps))


def _cheap_distance(d: np.ndarray) -> np.ndarray:
    """tiny-skia's distance (max + min / 2, in fixed point), shifted down to its accuracy."""
    dx, dy = d[:, 0], d[:, 1]
    dist = np.where(dx > dy, dx + (dy >> 1), dy + (dx >> 1))
    return (dist + (1 << (2 + SHIFT))) >> (3 + SHIFT)


def _bit_length(values: np.ndarray) -> np.ndarray:
    return np.frexp(values.astype(np.float64))[1].astype(np.int64)


def _steps(steps: np.ndarray) -> np.ndarray:
    """For each curve, t at the end of each of its equal steps (a column)."""
    index = np.arange(int(steps.sum())) - np.repeat(np.cumsum(steps) - steps, steps) + 1
    return (index / np.repeat(steps, steps))[:, None]


def _joined(points: np.ndarray, firsts: np.ndarray, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each curve's chords as edges: from its first point through its points in turn."""
    starts = np.roll(points, 1, axis=0)
    starts[np.cumsum(steps) - steps] = firsts
    return starts, points
