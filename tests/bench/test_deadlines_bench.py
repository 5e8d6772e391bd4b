"""bench/deadlines.py, tiny: one `gm run` on SQLite and on PostgreSQL, two sharing PostgreSQL;
each run hands every results mail over exactly once and says so (the bench checks the outbox
and the Message-IDs itself, and raises otherwise); the games it builds are kept and copied for
the next run; two processes on SQLite are refused with a reason. No timing is asserted."""

from __future__ import annotations

import os
import re
import tempfile

import pytest

from tests.bench.test_bench_stores import bench_module

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture
def postgres() -> None:
    if not os.environ.get("GM_TEST_POSTGRES_URL"):
        pytest.fail("GM_TEST_POSTGRES_URL is not set: run scripts/test (it starts PostgreSQL), "
                    "or deselect these tests with -m 'not postgres'")


def handed_over(out: str, games: int, processes: int) -> list[int]:
    """How many results mails each process handed over, as the bench's check reports them."""
    found = re.search(r"(\d+) results mails handed over once each \(([\d +]+) by (\d) process(?:es)?\), "
                      r"(\d+) recorded as sent; 0 mails not sent", out)
    assert found, out
    shares = [int(n) for n in found[2].split(" + ")]
    assert int(found[1]) == sum(shares) == int(found[4]) == games * 8
    assert int(found[3]) == len(shares) == processes
    return shares


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_one_process_hands_every_results_mail_over_once(backend, request, monkeypatch, capsys) -> None:
    if backend == "postgresql":
        request.getfixturevalue("postgres")
    bench = bench_module("deadlines", monkeypatch)
    bench.run_one(backend, 3, keep=False)
    out = capsys.readouterr().out
    assert re.search(rf"{backend}: 3 due games, every results mail handed to the transport in [\d.]+ s "
                     r"\(the tick done at [\d.]+ s; 24 mails, .*; 1 process; .*set-up: built", out)
    handed_over(out, 3, 1)
    assert re.search(r"games processed by each scheduler: 3\n", out)
    assert re.search(r"load at the start load average [\d.]+ .*; at the end load average [\d.]+", out)


@pytest.mark.slow
@pytest.mark.postgres
def test_two_processes_share_the_mails_and_send_none_twice(postgres, monkeypatch, capsys) -> None:
    bench = bench_module("deadlines", monkeypatch)
    bench.run_one("postgresql", 3, processes=2, keep=False)
    out = capsys.readouterr().out
    assert re.search(r"postgresql: 3 due games, every results mail handed to the transport in [\d.]+ s .*; "
                     r"2 processes; peak memory \d+ and \d+ MB", out)
    handed_over(out, 3, 2)
    processed = re.search(r"games processed by each scheduler: (\d+) \+ (\d+)\n", out)
    assert processed and int(processed[1]) + int(processed[2]) == 3  # each game processed once


def test_two_processes_on_sqlite_are_refused(monkeypatch) -> None:
    bench = bench_module("deadlines", monkeypatch)
    with pytest.raises(SystemExit, match="PostgreSQL only: SQLite lets one process write at a time"):
        bench.run_one("sqlite", 3, processes=2)


def test_the_games_built_are_kept_and_copied_for_the_next_run(monkeypatch, capsys, tmp_path) -> None:
    bench = bench_module("deadlines", monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # kept here, not in the machine's temp folder
    bench.run_one("sqlite", 2, tick_only=True)
    bench.run_one("sqlite", 2, tick_only=True)  # each asserts every game processed: the copy's are due
    out = capsys.readouterr().out
    kept = list((tmp_path / "gm-bench").glob("deadlines_sqlite_2_*.db"))
    assert len(kept) == 1
    assert re.findall(r"set-up: (built, kept in|copied from) ", out) == ["built, kept in", "copied from"]
    bench.run_one("sqlite", 2, tick_only=True, fresh=True)
    assert "set-up: built, kept in" in capsys.readouterr().out
