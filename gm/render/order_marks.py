"""The orders of a phase as lines: moves and retreats as arrows, supports and convoys as thin
lines, removals as crosses; whatever failed is dashed.

Each order starts at its own unit's mark (units sharing a province stand side by side;
identical units take their orders' lines in turn). Moves bend slightly to their left, so
two units swapping places (or bouncing off each other) draw two arrows side by side.
Supports of a move end on the supported arrow near its head; convoys end on the convoyed
army's path. An order of a type this module does not know is drawn as an arrow if it has a
destination, and otherwise not at all.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from gm.domain.geography import Location
from gm.domain.orders import Build, Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove, UnitRef, Waive
from gm.domain.outcomes import OrderResult
from gm.domain.units import UnitType
from gm.render import style

Point = tuple[float, float]

MOVE_WIDTH = 3.2
SUPPORT_WIDTH = 2.0
HEAD_LENGTH = 13.0
HEAD_WIDTH = 11.0
BEND = 0.12  # how far a move arrow bows, as a share of its length


Step = tuple[Point, Point | None, Point]  # from, the control point of a curve (None: straight), to


@dataclass(frozen=True)
class Stroke:
    kind: str  # move | retreat | support | convoy
    steps: tuple[Step, ...]  # the line, step by step
    colour: str
    edge: str  # the dark or light rim under the line
    width: float
    dashed: bool
    head: tuple[Point, ...] = ()  # arrowhead: its tip, then its two back corners
    dot: tuple[float, float, float] | None = None  # end of a support: x, y, radius
    diamond: tuple[Point, ...] = ()  # end of a convoy

    @property
    def d(self) -> str:
        """The line as SVG path data."""
        parts = [f"M{_f(self.steps[0][0])}"] if self.steps else []
        for _, ctrl, end in self.steps:
            parts.append(f"L{_f(end)}" if ctrl is None else f"Q{_f(ctrl)} {_f(end)}")
        return " ".join(parts)

    @property
    def head_points(self) -> str:
        return " ".join(_f(p) for p in self.head)

    @property
    def diamond_points(self) -> str:
        return " ".join(_f(p) for p in self.diamond)

    @property
    def end_box(self) -> tuple[float, float, float, float] | None:
        """What the line's end (its head, dot or diamond) covers: names keep clear of it."""
        if self.dot is not None:
            x, y, r = self.dot
            return x - r - 1, y - r - 1, x + r + 1, y + r + 1
        points = self.head or self.diamond
        if not points:
            return None
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1


@dataclass(frozen=True)
class Cross:
    x: float
    y: float
    size: float
    colour: str
    dashed: bool


@dataclass
class OrderMarks:
    strokes: list[Stroke] = field(default_factory=list)
    crosses: list[Cross] = field(default_factory=list)


class _Spots(Protocol):
    """Where things are drawn (the scene's answers)."""

    def of(self, location: Location) -> Point | None:
        """The spot of a location (where a move arrow points)."""

    def unit(self, power: str | None, unit_type: UnitType | None, location: Location, dislodged: bool,
             turn: int = 0) -> Point | None:
        """The mark of a unit (``power`` None: any unit of that type there)."""


def _unit(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


def _along(a: Point, b: Point, distance: float) -> Point:
    u = _unit(a, b)
    return a[0] + u[0] * distance, a[1] + u[1] * distance


def _lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _f(p: Point) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def arrow(start: Point, end: Point, colour: str, dashed: bool, kind: str = "move",
          start_gap: float | None = None, end_gap: float | None = None) -> Stroke | None:
    r = style.UNIT_RADIUS
    start_gap = r + 1.5 if start_gap is None else start_gap
    end_gap = r + 2.0 if end_gap is None else end_gap
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    if length < start_gap + end_gap + 4:
        return None
    mid = _lerp(start, end, 0.5)
    ux, uy = _unit(start, end)
    ctrl = (mid[0] + uy * BEND * length, mid[1] - ux * BEND * length)  # bow to the left
    s = _along(start, ctrl, start_gap)
    tip = _along(end, ctrl, end_gap)
    back = _unit(tip, ctrl)
    base = (tip[0] + back[0] * HEAD_LENGTH, tip[1] + back[1] * HEAD_LENGTH)
    side = (-back[1] * HEAD_WIDTH / 2, back[0] * HEAD_WIDTH / 2)
    head = (tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1]))
    line_end = (tip[0] + back[0] * (HEAD_LENGTH - 1), tip[1] + back[1] * (HEAD_LENGTH - 1))
    width = MOVE_WIDTH if kind == "move" else MOVE_WIDTH - 0.4
    return Stroke(kind, ((s, ctrl, line_end),), colour, style.outline_for(colour), width, dashed, head=head)


def _bent_point(start: Point, end: Point, t: float) -> Point:
    """The point at ``t`` along the bowed arrow from ``start`` to ``end`` (as ``arrow`` draws it)."""
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    mid = _lerp(start, end, 0.5)
    ux, uy = _unit(start, end)
    ctrl = (mid[0] + uy * BEND * length, mid[1] - ux * BEND * length)
    a, b = _lerp(start, ctrl, t), _lerp(ctrl, end, t)
    return _lerp(a, b, t)


def line_to(start: Point, target: Point, colour: str, dashed: bool, kind: str, end_gap: float) -> Stroke | None:
    r = style.UNIT_RADIUS
    length = math.hypot(target[0] - start[0], target[1] - start[1])
    if length < r + 2 + end_gap + 3:
        return None
    s = _along(start, target, r + 1.5)
    e = _along(target, start, end_gap)
    edge = style.outline_for(colour)
    if kind == "convoy":
        u = _unit(s, e)
        k = 4.5
        diamond = ((e[0] + u[0] * k, e[1] + u[1] * k), (e[0] - u[1] * k, e[1] + u[0] * k),
                   (e[0] - u[0] * k, e[1] - u[1] * k), (e[0] + u[1] * k, e[1] - u[0] * k))
        return Stroke(kind, ((s, None, e),), colour, edge, SUPPORT_WIDTH, dashed, diamond=diamond)
    return Stroke(kind, ((s, None, e),), colour, edge, SUPPORT_WIDTH, dashed, dot=(e[0], e[1], 3.2))


def draw_orders(
    results: Iterable[OrderResult],
    spots: _Spots,
    colour_of: Callable[[str | None], str],
    dislodged: set[tuple[str, Location]],
) -> OrderMarks:
    marks = OrderMarks()
    dislodged_at = {loc for _, loc in dislodged}
    turns: dict[tuple[str, UnitType | None, Location], int] = {}

    def where(ref: UnitRef) -> Point | None:  # a unit an order names (its power unknown)
        return spots.unit(None, ref.type, ref.location, ref.location in dislodged_at)

    for result in results:
        order = result.order
        if isinstance(order, (Hold, Waive, Build)) or order.unit is None:
            continue
        colour = colour_of(result.power)
        failed = not result.succeeded
        unit_type = result.unit.type if result.unit is not None else order.unit.type
        location = result.unit.location if result.unit is not None else order.unit.location
        key = (result.power, unit_type, location)
        turns[key] = turns.get(key, -1) + 1
        origin = spots.unit(result.power, unit_type, location, (result.power, location) in dislodged, turns[key])
        if origin is None:
            continue
        mark: Stroke | None = None
        if isinstance(order, (Move, Retreat)):
            target = spots.of(order.destination)
            if target is not None:
                mark = arrow(origin, target, colour, failed, "retreat" if isinstance(order, Retreat) else "move")
        elif isinstance(order, SupportMove):
            helped, goal = where(order.supported), spots.of(order.destination)
            if helped is not None and goal is not None:
                mark = line_to(origin, _bent_point(helped, goal, 0.72), colour, failed, "support", 0.0)
        elif isinstance(order, SupportHold):
            helped = where(order.supported)
            if helped is not None:
                mark = line_to(origin, helped, colour, failed, "support", style.UNIT_RADIUS + 3)
        elif isinstance(order, Convoy):
            army, goal = spots.of(order.army.location), spots.of(order.destination)
            if army is not None and goal is not None:
                mark = line_to(origin, _bent_point(army, goal, 0.5), colour, failed, "convoy", 0.0)
        elif isinstance(order, Disband):
            marks.crosses.append(Cross(origin[0], origin[1], style.UNIT_RADIUS + 3, style.DISLODGED, failed))
        elif getattr(order, "destination", None) is not None:
            target = spots.of(order.destination)  # type: ignore[attr-defined]
            if target is not None:
                mark = arrow(origin, target, colour, failed)
        if mark is not None:
            marks.strokes.append(mark)
    # thin lines under arrows
    marks.strokes.sort(key=lambda s: s.kind in ("move", "retreat"))
    return marks
