"""The parser sits above the engine, and reads a line well within its time budget."""

from __future__ import annotations

import re
import time
from pathlib import Path

import gm
from gm.orders import parse_line

ROOT = Path(gm.__file__).resolve().parent
IMPORT_OF_ORDERS = re.compile(r"^\s*(from|import)\s+gm\.orders\b", re.MULTILINE)


def test_engine_does_not_import_the_parser():
    for package in ("domain", "maps", "adjudicator"):
        for source in (ROOT / package).rglob("*.py"):
            assert not IMPORT_OF_ORDERS.search(source.read_text(encoding="utf-8")), source


def test_parser_imports_only_what_it_may():
    # the variant, the parts it declares, and what the parser keeps for each variant
    allowed = ("gm.domain", "gm.maps", "gm.adjudicator.variant", "gm.adjudicator.parts", "gm.adjudicator.kept",
               "gm.orders")
    for source in (ROOT / "orders").rglob("*.py"):
        for module in re.findall(r"^\s*(?:from|import)\s+(gm[\w.]*)", source.read_text(encoding="utf-8"), re.MULTILINE):
            assert module.startswith(allowed), (source, module)


COMMON = [
    "A PAR - BUR",
    "F NTH C A LON - BEL",
    "A MUN S A BER - SIL",
    "F St Petersburg (north coast) - Barents Sea",
    "BUILD A PAR",
    "A LON - BEL VIA CONVOY",
    "F TRI H",
    "Army Munich supports Army Berlin",
]


def test_common_lines_are_fast(grammar):
    lines = COMMON * 50
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for line in lines:
            parse_line(line, grammar)
        best = min(best, (time.perf_counter() - start) / len(lines))
    assert best < 150e-6, f"{best * 1e6:.0f} µs per line"  # about 1 µs: repeated lines come from the grammar's cache


def test_common_lines_are_fast_uncached(grammar):
    lines = COMMON * 50
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for line in lines:
            parse_line(line, grammar, cached=False)
        best = min(best, (time.perf_counter() - start) / len(lines))
    assert best < 150e-6, f"{best * 1e6:.0f} µs per line"  # typically 3-5 µs (the fast lane reads them all)
