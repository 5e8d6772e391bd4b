"""The settings of open powers and late lists: takeover: (who may take over a power its player
left, and how long a standby has to answer) and late: (who is told which powers are late)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from gm.settings.model import LatePolicy, Takeover, TakeoverPolicy
from gm.settings.reader import SettingsError, read_settings

KNOWN = {"standard"}.__contains__
BASE = "variant: standard\ngm: m@example.test\n"
EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "game.example.yaml"


def test_the_defaults_are_a_gm_who_approves_a_day_to_answer_and_everyone_told() -> None:
    (game,) = read_settings(BASE, "games/g.yaml", KNOWN)
    assert game.takeover == Takeover(TakeoverPolicy.GM, timedelta(hours=24))
    assert game.late is LatePolicy.EVERYONE


@pytest.mark.parametrize(("text", "policy", "standby"), [
    ("takeover: open\n", TakeoverPolicy.OPEN, timedelta(hours=24)),
    ("takeover: none\n", TakeoverPolicy.NONE, timedelta(hours=24)),
    ("takeover: {policy: gm, standby: 12h}\n", TakeoverPolicy.GM, timedelta(hours=12)),
    ("takeover: {standby: 2d}\n", TakeoverPolicy.GM, timedelta(days=2)),
])
def test_a_takeover_policy_in_a_word_or_with_the_standbys_time(text: str, policy: TakeoverPolicy,
                                                                standby: timedelta) -> None:
    (game,) = read_settings(BASE + text, "games/g.yaml", KNOWN)
    assert game.takeover == Takeover(policy, standby)


def test_late_only() -> None:
    (game,) = read_settings(BASE + "late: late-only\n", "games/g.yaml", KNOWN)
    assert game.late is LatePolicy.LATE_ONLY


@pytest.mark.parametrize(("text", "line", "fragment"), [
    ("takeover: anyone\n", 3, "not one of: open, gm, none"),
    ("takeover: {policy: gm, standby: soon}\n", 3, "not a duration"),
    ("takeover:\n  policy: gm\n  standby: 0m\n", 5, "a time to answer"),
    ("takeover:\n  policy: gm\n  wait: 2d\n", 5, "unknown takeover setting 'wait'"),
    ("takeover: [gm]\n", 3, "'takeover' must be open, gm or none"),
    ("late: nobody\n", 3, "not one of: everyone, late-only"),
])
def test_every_mistake_is_named_with_its_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(SettingsError) as caught:
        read_settings(BASE + text, "games/bad.yaml", KNOWN)
    assert any(p.line == line and fragment in p.message for p in caught.value.problems), \
        [str(p) for p in caught.value.problems]


def test_the_example_game_shows_the_defaults() -> None:
    (game,) = read_settings(EXAMPLE.read_text(), "game.example.yaml", lambda v: True)
    assert game.takeover == Takeover() and game.late is LatePolicy.EVERYONE
