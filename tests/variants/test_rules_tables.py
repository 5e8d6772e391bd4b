"""The tables in docs/rules/ that trace each rule of a variant's text to its tests: every test they
name exists, every numbered rule (or section) of the text has its row, and the index names every
variant of the catalog with its rules text and table."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
# The numbered rules of the texts that number theirs (Rise of Rome II, Roman Diplomacy, Classical
# Diplomacy; a heading whose rule has numbered parts counts by its parts), as the texts number
# them: written out here, so the test needs nothing outside the repository.
NUMBERED = {
    "classical": ["1", "2", "3", "4", "5", "6", "7", "7a", "7b", "8", "8a", "8b"],
    "rise-of-rome-ii": ["0", "1.1", "2", "3.1", "3.2", "3.3", "3.4", "3.5", "4.1", "4.2", "5.1", "5.2", "6.1", "6.2",
                        "7.1", "7.2", "7.3", "8.1", "8.2", "8.3", "8.4", "9", "10"],
    "roman-diplomacy": ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
}
TABLES = sorted(t for t in (ROOT / "docs" / "rules").glob("*.md") if t.name != "README.md")
INDEX = ROOT / "docs" / "rules" / "README.md"


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


def test_there_is_a_table_for_classical_and_each_of_the_four_roman_variants() -> None:
    assert [t.stem for t in TABLES] == ["classical", "diplomacy-of-the-empire", "eagles", "rise-of-rome-ii",
                                        "roman-diplomacy"]


def test_the_index_names_every_variant_with_its_rules_text_and_an_existing_table() -> None:
    from gm.variants.catalog import VariantCatalog

    rows = {row[0].strip("`"): row for row in _rows(INDEX) if row[0] != "variant"}
    assert sorted(rows) == sorted(VariantCatalog().names())
    for name, (_, text, table, help_text) in rows.items():
        assert "*" in text, name  # the text's title, in italics, with its authors
        for link in re.findall(r"\]\(([\w.-]+)\)", table):
            assert (INDEX.parent / link).is_file(), link
        for path in re.findall(r"`([\w/.-]+\.j2)`", help_text):
            assert (ROOT / path).is_file(), path


def test_no_doc_points_outside_the_repository() -> None:
    """A clone has no shared folder and no issue tracker: no doc, template, map, test or comment in
    the repository names them."""
    words = re.compile(r"shared/|\b[Ii]ssues? \d+|[Ii]ssue \d+'s")
    found = []
    for folder in ("docs", "deploy", "templates", "maps", "gm", "bench", "scripts", "tests"):
        for path in (ROOT / folder).rglob("*"):
            if path.parent.name == "datc" or path == Path(__file__):  # the DATC's own "issue 4.B.1"; this test
                continue
            if path.is_file() and path.suffix in (".md", ".py", ".j2", ".yaml", ".yml", ".txt", ".conf", ".service", ".cron", "") :
                try:
                    text = path.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    continue
                found += [f"{path.relative_to(ROOT)}: {line.strip()[:80]}" for line in text.splitlines() if words.search(line)]
    found += [f"README.md: {line.strip()[:80]}" for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
              if words.search(line)]
    assert found == []


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
