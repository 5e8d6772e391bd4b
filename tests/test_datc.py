"""Every DATC v3.0 chapter 6 case (tests/datc/*.yaml), through the `gm adjudicate` interchange."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gm.interchange import adjudicate_json
from gm.variants.catalog import VariantCatalog

DATC_DIR = Path(__file__).parent / "datc"
CATALOG = VariantCatalog()


def _cases() -> list[Any]:
    cases = []
    for path in sorted(DATC_DIR.glob("6.*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            cases.append(pytest.param(case, id=case["id"]))
    return cases


def _split(entry: Any) -> tuple[str, str | None]:
    """An order entry is a line, or {line: expected outcome}."""
    if isinstance(entry, dict):
        ((line, expected),) = entry.items()
        return str(line), str(expected)
    return str(entry), None


def _check_outcome(got: dict[str, Any], expected: str, where: str) -> None:
    if expected == "succeeds":
        assert got["outcome"] == "succeeds", f"{where}: expected success, got {got}"
        return
    assert got["outcome"] == "fails", f"{where}: expected failure ({expected}), got {got}"
    if expected != "fails":
        assert got["reason"].split(":")[0] == expected, f"{where}: expected reason {expected}, got {got['reason']}"


def _units(section: dict[str, list[str]] | None) -> dict[str, list[str]]:
    return {power: sorted(units) for power, units in (section or {}).items() if units}


def _play(case_id: str, step: dict[str, Any], position: dict[str, Any]) -> dict[str, Any]:
    orders: dict[str, list[str]] = {}
    expected: list[tuple[str, int, str]] = []
    for power, entries in (step.get("orders") or {}).items():
        for entry in entries:
            line, outcome = _split(entry)
            orders.setdefault(power, []).append(line)
            if outcome is not None:
                expected.append((power, len(orders[power]) - 1, outcome))
    result = adjudicate_json({**position, "orders": orders}, CATALOG)
    for power, index, outcome in expected:
        got = result["results"][power][index]
        _check_outcome(got, outcome, f"{case_id} {power} {orders[power][index]!r}")
    expect = step.get("expect") or {}
    if "units" in expect:
        assert _units(result["units"]) == _units(expect["units"]), f"{case_id}: units after the phase"
    if "dislodged" in expect:
        got_dislodged = {
            power: sorted(d["unit"] for d in entries) for power, entries in result["dislodged"].items()
        }
        want_dislodged = {
            power: sorted(d["unit"] for d in entries) for power, entries in (expect["dislodged"] or {}).items() if entries
        }
        assert got_dislodged == want_dislodged, f"{case_id}: dislodged units"
        for power, entries in (expect["dislodged"] or {}).items():
            for want in entries:
                if "retreats" in want:
                    got = next(d for d in result["dislodged"][power] if d["unit"] == want["unit"])
                    assert sorted(got["retreats"]) == sorted(want["retreats"]), f"{case_id}: retreats of {want['unit']}"
    if "centers" in expect:
        assert _units(result["centers"]) == _units(expect["centers"]), f"{case_id}: supply centres"
    return result


@pytest.mark.parametrize("case", _cases())
def test_datc(case: dict[str, Any]) -> None:
    position = {
        "variant": "standard",
        "phase": case.get("phase", "S1901M"),
        "units": case.get("units") or {},
        "dislodged": case.get("dislodged") or {},
    }
    if case.get("centers") is not None:
        position["centers"] = case["centers"]
    result = _play(case["id"], case, position)
    step = case.get("then")
    while step:
        position = {
            "variant": "standard",
            "phase": result["next_phase"],
            "units": result["units"],
            "dislodged": {
                power: [{"unit": d["unit"], "retreats": d["retreats"]} for d in entries]
                for power, entries in result["dislodged"].items()
            },
            "centers": result["centers"],
        }
        result = _play(case["id"], step, position)
        step = step.get("then")
