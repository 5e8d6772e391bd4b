"""The orders of a phase as lines: moves and retreats as arrows, supports and convoys as thin
lines, removals as crosses; whatever failed is dashed.

Each order starts at the edge of its own unit's mark (units sharing a province stand side by
side; identical units take their orders' lines in turn). A move bows slightly to its left, so
two units swapping places (or bouncing off each other) draw two arrows side by side, and its
head stops at the edge of the unit it enters, or at the province's unit spot when none stands
there, never under a unit's mark. A short move bows more, so it keeps a visible length. A move
of several steps (a path, moves in rounds, a move then a second move) is drawn step by step
through each province's spot; a convoyed army's arrow goes by the fleets that convoy it.

A support of a move ends part-way along the arrow it supports (each supporter at another point
of it, none at its head), or, when that move was not ordered, part-way along where it would go;
a support to hold ends on the edge of the unit it supports, a dot. A convoy ends in a diamond:
on the convoyed army's arrow by the fleet, or, when the army does not go that way, at the army.
An order of a type this module does not know is drawn as an arrow if it has a destination.

``draw_orders`` works for any list of results, so typed orders can be drawn as results are
(``scene.order_scene``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from gm.domain.geography import Location
from gm.domain.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MoveAlongPath,
    MoveInRounds,
    MoveThen,
    Retreat,
    SecondMove,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from gm.domain.outcomes import OrderResult
from gm.domain.units import UnitType
from gm.render import style

Point = tuple[float, float]
Step = tuple[Point, Point | None, Point]  # from, the control point of a curve (None: straight), to

MOVE_WIDTH = 3.2
SUPPORT_WIDTH = 2.0
HEAD_LENGTH = 13.0
HEAD_WIDTH = 11.0
BEND = 0.12  # how far a move arrow bows, as a share of its length
BENDS = (BEND, -BEND, 0.3, -0.3, 0.6, -0.6, 0.9, -0.9)  # tried in turn until the head is clear of every unit's mark
MOST_BEND = 0.45  # a short move bows up to this much, to keep its length
MIN_BOW = 14.0  # the least bow of a curve, in pixels (its middle stands half this off the straight line)
MIN_VISIBLE = HEAD_LENGTH + 9.0  # the least length of a move's arrow outside the units' marks
SUPPORT_POINTS = (0.5, 0.64, 0.36, 0.76, 0.24, 0.58, 0.42, 0.7, 0.3)  # along the arrow, one per supporter
DOT = 3.2
AROUND = (16.0, 28.0)  # an empty province's spot hidden by a unit: an arrow may end this far from it
DIAMOND = 5.5


@dataclass(frozen=True)
class UnitBox:
    """A unit's mark as the orders see it: its middle, half its width and height (a round mark:
    its radius), and where it stands."""

    x: float
    y: float
    half_w: float
    half_h: float
    province: str
    dislodged: bool
    round: bool = False

    @property
    def half(self) -> float:
        return max(self.half_w, self.half_h)

    def holds(self, p: Point, margin: float = 0.0) -> bool:
        return self.outside(p) < margin

    def outside(self, p: Point) -> float:
        """How far ``p`` is outside the mark (below 0: inside it)."""
        if self.round:
            return math.dist(p, (self.x, self.y)) - self.half_w
        return max(abs(p[0] - self.x) - self.half_w, abs(p[1] - self.y) - self.half_h)


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
    order: str = ""  # the order it draws, as the results write it

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
    def end(self) -> Point | None:
        """Where the line ends: its head's tip, its dot, its diamond's middle."""
        if self.head:
            return self.head[0]
        if self.dot is not None:
            return self.dot[0], self.dot[1]
        if self.diamond:
            return (self.diamond[0][0] + self.diamond[2][0]) / 2, (self.diamond[0][1] + self.diamond[2][1]) / 2
        return None

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

    def points(self, spacing: float = 6.0) -> list[Point]:
        """Points along the line, about ``spacing`` apart (names keep clear of them)."""
        found: list[Point] = []
        for a, ctrl, b in self.steps:
            length = math.dist(a, b) + (math.dist(a, ctrl) + math.dist(ctrl, b) - math.dist(a, b) if ctrl else 0)
            count = max(1, int(length / spacing))
            found += [_curve(a, ctrl, b, i / count) for i in range(count + 1)]
        return found


@dataclass(frozen=True)
class Cross:
    x: float
    y: float
    size: float
    colour: str
    dashed: bool
    order: str = ""


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

    def boxes(self) -> Sequence[UnitBox]:
        """Every unit's mark."""


def _unit(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


def _along(a: Point, b: Point, distance: float) -> Point:
    u = _unit(a, b)
    return a[0] + u[0] * distance, a[1] + u[1] * distance


def _lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _curve(a: Point, ctrl: Point | None, b: Point, t: float) -> Point:
    if ctrl is None:
        return _lerp(a, b, t)
    return _lerp(_lerp(a, ctrl, t), _lerp(ctrl, b, t), t)


def _f(p: Point) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def _control(a: Point, b: Point, bend: float) -> Point:
    """The control point of a curve from ``a`` to ``b`` bowed to its left by ``bend`` of its
    length, and by ``MIN_BOW`` at least: two short arrows between the same two places (a swap,
    a bounce) keep a head's width apart."""
    length = math.dist(a, b)
    mid = _lerp(a, b, 0.5)
    ux, uy = _unit(a, b)
    offset = bend * length
    if bend and abs(offset) < MIN_BOW:
        offset = math.copysign(MIN_BOW, bend)
    return mid[0] + uy * offset, mid[1] - ux * offset


def _clear_of(head_of: Callable[[float], tuple[Point, ...]], start: float, stop: float,
              boxes: Sequence[UnitBox]) -> float:
    """The last ``t`` from ``start`` back towards ``stop`` at which an arrowhead ending there
    lies clear of every unit's mark."""
    t = start
    steps = 24
    for i in range(steps + 1):
        t = start + (stop - start) * i / steps
        if _head_room(head_of(t), boxes) > 1.0:
            return t
    return t


def _head(tip: Point, back: Point, size: float = 1.0) -> tuple[Point, Point, Point]:
    """An arrowhead: its tip, and its two back corners along ``back`` (a unit vector)."""
    length, width = HEAD_LENGTH * size, HEAD_WIDTH * size
    base = (tip[0] + back[0] * length, tip[1] + back[1] * length)
    side = (-back[1] * width / 2, back[0] * width / 2)
    return tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])


def head_points(head: Sequence[Point]) -> list[Point]:
    """Points that stand for an arrowhead's area: its corners, the middles of its sides, its middle."""
    tip, a, b = head
    return [tip, a, b, _lerp(tip, a, 0.5), _lerp(tip, b, 0.5), _lerp(a, b, 0.5),
            ((tip[0] + a[0] + b[0]) / 3, (tip[1] + a[1] + b[1]) / 3)]


HEAD_REACH = 24.0  # marks farther than this from an arrowhead's corners are far enough for any choice


def _head_room(head: Sequence[Point], boxes: Sequence[UnitBox]) -> float:
    """How far the arrowhead is from the nearest unit's mark (below 0: partly under it), up to
    ``HEAD_REACH``."""
    xs, ys = [p[0] for p in head], [p[1] for p in head]
    left, right, top, bottom = min(xs) - HEAD_REACH, max(xs) + HEAD_REACH, min(ys) - HEAD_REACH, max(ys) + HEAD_REACH
    near = [b for b in boxes if left - b.half_w < b.x < right + b.half_w and top - b.half_h < b.y < bottom + b.half_h]
    if not near:
        return HEAD_REACH
    return min(HEAD_REACH, min(_room(p, near) for p in head_points(head)))


def _head_on(a: Point, ctrl: Point | None, b: Point, t: float) -> tuple[Point, Point, Point]:
    """The arrowhead of the curve from ``a`` to ``b`` cut at ``t``."""
    tip = _curve(a, ctrl, b, t)
    if ctrl is None:
        back = _unit(b, a)
    else:  # back along the curve's tangent there
        dx = 2 * (1 - t) * (ctrl[0] - a[0]) + 2 * t * (b[0] - ctrl[0])
        dy = 2 * (1 - t) * (ctrl[1] - a[1]) + 2 * t * (b[1] - ctrl[1])
        n = math.hypot(dx, dy) or 1.0
        back = (-dx / n, -dy / n)
    return _head(tip, back)


def _leaving(a: Point, ctrl: Point, b: Point, centre: Point, gap: float) -> float:
    """The first ``t`` of the curve from ``a`` at which it is ``gap`` away from ``centre``."""
    for i in range(1, 65):
        t = i / 64
        if math.dist(_curve(a, ctrl, b, t), centre) >= gap:
            return t
    return 1.0


def _room(point: Point, boxes: Sequence[UnitBox]) -> float:
    """How far ``point`` is outside the nearest unit's mark (below 0: inside it)."""
    return min((b.outside(point) for b in boxes), default=math.inf)


class _Drawer:
    def __init__(self, spots: _Spots, colour_of: Callable[[str | None], str], dislodged: set[tuple[str, Location]]):
        self.spots = spots
        self.colour_of = colour_of
        self.dislodged = dislodged
        self.dislodged_at = {loc for _, loc in dislodged}
        self.boxes = list(spots.boxes())
        self.marks = OrderMarks()
        self.turns: dict[tuple[str, UnitType | None, Location], int] = {}
        # each move's arrow by its unit's place and each step's end: the arrow and the step
        self.moves: dict[tuple[str, str], tuple[Stroke, int]] = {}
        self.routes: dict[tuple[str, str], list[Point]] = {}  # convoyed armies: the fleets they go by
        self.support_ends: dict[tuple[str, str], int] = {}  # supporters drawn to each move so far
        self.ends: list[Point] = []  # every support's and convoy's end so far

    # -- where ----------------------------------------------------------------------------------

    def origin(self, result: OrderResult) -> tuple[Point, UnitBox | None] | None:
        order = result.order
        unit_type = result.unit.type if result.unit is not None else order.unit.type
        location = result.unit.location if result.unit is not None else order.unit.location
        key = (result.power, unit_type, location)
        self.turns[key] = self.turns.get(key, -1) + 1
        point = self.spots.unit(result.power, unit_type, location, (result.power, location) in self.dislodged,
                                self.turns[key])
        if point is None:
            return None
        return point, self.box_at(point)

    def box_at(self, point: Point) -> UnitBox | None:
        return next((b for b in self.boxes if abs(b.x - point[0]) < 0.01 and abs(b.y - point[1]) < 0.01), None)

    def where(self, ref: UnitRef) -> Point | None:  # a unit an order names (its power unknown)
        return self.spots.unit(None, ref.type, ref.location, ref.location in self.dislodged_at)

    def entered(self, location: Location, start: Point) -> list[tuple[Point, float]]:
        """Where an arrow into ``location`` may end, and how far short of it, best first: the
        edge of each unit standing there, the nearest the arrow's start first (coming straight
        at it, then from any side), else the province's spot (a unit dislodged there stands
        aside, off the spot its attacker takes)."""
        here = sorted((b for b in self.boxes if b.province == location.province and not b.dislodged
                       and math.dist((b.x, b.y), start) > 0.5), key=lambda b: math.dist((b.x, b.y), start))
        ends = [((b.x, b.y), b.half + 2.5) for b in here]
        if ends:  # then round the nearest unit's edge, for a way in clear of the marks about it
            nearest = here[0]
            reach = nearest.half + 2.5
            around = [(nearest.x + reach * math.cos(k * math.pi / 6), nearest.y + reach * math.sin(k * math.pi / 6))
                      for k in range(12)]
            return ends + [(p, 0.0) for p in sorted(around, key=lambda p: math.dist(p, start))]
        spot = self.spots.of(location) or start
        around = [(spot[0] + far * math.cos(k * math.pi / 4), spot[1] + far * math.sin(k * math.pi / 4))
                  for far in AROUND for k in range(8)]  # the spot may lie under a neighbour's dislodged unit
        return [(spot, 2.0)] + [(p, 2.0) for p in sorted(around, key=lambda p: (math.dist(p, spot), math.dist(p, start)))]

    # -- moves --------------------------------------------------------------------------------------

    def arrow(self, result: OrderResult, origin: Point, own: UnitBox | None, path: Sequence[Location],
              kind: str, via: Sequence[Point] = ()) -> Stroke | None:
        """An arrow from the unit at ``origin`` through ``via`` (points) and each place of
        ``path`` but the last (their spots) to the last."""
        if not path:
            return None
        points = [origin, *via]
        for location in path[:-1]:
            spot = self.spots.of(location)
            if spot is not None:
                points.append(spot)
        start_gap = (own.half if own is not None else style.UNIT_RADIUS) + 1.5
        others = self.boxes  # its own unit too: a short move must not point back under it
        steps: list[Step] = []
        best, chosen = -math.inf, None
        for end, end_gap in self.entered(path[-1], points[-1]):
            through = [p for i, p in enumerate([*points, end]) if i == 0 or math.dist(p, [*points, end][i - 1]) > 1.0]
            if len(through) < 2:
                continue
            for bend in BENDS:
                tried = self._steps(through, start_gap, end_gap, (), bend)
                room = _head_room(_head_on(*tried[-1], 1.0), others)
                if room > best:
                    steps, best, chosen = tried, room, (through, end_gap, bend)
                if best > 1.0:
                    break
            if best > 1.0:
                break
        if chosen is None:
            return None
        if best <= 1.0:  # no way in clear of every unit's mark: the head stops short of them
            steps = self._steps(chosen[0], start_gap, chosen[1], others, chosen[2])
        tip_from, ctrl, tip = steps[-1]
        back = _unit(tip, ctrl if ctrl is not None and math.dist(ctrl, tip) > 0.5 else tip_from)
        size = min(1.0, max(0.5, math.dist(tip_from, tip) / HEAD_LENGTH))  # a squeezed arrow, a smaller head
        length = HEAD_LENGTH * size
        head = _head(tip, back, size)
        line_end = (tip[0] + back[0] * (length - 1), tip[1] + back[1] * (length - 1))
        steps[-1] = (steps[-1][0], steps[-1][1], line_end)  # the line stops inside the head
        colour = self.colour_of(result.power)
        width = MOVE_WIDTH if kind == "move" else MOVE_WIDTH - 0.4
        return Stroke(kind, tuple(steps), colour, style.outline_for(colour), width, not result.succeeded, head=head,
                      order=str(result.order))

    def _steps(self, points: list[Point], start_gap: float, end_gap: float, others: Sequence[UnitBox],
               last_bend: float = 0.12) -> list[Step]:
        """The bowed steps through ``points``: the first starting ``start_gap`` out of its unit,
        the last ending ``end_gap`` short, clear of every unit's mark, and long enough to see."""
        steps: list[Step] = []
        last = len(points) - 2
        for i in range(last + 1):
            a, b = points[i], points[i + 1]
            gap_a = start_gap if i == 0 else 0.0
            gap_b = end_gap if i == last else 0.0
            length = math.dist(a, b)
            bend = BEND
            if i == last:
                bend = last_bend
                while length - gap_a - gap_b < MIN_VISIBLE and abs(bend) < MOST_BEND:
                    bend += math.copysign(0.06, bend)  # a longer bow, so a short move shows
            ctrl = _control(a, b, bend)
            t0 = _leaving(a, ctrl, b, a, gap_a) if gap_a else 0.0
            t1 = 1.0 - _leaving(b, ctrl, a, b, gap_b) if gap_b else 1.0
            if t1 <= t0 + 0.05:  # the units' marks leave no room between them: the bow's middle
                t0, t1 = min(t0, 0.45), max(t1, 0.55)
            if i == last and others:  # the head stops short of any unit's mark
                t1 = _clear_of(lambda t, a=a, ctrl=ctrl, b=b: _head_on(a, ctrl, b, t), t1, t0 + 0.05, others)
            # the part of the curve from t0 to t1, as a curve of its own
            start, end = _curve(a, ctrl, b, t0), _curve(a, ctrl, b, t1)
            middle = _lerp(start, _lerp(ctrl, b, t0), (t1 - t0) / (1 - t0) if t0 < 1 else 0.0)
            steps.append((start, middle, end))
        return steps

    def record(self, stroke: Stroke, location: Location, path: Sequence[Location]) -> None:
        for index, place in enumerate(path):
            self.moves.setdefault((location.province, place.province), (stroke, min(index, len(stroke.steps) - 1)))

    # -- supports and convoys --------------------------------------------------------------------------

    def on_move(self, unit: Location, goal: Location, turn: int) -> Point | None:
        """A point part-way along the drawn arrow of the move from ``unit`` to ``goal``, the
        ``turn``-th supporter's."""
        found = self.moves.get((unit.province, goal.province))
        if found is None:
            return None
        stroke, index = found
        a, ctrl, b = stroke.steps[index]
        t = SUPPORT_POINTS[turn % len(SUPPORT_POINTS)]
        if index == len(stroke.steps) - 1:
            t *= 0.9  # clear of the head
        return _curve(a, ctrl, b, t)

    def distinct(self, point: Point, towards: Point) -> Point:
        """``point``, moved a little along the line to ``towards`` if another line ends there."""
        for _ in range(6):
            if all(math.dist(point, end) > 2 * DOT for end in self.ends):
                break
            point = _along(point, towards, 2 * DOT + 1)
        self.ends.append(point)
        return point

    def line(self, result: OrderResult, origin: Point, own: UnitBox | None, target: Point, kind: str,
             end_gap: float) -> Stroke | None:
        start_gap = (own.half if own is not None else style.UNIT_RADIUS) + 1.5
        length = math.dist(origin, target)
        if length < 1.0:
            return None
        s = _along(origin, target, min(start_gap, max(length - end_gap - 6, 0.0)))
        e = _along(target, origin, min(end_gap, max(length - start_gap - 6, 0.0)))
        e = self.distinct(e, s)
        colour = self.colour_of(result.power)
        edge = style.outline_for(colour)
        failed = not result.succeeded
        if kind == "convoy":
            u = _unit(s, e)
            k = DIAMOND
            diamond = ((e[0] + u[0] * k, e[1] + u[1] * k), (e[0] - u[1] * k, e[1] + u[0] * k),
                       (e[0] - u[0] * k, e[1] - u[1] * k), (e[0] + u[1] * k, e[1] - u[0] * k))
            return Stroke(kind, ((s, None, e),), colour, edge, SUPPORT_WIDTH, failed, diamond=diamond,
                          order=str(result.order))
        return Stroke(kind, ((s, None, e),), colour, edge, SUPPORT_WIDTH, failed, dot=(e[0], e[1], DOT),
                      order=str(result.order))


def path_of(order: object) -> tuple[tuple[Location, ...], tuple[Location, ...]]:
    """The places a move goes through, and those of its second move (each ends at its last)."""
    if isinstance(order, (Move, Retreat)):
        return (order.destination,), ()
    if isinstance(order, MoveInRounds):
        return order.steps, ()
    if isinstance(order, (MoveAlongPath, SecondMove)):
        return order.path, ()
    if isinstance(order, MoveThen):
        return order.first, order.then
    destination = getattr(order, "destination", None)
    if not isinstance(destination, Location):  # a unit placed where it starts (Rise of Rome II's leaders)
        destination = getattr(order, "start", None)
    return ((destination,), ()) if isinstance(destination, Location) else ((), ())


def draw_orders(
    results: Iterable[OrderResult],
    spots: _Spots,
    colour_of: Callable[[str | None], str],
    dislodged: set[tuple[str, Location]],
) -> OrderMarks:
    drawer = _Drawer(spots, colour_of, dislodged)
    results = [r for r in results if not isinstance(r.order, (Hold, Waive, Build)) and r.order.unit is not None]
    origins = {id(r): drawer.origin(r) for r in results}
    convoys = [r for r in results if isinstance(r.order, Convoy)]
    marks = drawer.marks
    # the moves first: supports and convoys end on their arrows
    for result in results:
        order, found = result.order, origins[id(result)]
        if found is None or isinstance(order, (SupportMove, SupportHold, Convoy, Disband)) or hasattr(order, "led") \
                or hasattr(order, "target"):
            continue
        origin, own = found
        path, then = path_of(order)
        location = result.unit.location if result.unit is not None else order.unit.location
        if not path or path == (location,):  # nowhere, or where it stands (a leader placed there)
            continue
        via: list[Point] = []
        if isinstance(order, Move):
            via = _convoying(drawer, convoys, location, order.destination, origin)
        kind = "retreat" if isinstance(order, Retreat) else "move"
        stroke = drawer.arrow(result, origin, own, path, kind, via)
        if stroke is None:
            continue
        marks.strokes.append(stroke)
        drawer.record(stroke, location, path)
        if via:
            drawer.routes[location.province, order.destination.province] = via  # type: ignore[union-attr]
        if then:  # the second move, from where the first ends
            start = drawer.spots.of(path[-1])
            if start is not None:
                second = drawer.arrow(result, start, None, then, kind)
                if second is not None:
                    marks.strokes.append(second)
                    drawer.record(second, path[-1], then)
    for result in results:
        order, found = result.order, origins[id(result)]
        if found is None:
            continue
        origin, own = found
        mark: Stroke | None = None
        if isinstance(order, SupportMove):
            turn = drawer.support_ends.get((order.supported.location.province, order.destination.province), 0)
            drawer.support_ends[order.supported.location.province, order.destination.province] = turn + 1
            target = drawer.on_move(order.supported.location, order.destination, turn)
            if target is None:  # the move was not ordered: part-way along where it would go
                helped, goal = drawer.where(order.supported), drawer.spots.of(order.destination)
                if helped is not None and goal is not None:
                    target = _curve(helped, _control(helped, goal, BEND), goal, SUPPORT_POINTS[turn % 9] * 0.9)
            if target is not None:
                mark = drawer.line(result, origin, own, target, "support", 0.0)
        elif isinstance(order, SupportHold):
            helped = drawer.where(order.supported)
            if helped is not None:
                box = drawer.box_at(helped)
                mark = drawer.line(result, origin, own, helped, "support", (box.half if box else style.UNIT_RADIUS) + 3)
        elif isinstance(order, Convoy):
            via = drawer.routes.get((order.army.location.province, order.destination.province), [])
            if origin in via:  # on the army's arrow: a diamond where the arrow reaches the fleet
                mark = _on_route(drawer, result, origin, own, order)
            else:
                army = drawer.where(order.army)
                if army is not None:
                    box = drawer.box_at(army)
                    mark = drawer.line(result, origin, own, army, "convoy", (box.half if box else style.UNIT_RADIUS) + 5)
        elif isinstance(getattr(order, "target", None), UnitRef):  # an attack on a unit (Eagles' fleets)
            province = order.target.location.province  # type: ignore[attr-defined]
            there = [b for b in drawer.boxes if b.province == province and math.dist((b.x, b.y), origin) > 0.5]
            target = min(((b.x, b.y) for b in there), key=lambda p: math.dist(p, origin), default=None)
            if target is not None:
                box = drawer.box_at(target)
                mark = drawer.line(result, origin, own, target, "support", (box.half if box else style.UNIT_RADIUS) + 3)
        elif isinstance(getattr(order, "led", None), UnitRef):  # a leader going with a unit (Rise of Rome II)
            helped = drawer.where(order.led)  # type: ignore[attr-defined]
            if helped is not None:
                box = drawer.box_at(helped)
                mark = drawer.line(result, origin, own, helped, "support", (box.half if box else style.UNIT_RADIUS) + 3)
        elif isinstance(order, Disband):
            marks.crosses.append(Cross(origin[0], origin[1], style.UNIT_RADIUS + 3, style.DISLODGED,
                                       not result.succeeded, str(order)))
        if mark is not None:
            marks.strokes.append(mark)
    # thin lines under arrows; a convoying fleet's diamond on its army's arrow over it
    marks.strokes.sort(key=lambda s: 2 if not s.steps else 1 if s.kind in ("move", "retreat") else 0)
    return marks


def _convoying(drawer: _Drawer, convoys: Sequence[OrderResult], army: Location, goal: Location,
               start: Point) -> list[Point]:
    """The marks of the fleets ordered to convoy this army there, in the order the army passes
    them (each the nearest not yet passed)."""
    fleets = []
    for result in convoys:
        order = result.order
        if order.army.location.province == army.province and order.destination.province == goal.province:  # type: ignore[attr-defined]
            found = drawer.spots.unit(result.power, result.unit.type if result.unit else order.unit.type,
                                      result.unit.location if result.unit else order.unit.location, False)
            if found is not None:
                fleets.append(found)
    route, here = [], start
    while fleets:
        nearest = min(fleets, key=lambda p: math.dist(p, here))
        fleets.remove(nearest)
        route.append(nearest)
        here = nearest
    return route


def _on_route(drawer: _Drawer, result: OrderResult, origin: Point, own: UnitBox | None, order: Convoy) -> Stroke:
    """A convoying fleet's mark on the army's arrow: a diamond on its edge, where the arrow comes in."""
    found = drawer.moves.get((order.army.location.province, order.destination.province))
    towards = drawer.where(order.army) or origin
    if found is not None:  # where the step that reaches the fleet comes from
        towards = next((step[0] for step in found[0].steps if math.dist(step[2], origin) < 1.0), towards)
    half = (own.half if own is not None else style.UNIT_RADIUS) + DIAMOND + 1
    e = drawer.distinct(_along(origin, towards, half), towards)
    u = _unit(origin, e)
    k = DIAMOND
    diamond = ((e[0] + u[0] * k, e[1] + u[1] * k), (e[0] - u[1] * k, e[1] + u[0] * k),
               (e[0] - u[0] * k, e[1] - u[1] * k), (e[0] + u[1] * k, e[1] - u[0] * k))
    colour = drawer.colour_of(result.power)
    return Stroke("convoy", (), colour, style.outline_for(colour), SUPPORT_WIDTH, not result.succeeded,
                  diamond=diamond, order=str(order))
