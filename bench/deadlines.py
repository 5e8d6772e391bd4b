"""N games fall due at once: the whole way from the deadline to every results mail, with its
picture, handed to the transport.

    .venv/bin/python bench/deadlines.py [--games 1000] [--backend sqlite|postgresql|both]
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
generator takes to write one results mail with its picture is printed apart).

``--tick-only`` times the scheduler's tick alone (the figure measured first: processing and
queueing, no mail sent). PostgreSQL: $GM_TEST_POSTGRES_URL, else the server
scripts/start-postgres starts (bench/stores.py). Each backend runs in a process of its own, so
the peak memory printed is that backend's alone; the machine's load is printed too.
``--statements`` prints the SQL statements per game; ``--profile FILE`` runs the tick under
cProfile (with ``--tick-only``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

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
from stores import Statements, database, load_average, postgres_admin_url, profiled

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


class HandOver:
    """The transport: takes each mail in memory, counts the results mails and those with a
    picture, and notes when the last results mail came (the last one is kept, to write out)."""

    def __init__(self, results: int):
        self.results = results
        self.handed = 0
        self.pictured = 0
        self.last: float | None = None
        self.sample = None
        self.done = asyncio.Event()

    async def send(self, message) -> None:  # type: ignore[no-untyped-def]
        if message["X-GM-Kind"] == "results":
            self.handed += 1
            self.pictured += any(p.get_content_type() == "image/png" for p in message.iter_attachments())
            self.sample = message
            if self.handed == self.results:
                self.last = time.perf_counter()
                self.done.set()


class Idle:
    """An inbox with no mail."""

    async def run(self, deliver) -> None:  # type: ignore[no-untyped-def]
        await asyncio.Event().wait()

    async def drain(self, deliver) -> int:  # type: ignore[no-untyped-def]
        return 0


def whole_way(app: App, clock: ManualClock, games: int) -> tuple[float, float, HandOver]:
    """Seconds from the deadline until the scheduler's tick was done, and until the transport was
    handed every results mail."""
    sender = HandOver(games * 8)
    workers = Workers()
    dispatcher = Dispatcher(app.services, sender, drawer=workers)
    ticked: list[float] = []
    tick = app.scheduler.tick

    def timed_tick():  # type: ignore[no-untyped-def]
        report = tick()
        if report.processed:
            ticked.append(time.perf_counter())
        return report

    app.scheduler.tick = timed_tick  # type: ignore[method-assign]

    async def go() -> float:
        # the workers warmed (their board's layers drawn), as a running judge's are
        await asyncio.gather(*(workers.draw(_start_picture(app, f"g{n % games}")) for n in range(4)))
        clock.advance(timedelta(hours=49))
        daemon = Daemon(Idle(), app.intake, app.scheduler, dispatcher)  # type: ignore[arg-type]
        started = time.perf_counter()
        running = asyncio.create_task(daemon.run(tick_seconds=3600))
        await sender.done.wait()
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        return started

    try:
        started = asyncio.run(go())
    finally:
        workers.close()
    assert sender.last is not None and ticked
    assert sender.pictured == sender.handed, f"only {sender.pictured} of {sender.handed} results mails with a picture"
    return ticked[0] - started, sender.last - started, sender


def _sent_already(app: App) -> None:
    from sqlalchemy import update

    from gm.store.models import OutboundMail, OutboundStatus

    with app.db.unit_of_work() as session:
        session.execute(update(OutboundMail).values(status=OutboundStatus.SENT))


def _start_picture(app: App, name: str):  # type: ignore[no-untyped-def]
    from gm.games.lifecycle import find_game
    from gm.games.pictures import current_picture

    with app.db.reading() as session:
        game = find_game(session, name)
        assert game is not None
        return current_picture(game)


def run_one(backend: str, games: int, tick_only: bool = False, statements: bool = False, profile: str | None = None) -> None:
    with tempfile.TemporaryDirectory() as home, database(backend, Path(home)) as url:
        base = default_config(Path(home))
        config = AppConfig(**{**base.__dict__, "database_url": url})
        clock = ManualClock()
        app = App(config, clock=clock)
        counted = Statements(app.db.engine)
        started = time.perf_counter()
        build(app, games)
        _sent_already(app)  # the start mails went out before the deadline
        built = time.perf_counter() - started
        load = load_average()
        if tick_only:
            clock.advance(timedelta(hours=49))
            counted.counting = statements
            started = time.perf_counter()
            report = profiled(profile, app.scheduler.tick)
            elapsed = time.perf_counter() - started
            counted.counting = False
            assert len(report.processed) == games, f"only {len(report.processed)} of {games} processed"  # type: ignore[attr-defined]
        else:
            ticked, elapsed, sender = whole_way(app, clock, games)
        app.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if tick_only:
        print(f"{backend:>10}: {games} due games ticked in {elapsed:.1f} s = {games / elapsed:.0f} games/s "
              f"({elapsed / games * 1000:.1f} ms each); peak memory {peak:.0f} MB; set-up {built:.0f} s; {load}")
        if statements:
            print(counted.report(games, "game"))
        return
    writing = time.perf_counter()
    size = len(sender.sample.as_bytes())  # type: ignore[union-attr]
    writing = time.perf_counter() - writing
    print(f"{backend:>10}: {games} due games, every results mail handed to the transport in {elapsed:.1f} s "
          f"(the tick done at {ticked:.1f} s; {games * 8} mails, {games / elapsed:.0f} games/s); "
          f"peak memory {peak:.0f} MB; set-up {built:.0f} s; {load}")
    print(f"{'':>10}  writing one results mail out ({size / 1024:.0f} KB) takes the email generator "
          f"{writing * 1000:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--tick-only", action="store_true", help="time the scheduler's tick alone")
    parser.add_argument("--statements", action="store_true", help="print the SQL statements per game")
    parser.add_argument("--profile", metavar="FILE", help="run the tick under cProfile, statistics to FILE")
    args = parser.parse_args()
    if args.backend != "both":
        run_one(args.backend, args.games, args.tick_only, args.statements, args.profile)
        return 0
    postgres_admin_url()  # started now if need be, for the second process
    extra = (["--statements"] if args.statements else []) + (["--tick-only"] if args.tick_only else [])
    for backend in ["sqlite", "postgresql"]:
        subprocess.run([sys.executable, __file__, "--games", str(args.games), "--backend", backend, *extra], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
