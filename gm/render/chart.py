"""The game's story at a glance: each power's supply centres year by year, one line each in
its colour (where a variant tallies other things instead, such as Diplomacy of the Empire's
territories and talents, one panel per tally), drawn from the board at the end of each year.

``history_chart(variant, title, points, arrivals)`` takes the boards to plot, each with the
label of its point on the time axis (the start, then each year as it ended); ``chart_svg`` and
``chart_png`` draw it with ``templates/map/chart.svg.j2``. A power's line starts where it came
into the game and ends at the first 0 after it left.

Every point stands exactly on its value. Lines that share a stretch are told apart by width:
the one beneath drawn wider, so it shows as a band of its colour on both sides of the one above
(three powers on 3 centres for three years read as three nested bands), and likewise the dots
of one point as rings. Only the names at the lines' ends move, to keep apart. Past
``MOST_LINES`` powers one plot would tangle, so each power gets a small plot of its own (small
multiples, on one scale), its line in its colour over the others' in grey.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from gm.adjudicator.variant import Variant
from gm.domain.position import Position
from gm.render import style
from gm.render.colours import Palette
from gm.render.legend import powers_shown
from gm.render.scene import layers_of
from gm.render.png import svg_to_png
from gm.render.shapes import load_shapes
from gm.render.svg import template

WIDTH = 960
LEFT, RIGHT = 58.0, 190.0  # room for the values' scale, and for the powers' names at the lines' ends
TITLE = 58.0
PANEL = 300.0  # the height of a panel's plot
PANEL_GAP = 76.0  # under each panel: its years, and the next panel's heading
NAME_STEP = 15.0  # the least distance between two names at the lines' ends
MOST_LINES = 8  # past this many powers, a panel becomes small multiples: a small plot per power
TILE_COLUMNS = 4
TILE = 130.0  # a small plot's height
TILE_GAP = 62.0  # under each row of small plots: its years, and the next row's headings
TILE_SIDE = 42.0  # left of each small plot: its scale
LINE_WIDTH = 2.6
NEST = 2.4  # each line sharing a stretch with others drawn this much wider than the one above it
DOT = 3.4
RING = 1.8  # each dot under others at one point drawn this much larger
OTHERS = "#cbc4b4"  # the other powers' lines on a power's small plot
SUPPLY_CENTRES = "supply centres"


@dataclass(frozen=True)
class Stretch:
    """One stretch of a line, between two years: drawn wider where it lies under the same
    stretch of other lines, so that each shows as a band around the one above it."""

    a: tuple[float, float]
    b: tuple[float, float]
    colour: str
    edge: str  # its dark rim ("": none, for the others' grey lines on a small plot)
    width: float
    power: str


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    r: float  # larger where other lines pass the same point, each ring showing around the next
    colour: str
    edge: str
    power: str


@dataclass(frozen=True)
class Line:
    power: str
    name: str
    colour: str
    edge: str
    dots: tuple[tuple[float, float], ...]  # its points, each exactly on its value
    end: tuple[float, float]  # where its name stands
    last: int  # its value at its end


@dataclass(frozen=True)
class Tick:
    at: float
    text: str


@dataclass
class Panel:
    heading: str
    top: float
    left: float
    right: float
    height: float
    lines: list[Line] = field(default_factory=list)  # the names at their ends (none on a small plot)
    stretches: list[Stretch] = field(default_factory=list)  # in the order drawn: the widest first
    dots: list[Dot] = field(default_factory=list)  # likewise
    values: list[Tick] = field(default_factory=list)  # the y axis: a gridline each
    years: list[Tick] = field(default_factory=list)  # the x axis
    goal: Tick | None = None  # the victory line
    colour: str = ""  # a small plot's power: its colour beside the heading
    edge: str = ""
    caption: str = ""  # above the first of a measure's small plots: the measure

    @property
    def bottom(self) -> float:
        return self.top + self.height


@dataclass
class Chart:
    title: str
    width: int
    height: int
    panels: list[Panel]


def measures(variant: Variant, position: Position, palette: Palette) -> dict[str, dict[str, int]]:
    """What is charted of one board: each measure's value for each power."""
    found: dict[str, dict[str, int]] = {}
    if variant.map.supply_centres:
        counts: dict[str, int] = {}
        for owner in position.centres.values():
            counts[owner] = counts.get(owner, 0) + 1
        found[SUPPLY_CENTRES] = counts
    pen = layers_of(variant, position, load_shapes(variant.map.name).provinces, palette)
    for tally in pen.tallies.values():
        found[tally.measure] = dict(tally.values)
    return found


def history_chart(variant: Variant, title: str, points: Sequence[tuple[str, Position]],
                  arrivals: Sequence[str] = ()) -> Chart:
    """The chart of the boards ``points`` (label, board), in time order."""
    shown: dict[str, None] = {}
    for _, board in points:
        shown.update(dict.fromkeys(p for p in powers_shown(variant, board, board) if p not in variant.unplayed_powers))
    palette = Palette(variant, shown, arrivals)
    boards = [(label, board, measures(variant, board, palette)) for label, board in points]
    playing = [variant.in_play(board) for _, board, _ in boards]
    names = list(dict.fromkeys(m for _, _, found in boards for m in found))
    goal = variant.victory_threshold(points[-1][1]) if points and variant.map.supply_centres else None
    panels = []
    top = TITLE
    # a power is on a board while in play, or while it still has something of any measure
    present = [{p for p in shown if p in here or any(found[m].get(p) for m in found)}
               for (_, _, found), here in zip(boards, playing, strict=True)]
    labels = [label for label, _, _ in boards]
    for measure in names:
        series = {power: _series([found.get(measure, {}).get(power, 0) if power in there else None
                                  for (_, _, found), there in zip(boards, present, strict=True)])
                  for power in shown}
        series = {power: values for power, values in series.items() if any(v is not None for v in values)}
        aim = goal if measure == SUPPLY_CENTRES else None
        if len(series) <= MOST_LINES:
            panels.append(_panel(measure.capitalize(), top, labels, series, palette, aim))
            top += PANEL + PANEL_GAP
        else:
            tiles = _tiles(measure.capitalize(), top, labels, series, palette, aim)
            panels += tiles
            top = max(t.bottom for t in tiles) + PANEL_GAP
    return Chart(f"{title}: {' and '.join(names)} year by year", WIDTH, int(top - PANEL_GAP + 52), panels)


def _series(values: list[int | None]) -> list[int | None]:
    """A power's values in play (a missing count is 0), and one 0 where it has just left."""
    out: list[int | None] = []
    for value in values:
        if value is None and out and out[-1] not in (None, 0):
            out.append(0)
        else:
            out.append(value)
    return out


def chart_svg(chart: Chart) -> str:
    return template("map/chart.svg.j2").render(c=chart, st=style)


def chart_png(chart: Chart) -> bytes:
    return svg_to_png(chart_svg(chart))


def _nice_top(value: int, gridlines: int = 6) -> tuple[int, int]:
    """The scale's top and step: a round step giving at most ``gridlines`` gridlines."""
    value = max(value, 1)
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if value / step <= gridlines:
            return step * math.ceil(value / step), step
    step = 10 ** math.ceil(math.log10(value / gridlines))
    return step * math.ceil(value / step), step


class _Scale:
    """Where values and years stand on a plot from ``left`` to ``right``, ``top`` to ``bottom``."""

    def __init__(self, left: float, right: float, top: float, bottom: float, labels: list[str],
                 series: dict[str, list[int | None]], goal: int | None, gridlines: int = 6):
        highest = max([v for values in series.values() for v in values if v is not None] + [(goal or 0) + 1, 1])
        lowest = min([v for values in series.values() for v in values if v is not None] + [0])
        self.peak, self.step = _nice_top(highest, gridlines)
        self.floor = -_nice_top(-lowest, gridlines)[0] if lowest < 0 else 0  # a treasury may run into debt
        self.left, self.right, self.top, self.bottom = left, right, top, bottom
        self.count = len(labels)
        self.labels = labels

    def y(self, value: float) -> float:
        return self.bottom - (value - self.floor) / ((self.peak - self.floor) or 1) * (self.bottom - self.top)

    def x(self, index: int) -> float:
        if self.count == 1:
            return (self.left + self.right) / 2
        return self.left + 10 + index * (self.right - self.left - 20) / (self.count - 1)

    def ticks(self, panel: Panel, most_years: int) -> None:
        """The gridlines, and at most ``most_years`` years under the axis (the last always, none
        written over another)."""
        panel.values = [Tick(self.y(v), str(v)) for v in range(self.floor, self.peak + 1, self.step)]
        wide = max((len(text) for text in self.labels), default=0) * 6.4 + 8  # DejaVu Sans at 11 px
        every = max(1, math.ceil(self.count / most_years))
        if self.count > 1:  # as many years between two written as their words need
            every = max(every, math.ceil(wide / (self.x(1) - self.x(0))))
        shown = [i for i in range(self.count) if i % every == 0 or i == self.count - 1]
        if len(shown) > 1 and self.x(shown[-1]) - self.x(shown[-2]) < wide:
            del shown[-2]
        panel.years = [Tick(self.x(i), self.labels[i]) for i in shown]


def _panel(heading: str, top: float, labels: list[str], series: dict[str, list[int | None]], palette: Palette,
           goal: int | None) -> Panel:
    """One plot of every power's line, each point exactly on its value; lines sharing a stretch
    (or a point) are told apart by drawing the ones beneath wider (their rings larger), so each
    shows as a band of its colour around the next; each power's name at its line's end, moved
    as little as keeps the names apart. The victory line is drawn where a line reaches a sixth
    of the way to it; farther off, it is only named in the heading, so the lines keep the height."""
    # room at the right for the longest name and value (DejaVu Sans at 12 px: ~7.6 px a bold letter)
    names = max((7.6 * len(power) + 7 * len(str(_last(values))) + 34 for power, values in series.items()), default=0)
    right = WIDTH - max(RIGHT, names)
    highest = max((v for values in series.values() for v in values if v is not None), default=0)
    if goal is not None and goal > 6 * max(highest, 1):  # far above every line: named, not drawn
        heading, goal = f"{heading} ({goal} to win)", None
    panel = Panel(heading, top, LEFT, right, PANEL)
    scale = _Scale(LEFT, right, top, top + PANEL, labels, series, goal)
    scale.ticks(panel, 16)
    if goal is not None:
        panel.goal = Tick(scale.y(goal), f"{goal} to win")
    order = sorted(series, key=lambda p: -_last(series[p]))  # the leaders on top
    _draw_lines(panel, scale, series, order, palette)
    ends = [(p, scale.x(max(i for i, v in enumerate(series[p]) if v is not None)), scale.y(_last(series[p])))
            for p in order]
    for (power, x_at, y_at), name_y in zip(ends, _spread([e[2] for e in ends], top, top + PANEL), strict=True):
        colour = palette.colour(power)
        dots = tuple((scale.x(i), scale.y(v)) for i, v in enumerate(series[power]) if v is not None)
        panel.lines.append(Line(power, power, colour, style.outline_for(colour), dots, (right + 12, name_y),
                                _last(series[power])))
    return panel


def _tiles(heading: str, top: float, labels: list[str], series: dict[str, list[int | None]], palette: Palette,
           goal: int | None) -> list[Panel]:
    """Small multiples: a small plot per power (the leaders first), on one scale, its line in
    its colour over every other power's in grey; the first plot carries the measure's heading."""
    order = sorted(series, key=lambda p: -_last(series[p]))
    width = (WIDTH - 20 - TILE_SIDE) / TILE_COLUMNS
    tiles = []
    for index, power in enumerate(order):
        row, column = divmod(index, TILE_COLUMNS)
        left = 20 + TILE_SIDE + column * width
        tile_top = top + 22 + row * (TILE + TILE_GAP)
        colour = palette.colour(power)
        panel = Panel(f"{power} {_last(series[power])}", tile_top, left, left + width - 22, TILE, colour=colour,
                      edge=style.outline_for(colour))
        scale = _Scale(left, left + width - 22, tile_top, tile_top + TILE, labels, series, None, gridlines=3)
        scale.ticks(panel, 3)
        if goal is not None and goal <= scale.peak:  # the victory line where the plots reach it
            panel.goal = Tick(scale.y(goal), f"{goal} to win")
        others = [p for p in order if p != power]
        _draw_lines(panel, scale, series, [power, *others], palette, highlight=power)
        tiles.append(panel)
    if tiles:
        tiles[0].caption = f"{heading}: a plot per power, the others' lines in grey"
    return tiles


def _draw_lines(panel: Panel, scale: _Scale, series: dict[str, list[int | None]], order: list[str],
                palette: Palette, highlight: str | None = None) -> None:
    """The stretches and dots of the lines of ``order`` (the first on top). With ``highlight``,
    only that power's line in its colour and with dots, the others thin and grey under it."""
    stretches: list[tuple[float, int, Stretch]] = []
    dots: list[tuple[float, int, Dot]] = []
    for rank, power in enumerate(order):
        values = series[power]
        colour = palette.colour(power) if highlight in (None, power) else OTHERS
        edge = style.outline_for(colour) if highlight in (None, power) else ""
        for i in range(len(values) - 1):
            a, b = values[i], values[i + 1]
            if a is None or b is None:
                continue
            if highlight is not None:
                width = LINE_WIDTH if power == highlight else 1.4
            else:  # the lines above this one on the same stretch
                width = LINE_WIDTH + NEST * sum(1 for p in order[:rank] if series[p][i] == a and series[p][i + 1] == b)
            stretch = Stretch((scale.x(i), scale.y(a)), (scale.x(i + 1), scale.y(b)), colour, edge, width, power)
            stretches.append((-width if highlight is None else power == highlight, rank, stretch))
        if highlight not in (None, power):
            continue
        for i, value in enumerate(values):
            if value is None:
                continue
            r = DOT + (0 if highlight else RING * sum(1 for p in order[:rank] if series[p][i] == value))
            dots.append((-r, rank, Dot(scale.x(i), scale.y(value), r, colour, edge, power)))
    # the widest first, then from the bottom of the order up: the nested ones on top
    panel.stretches = [s for _, _, s in sorted(stretches, key=lambda t: (t[0], -t[1]))]
    panel.dots = [d for _, _, d in sorted(dots, key=lambda t: (t[0], -t[1]))]


def _last(values: list[int | None]) -> int:
    return next(v for v in reversed(values) if v is not None)


def _spread(wanted: list[float], top: float, bottom: float) -> list[float]:
    """Each name's height at the end of its line, moved as little as keeps them NAME_STEP apart
    within the panel."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    last = -math.inf
    for i in order:
        placed[i] = max(wanted[i], last + NAME_STEP)
        last = placed[i]
    overflow = (last - bottom) if order else 0.0
    if overflow > 0:  # pushed past the bottom: shift the lowest ones back up
        floor = bottom
        for i in reversed(order):
            placed[i] = min(placed[i], floor)
            floor = placed[i] - NAME_STEP
    return [max(p, top - NAME_STEP) for p in placed]
