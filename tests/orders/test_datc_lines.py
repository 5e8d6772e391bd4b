"""Every order line of the DATC cases (tests/datc) reads without an error."""

from __future__ import annotations

from pathlib import Path

import yaml

from gm.orders import parse_line

DATC = Path(__file__).resolve().parents[1] / "datc"


def _lines() -> list[tuple[str, str]]:
    found = []
    for path in sorted(DATC.glob("6.*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            for orders in (case.get("orders") or {}).values():
                for entry in orders:
                    line = next(iter(entry)) if isinstance(entry, dict) else entry
                    found.append((case["id"], str(line)))
    return found


# DATC 6.B.12 / 6.I.4: a coast given to an army is ignored (with a warning).
ARMY_COASTS = {"A GAS - SPA/NC", "BUILD A STP/NC"}


def test_datc_order_lines(grammar):
    lines = _lines()
    assert len(lines) > 700, "the DATC case files in tests/datc are missing"
    problems = []
    for case, line in lines:
        parsed = parse_line(line, grammar)
        expected_warnings = 1 if line in ARMY_COASTS else 0
        if not parsed.ok or len(parsed.diagnostics) != expected_warnings:
            problems.append((case, str(parsed)))
        elif str(parsed.order) != line.replace("REMOVE", "DISBAND") and line not in ARMY_COASTS:
            problems.append((case, f"{line!r} read as {parsed.order}"))
    assert problems == []
