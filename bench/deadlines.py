"""Games processed per second when N games fall due at once (load, adjudicate, store, queue mails).

    .venv/bin/python bench/deadlines.py [--games 1000] [--backend sqlite|postgresql|both]
                                        [--statements] [--profile FILE]

Creates N standard games with seven players each and plausible orders from every power
(untimed; secrets are hashed cheaply during this set-up only), moves the clock past every
deadline, and times one `gm tick`: every game is loaded, adjudicated, recorded with its
phase record, and its eight results mails rendered into the outbox, one transaction per game.
PostgreSQL: $GM_TEST_POSTGRES_URL, else the server scripts/start-postgres starts
(bench/stores.py). Each backend runs in a process of its own, so the peak memory printed is that
backend's alone; the machine's load is printed too. ``--statements`` prints the SQL statements
per game; ``--profile FILE`` runs the tick under cProfile.
"""

from __future__ import annotations

import argparse
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


def run_one(backend: str, games: int, statements: bool = False, profile: str | None = None) -> None:
    with tempfile.TemporaryDirectory() as home, database(backend, Path(home)) as url:
        base = default_config(Path(home))
        config = AppConfig(**{**base.__dict__, "database_url": url})
        clock = ManualClock()
        app = App(config, clock=clock)
        counted = Statements(app.db.engine)
        started = time.perf_counter()
        build(app, games)
        built = time.perf_counter() - started
        clock.advance(timedelta(hours=49))
        load = load_average()
        counted.counting = statements
        started = time.perf_counter()
        report = profiled(profile, app.scheduler.tick)
        elapsed = time.perf_counter() - started
        counted.counting = False
        app.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert len(report.processed) == games, f"only {len(report.processed)} of {games} processed"  # type: ignore[attr-defined]
    print(f"{backend:>10}: {games} due games in {elapsed:.1f} s = {games / elapsed:.0f} games/s "
          f"({elapsed / games * 1000:.1f} ms each); peak memory {peak:.0f} MB; set-up {built:.0f} s; {load}")
    if statements:
        print(counted.report(games, "game"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--statements", action="store_true", help="print the SQL statements per game")
    parser.add_argument("--profile", metavar="FILE", help="run the tick under cProfile, statistics to FILE")
    args = parser.parse_args()
    if args.backend != "both":
        run_one(args.backend, args.games, args.statements, args.profile)
        return 0
    postgres_admin_url()  # started now if need be, for the second process
    extra = ["--statements"] if args.statements else []
    for backend in ["sqlite", "postgresql"]:
        subprocess.run([sys.executable, __file__, "--games", str(args.games), "--backend", backend, *extra], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
