"""gm.settings.edit: a new game's file holds every setting at its default; a change laid on a file
keeps every line it does not change, in any of the usual indentations, and reads back as checked."""

from __future__ import annotations

import dataclasses
import difflib
from pathlib import Path

import pytest

from gm.settings import edit
from gm.settings.reader import DEADLINE_KEYS, GAME_KEYS, read_settings
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

ROOT = Path(__file__).resolve().parents[2]
DEFAULTS = (ROOT / "templates" / "settings" / "new_game.yaml").read_text(encoding="utf-8")
CATALOG = VariantCatalog()


def _known(name: str) -> bool:
    return name in CATALOG.names()


def _rules(variant, chosen):  # type: ignore[no-untyped-def]
    return setup_of(CATALOG.get(variant)).option_problems(chosen)


def _defaults(variant: str) -> str:
    return edit.new_game(DEFAULTS, variant, "gm@club.example", setup_of(CATALOG.get(variant)).player_counts()[1])


def _changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.ndiff(before.splitlines(), after.splitlines()) if line[:1] in "+-"]


def test_a_new_games_file_holds_every_setting() -> None:
    keys = {line.split(":")[0].strip() for line in DEFAULTS.splitlines() if not line.lstrip().startswith("#")}
    assert (GAME_KEYS - {"name"}) | DEADLINE_KEYS <= keys


@pytest.mark.parametrize("variant", CATALOG.names())
def test_a_new_games_file_reads_as_every_default(variant: str) -> None:
    text = _defaults(variant)
    (settings,) = read_settings(text, "x.yaml", _known, _rules)
    (minimal,) = read_settings(f"variant: {variant}\ngm: gm@club.example\n", "x.yaml", _known, _rules)
    assert settings == dataclasses.replace(minimal, seats=setup_of(CATALOG.get(variant)).player_counts()[1])
    assert all(len(line) <= 72 for line in text.splitlines())


def test_an_address_that_yaml_would_misread_is_written_quoted() -> None:
    text = edit.new_game(DEFAULTS, "standard", "a#b@club.example", 7)
    (settings,) = read_settings(text, "x.yaml", _known)
    assert settings.gm == "a#b@club.example"


@pytest.mark.parametrize("indent", [(2, 2, 0), (2, 4, 2), (4, 6, 4), (4, 4, 0), (3, 5, 3)])
def test_a_change_leaves_every_other_line_as_written(indent: tuple[int, int, int]) -> None:
    mapping, sequence, dash = indent
    own = " " * mapping
    item = " " * dash + "-" + " " * (sequence - dash - 1)
    text = (f"# board 2\nvariant: standard\ngm: gm@club.example   # me\ndeadlines:\n{own}movement: 48h   # slow\n"
            f"{own}weekdays:\n{own}{item}mon\n{own}{item}thu\n\npress: white\nplayers:\n{item}a@club.example\n"
            f"{item}{{email: b@club.example, power: France}}   # Bea\n")
    read_settings(text, "g.yaml", _known)  # a valid file to start with
    mail = edit.mailed(["press: grey", "grace: 2h  # late orders"], [3, 4])
    changed = edit.change(text, "g.yaml", "g", mail, _defaults, _known, _rules)
    assert _changed_lines(text, changed.text) == ["- press: white", "+ press: grey", "+ grace: 2h  # late orders"]
    assert changed.settings.press.grey and changed.settings.grace.total_seconds() == 7200


def test_the_example_game_keeps_its_comments_when_changed() -> None:
    text = (ROOT / "deploy" / "game.example.yaml").read_text(encoding="utf-8")
    mail = edit.mailed(["missed:", "  policy: hold", "  after: 3", "late: late-only"], [2, 3, 4, 5])
    changed = edit.change(text, "example.yaml", "example", mail, _defaults, _known, _rules)
    diff = _changed_lines(text, changed.text)
    assert len(diff) == 4 and diff[0].startswith("- missed: {policy: civil-disorder, after: 2}   # or hold")
    assert diff[1].startswith("+ missed: {policy: hold, after: 3}") and "# or hold" in diff[1]  # as the file wrote it


def test_a_game_in_a_file_of_several_is_changed_alone() -> None:
    text = ("games:\n  - name: a\n    variant: standard\n    gm: gm@club.example\n    press: white\n"
            "  - name: b   # the other\n    variant: standard\n    gm: other@club.example\n    press: white\n")
    changed = edit.change(text, "league.yaml", "b", edit.mailed(["press: none"], [1]), _defaults, _known, _rules)
    assert _changed_lines(text, changed.text) == ["-     press: white", "+     press: none"]
    assert changed.text.index("press: none") > changed.text.index("name: b")
    assert "name: a" not in edit.game_part(text, "b") and "other@club.example" in edit.game_part(text, "b")


def test_the_name_given_as_it_is_changes_nothing_and_another_is_refused() -> None:
    text = _defaults("standard")
    same = edit.change(text, "g.yaml", "g", edit.mailed(["name: g"], [2]), _defaults, _known, _rules)
    assert same.text == text
    with pytest.raises(edit.EditRefused, match="line 2: 'name': a game's name stays"):
        edit.change(text, "g.yaml", "g", edit.mailed(["name: h"], [2]), _defaults, _known, _rules)
