"""The game's story at a glance: each power's supply centres year by year, one line each in
its colour (where a variant tallies other things instead, such as Diplomacy of the Empire's
territories and talents, one panel per tally), drawn from the board at the end of each year.

``history_chart(variant, title, points, arrivals)`` takes the boards to plot, each with the
label of its point on the time axis (the start, then each year as it ended); ``chart_svg`` and
``chart_png`` draw it with ``templates/map/chart.svg.j2``. A power's line starts where it came
into the game and ends at the first 0 after it left.
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
LINE_SHIFT = 1.2  # each power's line a little above or below the others', so equal values all show
SUPPLY_CENTRES = "supply centres"


@dataclass(frozen=True)
class Line:
    power: str
    name: str
    colour: str
    edge: str
    points: str  # SVG polyline points of its stretch in the game
    dots: tuple[tuple[float, float], ...]
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
    lines: list[Line] = field(default_factory=list)
    values: list[Tick] = field(default_factory=list)  # the y axis: a gridline each
    years: list[Tick] = field(default_factory=list)  # the x axis
    goal: Tick | None = None  # the victory line


@dataclass
class Chart:
    title: str
    width: int
    height: int
    left: float
    right: float  # the plots' right edge
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
    for measure in names:
        series = {power: _series([found.get(measure, {}).get(power, 0) if power in there else None
                                  for (_, _, found), there in zip(boards, present, strict=True)])
                  for power in shown}
        panels.append(_panel(measure.capitalize(), top, [label for label, _, _ in boards], series, palette,
                             goal if measure == SUPPLY_CENTRES else None))
        top += PANEL + PANEL_GAP
    return Chart(f"{title}: {' and '.join(names)} year by year", WIDTH, int(top - PANEL_GAP + 52), LEFT,
                 WIDTH - RIGHT, panels)


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


def _nice_top(value: int) -> tuple[int, int]:
    """The scale's top and step: a round step giving about five gridlines."""
    value = max(value, 1)
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if value / step <= 6:
            return step * math.ceil(value / step), step
    step = 10 ** math.ceil(math.log10(value / 6))
    return step * math.ceil(value / step), step


def _panel(heading: str, top: float, labels: list[str], series: dict[str, list[int | None]], palette: Palette,
           goal: int | None) -> Panel:
    panel = Panel(heading, top)
    highest = max([v for values in series.values() for v in values if v is not None] + [(goal or 0) + 1, 1])
    lowest = min([v for values in series.values() for v in values if v is not None] + [0])
    peak, step = _nice_top(highest)
    floor = -_nice_top(-lowest)[0] if lowest < 0 else 0  # a treasury may run into debt
    span = peak - floor or 1

    def y(value: float) -> float:
        return top + PANEL - (value - floor) / span * PANEL

    right = WIDTH - RIGHT
    count = len(labels)

    def x(index: int) -> float:
        return (LEFT + right) / 2 if count == 1 else LEFT + 10 + index * (right - LEFT - 20) / (count - 1)

    panel.values = [Tick(y(v), str(v)) for v in range(floor, peak + 1, step)]
    every = max(1, math.ceil(count / 16))  # at most 16 years written under the axis
    panel.years = [Tick(x(i), text) for i, text in enumerate(labels) if i % every == 0 or i == count - 1]
    if goal is not None:
        panel.goal = Tick(y(goal), f"{goal} to win")
    ends = []
    for rank, (power, values) in enumerate(series.items()):
        shift = (rank - (len(series) - 1) / 2) * LINE_SHIFT  # lines of equal values side by side
        stretch = [(x(i), y(v) + shift) for i, v in enumerate(values) if v is not None]
        if not stretch:
            continue
        last = next(v for v in reversed(values) if v is not None)
        colour = palette.colour(power)
        ends.append([stretch[-1][1], power, power, colour, stretch, last])
    for end, y_at in zip(ends, _spread([e[0] for e in ends], top, top + PANEL), strict=True):
        _, power, name, colour, stretch, last = end
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in stretch)
        panel.lines.append(Line(power, name, colour, style.outline_for(colour), points, tuple(stretch),
                                (right + 12, y_at), last))
    panel.lines.sort(key=lambda line: -line.last)  # the leaders drawn last, on top
    return panel


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
