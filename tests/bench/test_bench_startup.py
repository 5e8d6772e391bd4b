"""bench/startup.py in one round against this same commit: it builds both homes, times every
command in new processes (each `gm receive` waited for until its answer is written) and prints a
figure for each; no figure is judged here."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.bench.conftest import ROOT, run_bench


@pytest.mark.slow
def test_the_startup_bench_times_every_command_of_both_builds() -> None:
    out = run_bench("startup.py", "--runs", "1", "--before", "HEAD")
    assert "before: HEAD" in out and "load average" in out
    figure = r"\s+\d+ ms \(\s*\d+\), cpu\s+\d+"
    for command in ("gm --help", "gm --version", "gm tick, nothing due", "gm receive, HELP, alone"):
        assert re.search(rf"{re.escape(command)}{figure}{figure}", out), out
    uncounted = r"\s+\d+ ms \(\s*\d+\), cpu\s+-"  # the time until gm receive's answer is written
    assert re.search(rf"its answer written{uncounted}{uncounted}", out), out
    worktrees = subprocess.run(["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True).stdout
    assert "gm-startup-" not in worktrees  # the tree of the build before is removed
