"""Province names placed where nothing hides them: clear of every unit, supply-centre mark,
layer marker and other name, and wholly inside the picture.

A name stays at its shape's label spot when that is clear. Otherwise it moves to the nearest
clear spot wholly inside its province, then to one at a smaller size, then to one whose middle
is inside; failing all of them it stands outside, as near as it is clear, with a leader line to
its province. Names are placed one after the other, so each later one keeps clear of those
placed before; names clear at their own spots are placed first.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from gm.render import style
from gm.render.room import room_of

Box = tuple[float, float, float, float]  # left, top, right, bottom
Point = tuple[float, float]

SIZES = (1.0, 0.86, 0.74)  # of style.LABEL_SIZE, tried in turn
STEP, REACH = 3.0, 36.0  # the search for a spot inside the province
LEADER_REACH = (26.0, 36.0, 48.0, 62.0, 80.0, 100.0, 130.0, 170.0)  # distances tried outside it
LEADER_TURNS = 24  # directions tried at each distance
CELL = 48.0  # of the grid that finds what a box may touch


def text_width(text: str, size: float) -> float:
    """The advance of ``text`` in DejaVu Sans Bold at ``size`` pixels."""
    return _thousandths(text) * size / 1000


@lru_cache(maxsize=4096)
def _thousandths(text: str) -> int:
    return sum(style.BOLD_ADVANCE.get(ch, style.BOLD_ADVANCE_OTHER) for ch in text)


@dataclass(frozen=True)
class Label:
    x: float  # the middle of the name
    y: float
    text: str
    sea: bool
    size: float = style.LABEL_SIZE
    leader: tuple[float, float, float, float] | None = None  # from the name to its province, when outside it

    @property
    def baseline(self) -> float:
        return round(self.y + 0.38 * self.size, 1)

    @property
    def box(self) -> Box:
        return label_box(self.text, self.x, self.y, self.size)


def label_box(text: str, x: float, y: float, size: float) -> Box:
    """What a name covers: its capitals and their halo."""
    half_w = text_width(text, size) / 2 + style.LABEL_HALO / 2 + 0.4
    half_h = 0.4 * size + 1.55  # capitals stand 0.73 of the size above a baseline 0.38 below the middle
    return x - half_w, y - half_h, x + half_w, y + half_h


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class Taken:
    """Boxes already on the picture, kept in square cells of side ``CELL``."""

    def __init__(self, boxes: Iterable[Box] = ()):
        self.cells: dict[tuple[int, int], list[Box]] = {}
        for box in boxes:
            self.add(box)

    def add(self, box: Box) -> None:
        cells = self.cells
        for col in range(int(box[0] // CELL), int(box[2] // CELL) + 1):
            for row in range(int(box[1] // CELL), int(box[3] // CELL) + 1):
                found = cells.get((col, row))
                if found is None:
                    cells[col, row] = [box]
                else:
                    found.append(box)

    def hits(self, box: Box) -> bool:
        left, top, right, bottom = box
        cells = self.cells
        for col in range(int(left // CELL), int(right // CELL) + 1):
            for row in range(int(top // CELL), int(bottom // CELL) + 1):
                for other in cells.get((col, row), ()):
                    if left < other[2] and other[0] < right and top < other[3] and other[1] < bottom:
                        return True
        return False

    def near(self, area: Box) -> set[Box]:
        """The boxes kept in the cells the area touches."""
        return {box for col in range(int(area[0] // CELL), int(area[2] // CELL) + 1)
                for row in range(int(area[1] // CELL), int(area[3] // CELL) + 1)
                for box in self.cells.get((col, row), ())}


@dataclass(frozen=True)
class Wanted:
    """A province's name to place: its text, its shape's label spot, its area (SVG path)."""

    text: str
    sea: bool
    spot: Point
    path: str


def place_labels(wanted: Sequence[Wanted], taken: Taken, width: float, height: float) -> list[Label]:
    """Each name where nothing hides it (see the module's docstring), in the order given."""
    placed: dict[int, Label] = {}
    for index, want in enumerate(wanted):  # first, the names clear where they are
        box = label_box(want.text, *want.spot, style.LABEL_SIZE)
        if box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height and not taken.hits(box):
            placed[index] = Label(*want.spot, want.text, want.sea)
            taken.add(box)
    for index, want in enumerate(wanted):
        if index not in placed:
            label = _moved(want, taken, width, height)
            placed[index] = label
            taken.add(label.box)
    return [placed[i] for i in range(len(wanted))]


def _moved(want: Wanted, taken: Taken, width: float, height: float) -> Label:
    x0, y0 = want.spot
    room = room_of(want.path)
    partly: Label | None = None  # the first spot found with only the name's middle inside
    grid = offsets(STEP, REACH)
    for scale in SIZES:
        size = style.LABEL_SIZE * scale
        left, top, right, bottom = label_box(want.text, 0.0, 0.0, size)
        free = _free(taken, (x0, y0), (left, top, right, bottom), width, height)
        for index, (dx, dy) in grid.items():
            if not free[index]:
                continue
            x, y = x0 + dx, y0 + dy
            if room is None or room.holds((x + left, y + top, x + right, y + bottom)):
                return Label(round(x, 1), round(y, 1), want.text, want.sea, round(size, 2))
            if partly is None and room.contains(x, y):
                partly = Label(round(x, 1), round(y, 1), want.text, want.sea, round(size, 2))
    if partly is not None:
        return partly
    size = round(style.LABEL_SIZE * SIZES[1], 2)
    for reach in LEADER_REACH:
        for x, y in _ring(x0, y0, reach):
            box = label_box(want.text, x, y, size)
            if box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height and not taken.hits(box):
                return Label(round(x, 1), round(y, 1), want.text, want.sea, size, _leader(box, want.spot))
    return Label(x0, y0, want.text, want.sea)  # nowhere clear: as the shape says


def _free(taken: Taken, spot: Point, around: Box, width: float, height: float) -> bytearray:
    """Which points of the search grid around ``spot`` a box (``around`` each point) may stand
    on, clear of everything taken and inside the picture: each taken box rules out the grid
    points within the box's reach of it, a run of each row at a time."""
    n = int(REACH // STEP)
    side = 2 * n + 1
    free = bytearray(b"\x01") * (side * side)
    x0, y0 = spot
    left, top, right, bottom = around

    def rule_out(x1: float, y1: float, x2: float, y2: float) -> None:
        """The points whose box would overlap the box (x1, y1, x2, y2)."""
        i1 = max(-n, math.floor((x1 - right - x0) / STEP) + 1)
        i2 = min(n, math.ceil((x2 - left - x0) / STEP) - 1)
        j1 = max(-n, math.floor((y1 - bottom - y0) / STEP) + 1)
        j2 = min(n, math.ceil((y2 - top - y0) / STEP) - 1)
        if i1 > i2:
            return
        blank = bytes(i2 - i1 + 1)
        for j in range(j1, j2 + 1):
            row = (j + n) * side + n
            free[row + i1:row + i2 + 1] = blank

    reach = REACH + STEP
    area = (x0 + left - reach, y0 + top - reach, x0 + right + reach, y0 + bottom + reach)
    for box in taken.near(area):
        rule_out(*box)
    big = 1e9  # beyond the picture's edges
    rule_out(-big, -big, 0.0, big)
    rule_out(width, -big, big, big)
    rule_out(-big, -big, big, 0.0)
    rule_out(-big, height, big, big)
    return free


@lru_cache(maxsize=4)
def offsets(step: float, reach: float) -> dict[int, Point]:
    """Offsets on a grid within ``reach``, nearest first (lower ones first at equal distance),
    each under its index in the grid's rows (as ``_free`` numbers them)."""
    n = int(reach // step)
    side = 2 * n + 1
    found = [(i, j) for i in range(-n, n + 1) for j in range(-n, n + 1) if (i * i + j * j) * step * step <= reach * reach]
    found.sort(key=lambda o: (o[0] ** 2 + o[1] ** 2, -o[1], o[0]))
    return {(j + n) * side + (i + n): (i * step, j * step) for i, j in found}


def _ring(x: float, y: float, reach: float) -> Iterable[Point]:
    for k in range(LEADER_TURNS):
        angle = 2 * math.pi * k / LEADER_TURNS + math.pi / 2  # from straight below, round
        yield x + reach * math.cos(angle), y + reach * math.sin(angle)


def _leader(box: Box, spot: Point) -> tuple[float, float, float, float]:
    """A line from the edge of the name's box towards its province's spot."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    dx, dy = spot[0] - cx, spot[1] - cy
    half_w, half_h = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    t = min(half_w / abs(dx) if dx else math.inf, half_h / abs(dy) if dy else math.inf)
    return round(cx + dx * t, 1), round(cy + dy * t, 1), spot[0], spot[1]
