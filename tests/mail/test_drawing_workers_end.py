"""A gm killed outright takes its drawing workers with it: nothing it started lives on holding
its stderr (a supervisor reading it would wait forever) or the forkserver."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

SCRIPT = textwrap.dedent("""
    import os, sys, time
    from gm.services.drawing import Workers
    workers = Workers(2)
    pids = {workers._pool.submit(os.getpid).result() for _ in range(20)}
    print(" ".join(map(str, pids)), flush=True)
    time.sleep(600)
""")


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_workers_end_when_gm_is_killed() -> None:
    gm = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert gm.stdout is not None
        workers = [int(pid) for pid in gm.stdout.readline().split()]
        assert workers and os.getpid() not in workers and gm.pid not in workers
        assert all(_running(pid) for pid in workers)
        gm.send_signal(signal.SIGKILL)
        gm.communicate(timeout=20)  # every copy of its stderr closed: the workers are gone
        deadline = time.monotonic() + 10
        while any(_running(pid) for pid in workers):
            assert time.monotonic() < deadline, "a drawing worker outlived gm"
            time.sleep(0.1)
    finally:
        gm.kill()
        gm.wait()
