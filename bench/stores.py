"""What the benchmarks of the store share: a PostgreSQL to run on, statements counted, the
machine's load (bench/intake.py, bench/deadlines.py).

PostgreSQL: $GM_TEST_POSTGRES_URL when set, else the throw-away server scripts/start-postgres
starts on loopback (as scripts/test does; it prints the URL). Each run gets a database of its
own, dropped afterwards. A database whose set-up takes long is built once and kept
(``prepared``): each run works on a copy of it.
"""

from __future__ import annotations

import collections
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
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
def database(backend: str, home: Path, template: str | None = None, strategy: str = "") -> Iterator[str]:
    """The URL of a fresh database of ``backend`` (PostgreSQL: a copy of ``template`` when
    given); a PostgreSQL one is dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{home / 'bench.db'}"
        return
    admin_url = postgres_admin_url()
    name = f"gm_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"{strategy}' if template else "")))
    try:
        yield admin_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def prepared(backend: str, home: Path, key: str | None, build: Callable[[str], None],
             fresh: bool = False) -> Iterator[tuple[str, str]]:
    """The URL of a fresh copy of the database ``build(url)`` makes, and how it was had: built
    once per ``key`` and kept (``fresh``: built again; no ``key``: built, not kept). SQLite: the
    file, kept in the temp folder (gm-bench/), copied. PostgreSQL: a template database on the
    server (gm_bench_kept_...), the copy made by the server (CREATE DATABASE ... TEMPLATE);
    dropped afterwards as ``database``'s. ``build`` must leave no connection open to the
    database it built."""
    if key is None:
        with database(backend, home) as url:
            build(url)
            yield url, "built"
        return
    key = re.sub(r"[^a-z0-9_]", "_", key.lower())
    if backend == "sqlite":
        kept = Path(tempfile.gettempdir()) / "gm-bench" / f"{key}.db"
        path = home / "bench.db"
        url = f"sqlite:///{path}"
        if kept.exists() and not fresh:
            shutil.copyfile(kept, path)
            yield url, f"copied from {kept}"
            return
        build(url)
        with sqlite3.connect(path) as connection:  # everything in the file itself, none in its WAL
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        kept.parent.mkdir(parents=True, exist_ok=True)
        partial = kept.with_suffix(f".{os.getpid()}.part")
        shutil.copyfile(path, partial)
        os.replace(partial, kept)
        yield url, f"built, kept in {kept}"
        return
    template = f"gm_bench_kept_{key}"[:63]
    admin = create_engine(postgres_admin_url(), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            found = connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": template}).first()
            version = connection.execute(text("SHOW server_version_num")).scalar_one()
        # Copied file by file (a checkpoint, then the files), not block by block through the WAL:
        # much the faster for a database of a few hundred megabytes.
        strategy = " STRATEGY FILE_COPY" if int(version) >= 150000 else ""
        if found is not None and not fresh:
            with database(backend, home, template=template, strategy=strategy) as url:
                yield url, f"copied from the database {template}"
            return
        with database(backend, home) as url:
            build(url)
            name = url.rsplit("/", 1)[1]
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)'))
                connection.execute(text(f'CREATE DATABASE "{template}" TEMPLATE "{name}"{strategy}'))
            yield url, f"built, kept as the database {template}"
    finally:
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


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """The CPU time (user and system) each process has used so far, by its id; one gone is left out."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime (fields 14 and 15 of stat)
    return used


def descendants(pid: int) -> list[int]:
    """``pid`` and every process started under it (its drawing workers, a second process's)."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children[int(fields[1])].append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo.extend(children.get(found[-1], []))
    return found


def postgres_backends(engine: Engine) -> list[int]:
    """The server processes serving connections to ``engine``'s database now (on this machine)."""
    if engine.dialect.name != "postgresql":
        return []
    with engine.connect() as connection:
        return list(connection.execute(text(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalars())


class CPU:
    """The CPU time a run costs: this process and those under it, and the PostgreSQL server
    processes serving its database (a connection closed during the run takes its time with it).
    ``start()``, then ``parts()``: seconds used since, by whom."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.before: dict[int, float] = {}
        self.server: set[int] = set()
        self.started = 0.0

    def _now(self) -> tuple[dict[int, float], set[int]]:
        server = set(postgres_backends(self.engine))
        return cpu_seconds(descendants(os.getpid()) + sorted(server)), server

    def start(self) -> None:
        self.before, self.server = self._now()
        self.started = time.monotonic()

    def parts(self) -> dict[str, float]:
        """Seconds of CPU used by gm's processes and by the server's, and the seconds passed."""
        after, server = self._now()
        used = {pid: seconds - self.before.get(pid, 0.0) for pid, seconds in after.items()}
        return {"gm": sum(v for pid, v in used.items() if pid not in server),
                "postgresql": sum(v for pid, v in used.items() if pid in server),
                "wall": time.monotonic() - self.started}


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
