"""Names players choose are checked when chosen: letters of one script, nothing
that does not print, nothing that equals or looks like a name used in the game or a word the
judge keeps (the game master, the judge, commands, the words of PRESS)."""

from __future__ import annotations

import re

import pytest

from gm.commands.player import GM_WORDS
from gm.commands.press import GREY_WORDS
from gm.commands.reader import END_PRESS
from gm.commands.registry import CommandTable
from gm.games.names import RESERVED, NameRefused, NameRules, skeletons

RULES = NameRules(taken=("Latium", "Carthago", "Papa", "Neutral"), judge="gm")


@pytest.mark.parametrize("name, why", [
    ("\x1b[31mRED\x1b[0m\x1b]0;pwn\x07", "does not print (U+001B)"),  # terminal escapes
    ("Rome\u202eemoR", "does not print (U+202E)"),  # a bidirectional override
    ("Ro\u200bme", "does not print (U+200B)"),  # zero width
    ("Two\nLines", None),  # normalised to one line, then allowed: see below
    ("Lat\u0456um", "letters of one script only (it mixes Cyrillic, Latin)"),  # a Cyrillic і
    ("\u0420\u0430\u0440\u0430", "looks like 'Papa'"),  # all Cyrillic, looking like a name taken
    ("LATIUM", "is taken"), ("latium", "is taken"), ("Lat-ium", "looks like 'Latium'"), ("Látium", "looks like 'Latium'"),
    ("Lat ium", "looks like 'Latium'"), ("Carthag0", "digits are not allowed"), ("Carthаgo", "mixes"),
    ("the game master", "a word the judge keeps"), ("The Game-Master", "a word the judge keeps"),
    ("Master", "a word the judge keeps"), ("GM", "a word the judge keeps"), ("G.M", "a word the judge keeps"),
    ("Judge", "a word the judge keeps"), ("Grey", "a word the judge keeps"), ("GRAY", "a word the judge keeps"),
    ("Everyone", "a word the judge keeps"), ("An Anonymous Power", "a word the judge keeps"),
    ("Press", "a word the judge keeps"), ("Signon", "a word the judge keeps"), ("neutral", "a word the judge keeps"),
    ("X", "at least 2 letters"), ("A" * 41, "at most 40 characters"), ("-Rome", "only between letters"),
    ("Rome!", "only letters"), ("Rome  ", None),
])
def test_names_that_pose_are_refused(name: str, why: str | None) -> None:
    if why is None:
        assert RULES.check(name) in ("Two Lines", "Rome")
        return
    with pytest.raises(NameRefused, match=re.escape(why)):
        RULES.check(name)


@pytest.mark.parametrize("name", ["Hellas", "Dacia", "O'Brien", "St. Albans", "Magna Graecia", "Ἑλλάς", "Рим",
                                  "東京", "Pontus-Bithynia", "Samnium"])
def test_honest_names_of_any_script_pass(name: str) -> None:
    assert RULES.check(name) == name


def test_the_message_never_relays_what_does_not_print() -> None:
    with pytest.raises(NameRefused) as refused:
        RULES.check("\x1b]0;pwn\x07")
    assert "\x1b" not in str(refused.value) and "\\u001b" in str(refused.value)


def test_every_command_and_word_of_press_is_kept_by_the_judge() -> None:
    kept = set().union(*(skeletons(word) for word in RESERVED))
    table = CommandTable()
    words = [*table.by_name, *GM_WORDS, *GREY_WORDS, *END_PRESS, "TO", "WITH", "RESULTS", "RULES", "DICE",
             "the game master", "an anonymous power", "everyone"]
    missing = [word for word in words if not skeletons(word) & kept]
    assert missing == []


def test_look_alikes_across_scripts_and_case() -> None:
    assert skeletons("LatIum") & skeletons("Latium")  # a capital I for the small i
    assert skeletons("Hibemia") & skeletons("Hibernia")  # rn for m
    assert not skeletons("Latium") & skeletons("Latlum")  # a small l is no i
