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


def test_every_variant_stands_beside_standard_in_one_table(monkeypatch, capsys) -> None:
    bench = bench_module()
    monkeypatch.setattr(sys, "argv", ["adjudicate.py", "--variant", "all", "--games", "2", "--phases", "6",
                                      "--rounds", "1"])
    assert bench.main() == 0
    out = capsys.readouterr().out.splitlines()
    from gm.variants.catalog import VariantCatalog
    others = [n for n in VariantCatalog().names() if n != "standard"]
    assert out[0].startswith(f"{len(others)} variants beside standard: 2 random games")
    movement = [line[13:].split()[0] for line in out[2:3 + len(others)]]
    assert movement == ["standard", *others]
    assert [line.split()[4] for line in out[-len(others):]] == others  # "a movement phase of NAME costs"


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


def test_standard_play_prints_core_whole_path_and_parser_figures(monkeypatch, capsys) -> None:
    bench = bench_module()
    monkeypatch.setattr(sys, "argv", ["adjudicate.py", "--games", "2", "--phases", "6", "--rounds", "1"])
    assert bench.main() == 0
    out = capsys.readouterr().out
    assert re.search(r"^whole path: gm from a line of interchange JSON", out, re.MULTILINE)
    assert len(re.findall(r"^\s+gm: median [\d.]+ ms", out, re.MULTILINE)) == 2  # the core and the whole path
    assert re.search(r"^  movement +\d+ phases  gm [\d.]+ ms(  MILA [\d.]+ ms: [\d.]+x;  MILA's whole job [\d.]+ ms: "
                     r"[\d.]+x)?$", out, re.MULTILINE)  # and each phase kind met (MILA's when it is installed)
    assert re.search(r"^order parser: \d+ distinct order lines of these phases \(40% canonical, 20% full names, "
                     r"30% lower case, 10% misspelt\)", out, re.MULTILINE)
    for name in ("uncached", "cached"):
        assert re.search(rf"^\s+{name}: [\d.]+ µs per line in the mix \(canonical [\d.]+, full names [\d.]+, "
                         r"lower case [\d.]+, misspelt [\d.]+\)$", out, re.MULTILINE)


def test_the_parser_lines_are_what_they_say() -> None:
    from gm.orders import OrderGrammar, parse_line
    from gm.variants.catalog import VariantCatalog

    bench = bench_module()
    samples = bench.collect(3, 10, 1)[bench.PhaseKind.MOVEMENT]
    lines = bench.parser_lines(samples, count=200)
    grammar = OrderGrammar.for_variant(VariantCatalog().get("standard"))
    assert [kind for kind, _ in bench.PARSER_MIX] == list(lines)
    for kind, kind_lines in lines.items():
        assert kind_lines and len(set(kind_lines)) == len(kind_lines)
        for line in kind_lines:
            parsed = parse_line(line, grammar, cached=False)
            if kind == "misspelt":
                assert not parsed.ok and parsed.errors[0].suggestion, line
            else:
                assert parsed.ok and not parsed.diagnostics, line
    assert all(line == line.lower() for line in lines["lower case"])
    documents = [sample.document() for sample in samples]
    bench.check_whole(samples, documents)
