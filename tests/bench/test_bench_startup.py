"""bench/startup.py in one round against this same commit: it builds both homes, times every
command in new processes (each `gm receive` waited for until its answer is written) and prints a
figure for each; no figure is judged here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_startup_bench_times_every_command_of_both_builds() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "startup.py"), "--runs", "1", "--before", "HEAD"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "before: HEAD" in done.stdout and "load average" in done.stdout
    figure = r"\s+\d+ ms \(\s*\d+\), cpu\s+\d+"
    for command in ("gm --help", "gm --version", "gm tick, nothing due", "gm receive, HELP, alone"):
        assert re.search(rf"{re.escape(command)}{figure}{figure}", done.stdout), done.stdout
    uncounted = r"\s+\d+ ms \(\s*\d+\), cpu\s+-"  # the time until gm receive's answer is written
    assert re.search(rf"its answer written{uncounted}{uncounted}", done.stdout), done.stdout
    worktrees = subprocess.run(["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True).stdout
    assert "gm-startup-" not in worktrees  # the tree of the build before is removed
