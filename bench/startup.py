"""Wall time of a new gm process, as cron and a mail server start one for every tick and mail,
against the build before (a git worktree of another commit), turn and turn about.

    .venv/bin/python bench/startup.py [--before REV] [--runs 20]

Times, as the median (and the slowest) of ``--runs`` runs of each:

- ``gm --help`` and ``gm --version``;
- ``gm tick`` with nothing due (a fresh SQLite home with its schema, nothing in the inbox);
- ``gm receive`` of a HELP mail with no `gm run` to hand it to: until it exits (what the mail
  server waits for: the mail stored, in the spool since gm.transport.spool), and until its
  answer is written to the outbound folder (by the process it started; before that work, by
  itself before it exited). The processor time is the pipe's own; the process it starts is not
  its child, and its time is not counted. Each round waits for that process to end.

Each round runs every command once with this tree's build and once with ``--before``'s, so that
the machine's load falls on both alike; the load is printed before and after. Both run from
bytecode, as an installed gm does (pip writes it at install; bench's is kept in a temporary
folder, out of the trees), with the cache of maps warm (``$GM_CACHE_DIR``, gm.maps.cache) after
a first round that is not counted. ``--before`` defaults to the commit before the start-up work;
its worktree runs gm as Python (its modules not compiled), which costs a new process nothing
measurable: the compiled modules are loaded as its modules are.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
BEFORE = "c3e600c"  # the commit before gm --version and the lazy imports
MAIN = "import sys; from gm.cli.main import main; sys.exit(main())"  # what the installed `gm` script runs


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


class Build:
    """One tree's gm, with its own home, configuration and caches."""

    def __init__(self, name: str, tree: Path, folder: Path):
        self.name = name
        self.tree = tree
        home = folder / name
        self.config = folder / f"{name}.yaml"
        self.config.write_text(f"home: {home}\njudge_address: judge@example.test\nsender_rate: 1000000\n")
        self.home = home
        self.outbox = home / "mail" / "outbox"
        self.answered = 0.0
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "GM_CONFIG")}
        env.update(PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(folder / f"{name}-bytecode"),
                   GM_CACHE_DIR=str(folder / f"{name}-cache"), PYTHONWARNINGS="ignore")
        self.env = env
        self.cpu = 0.0
        self.gm(["--config", str(self.config), "db", "upgrade"])

    def gm(self, argv: list[str], stdin: bytes | None = None) -> float:
        """Seconds until ``gm argv`` exits (its processor time kept in ``self.cpu``)."""
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([str(PYTHON), "-c", MAIN, *argv], input=stdin, capture_output=True, env=self.env,
                              cwd=self.tree)
        took = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu = (after.ru_utime - used.ru_utime) + (after.ru_stime - used.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"{self.name}: gm {' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[-2000:]}")
        return took

    def receive(self, n: int) -> float:
        """Seconds until `gm receive` exits; until its answer is written in ``self.answered``."""
        mail = (f"From: alice@example.org\nTo: judge@example.test\nSubject: help\n"
                f"Message-ID: <startup.{n}.{time.time_ns()}@example.org>\n\nHELP\n").encode()
        before = self._answers()
        start = time.perf_counter()
        took = self.gm(["--config", str(self.config), "--log-level", "warning", "receive"], stdin=mail)
        while self._answers() <= before:
            if time.perf_counter() - start > 60:
                raise SystemExit(f"{self.name}: no answer written within 60 s of gm receive")
            time.sleep(0.002)
        self.answered = time.perf_counter() - start
        self._taker_gone()
        return took

    def _taker_gone(self) -> None:
        """Waits until no process holds the spool's lock (the one `gm receive` started is done)."""
        lock = self.home / "spool" / ".taking"
        if not lock.exists():
            return
        with lock.open("rb") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)

    def _answers(self) -> int:
        return sum(len(os.listdir(self.outbox / sub)) for sub in ("new", "cur") if (self.outbox / sub).exists())


def _worktree(rev: str, folder: Path) -> Path:
    tree = folder / "before-tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), rev], check=True)
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", default=BEFORE, help=f"the build to compare with (default {BEFORE})")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-startup-") as name:
        folder = Path(name)
        tree = _worktree(args.before, folder)
        try:
            builds = [Build("before", tree, folder), Build("now", ROOT, folder)]
            has_version = {b.name: subprocess.run([str(PYTHON), "-c", MAIN, "--version"], env=b.env, cwd=b.tree,
                                                  capture_output=True).returncode == 0 for b in builds}
            commands = {
                "gm --help": lambda b, n: b.gm(["--help"]),
                "gm --version": lambda b, n: b.gm(["--version"]) if has_version[b.name] else None,
                "gm tick, nothing due": lambda b, n: b.gm(["--config", str(b.config), "tick"]),
                "gm receive, HELP, alone": lambda b, n: b.receive(n),
                "  its answer written": lambda b, n: b.answered,
            }
            uncounted = {"  its answer written"}  # the pipe's processor time is counted above
            times: dict[tuple[str, str], list[float]] = {}
            cpu: dict[tuple[str, str], list[float]] = {}
            load_before = _load()
            for n in range(args.runs + 1):  # the first round fills the bytecode and the caches: not counted
                for what, run in commands.items():
                    for build in builds if n % 2 else reversed(builds):  # who goes first alternates too
                        took = run(build, n)
                        if n and took is not None:
                            times.setdefault((what, build.name), []).append(took)
                            cpu.setdefault((what, build.name), []).append(build.cpu)
            load_after = _load()
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    print(f"Start-up, wall time, median of {args.runs} (slowest), alternating builds; "
          f"before: {args.before}, now: this tree")
    print(f"  {load_before} at the start, {load_after} at the end")
    print("  each: wall time (slowest) and the processor time it used, less swayed by the load")
    print(f"  {'':26} {'before':>28} {'now':>28}")
    for what in commands:
        cells = []
        for build in ("before", "now"):
            found = times.get((what, build))
            used = "   -" if what in uncounted else f"{statistics.median(cpu[what, build]) * 1000:4.0f}"
            cells.append(f"{statistics.median(found) * 1000:5.0f} ms ({max(found) * 1000:4.0f}), cpu {used}"
                         if found else "(no such option)")
        print(f"  {what:26} {cells[0]:>28} {cells[1]:>28}")


if __name__ == "__main__":
    sys.exit(main())
