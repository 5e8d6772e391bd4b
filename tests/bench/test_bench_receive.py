"""bench/receive.py in one small run: every way a piped mail goes (spooled, --wait, handed to
a running gm run) timed until gm receive exits and until its answer is out, and a burst; no
figure is judged here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_receive_bench_times_each_way_and_a_burst() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "receive.py"), "--mails", "1", "--burst", "3"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    for way in ("spooled", "--wait", "handed over"):
        assert re.search(rf"{re.escape(way)}\s+exits after \d\.\d+ s .* answer out after \d\.\d+ s", done.stdout), \
            done.stdout
    for way in ("spooled", "--wait"):
        assert re.search(rf"3 at once, {re.escape(way)}: the last exits after \d+\.\d+ s, the last answer is out",
                         done.stdout), done.stdout
