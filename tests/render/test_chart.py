"""The chart of a game year by year: a line per power in its colour through its counts, starting
where it came into the game and ending at its first 0 once out; Diplomacy of the Empire's
territories and talents on panels of their own."""

from __future__ import annotations

import random

from gm.adjudicator.engine import adjudicate
from gm.bots.plausible import PlausiblePlayer
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.render.chart import chart_png, chart_svg, history_chart
from gm.render.colours import Palette
from gm.variants.catalog import VariantCatalog

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


def values(line, panel) -> list[int]:  # type: ignore[no-untyped-def]
    """A line's values read back from its points on the panel's scale."""
    (low, *_), top = panel.values, panel.values[-1]
    per = (float(low.at) - float(top.at)) / (int(top.text) - int(low.text))
    return [round(int(low.text) + (float(low.at) - y) / per) for _, y in line.dots]


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
    assert svg.count('class="line"') == 7
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
