"""bench/web_load.py, tiny: a real `gm run` serving a one-year game's pages to a few readers for
two seconds while a mail is handed over; it runs to its end and prints its figures (no timing
is judged here: the machine is shared)."""

from __future__ import annotations

import re

import pytest

from tests.bench.conftest import run_bench


@pytest.mark.slow
def test_the_web_load_bench_serves_pages_and_times_each_mails_own_answer() -> None:
    out = run_bench("web_load.py", "--readers", "3", "--seconds", "2", "--mails", "2", "--years", "1", timeout=300)
    assert re.search(r"gm run sent the set-up's \d+ mails .* before the run", out), out
    assert re.search(r"3 readers for [\d.]+ s of a 1-year game's pages \(/games/g, /games/g/phases/S1901M, "
                     r"/games/g/phases/F1901M in turn\): \d+ pages/s; latency median \d+ ms, p90 \d+ ms; "
                     r"other answers none", out), out
    assert re.search(r"mails meanwhile, .*: [\d.]+, [\d.]+ s \(median [\d.]+ s\)", out), out
    assert re.search(r"processor time a second: the judge [\d.]+ s, the readers \(this process\) [\d.]+ s", out)
    assert re.search(r"load average [\d.]+ .* at the start", out), out
