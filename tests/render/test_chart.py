"""The chart of a game year by year: a line per power in its colour through its counts, every
point exactly on its value, starting where it came into the game and ending at its first 0 once
out; lines sharing a stretch told apart by width (each a band around the one above), never
moved off their values; past eight powers a small plot per power; Diplomacy of the Empire's
territories and talents on panels of their own."""

from __future__ import annotations

import math
import random
import re

from gm.adjudicator.engine import adjudicate
from gm.adjudicator.phaselog import PhaseLog
from gm.bots.plausible import PlausiblePlayer
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.render.chart import OTHERS, chart_png, chart_svg, history_chart
from gm.render.colours import Palette
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

CATALOG = VariantCatalog()


def years(name: str, count: int, seed: int = 2) -> list[tuple[str, Position]]:
    """The start and the board at the end of each of the first ``count`` years of a bot game."""
    variant = CATALOG.get(name)
    player = PlausiblePlayer(variant, random.Random(seed))
    position = variant.initial_position()
    points = [("start", position)]
    while len(points) <= count:
        report = adjudicate(variant, position, player.orders(position), seed="chart")
        if report.next.phase.year != position.phase.year:
            points.append((variant.calendar.year_label(position.phase.year), report.next))
        position = report.next
    return points


def read(y: float, panel) -> float:  # type: ignore[no-untyped-def]
    """The value at height ``y`` on the panel's scale."""
    (low, *_), top = panel.values, panel.values[-1]
    per = (float(low.at) - float(top.at)) / (int(top.text) - int(low.text))
    return int(low.text) + (float(low.at) - y) / per


def values(line, panel) -> list[int]:  # type: ignore[no-untyped-def]
    """A line's values read back from its points on the panel's scale: each exactly a whole value."""
    found = [read(y, panel) for _, y in line.dots]
    assert all(abs(v - round(v)) < 1e-6 for v in found), found
    return [round(v) for v in found]


def test_a_line_per_power_through_its_centres_in_its_colour() -> None:
    variant = CATALOG.get("standard")
    points = years("standard", 3)
    chart = history_chart(variant, "g", points)
    (panel,) = chart.panels
    assert chart.title == "g: supply centres year by year"
    assert [t.text for t in panel.years] == ["start", "1901", "1902", "1903"]
    assert panel.goal is not None and panel.goal.text == "18 to win"
    palette = Palette(variant)
    for line in panel.lines:
        assert line.colour == palette.colour(line.power)
        assert values(line, panel) == [len(board.centres_of(line.power)) for _, board in points]
    assert {line.power for line in panel.lines} == set(variant.map.powers)
    svg = chart_svg(chart)
    assert len(set(re.findall(r'class="line" data-power="([^"]+)"', svg))) == 7
    assert chart_png(chart).startswith(b"\x89PNG")


def test_a_power_out_of_the_game_ends_at_0_and_one_come_in_starts_where_it_came() -> None:
    variant = CATALOG.get("standard")
    start = variant.initial_position()
    out = start.replace(units=tuple(u for u in start.units if u.power != "Italy"),
                        centres={c: ("Austria" if p == "Italy" else p) for c, p in start.centres.items()})
    later = out.replace(phase=variant.calendar.parse("S1903M"))
    chart = history_chart(variant, "g", [("start", start), ("1901", out), ("1902", later)])
    italy = next(line for line in chart.panels[0].lines if line.power == "Italy")
    assert len(italy.dots) == 2 and values(italy, chart.panels[0]) == [3, 0]


def test_empire_territories_and_talents_have_panels_of_their_own() -> None:
    variant = CATALOG.get("diplomacy-of-the-empire")
    chart = history_chart(variant, "e", years("diplomacy-of-the-empire", 2))
    assert [p.heading for p in chart.panels] == ["Territories", "Talents"]
    assert chart.title == "e: territories and talents year by year"
    assert all(p.goal is None for p in chart.panels)
    assert all(len(p.lines) == len(variant.map.powers) for p in chart.panels)


def test_the_names_at_the_lines_ends_never_overlap() -> None:
    chart = history_chart(CATALOG.get("standard"), "g", years("standard", 1))
    ends = sorted(line.end[1] for line in chart.panels[0].lines)
    assert all(b - a >= 14.9 for a, b in zip(ends, ends[1:]))


def test_a_game_that_has_just_begun_is_one_point() -> None:
    variant = CATALOG.get("standard")
    chart = history_chart(variant, "g", [("start", variant.initial_position())])
    assert all(len(line.dots) == 1 for line in chart.panels[0].lines)
    assert variant.initial_position().phase.kind is PhaseKind.MOVEMENT


def test_lines_sharing_a_stretch_stay_on_their_values_each_a_band_around_the_next() -> None:
    variant = CATALOG.get("standard")
    chart = history_chart(variant, "g", years("standard", 2))
    (panel,) = chart.panels
    for stretch in panel.stretches:  # every stretch from a point to the next, on the values
        assert any(math.dist(stretch.a, d) < 1e-6 for line in panel.lines for d in line.dots)
        assert any(math.dist(stretch.b, d) < 1e-6 for line in panel.lines for d in line.dots)
    shared: dict[tuple, list] = {}
    for stretch in panel.stretches:
        shared.setdefault((stretch.a, stretch.b), []).append(stretch)
    together = [group for group in shared.values() if len(group) > 1]
    assert together, "at the start every power has 3 or 4 centres: some stretches are shared"
    for group in together:
        widths = [s.width for s in group]
        assert len(set(widths)) == len(widths)  # each a band of its own width
        assert widths == sorted(widths, reverse=True)  # the widest drawn first, under the others
        assert min(b - a for a, b in zip(sorted(widths), sorted(widths)[1:])) >= 2  # a band of 1 px and more each side
    rings: dict[tuple, list] = {}
    for dot in panel.dots:
        rings.setdefault((dot.x, dot.y), []).append(dot.r)
    assert all(len(set(r)) == len(r) and r == sorted(r, reverse=True) for r in rings.values())


def test_past_eight_powers_each_has_a_small_plot_its_line_over_the_others_in_grey() -> None:
    variant = CATALOG.get("eagles")
    log = PhaseLog("seed")
    start = setup_of(variant).opening(setup_of(variant).powers_in_play(12, log), log)
    player = PlausiblePlayer(variant, random.Random(2))
    points, position = [("start", start)], start
    while len(points) < 4:
        report = adjudicate(variant, position, player.orders(position), seed="chart")
        if report.next.phase.year != position.phase.year:
            points.append((variant.calendar.year_label(position.phase.year), report.next))
        position = report.next
    chart = history_chart(variant, "e", points)
    assert len(chart.panels) == 12 and chart.panels[0].caption.startswith("Supply centres")
    palette = Palette(variant)
    for panel in chart.panels:
        power, last = panel.heading.rsplit(" ", 1)
        mine = [s for s in panel.stretches if s.power == power]
        assert mine and all(s.colour == palette.colour(power) for s in mine)
        assert panel.stretches[-len(mine):] == mine  # drawn last, over the others
        assert all(s.colour == OTHERS for s in panel.stretches if s.power != power)
        assert {d.power for d in panel.dots} == {power}
        assert int(last) == len(points[-1][1].centres_of(power))
        assert all(abs(read(d.y, panel) - round(read(d.y, panel))) < 1e-6 for d in panel.dots)
    boxes = [(p.left, p.top, p.right, p.bottom) for p in chart.panels]
    for i, a in enumerate(boxes):  # the small plots side by side, none over another
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert chart_png(chart).startswith(b"\x89PNG")


def test_the_longest_name_at_a_lines_end_fits_the_picture() -> None:
    variant = CATALOG.get("roman-diplomacy-i")
    start = founded_start(variant)
    chart = history_chart(variant, "r", [("start", start), ("A.D. 100", start)])
    (panel,) = chart.panels
    longest = max(panel.lines, key=lambda line: len(line.name))
    assert len(longest.name) >= len("Empire of Constantinople")
    assert longest.end[0] + 11 + 7.6 * len(longest.name) + 7 * len(str(longest.last)) <= chart.width


def founded_start(variant):  # type: ignore[no-untyped-def]
    """A start with the longest names an empire may take."""
    position = variant.initial_position()
    for name in ("Empire of Constantinople", "Empire of Rome"):
        site = setup_of(variant).joining_choices(position)[0]
        power, city = setup_of(variant).joining_request(f"{site} as {name}", position)
        position = setup_of(variant).with_joining(position, power, city)
    return setup_of(variant).admit_joining(position, PhaseLog(None))


def test_a_victory_far_above_every_line_is_named_not_drawn() -> None:
    variant = CATALOG.get("roman-diplomacy-i")
    start = founded_start(variant)
    chart = history_chart(variant, "r", [("start", start), ("A.D. 100", start)])
    (panel,) = chart.panels
    goal = variant.victory_threshold(start)
    assert goal > 6 * max(line.last for line in panel.lines)
    assert panel.goal is None and panel.heading == f"Supply centres ({goal} to win)"
    assert int(panel.values[-1].text) < goal  # the scale fits the lines
    near = history_chart(CATALOG.get("standard"), "g", years("standard", 1)).panels[0]
    assert near.goal is not None and near.heading == "Supply centres"
