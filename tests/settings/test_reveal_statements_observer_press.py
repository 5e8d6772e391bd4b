"""The settings of who is named (reveal), end-of-game statements (eog_days) and observers' press:
their defaults, every form they take, and each mistake named by its line."""

from __future__ import annotations

import pytest

from gm.settings.model import ObserverPress, Reveal
from gm.settings.reader import SettingsError, read_settings

KNOWN = {"standard"}.__contains__
BASE = "variant: standard\ngm: master@example.test\n"


def read(extra: str):  # type: ignore[no-untyped-def]
    return read_settings(BASE + extra, "g.yaml", KNOWN)[0]


def test_the_defaults() -> None:
    settings = read("")
    assert settings.reveal is Reveal.END
    assert settings.eog_days == 7
    assert settings.press.observers is ObserverPress.NONE


@pytest.mark.parametrize(("text", "reveal"), [("end", Reveal.END), ("never", Reveal.NEVER), ("ALWAYS", Reveal.ALWAYS)])
def test_reveal(text: str, reveal: Reveal) -> None:
    assert read(f"reveal: {text}\n").reveal is reveal


@pytest.mark.parametrize("days", [0, 3, 30])
def test_eog_days(days: int) -> None:
    assert read(f"eog_days: {days}\n").eog_days == days


@pytest.mark.parametrize(("extra", "line", "words"), [
    ("reveal: sometimes\n", 3, "'sometimes' is not one of: end, never, always"),
    ("eog_days: -1\n", 3, "'eog_days' must be a whole number of days"),
    ("eog_days: a week\n", 3, "'eog_days' must be a whole number of days"),
    ("press:\n  observers: grey\n", 4, "'grey' is not one of: none, white"),
    ("press:\n  players: loud\n", 4, "press players 'loud'"),
    ("press:\n  watchers: white\n", 4, "unknown press setting 'watchers'"),
])
def test_mistakes_named_by_their_line(extra: str, line: int, words: str) -> None:
    with pytest.raises(SettingsError) as caught:
        read(extra)
    problems = [str(p) for p in caught.value.problems]
    assert any(p.startswith(f"line {line}:") and words in p for p in problems), problems


def test_observers_press_beside_the_players_words() -> None:
    press = read("press: {observers: white}\n").press
    assert press.observers is ObserverPress.WHITE and press.white and not press.grey and press.partial
    press = read("press: {players: grey, observers: white}\n").press
    assert press.grey and press.white and press.observers is ObserverPress.WHITE
    press = read("press: {players: none, observers: white}\n").press
    assert not press.any and press.observers is ObserverPress.WHITE


@pytest.mark.parametrize("word", ["none", "white", "grey", "broadcast"])
def test_the_words_of_before_still_read(word: str) -> None:
    assert read(f"press: {word}\n").press.observers is ObserverPress.NONE
