"""What the benchmarks of the store share: a PostgreSQL to run on, statements counted, the
machine's load (bench/intake.py, bench/deadlines.py).

PostgreSQL: $GM_TEST_POSTGRES_URL when set, else the throw-away server scripts/start-postgres
starts on loopback (as scripts/test does; it prints the URL). Each run gets a database of its
own, dropped afterwards.
"""

from __future__ import annotations

import collections
import os
import subprocess
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text

ROOT = Path(__file__).resolve().parents[1]


def postgres_admin_url() -> str:
    url = os.environ.get("GM_TEST_POSTGRES_URL")
    if url:
        return url
    started = subprocess.run([str(ROOT / "scripts" / "start-postgres")], capture_output=True, text=True)
    if started.returncode != 0:
        raise SystemExit(f"PostgreSQL did not start (scripts/start-postgres): {started.stderr.strip()}")
    url = started.stdout.strip().splitlines()[-1]
    os.environ["GM_TEST_POSTGRES_URL"] = url  # for the processes a bench starts
    return url


@contextmanager
def database(backend: str, home: Path) -> Iterator[str]:
    """The URL of a fresh database of ``backend``; a PostgreSQL one is dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{home / 'bench.db'}"
        return
    admin_url = postgres_admin_url()
    name = f"gm_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class Statements:
    """The SQL statements an engine runs while ``counting`` is on, by their first words."""

    def __init__(self, engine: Engine):
        self.counts: collections.Counter[str] = collections.Counter()
        self.counting = False

        @event.listens_for(engine, "before_cursor_execute")
        def _count(_connection, _cursor, statement, _parameters, _context, _many) -> None:  # type: ignore[no-untyped-def]
            if self.counting:
                self.counts[_kind(statement)] += 1

    def report(self, units: int, unit: str) -> str:
        total = sum(self.counts.values())
        lines = [f"  {total / units:.1f} statements per {unit}:"]
        lines += [f"    {count / units:5.2f}  {kind}" for kind, count in self.counts.most_common()]
        return "\n".join(lines)


def _kind(statement: str) -> str:
    words = statement.split()
    head = " ".join(words[:2]).upper()
    for keyword, at in (("INSERT", "INTO"), ("UPDATE", None), ("DELETE", "FROM"), ("SELECT", "FROM")):
        if head.startswith(keyword):
            table = _after(words, at) if at else (words[1] if len(words) > 1 else "")
            return f"{keyword} {table}"
    return " ".join(words[:2])


def _after(words: list[str], keyword: str) -> str:
    upper = [w.upper() for w in words]
    return words[upper.index(keyword) + 1] if keyword in upper[:-1] else ""


def load_average() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


def profiled(path: str | None, run: Callable[[], object]) -> object:
    """``run()``, under cProfile when ``path`` is given (the statistics written there, and the
    25 costliest functions printed, by cumulative time)."""
    if not path:
        return run()
    import cProfile
    import pstats

    profile = cProfile.Profile()
    result = profile.runcall(run)
    profile.dump_stats(path)
    pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    return result
