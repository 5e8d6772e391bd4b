"""bench/intake.py and bench/deadlines.py on SQLite, small: each pass does what it times (every
mail stored, answered and its orders kept; every due game processed) and prints its figures."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench_module(name: str, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(BENCH))  # the benches import bench/stores.py
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


def test_the_intake_bench_handles_every_mail_and_counts_statements(monkeypatch, capsys) -> None:
    bench = bench_module("intake", monkeypatch)
    assert bench.run("sqlite", 30, statements=True) > 0  # it asserts every mail stored and answered
    out = capsys.readouterr().out
    assert re.search(r"sqlite: 30 order mails in [\d.]+ s = \d+ mails/s \(median [\d.]+ ms", out)
    assert re.search(r"[\d.]+ statements per mail:", out)
    assert re.search(r"1\.00\s+INSERT inbound_mail", out)  # the raw mail, stored once per mail


def test_the_deadlines_bench_processes_every_game(monkeypatch, capsys) -> None:
    bench = bench_module("deadlines", monkeypatch)
    from gm.games import lifecycle

    hash_secret = lifecycle.hash_secret
    bench.run_one("sqlite", 3, tick_only=True, statements=True, keep=False)  # it asserts every game processed
    assert lifecycle.hash_secret is hash_secret  # its cheap set-up secrets are its own
    out = capsys.readouterr().out
    assert re.search(r"sqlite: 3 due games ticked in [\d.]+ s = \d+ games/s .*load average", out)
    assert re.search(r"INSERT outbox", out)


@pytest.mark.slow
def test_the_deadlines_bench_times_until_every_results_mail_is_handed_over(monkeypatch, capsys) -> None:
    bench = bench_module("deadlines", monkeypatch)
    bench.run_one("sqlite", 2, tick_only=False, keep=False)  # it waits for every results mail, with its picture
    out = capsys.readouterr().out
    assert re.search(r"sqlite: 2 due games, every results mail handed to the transport in [\d.]+ s "
                     r"\(the tick done at [\d.]+ s; 16 mails", out)
