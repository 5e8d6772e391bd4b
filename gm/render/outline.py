"""The outlines resvg fills for simple SVG shapes: paths of lines and quadratic curves, their
strokes (round or butt caps, round joins, dashes), polygons and circles, as ``scan.Edges``,
built as tiny-skia 0.12 builds them where that shows in the pixels.

- A circle is usvg's: kurbo's cubic arcs between its four points in single precision (a
  quarter whose angle rounds above a right angle takes two cubics).
- A curve's stroke has the sides tiny-skia's stroker approximates (``offset``).
- A round cap is two quarter circles, each drawn as two quadratic curves (tiny-skia's conics,
  halved once, each half drawn as the quadratic curve of its control points).
- Dashes are measured along a curve as tiny-skia measures it: the chords of halvings of the
  curve until each bends less than half a pixel, a length mapped to ``t`` linearly within one.
- A stroke is the union of each segment's own outline (its two sides and its caps, all turning
  the same way, so filled non-zero they join): round joins, as the templates draw strokes.

Points are plain floats: a phase's marks make a few thousand of them.
"""

from __future__ import annotations

import math
import re

import numpy as np

from gm.render import offset
from gm.render.offset import Unsupported
from gm.render.scan import Edges, Point

Segment = tuple[Point, ...]  # two points (a line) or three (a quadratic curve)
Subpath = tuple[list[Segment], bool]  # its segments, closed
_COMMAND = re.compile(r"([MLHVQZmlhvqz])([^MLHVQZmlhvqzA-Za-z]*)")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_MAX_T = 0x3FFFFFFF  # tiny-skia's contour measure's t, in fixed point
_CURVY = 0.5  # pixels: the bend at which tiny-skia's contour measure halves a curve
_CONIC = math.sqrt(0.5)  # the weight of a quarter circle's conic


def path_data(d: str, dx: float = 0.0, dy: float = 0.0) -> list[Subpath]:
    """Absolute M, L, H, V, Q and Z commands as subpaths, moved by (dx, dy) (anything else:
    ``Unsupported``)."""
    subpaths: list[Subpath] = []
    segments: list[Segment] = []
    start = here = None
    position = 0
    for match in _COMMAND.finditer(d):
        if d[position:match.start()].strip() or match[1].islower():
            raise Unsupported(d)
        position = match.end()
        command, values = match[1], [float(v) for v in _NUMBER.findall(match[2])]
        if command == "Z":
            if segments:
                if here != start:
                    segments.append((here, start))  # type: ignore[arg-type]
                subpaths.append((segments, True))
            segments, here = [], start
            continue
        width = {"M": 2, "L": 2, "H": 1, "V": 1, "Q": 4}[command]
        if not values or len(values) % width:
            raise Unsupported(d)
        for i in range(0, len(values), width):
            v = values[i:i + width]
            if command == "M" and i == 0:
                if segments:
                    subpaths.append((segments, False))
                segments, start = [], (v[0] + dx, v[1] + dy)
                here = start
                continue
            if here is None:
                raise Unsupported(d)
            if command == "Q":
                to = (v[2] + dx, v[3] + dy)
                segments.append((here, (v[0] + dx, v[1] + dy), to))
            else:
                to = ((v[0] + dx, v[1] + dy) if width == 2 else
                      (v[0] + dx, here[1]) if command == "H" else (here[0], v[0] + dy))
                segments.append((here, to))
            here = to
    if d[position:].strip():
        raise Unsupported(d)
    if segments:
        subpaths.append((segments, False))
    return subpaths


def polygon(points: str, dx: float = 0.0, dy: float = 0.0) -> list[Subpath]:
    values = [float(v) for v in _NUMBER.findall(points)]
    if len(values) < 4 or len(values) % 2:
        raise Unsupported(points)
    corners = [(values[i] + dx, values[i + 1] + dy) for i in range(0, len(values), 2)]
    return [(list(zip(corners, corners[1:] + corners[:1], strict=True)), True)]


def filled(subpaths: list[Subpath]) -> Edges:
    """The subpaths' insides (each closed by a line back to its start)."""
    edges = Edges()
    for segments, _ in subpaths:
        for segment in segments:
            _add(edges, segment)
        if segments[-1][-1] != segments[0][0]:
            edges.line(segments[-1][-1], segments[0][0])
    return edges


def circle(cx: float, cy: float, r: float, dx: float = 0.0, dy: float = 0.0) -> Edges:
    """A circle's inside, moved by (dx, dy) (in single precision, as tiny-skia moves a path)."""
    edges = Edges()
    for cubic in _arcs(cx, cy, r):
        edges.cubic(*(_moved(p, dx, dy) for p in cubic))
    return edges


def ring(cx: float, cy: float, r: float, width: float, dx: float = 0.0, dy: float = 0.0) -> Edges:
    """A circle's stroke: its outer side one way round, its inner side the other; stroked where
    it stands, then moved."""
    edges = Edges()
    for cubic in _arcs(cx, cy, r):
        for outer in (True, False):
            for quad in offset.side(cubic, width / 2, outer):
                moved = [(x + dx, y + dy) for x, y in quad]
                edges.quad(*(moved if outer else moved[::-1]))
    return edges


def _moved(p: Point, dx: float, dy: float) -> Point:
    f32 = np.float32
    return float(f32(f32(p[0]) + f32(dx))), float(f32(f32(p[1]) + f32(dy)))


def _arcs(cx: float, cy: float, r: float) -> list[tuple[Point, ...]]:
    """A circle's cubic curves as usvg makes them, from (cx + r, cy) clockwise."""
    f32 = np.float32
    x, y, radius = f32(cx), f32(cy), f32(r)
    corners = [(x + radius, y), (x, y + radius), (x - radius, y), (x, y - radius), (x + radius, y)]
    cubics: list[tuple[Point, ...]] = []
    here = (float(corners[0][0]), float(corners[0][1]))
    for x1, y1 in corners[1:]:
        for controls in _kurbo_arc(here, (float(x1), float(y1)), float(radius)):
            cubics.append((here, *controls))
            here = controls[-1]
    return cubics


def _kurbo_arc(start: Point, end: Point, r: float) -> list[tuple[Point, Point, Point]]:
    """kurbo's Arc::from_svg_arc and to_cubic_beziers(0.1) for a clockwise arc of a circle
    shorter than a half: each cubic's control points and end, in single precision."""
    hd_x, hd_y = (start[0] - end[0]) * 0.5, (start[1] - end[1]) * 0.5
    hs_x, hs_y = (start[0] + end[0]) * 0.5, (start[1] + end[1]) * 0.5
    px, py = hd_x, hd_y  # no rotation
    rx = ry = r
    rf = px * px / (rx * rx) + py * py / (ry * ry)
    if rf > 1.0:
        rx, ry = rx * math.sqrt(rf), ry * math.sqrt(rf)
    rxry, rxpy, rypx = rx * ry, rx * py, ry * px
    sum_of_sq = rxpy * rxpy + rypx * rypx
    coe = math.sqrt(abs((rxry * rxry - sum_of_sq) / sum_of_sq))
    tcx, tcy = coe * rxpy / ry, -coe * rypx / rx
    centre = (tcx + hs_x, tcy + hs_y)
    first = math.atan2((py - tcy) / ry, (px - tcx) / rx)
    sweep = math.fmod(math.atan2((-py - tcy) / ry, (-px - tcx) / rx) - first, 2.0 * math.pi)
    if sweep < 0.0:
        sweep += 2.0 * math.pi
    n_err = max((1.1163 * (max(rx, ry) / 0.1)) ** (1.0 / 6.0), 3.999_999)
    n = math.ceil(n_err * abs(sweep) * (1.0 / (2.0 * math.pi)))
    step = sweep / n
    arm = (4.0 / 3.0) * math.tan(abs(0.25 * step))

    def on(angle: float, scale: float = 1.0, base: Point = (0.0, 0.0)) -> Point:
        return base[0] + scale * rx * math.cos(angle), base[1] + scale * ry * math.sin(angle)

    def single(p: Point) -> Point:
        return float(np.float32(centre[0] + p[0])), float(np.float32(centre[1] + p[1]))

    cubics = []
    angle, p0 = first, on(first)
    for _ in range(n):
        after = angle + step
        p3 = on(after)
        p1, p2 = on(angle + math.pi / 2, arm, p0), on(after + math.pi / 2, -arm, p3)
        cubics.append((single(p1), single(p2), single(p3)))
        angle, p0 = after, p3
    return cubics


def stroked(subpaths: list[Subpath], width: float, round_cap: bool, round_join: bool,
            dashes: list[float]) -> Edges:
    """The subpaths' stroke, dashed if ``dashes``. Joins only round (a segment's outline ends
    round where the next begins)."""
    edges = Edges()
    for segments, closed in subpaths:
        whole = closed and not dashes
        for piece in dashed(segments, dashes) if dashes else [segments]:
            if len(piece) == 1 and not whole:
                _capsule(edges, piece[0], width / 2, round_cap)
            elif not round_join or not round_cap and not whole:
                raise Unsupported("joins other than round")
            else:
                for segment in piece:
                    _capsule(edges, segment, width / 2, True)
    return edges


def _add(edges: Edges, segment: Segment) -> None:
    if len(segment) == 2:
        edges.line(*segment)
    else:
        edges.quad(*segment)


def _capsule(edges: Edges, segment: Segment, radius: float, round_cap: bool) -> None:
    """One segment's outline: its left side forward, its end, its right side back, its start."""
    if len(segment) == 3 and offset.in_line(segment):  # type: ignore[arg-type]
        segment = (segment[0], segment[2])
    if len(segment) == 2:
        (ax, ay), (bx, by) = segment
        length = math.hypot(bx - ax, by - ay)
        ux, uy = ((bx - ax) / length, (by - ay) / length) if length else (1.0, 0.0)  # a dot: capped facing right
        nx, ny = uy * radius, -ux * radius  # tiny-skia's normal: turned counter-clockwise
        edges.line((ax + nx, ay + ny), (bx + nx, by + ny))
        edges.line((bx - nx, by - ny), (ax - nx, ay - ny))
        start = end = (nx, ny)
        left_end, right_end, right_start, left_start = (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny), \
            (ax + nx, ay + ny)
    else:
        left, right = offset.side(segment, radius, True), offset.side(segment, radius, False)  # type: ignore[arg-type]
        for quad in left:
            edges.quad(*quad)
        for quad in right:
            edges.quad(*quad[::-1])
        left_start, left_end, right_start, right_end = left[0][0], left[-1][2], right[0][0], right[-1][2]
        start = (left_start[0] - segment[0][0], left_start[1] - segment[0][1])
        end = (left_end[0] - segment[2][0], left_end[1] - segment[2][1])
    if round_cap:
        _cap(edges, segment[-1], end)
        _cap(edges, segment[0], (-start[0], -start[1]))
    else:
        edges.line(left_end, right_end)
        edges.line(right_start, left_start)


def _cap(edges: Edges, pivot: Point, normal: Point) -> None:
    """A round cap from ``pivot + normal`` round to ``pivot - normal``: tiny-skia's two conic
    quarters, each drawn as two quadratic curves (its halves, their control points kept)."""
    (px, py), (nx, ny) = pivot, normal
    tx, ty = px - ny, py + nx  # the tip: the normal turned clockwise
    _quarter(edges, (px + nx, py + ny), (tx + nx, ty + ny), (tx, ty))
    _quarter(edges, (tx, ty), (tx - nx, ty - ny), (px - nx, py - ny))


def _quarter(edges: Edges, p0: Point, p1: Point, p2: Point) -> None:
    w = _CONIC
    mid = ((p0[0] + 2 * w * p1[0] + p2[0]) / (2 * (1 + w)), (p0[1] + 2 * w * p1[1] + p2[1]) / (2 * (1 + w)))
    edges.quad(p0, ((p0[0] + w * p1[0]) / (1 + w), (p0[1] + w * p1[1]) / (1 + w)), mid)
    edges.quad(mid, ((w * p1[0] + p2[0]) / (1 + w), (w * p1[1] + p2[1]) / (1 + w)), p2)


def dashed(segments: list[Segment], dashes: list[float]) -> list[list[Segment]]:
    """The dashes of an open subpath: pieces of its segments, measured as tiny-skia measures."""
    if len(dashes) % 2:
        dashes = dashes * 2
    if sum(dashes) <= 0 or any(d < 0 for d in dashes):
        raise Unsupported("dashes")
    table: list[tuple[float, int, float]] = []  # distance at the end of each measured piece, segment, t there
    length = 0.0
    for index, segment in enumerate(segments):
        if len(segment) == 2:
            step = math.dist(*segment)
            if step > 0:
                length += step
                table.append((length, index, 1.0))
        else:
            length = _measure_quad(*segment, length, 0, _MAX_T, index, table)  # type: ignore[misc]
    pieces: list[list[Segment]] = []
    distance, which = 0.0, 0
    while distance < length and table:
        if which % 2 == 0:
            pieces.append(_piece(segments, table, distance, min(distance + dashes[which], length)))
        distance += dashes[which]
        which = (which + 1) % len(dashes)
    return pieces


def _measure_quad(p0: Point, p1: Point, p2: Point, length: float, t0: int, t1: int, index: int,
                  table: list[tuple[float, int, float]]) -> float:
    bend = max(abs(p1[0] / 2 - (p0[0] + p2[0]) / 4), abs(p1[1] / 2 - (p0[1] + p2[1]) / 4))
    if (t1 - t0) >> 10 and bend > _CURVY:
        a, b = ((p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2), ((p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        half = (t0 + t1) >> 1
        length = _measure_quad(p0, a, mid, length, t0, half, index, table)
        return _measure_quad(mid, b, p2, length, half, t1, index, table)
    step = math.dist(p0, p2)
    if step > 0:
        length += step
        table.append((length, index, t1 / _MAX_T))
    return length


def _where(table: list[tuple[float, int, float]], distance: float) -> tuple[int, float]:
    """The segment and ``t`` at ``distance`` along the subpath."""
    k = next((i for i, row in enumerate(table) if row[0] >= distance), len(table) - 1)
    end, index, t = table[k]
    start, t0 = 0.0, 0.0
    if k > 0:
        start = table[k - 1][0]
        if table[k - 1][1] == index:
            t0 = table[k - 1][2]
    return index, t0 + (t - t0) * (distance - start) / (end - start)


def _piece(segments: list[Segment], table: list[tuple[float, int, float]], start: float,
           stop: float) -> list[Segment]:
    first, t0 = _where(table, start)
    last, t1 = _where(table, stop)
    if first == last:
        return [_part(segments[first], t0, t1)]
    return ([_part(segments[first], t0, 1.0)] + [segments[i] for i in range(first + 1, last)]
            + [_part(segments[last], 0.0, t1)])


def _part(segment: Segment, t0: float, t1: float) -> Segment:
    """The piece of a segment from ``t0`` to ``t1``."""
    if len(segment) == 2:
        (ax, ay), (bx, by) = segment
        return (ax + (bx - ax) * t0, ay + (by - ay) * t0), (ax + (bx - ax) * t1, ay + (by - ay) * t1)
    a, c, b = segment

    def at(s: float, t: float) -> Point:  # the curve's blossom
        wa, wc, wb = (1 - s) * (1 - t), (1 - s) * t + s * (1 - t), s * t
        return wa * a[0] + wc * c[0] + wb * b[0], wa * a[1] + wc * c[1] + wb * b[1]

    return at(t0, t0), at(t0, t1), at(t1, t1)
