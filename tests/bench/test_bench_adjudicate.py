"""bench/adjudicate.py --variant NAME: each phase kind of a variant timed beside standard play."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "adjudicate.py"


def bench_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_adjudicate", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_variant_figures_stand_beside_standard_for_every_phase_kind(monkeypatch, capsys) -> None:
    bench = bench_module()
    monkeypatch.setattr(sys, "argv", ["adjudicate.py", "--variant", "classical", "--games", "3", "--phases", "15",
                                      "--rounds", "1"])
    assert bench.main() == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Classical Diplomacy (classical) beside standard: 3 random games")
    rows = {}
    kind = ""
    for line in out[2:8]:
        kind = line[:13].strip() or kind
        found = re.fullmatch(r"(\S+)\s+([\d.]+) ms\s+([\d.]+) ms\s+(\d+)\s+(\d+)", line[13:].strip())
        assert found, line
        rows[(kind, found[1])] = (float(found[2]), int(found[4]))
    assert set(rows) == {(k, v) for k in ("movement", "retreats", "adjustments") for v in ("standard", "classical")}
    assert all(median > 0 and phases > 0 for median, phases in rows.values())
    assert re.fullmatch(r"a movement phase of classical costs [\d.]+x one of standard play \(medians\)", out[8])


def test_the_variant_phases_are_loaded_back_as_played() -> None:
    bench = bench_module()
    samples = bench.collect(4, 15, 1, "classical", dice=True, kinds=bench.KINDS)
    assert all(samples[kind] for kind in bench.KINDS)
    for kind_samples in samples.values():
        bench.check_loading(kind_samples, "classical")  # raises when a phase does not read back
        assert all(s.dice and s.dice.startswith("bench 1 ") for s in kind_samples)  # each game its dice


def test_an_unknown_variant_is_refused(monkeypatch, capsys) -> None:
    bench = bench_module()
    monkeypatch.setattr(sys, "argv", ["adjudicate.py", "--variant", "nosuch"])
    with pytest.raises(SystemExit):
        bench.main()
    assert "unknown variant 'nosuch'" in capsys.readouterr().err
