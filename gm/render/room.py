"""The room a province gives the marks of its units: its area, read from its shape's SVG path
(rings of ``M x yL x y...Z``, filled even-odd as the picture fills them), and whether boxes
stand wholly inside it. ``stacks`` uses it so that the units sharing a small or narrow
province (a dozen fleets in a sea) are drawn in it, not over the coast next to it.

Standard library only: the edges are kept in square cells, so a box is tested against the few
edges near it, and a point against the edges of its band.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom
Edge = tuple[float, float, float, float]

CELL = 24.0  # the side of the cells the edges are kept in, in pixels
_RING = re.compile(r"M([^MZ]*)Z?")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


class Room:
    """A province's area: where marks fit."""

    def __init__(self, rings: Sequence[Sequence[Point]]):
        self.edges: list[Edge] = [(*ring[i - 1], *ring[i]) for ring in rings for i in range(len(ring))]
        xs = [x for ring in rings for x, _ in ring]
        ys = [y for ring in rings for _, y in ring]
        self.bounds: Box = (min(xs), min(ys), max(xs), max(ys))
        self.cells: dict[tuple[int, int], list[Edge]] = {}
        self.bands: dict[int, list[Edge]] = {}
        for edge in self.edges:
            x1, y1, x2, y2 = edge
            for row in range(_cell(min(y1, y2)), _cell(max(y1, y2)) + 1):
                self.bands.setdefault(row, []).append(edge)
                for col in range(_cell(min(x1, x2)), _cell(max(x1, x2)) + 1):
                    self.cells.setdefault((col, row), []).append(edge)

    @classmethod
    def of_path(cls, path: str) -> Room | None:
        """The area of a path of straight rings; None for any other path (no room known)."""
        if not path or set(re.sub(r"[-\d.eE,\s]", "", path)) - {"M", "L", "Z"}:
            return None
        rings = []
        for body in _RING.findall(path):
            numbers = [float(n) for n in _NUMBER.findall(body)]
            ring = list(zip(numbers[0::2], numbers[1::2], strict=False))
            if len(ring) >= 3:
                rings.append(ring)
        return cls(rings) if rings else None

    def contains(self, x: float, y: float) -> bool:
        """The point is inside (even-odd, as the area is filled)."""
        inside = False
        for x1, y1, x2, y2 in self.bands.get(_cell(y), ()):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside

    def holds(self, box: Box) -> bool:
        """The box stands wholly inside: no edge crosses it, and its centre is inside."""
        left, top, right, bottom = box
        b = self.bounds
        if left < b[0] or top < b[1] or right > b[2] or bottom > b[3]:
            return False
        for col in range(_cell(left), _cell(right) + 1):
            for row in range(_cell(top), _cell(bottom) + 1):
                for edge in self.cells.get((col, row), ()):
                    if _crosses(edge, box):
                        return False
        return self.contains((left + right) / 2, (top + bottom) / 2)


@lru_cache(maxsize=4096)
def room_of(path: str) -> Room | None:
    """A province's room, read once per shape."""
    return Room.of_path(path)


def _cell(value: float) -> int:
    return math.floor(value / CELL)


def _crosses(edge: Edge, box: Box) -> bool:
    """The segment meets the box (Liang-Barsky clipping)."""
    x1, y1, x2, y2 = edge
    left, top, right, bottom = box
    if max(x1, x2) < left or min(x1, x2) > right or max(y1, y2) < top or min(y1, y2) > bottom:
        return False
    dx, dy = x2 - x1, y2 - y1
    low, high = 0.0, 1.0
    for p, q in ((-dx, x1 - left), (dx, right - x1), (-dy, y1 - top), (dy, bottom - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


@lru_cache(maxsize=8)
def _around(step: float, reach: float) -> tuple[Point, ...]:
    """Offsets on a grid of ``step`` within ``reach`` of the origin, nearest first."""
    n = int(reach // step)
    offsets = [(i * step, j * step) for i in range(-n, n + 1) for j in range(-n, n + 1)
               if (i * i + j * j) * step * step <= reach * reach]
    return tuple(sorted(offsets, key=lambda o: (o[0] ** 2 + o[1] ** 2, o[1], o[0])))


def nearest_fit(room: Room, spot: Point, boxes: Sequence[Box], step: float = 3.0,
                reach: float = 160.0) -> Point | None:
    """The point nearest ``spot`` (on a grid around it) where ``boxes``, given around the
    origin, all stand inside the room; None if there is none within ``reach``."""
    left = min(b[0] for b in boxes)
    top = min(b[1] for b in boxes)
    right = max(b[2] for b in boxes)
    bottom = max(b[3] for b in boxes)
    bx0, by0, bx1, by1 = room.bounds
    for dx, dy in _around(step, reach):
        x, y = spot[0] + dx, spot[1] + dy
        if x + left < bx0 or y + top < by0 or x + right > bx1 or y + bottom > by1:
            continue
        if all(room.holds((x + b[0], y + b[1], x + b[2], y + b[3])) for b in boxes):
            return x, y
    return None

