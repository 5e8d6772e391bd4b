"""The tables in docs/rules/ that trace each rule of a variant's text to its tests (issue 23): every
test they name exists, and every numbered rule (or section) of the text has its row."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
# The numbered rules of the texts that number theirs (shared/rules/rise-of-rome-ii.txt and
# roman-diplomacy.txt; a heading whose rule has numbered parts counts by its parts), as the texts
# number them: written out here, so the test needs nothing outside the repository.
NUMBERED = {
    "rise-of-rome-ii": ["0", "1.1", "2", "3.1", "3.2", "3.3", "3.4", "3.5", "4.1", "4.2", "5.1", "5.2", "6.1", "6.2",
                        "7.1", "7.2", "7.3", "8.1", "8.2", "8.3", "8.4", "9", "10"],
    "roman-diplomacy": ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
}
TABLES = sorted((ROOT / "docs" / "rules").glob("*.md"))


def _tests() -> set[str]:
    names = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}
    return names


def _rows(table: Path) -> list[list[str]]:
    rows = []
    for line in table.read_text(encoding="utf-8").splitlines():
        if line.startswith("| ") and not line.startswith("| rule ") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def test_there_is_a_table_for_each_of_the_four_roman_variants() -> None:
    assert [t.stem for t in TABLES] == ["diplomacy-of-the-empire", "eagles", "rise-of-rome-ii", "roman-diplomacy"]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.stem)
def test_every_test_a_table_names_exists(table: Path) -> None:
    known = _tests()
    named = set(re.findall(r"`(test_\w+)`", table.read_text(encoding="utf-8")))
    assert named and not named - known, sorted(named - known)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.stem)
def test_every_row_names_its_tests_or_says_it_has_none(table: Path) -> None:
    for rule, _says, tests, _ruling in _rows(table):
        assert "`test_" in tests or tests.startswith("none"), rule


@pytest.mark.parametrize("table", sorted(NUMBERED))
def test_every_numbered_rule_of_the_text_has_its_row(table: str) -> None:
    rows = {row[0].split(" ")[0] for row in _rows(ROOT / "docs" / "rules" / f"{table}.md")}
    assert not set(NUMBERED[table]) - rows, sorted(set(NUMBERED[table]) - rows)
