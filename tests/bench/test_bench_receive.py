"""bench/receive.py in one small run: every way a piped mail goes (spooled, --wait, handed to
a running gm run) timed until gm receive exits and until its answer is out, and a burst; no
figure is judged here."""

from __future__ import annotations

import re

import pytest

from tests.bench.conftest import run_bench


@pytest.mark.slow
def test_the_receive_bench_times_each_way_and_a_burst() -> None:
    out = run_bench("receive.py", "--mails", "1", "--burst", "3")
    for way in ("spooled", "--wait", "handed over"):
        assert re.search(rf"{re.escape(way)}\s+exits after \d+\.\d+ s .* answer out after \d+\.\d+ s", out), \
            out
    for way in ("spooled", "--wait"):
        assert re.search(rf"3 at once, {re.escape(way)}: the last exits after \d+\.\d+ s, the last answer is out",
                         out), out
