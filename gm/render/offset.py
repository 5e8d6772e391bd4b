"""One side of a curve's stroke as tiny-skia 0.12's stroker approximates it: quadratic curves
through points a stroke's half width from the curve, each with its control point where the
tangents there meet, the curve halved in t until each lies within a quarter of a pixel of the
true side (``PathStroker::quad_stroke``, and ``cubic_stroke`` for a circle's arcs, whose ends'
tangents always meet). Its pixels show where this differs from the true
side, as the curves are then followed by their chords (``scan.quad_chords``).

Plain floats: a phase's dashed arrows ask this for a few hundred short pieces.
"""

from __future__ import annotations

import math

Point = tuple[float, float]
Quad = tuple[Point, Point, Point]
Curve = tuple[Point, ...]  # a quadratic or cubic curve's points

_CLOSE = 0.25  # pixels: tiny-skia's inv_res_scale, at a scale of 1
_SLOP = 0.000005  # tiny-skia's CURVATURE_SLOP: a curve this close to its chord is a line
_DEPTH = 33  # tiny-skia's recursion limit for quadratic curves


class Unsupported(ValueError):
    """A shape this package does not draw as resvg would (resvg draws it)."""


def in_line(quad: Quad) -> bool:
    """Whether tiny-skia strokes the curve as a line (its middle point next to the line between
    the two farthest apart)."""
    best, pair = -1.0, (0, 2)
    for i in range(2):
        for j in range(i + 1, 3):
            d = max(abs(quad[j][0] - quad[i][0]), abs(quad[j][1] - quad[i][1]))
            if best < d:
                best, pair = d, (i, j)
    mid = pair[0] ^ pair[1] ^ 3
    return _to_line(quad[mid], quad[pair[0]], quad[pair[1]]) <= best * best * _SLOP


def side(curve: Curve, radius: float, outer: bool) -> list[Quad]:
    """The quadratic curves of the stroke's side: ``outer`` to the left of the curve's direction
    as the picture shows it (tiny-skia's normal turned counter-clockwise), else the right."""
    flip = 1.0 if outer else -1.0
    found: list[Quad] = []

    def ray(t: float) -> tuple[Point, Point, Point]:  # the side's point at t, one along its tangent, the curve's
        (px, py), (dx, dy) = _at(curve, t), _tangent(curve, t)
        if dx == 0 and dy == 0:
            dx, dy = curve[-1][0] - curve[0][0], curve[-1][1] - curve[0][1]
        n = math.hypot(dx, dy)
        dx, dy = (dx / n * radius, dy / n * radius) if n else (radius, 0.0)
        on = (px + flip * dy, py - flip * dx)
        return on, (on[0] + dx, on[1] + dy), (px, py)

    def stroke(t0: float, t1: float, start: tuple[Point, Point, Point], end: tuple[Point, Point, Point],
               depth: int) -> None:
        mid_t = (t0 + t1) / 2
        truth, _, on_curve = ray(mid_t)
        verdict, control = _fit(start, end, truth, on_curve)
        if verdict == "quad":
            found.append((start[0], control, end[0]))
            return
        if verdict == "line":
            found.append((start[0], ((start[0][0] + end[0][0]) / 2, (start[0][1] + end[0][1]) / 2), end[0]))
            return
        if depth >= _DEPTH:
            raise Unsupported("a stroke tiny-skia gives up on")
        middle = truth, ray(mid_t)[1], on_curve
        stroke(t0, mid_t, start, middle, depth + 1)
        stroke(mid_t, t1, middle, end, depth + 1)

    stroke(0.0, 1.0, ray(0.0), ray(1.0), 0)
    return found


def _fit(start: tuple[Point, Point, Point], end: tuple[Point, Point, Point], truth: Point,
         on_curve: Point) -> tuple[str, Point]:
    """tiny-skia's intersect_ray and stroke_close_enough: "quad" (with its control point),
    "line", or "split". ``truth``: the side's point halfway in t, ``on_curve`` the curve's."""
    (sx, sy), (tsx, tsy), _ = start
    (ex, ey), (tex, tey), _ = end
    ax, ay = tsx - sx, tsy - sy
    bx, by = tex - ex, tey - ey
    denominator = ax * by - ay * bx
    if denominator == 0 or not math.isfinite(denominator):
        return "line", (0.0, 0.0)
    abx, aby = sx - ex, sy - ey
    numer_a = bx * aby - by * abx
    numer_b = ax * aby - ay * abx
    if (numer_a >= 0) == (numer_b >= 0):
        far = max(_to_line(start[0], end[0], end[1]), _to_line(end[0], start[0], start[1]))
        return ("line", (0.0, 0.0)) if far <= _CLOSE * _CLOSE else ("split", (0.0, 0.0))
    numer_a /= denominator
    if not numer_a > numer_a - 1.0:
        return "line", (0.0, 0.0)
    control = (sx * (1 - numer_a) + tsx * numer_a, sy * (1 - numer_a) + tsy * numer_a)
    quad = (start[0], control, end[0])
    mid = _at(quad, 0.5)
    if _within(truth, mid, _CLOSE):
        return ("split", control) if _sharp(quad) else ("quad", control)
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    if not (min(xs) - _CLOSE <= truth[0] <= max(xs) + _CLOSE and min(ys) - _CLOSE <= truth[1] <= max(ys) + _CLOSE):
        return "split", control
    roots = _crossings(truth, on_curve, quad)
    if len(roots) != 1:
        return "split", control
    if _within(truth, _at(quad, roots[0]), _CLOSE * (1 - abs(roots[0] - 0.5) * 2)):
        return ("split", control) if _sharp(quad) else ("quad", control)
    return "split", control


def _crossings(a: Point, b: Point, quad: Quad) -> list[float]:
    """Where (in t, strictly within 0 and 1) the line through ``a`` and ``b`` meets the curve
    (tiny-skia's intersect_quad_ray and find_unit_quad_roots)."""
    vx, vy = b[0] - a[0], b[1] - a[1]
    r = [(q[1] - a[1]) * vx - (q[0] - a[0]) * vy for q in quad]
    qa, qb, qc = r[2] + r[0] - 2 * r[1], 2 * (r[1] - r[0]), r[0]
    if qa == 0:
        return [t for t in [_unit(-qc, qb)] if t is not None]
    discriminant = qb * qb - 4 * qa * qc
    if discriminant < 0:
        return []
    root = math.sqrt(discriminant)
    q = -(qb - root) / 2 if qb < 0 else -(qb + root) / 2
    return sorted({t for t in (_unit(q, qa), _unit(qc, q)) if t is not None})


def _unit(numerator: float, denominator: float) -> float | None:
    """numerator / denominator if strictly between 0 and 1 (tiny-skia's valid_unit_divide)."""
    if numerator < 0:
        numerator, denominator = -numerator, -denominator
    if denominator == 0 or numerator == 0 or numerator >= denominator:
        return None
    t = numerator / denominator
    return t if t != 0 else None


def _at(curve: Curve, t: float) -> Point:
    u = 1 - t
    if len(curve) == 3:
        (x0, y0), (x1, y1), (x2, y2) = curve
        a, b, c = u * u, 2 * u * t, t * t
        return a * x0 + b * x1 + c * x2, a * y0 + b * y1 + c * y2
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = curve
    a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
    return a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3


def _tangent(curve: Curve, t: float) -> Point:
    u = 1 - t
    if len(curve) == 3:
        (x0, y0), (x1, y1), (x2, y2) = curve
        return 2 * (u * (x1 - x0) + t * (x2 - x1)), 2 * (u * (y1 - y0) + t * (y2 - y1))
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = curve
    a, b, c = 3 * u * u, 6 * u * t, 3 * t * t
    return a * (x1 - x0) + b * (x2 - x1) + c * (x3 - x2), a * (y1 - y0) + b * (y2 - y1) + c * (y3 - y2)


def _within(a: Point, b: Point, limit: float) -> bool:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 <= limit * limit


def _sharp(quad: Quad) -> bool:
    smaller = (quad[1][0] - quad[0][0], quad[1][1] - quad[0][1])
    larger = (quad[1][0] - quad[2][0], quad[1][1] - quad[2][1])
    small_length = smaller[0] ** 2 + smaller[1] ** 2
    large_length = larger[0] ** 2 + larger[1] ** 2
    if small_length > large_length:
        smaller, larger = larger, smaller
        large_length = small_length
    n = math.hypot(*smaller)
    if n == 0:
        return False
    smaller = (smaller[0] / n * large_length, smaller[1] / n * large_length)
    return smaller[0] * larger[0] + smaller[1] * larger[1] > 0


def _to_line(point: Point, a: Point, b: Point) -> float:
    """The squared distance from ``point`` to the segment from ``a`` to ``b`` (tiny-skia's pt_to_line)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    px, py = point[0] - a[0], point[1] - a[1]
    denominator = dx * dx + dy * dy
    t = (dx * px + dy * py) / denominator if denominator else -1.0
    if 0 <= t <= 1:
        hx, hy = a[0] + dx * t, a[1] + dy * t
        return (hx - point[0]) ** 2 + (hy - point[1]) ** 2
    return px * px + py * py
