"""The settings of absences, named draws and civil disorder played: read, defaulted, and every
mistake named by its line."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.settings.model import AbsenceRules, DrawAmong, MissedPolicy, VoteVisibility
from gm.settings.reader import SettingsError, read_settings

KNOWN = {"standard"}.__contains__
BASE = "variant: standard\ngm: master@example.test\n"


def _read(extra: str):  # type: ignore[no-untyped-def]
    (game,) = read_settings(BASE + extra, "games/g.yaml", KNOWN)
    return game


def test_by_default_no_absence_is_allowed_draws_are_shared_by_every_survivor_and_missed_orders_hold() -> None:
    game = _read("")
    assert game.absences == AbsenceRules() and not game.absences.allowed
    assert game.draw.among is DrawAmong.SURVIVORS and game.draw.votes is VoteVisibility.SECRET
    assert game.missed.policy is MissedPolicy.HOLD


@pytest.mark.parametrize("text, longest, count", [
    ("absences: {max: 14d, per_player: 2}\n", timedelta(days=14), 2),
    ("absences: {max: 3d}\n", timedelta(days=3), 2),
    ("absences: {per_player: 1}\n", timedelta(days=14), 1),
    ("absences: {max: 36h, per_player: 0}\n", timedelta(hours=36), 0),
    ("absences: none\n", timedelta(0), 0),
])
def test_absences_are_read_with_the_values_left_out_as_the_example_shows(text: str, longest: timedelta, count: int) -> None:
    rules = _read(text).absences
    assert (rules.longest, rules.per_player) == (longest, count)
    assert rules.allowed == (longest > timedelta(0) and count > 0)


def test_named_draws_and_the_bot_playing_missed_orders() -> None:
    game = _read("draw: {votes: open, among: any}\nmissed: {policy: play, after: 3}\n")
    assert game.draw.among is DrawAmong.ANY and game.draw.votes is VoteVisibility.OPEN
    assert game.missed.policy is MissedPolicy.PLAY and game.missed.after == 3
    assert _read("missed: play\n").missed.policy is MissedPolicy.PLAY


@pytest.mark.parametrize("text, line, fragment", [
    ("absences: {max: 14d, per_player: 2, total: 3}\n", 3, "unknown absences setting 'total'"),
    ("absences: {max: forever}\n", 3, "'forever' is not a duration"),
    ("absences:\n  max: 14d\n  per_player: -1\n", 5, "'per_player' must be a whole number"),
    ("absences: yes please\n", 3, "'absences' must be none or {max: 14d, per_player: 2}"),
    ("draw: {among: some}\n", 3, "'some' is not one of: survivors, any"),
    ("draw: {votes: open, with: all}\n", 3, "unknown draw setting 'with' (votes, among)"),
    ("missed: {policy: bot}\n", 3, "'bot' is not one of: hold, civil-disorder, wait-for-replacement, play"),
])
def test_every_mistake_is_named_with_its_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(SettingsError) as caught:
        read_settings(BASE + text, "games/g.yaml", KNOWN)
    assert any(p.line == line and fragment in p.message for p in caught.value.problems), caught.value.problems
