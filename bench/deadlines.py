"""N games fall due at once: the whole way from the deadline to every results mail, with its
picture, handed to the transport, by one `gm run` or by two sharing the database.

    .venv/bin/python bench/deadlines.py [--games 1000] [--backend sqlite|postgresql|both]
                                        [--processes 1|2] [--fresh]
                                        [--tick-only] [--statements] [--profile FILE]

Creates N standard games with seven players each and plausible orders from every power
(untimed; secrets are hashed cheaply during this set-up only), starts the daemon's loops as
`gm run` does (``Daemon.run``: the scheduler in a worker thread, the outbox drained by the
dispatcher, pictures drawn in worker processes, one per core, warmed by drawing a start board
first, as a running judge's are), moves the clock past every deadline, and times until the
transport has been handed every results mail: every game loaded, adjudicated, recorded with its
phase record and its eight results mails queued, one transaction per game; every mail claimed,
its picture drawn once a game, attached, handed over, and recorded as sent. The transport takes
each mail in memory (a real one then writes it out: the time the standard library's email
generator takes to write one results mail with its picture is printed apart). Afterwards the
bench checks that every results mail is recorded as sent and was handed over exactly once, by
its Message-ID.

``--processes 2`` (PostgreSQL only: SQLite lets one process write at a time) starts a second
process (this file, ``--second``) that runs the same loops on the same database with its clock
set to the same instant, as a second `gm run` on another machine would; the time runs until
the last results mail is handed over by either, the mails of both counted, and the bench asks
the outbox when all are sent.

The games are built once per number and backend and kept (bench/stores.py
``prepared``: a file in the temp folder, a template database on the PostgreSQL server); each run
works on a copy (upgraded to the newest schema as gm opens it), so a second run of 10,000 games
starts in seconds, not in the half hour its set-up takes. ``--fresh`` builds them again (after a change to what gm stores for a new game).

``--tick-only`` times the scheduler's tick alone (the figure measured first: processing and
queueing, no mail sent). PostgreSQL: $GM_TEST_POSTGRES_URL, else the server
scripts/start-postgres starts (bench/stores.py). Each backend runs in a process of its own, so
the peak memory printed is that backend's alone; the machine's load is printed at the start and
at the end of the timed run, and the CPU time the run cost (its processes and those under them,
PostgreSQL's server processes serving its database) with how many cores that kept busy. ``--statements`` prints the SQL statements per game; ``--profile
FILE`` runs the tick under cProfile (with ``--tick-only``).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import hashlib
import json
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from gm.app import App
from gm.bots.plausible import PlausiblePlayer
from gm.clock import ManualClock
from gm.config import AppConfig, default_config
from gm.games import lifecycle, orderbook
from gm.games.orderbook import note_orders_changed
from gm.runtime.daemon import Daemon
from gm.services.drawing import Workers
from gm.services.sending import Dispatcher
from gm.settings.reader import read_settings
from gm.store.models import OutboundMail, OutboundStatus
from stores import CPU, Statements, load_average, postgres_admin_url, prepared, profiled

SETTINGS = """\
name: {name}
variant: standard
gm: master@example.test
deadlines: {{movement: 48h, retreats: 24h, adjustments: 24h}}
reminders: []
early: false
players:
{players}
"""
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
BUILD = "1"  # changed with what build() makes: the games kept from another build are not used
PAST_DEADLINE = timedelta(hours=49)
POLL = 0.5  # seconds between two looks at the outbox, with two processes


def build(app: App, games: int) -> None:
    hash_secret = lifecycle.hash_secret
    lifecycle.hash_secret = lambda secret: "bench"  # set-up only: not what is measured
    try:
        _build(app, games)
    finally:
        lifecycle.hash_secret = hash_secret  # as it was: the bench runs inside the tests too


def _build(app: App, games: int) -> None:
    services = app.services
    rng = random.Random(1)
    for n in range(games):
        players = "\n".join(f"  - {{email: p{i}.g{n}@example.test, power: {p}}}" for i, p in enumerate(POWERS))
        text_ = SETTINGS.format(name=f"g{n}", players=players)
        (settings,) = read_settings(text_, f"g{n}.yaml", services.known_variant)
        with services.db.unit_of_work() as session:
            game = lifecycle.create_or_update(services, session, settings, text_, f"g{n}.yaml")
            position = services.position_of(game)
            player = PlausiblePlayer(services.variant_of(game), rng)
            lines: dict[str, list[str]] = {}
            for power, order in player.orders(position):
                lines.setdefault(power, []).append(str(order))
            for power, orders in lines.items():
                orderbook.submit(services, session, game, power, "\n".join(orders), by="bench")
            note_orders_changed(services, session, game)


def kept_key(backend: str, games: int) -> str:
    """What the games kept for this run are named by: their number, the backend and what the
    set-up makes. Not the schema: a copy made before a migration is upgraded when gm opens it,
    as an operator's database is."""
    made = hashlib.sha256(f"{BUILD}\n{SETTINGS}\n{POWERS}".encode()).hexdigest()[:10]
    return f"deadlines_{backend}_{games}_{made}"


def app_on(url: str, home: Path, clock: ManualClock) -> App:
    base = default_config(home)
    return App(AppConfig(**{**base.__dict__, "database_url": url}), clock=clock)


def built(home: Path, games: int):  # type: ignore[no-untyped-def]
    """``prepared``'s build: the games, their start mails marked sent (they went out before the
    deadline), every connection closed."""
    def make(url: str) -> None:
        app = app_on(url, home, ManualClock())
        try:
            build(app, games)
            _sent_already(app)
        finally:
            app.close()
    return make


class HandOver:
    """The transport: takes each mail in memory, notes its Message-ID, counts the results mails
    and those with a picture, and notes when the last results mail came (it is kept, to write
    out). ``results``: how many make the run done (None: the bench asks the outbox instead)."""

    def __init__(self, results: int | None):
        self.results = results
        self.handed = 0
        self.pictured = 0
        self.last: float | None = None  # time.monotonic(): the same clock in every process
        self.sample = None
        self.ids: list[str] = []
        self.done = asyncio.Event()

    async def send(self, message) -> None:  # type: ignore[no-untyped-def]
        self.ids.append(str(message["Message-ID"]))  # the text: the header object keeps its parse tree (10 KB)
        if message["X-GM-Kind"] == "results":
            self.handed += 1
            self.pictured += any(p.get_content_type() == "image/png" for p in message.iter_attachments())
            self.sample = message
            self.last = time.monotonic()
            if self.handed == self.results:
                self.done.set()


class Idle:
    """An inbox with no mail."""

    async def run(self, deliver) -> None:  # type: ignore[no-untyped-def]
        await asyncio.Event().wait()

    async def drain(self, deliver) -> int:  # type: ignore[no-untyped-def]
        return 0


@dataclass
class Share:
    """What one process did in the timed run."""

    handed: int = 0
    pictured: int = 0
    last: float | None = None
    processed: int = 0  # games its scheduler processed
    ticked: float | None = None  # when its tick that processed games ended
    peak: float = 0.0  # MB
    ids: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    ticked: float  # seconds from the deadline until the last tick that processed games ended
    elapsed: float  # ... until the last results mail was handed over
    shares: list[Share]
    sample: Any
    cpu: dict[str, float]  # CPU seconds used in the run: by gm's processes, by PostgreSQL's; the seconds passed


def daemon_parts(app: App, sender: HandOver) -> tuple[Workers, Dispatcher, list[float], list[int]]:
    """The drawing workers and the dispatcher, as `gm run` has them; the scheduler's tick timed
    (when each tick that processed games ended, how many it processed)."""
    workers = Workers()
    dispatcher = Dispatcher(app.services, sender, drawer=workers)
    ticked: list[float] = []
    processed: list[int] = []
    tick = app.scheduler.tick

    def timed_tick(*args):  # type: ignore[no-untyped-def]
        report = tick(*args)
        if report.processed:
            ticked.append(time.monotonic())
            processed.append(len(report.processed))
        return report

    app.scheduler.tick = timed_tick  # type: ignore[method-assign]
    return workers, dispatcher, ticked, processed


async def warm(app: App, workers: Workers, games: int) -> None:
    """The workers warmed (their board's layers drawn), as a running judge's are."""
    await asyncio.gather(*(workers.draw(_start_picture(app, f"g{n % games}")) for n in range(4)))


def share_of(sender: HandOver, ticked: list[float], processed: list[int]) -> Share:
    return Share(sender.handed, sender.pictured, sender.last, sum(processed), ticked[-1] if ticked else None,
                 resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, sender.ids)


class Second:
    """The second `gm run`: this file in another process (``--second``), on the same database,
    its clock set to ``instant``; it warms its workers, says "ready", starts its loops at "go"
    and stops at "stop", writing what it did (``Share``) to ``home``/second.json."""

    def __init__(self, url: str, home: Path, instant: datetime, games: int):
        self.report = home / "second.json"
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--second", url, str(home), instant.isoformat(), str(games)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ready(self) -> None:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if line.strip() != "ready":
            raise SystemExit(f"the second process did not start (it said {line!r}; exit {self.process.poll()})")

    def tell(self, word: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(word + "\n")
        self.process.stdin.flush()

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> Share:
        self.tell("stop")
        if self.process.wait(timeout=300) != 0:
            raise SystemExit(f"the second process failed (exit {self.process.returncode})")
        return Share(**json.loads(self.report.read_text()))

    def kill(self) -> None:
        if self.alive():
            self.process.kill()
            self.process.wait()


def second(url: str, home: Path, instant: str, games: int) -> None:
    """The second process's part (see ``Second``)."""
    app = app_on(url, home, ManualClock(datetime.fromisoformat(instant)))
    sender = HandOver(None)
    workers, dispatcher, ticked, processed = daemon_parts(app, sender)

    async def go() -> None:
        await warm(app, workers, games)
        loop = asyncio.get_running_loop()
        said: dict[str, asyncio.Event] = {"go": asyncio.Event(), "stop": asyncio.Event()}

        def listen() -> None:  # a thread of its own: the loop's worker threads are the daemon's
            for line in sys.stdin:
                if line.strip() in said:
                    loop.call_soon_threadsafe(said[line.strip()].set)
            loop.call_soon_threadsafe(said["stop"].set)  # the bench is gone

        threading.Thread(target=listen, daemon=True).start()
        print("ready", flush=True)
        await said["go"].wait()
        running = asyncio.create_task(Daemon(Idle(), app.intake, app.scheduler, dispatcher)  # type: ignore[arg-type]
                                      .run(tick_seconds=3600))
        await said["stop"].wait()
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)

    try:
        asyncio.run(go())
    finally:
        workers.close()
        app.close()
    (home / "second.json").write_text(json.dumps(share_of(sender, ticked, processed).__dict__))


def whole_way(app: App, clock: ManualClock, games: int, other: Second | None = None) -> Outcome:
    """From the deadline until every results mail was handed over (by this process, or by either
    of two)."""
    results = games * 8
    sender = HandOver(None if other else results)
    workers, dispatcher, ticked, processed = daemon_parts(app, sender)
    cpu = CPU(app.db.engine)
    used: dict[str, float] = {}

    async def all_sent() -> None:
        while await asyncio.to_thread(_results_sent, app) < results:
            if other is not None and not other.alive():
                raise SystemExit("the second process ended before every mail was sent")
            await asyncio.sleep(POLL)

    async def go() -> float:
        await warm(app, workers, games)
        if other is not None:
            await asyncio.to_thread(other.ready)
        await asyncio.to_thread(cpu.start)
        clock.advance(PAST_DEADLINE)
        daemon = Daemon(Idle(), app.intake, app.scheduler, dispatcher)  # type: ignore[arg-type]
        if other is not None:
            other.tell("go")
        started = time.monotonic()
        running = asyncio.create_task(daemon.run(tick_seconds=3600))
        if other is None:
            await sender.done.wait()  # timed until here; then every mail's record as sent waited for
        await all_sent()
        used.update(await asyncio.to_thread(cpu.parts))  # before either process stops
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        return started

    try:
        started = asyncio.run(go())
    finally:
        workers.close()
    shares = [share_of(sender, ticked, processed)] + ([other.stop()] if other is not None else [])
    lasts = [s.last for s in shares if s.last is not None]
    ticks = [s.ticked for s in shares if s.ticked is not None]
    assert lasts and ticks, "no results mail handed over, or no game processed"
    handed = sum(s.handed for s in shares)
    pictured = sum(s.pictured for s in shares)
    assert pictured == handed, f"only {pictured} of {handed} results mails with a picture"
    return Outcome(max(ticks) - started, max(lasts) - started, shares, sender.sample, used)


def check(app: App, games: int, shares: list[Share]) -> str:
    """Every results mail recorded as sent and handed over exactly once, by either process: what
    was found, in words."""
    with app.db.reading() as session:
        sent = set(session.scalars(select(OutboundMail.message_id).where(
            OutboundMail.kind == "results", OutboundMail.status == OutboundStatus.SENT)))
        waiting = session.scalar(select(func.count()).select_from(OutboundMail).where(
            OutboundMail.status != OutboundStatus.SENT))
    handed = collections.Counter(i for s in shares for i in s.ids)
    twice = [i for i, n in handed.items() if n > 1]
    assert not twice, f"{len(twice)} mails handed over more than once, e.g. {twice[:3]}"
    assert len(sent) == games * 8, f"{len(sent)} results mails recorded as sent, not {games * 8}"
    assert sent <= set(handed), f"{len(sent - set(handed))} results mails recorded as sent were never handed over"
    results = sum(s.handed for s in shares)
    assert results == games * 8, f"{results} results mails handed over, not {games * 8}"
    by = " + ".join(str(s.handed) for s in shares)
    return (f"{results} results mails handed over once each ({by} by {len(shares)} process"
            f"{'es' if len(shares) > 1 else ''}), {len(sent)} recorded as sent; {waiting} mails not sent")


def _results_sent(app: App) -> int:
    with app.db.reading() as session:
        return session.scalar(select(func.count()).select_from(OutboundMail).where(
            OutboundMail.status == OutboundStatus.SENT, OutboundMail.kind == "results")) or 0


def _sent_already(app: App) -> None:
    from sqlalchemy import update

    with app.db.unit_of_work() as session:
        session.execute(update(OutboundMail).values(status=OutboundStatus.SENT))


def _start_picture(app: App, name: str):  # type: ignore[no-untyped-def]
    from gm.games.lifecycle import find_game
    from gm.games.pictures import current_picture

    with app.db.reading() as session:
        game = find_game(session, name)
        assert game is not None
        return current_picture(game)


def run_one(backend: str, games: int, tick_only: bool = False, statements: bool = False, profile: str | None = None,
            processes: int = 1, fresh: bool = False, keep: bool = True) -> None:
    """One timed run; ``keep``: the games built once and kept for later runs (else built here)."""
    if processes == 2 and backend != "postgresql":
        raise SystemExit("--processes 2 runs on PostgreSQL only: SQLite lets one process write at a time, "
                         "so a second `gm run` on it only waits")
    if processes == 2 and tick_only:
        raise SystemExit("--tick-only times one process's tick; --processes 2 times the whole way")
    with contextlib.ExitStack() as stack:
        home = stack.enter_context(tempfile.TemporaryDirectory())
        started = time.perf_counter()
        url, how = stack.enter_context(prepared(backend, Path(home), kept_key(backend, games) if keep else None,
                                                built(Path(home), games), fresh))
        how = f"{how}, {time.perf_counter() - started:.0f} s"
        clock = ManualClock()
        app = app_on(url, Path(home), clock)
        counted = Statements(app.db.engine)
        if tick_only:
            load = load_average()
            clock.advance(PAST_DEADLINE)
            counted.counting = statements
            started = time.perf_counter()
            report = profiled(profile, app.scheduler.tick)
            elapsed = time.perf_counter() - started
            counted.counting = False
            assert len(report.processed) == games, f"only {len(report.processed)} of {games} processed"  # type: ignore[attr-defined]
            end_load = load_average()
        else:
            other = Second(url, Path(home), clock.now() + PAST_DEADLINE, games) if processes == 2 else None
            try:
                load = load_average()
                outcome = whole_way(app, clock, games, other)
                end_load = load_average()
            finally:
                if other is not None:
                    other.kill()
            checked = check(app, games, outcome.shares)
        app.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    loads = f"at the start {load}; at the end {end_load}"
    if tick_only:
        print(f"{backend:>10}: {games} due games ticked in {elapsed:.1f} s = {games / elapsed:.0f} games/s "
              f"({elapsed / games * 1000:.1f} ms each); peak memory {peak:.0f} MB; set-up: {how}; {loads}")
        if statements:
            print(counted.report(games, "game"))
        return
    writing = time.perf_counter()
    size = len(outcome.sample.as_bytes()) if outcome.sample is not None else 0
    writing = time.perf_counter() - writing
    elapsed = outcome.elapsed
    print(f"{backend:>10}: {games} due games, every results mail handed to the transport in {elapsed:.1f} s "
          f"(the tick done at {outcome.ticked:.1f} s; {games * 8} mails, {games / elapsed:.0f} games/s, "
          f"{elapsed / games * 1000:.1f} ms a game); {processes} process{'es' if processes > 1 else ''}; "
          f"peak memory {' and '.join(f'{p:.0f}' for p in [peak, *(s.peak for s in outcome.shares[1:])])} MB; "
          f"set-up: {how}")
    print(f"{'':>10}  {checked}; games processed by each scheduler: {' + '.join(str(s.processed) for s in outcome.shares)}")
    used = outcome.cpu
    total = used["gm"] + used["postgresql"]
    print(f"{'':>10}  CPU: gm's processes {used['gm']:.1f} s" + (f" + PostgreSQL's {used['postgresql']:.1f} s"
          if backend == "postgresql" else "") + f" = {total / games * 1000:.1f} ms a game; "
          f"{total / used['wall']:.2f} cores busy on average over the run")
    print(f"{'':>10}  load {loads}")
    if outcome.sample is not None:
        print(f"{'':>10}  writing one results mail out ({size / 1024:.0f} KB) takes the email generator "
              f"{writing * 1000:.0f} ms")


def main() -> int:
    if sys.argv[1:2] == ["--second"]:
        url, home, instant, games = sys.argv[2:6]
        second(url, Path(home), instant, int(games))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--processes", type=int, choices=[1, 2], default=1,
                        help="`gm run` processes sharing the work (2: PostgreSQL only)")
    parser.add_argument("--fresh", action="store_true", help="build the games again, not from those kept")
    parser.add_argument("--tick-only", action="store_true", help="time the scheduler's tick alone")
    parser.add_argument("--statements", action="store_true", help="print the SQL statements per game")
    parser.add_argument("--profile", metavar="FILE", help="run the tick under cProfile, statistics to FILE")
    args = parser.parse_args()
    if args.processes == 2 and args.backend != "postgresql":
        parser.error("--processes 2 runs on PostgreSQL only (--backend postgresql): SQLite lets one process "
                     "write at a time, so a second `gm run` on it only waits")
    if args.backend != "both":
        run_one(args.backend, args.games, args.tick_only, args.statements, args.profile, args.processes, args.fresh)
        return 0
    postgres_admin_url()  # started now if need be, for the second process
    extra = ((["--statements"] if args.statements else []) + (["--tick-only"] if args.tick_only else [])
             + (["--fresh"] if args.fresh else []))
    for backend in ["sqlite", "postgresql"]:
        subprocess.run([sys.executable, __file__, "--games", str(args.games), "--backend", backend, *extra], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
