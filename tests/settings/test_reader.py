"""Reading a GM's settings file: everything it may say, and every mistake named by its line."""

from __future__ import annotations

from datetime import time, timedelta

import pytest

from gm.settings.model import Assignment, MissedPolicy, StartPolicy, VoteVisibility
from gm.settings.reader import SettingsError, read_settings

KNOWN = {"standard", "classical"}.__contains__

FULL = """\
name: rome-1
variant: classical
gm: master@example.test
timezone: Europe/Rome
deadlines:
  movement: every day at 21:00
  retreats: 12h
  adjustments: daily at 09:30 America/New_York
  weekdays: [mon, tue, wed, thu, fri]
  never_before: 20h
grace: 1d12h
reminders: [24h, 2h]
early: {enabled: true, delay: 15m}
missed: {policy: civil-disorder, after: 3}
press: {white: true, grey: true, partial: false}
draw: {votes: open}
assignment: random
start: manual
observers: [watcher@example.test]
players:
  - alice@example.test
  - {email: bob@example.test, power: Rome, name: Bob, timezone: Asia/Tokyo}
"""


def test_everything_a_file_may_say() -> None:
    (game,) = read_settings(FULL, "games/x.yaml", KNOWN)
    assert game.name == "rome-1" and game.variant == "classical" and game.gm == "master@example.test"
    schedule = game.schedule
    assert schedule.movement.daily_at == time(21, 0) and schedule.movement.zone is None
    assert schedule.retreats.after == timedelta(hours=12)
    assert schedule.adjustments.daily_at == time(9, 30) and schedule.adjustments.zone.key == "America/New_York"
    assert schedule.weekdays == frozenset({0, 1, 2, 3, 4}) and schedule.min_gap == timedelta(hours=20)
    assert schedule.zone.key == "Europe/Rome"
    assert game.grace == timedelta(days=1, hours=12)
    assert game.reminders == (timedelta(hours=24), timedelta(hours=2))
    assert game.early.enabled and game.early.delay == timedelta(minutes=15)
    assert game.missed.policy is MissedPolicy.CIVIL_DISORDER and game.missed.after == 3
    assert game.press.white and game.press.grey and not game.press.partial
    assert game.draw.votes is VoteVisibility.OPEN
    assert game.assignment is Assignment.RANDOM and game.start is StartPolicy.MANUAL
    assert game.observers == ("watcher@example.test",)
    assert [p.email for p in game.players] == ["alice@example.test", "bob@example.test"]
    assert game.players[1].power == "Rome" and game.players[1].timezone == "Asia/Tokyo"


def test_defaults_and_the_name_from_the_file() -> None:
    (game,) = read_settings("variant: standard\ngm: m@example.test\n", "games/quiet.yaml", KNOWN)
    assert game.name == "quiet"
    assert game.schedule.movement.after == timedelta(hours=48)
    assert game.press.white and not game.press.grey
    assert game.missed.policy is MissedPolicy.HOLD


def test_several_games_in_one_file() -> None:
    text = "games:\n  - {name: a, variant: standard, gm: m@example.test}\n  - {name: b, variant: classical, gm: m@example.test}\n"
    assert [g.name for g in read_settings(text, "all.yaml", KNOWN)] == ["a", "b"]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("variant: standard\ngm: m@example.test\ndeadlines:\n  movement: soon\n", 4, "not a duration"),
        ("variant: standard\ngm: m@example.test\ndeadlines:\n  movement: every day at 25:00\n", 4, "no such time"),
        ("variant: standard\ngm: m@example.test\ntimezone: Mars/Olympus\n", 3, "unknown time zone"),
        ("variant: standrad\ngm: m@example.test\n", 1, "unknown variant"),
        ("variant: standard\ngm: nobody\n", 2, "mail address"),
        ("variant: standard\ngm: m@example.test\npress: loud\n", 3, "press 'loud'"),
        ("variant: standard\ngm: m@example.test\nmissed: {policy: explode}\n", 3, "not one of"),
        ("variant: standard\ngm: m@example.test\ndeadline: 48h\n", 3, "unknown setting 'deadline'"),
        ("variant: standard\ngm: m@example.test\ngm: other@example.test\n", 3, "written twice"),
        ("variant: standard\ngm: m@example.test\ndeadlines:\n  weekdays: [someday]\n", 4, "not a weekday"),
        ("variant: standard\ngm: m@example.test\nplayers:\n  - {email: a@example.test, colour: red}\n", 4, "unknown player setting"),
        ("variant: standard\ngm: m@example.test\nplayers: [a@example.test, A@example.test]\n", 3, "listed twice"),
        ("variant: [standard\n", 2, "flow sequence on line 1"),
    ],
)
def test_every_mistake_is_named_with_its_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(SettingsError) as caught:
        read_settings(text, "games/bad.yaml", KNOWN)
    problems = caught.value.problems
    assert any(p.line == line and fragment in p.message for p in problems), [str(p) for p in problems]
    assert "games/bad.yaml" in str(caught.value)
