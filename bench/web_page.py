"""Server time of a game's web page (the aim: under 50 ms after its first view).

    .venv/bin/python bench/web_page.py [--years 15] [--views 30] [--seed 4]

Plays a standard game of ``--years`` years on SQLite with the plausible player's orders for
every power (untimed; each phase stored as gm stores it, its results mails queued), then asks
the application for the game's page: once (the pictures of the board and the chart are drawn,
the settings read), then ``--views`` times. Server time is from the request entering the
application to its last byte leaving it (Starlette's test client, no network). A phase page of
the history is timed the same way. Prints the medians and whether the page is under 50 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

from gm.app import App
from gm.bots.plausible import PlausiblePlayer
from gm.clock import ManualClock
from gm.config import AppConfig, default_config
from gm.games import orderbook
from gm.games.lifecycle import current_seats, find_game

BUDGET_MS = 50.0
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
SETTINGS = ("variant: standard\ngm: master@example.test\ntimezone: Europe/Rome\n"
            "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\npress: grey\nplayers:\n"
            + "".join(f"  - {{email: {p.lower()}@example.test, power: {p}}}\n" for p in POWERS))


class Timed:
    """The application, timing each request from its start to its response's last byte."""

    def __init__(self, app: Any):
        self.app = app
        self.times: list[float] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        started = time.perf_counter()
        await self.app(scope, receive, send)
        self.times.append((time.perf_counter() - started) * 1000)


def play(app: App, clock: ManualClock, years: int, seed: int) -> int:
    """A game of ``years`` years (or until it ends); the phases processed."""
    rng = random.Random(seed)
    services = app.services
    processed = 0
    while True:
        with services.db.unit_of_work() as session:
            game = find_game(session, "g", lock=True)
            assert game is not None
            position = services.position_of(game)
            if game.status != "active" or position.phase.year >= 1901 + years:
                return processed
            by_power: dict[str, list[str]] = defaultdict(list)
            powers = [s.power for s in current_seats(game) if s.power]
            for power, order in PlausiblePlayer(services.variant_of(game), rng).orders(position, powers=powers):
                by_power[power].append(str(order))
            for power, lines in by_power.items():
                orderbook.submit(services, session, game, power, "\n".join(lines), by="bench")
            deadline = game.deadline
        assert deadline is not None
        clock.set(max(clock.now(), deadline) + timedelta(minutes=1))
        app.scheduler.tick()
        processed += 1


def played_home(home: Path, years: int, seed: int) -> App:
    """A judge's home (SQLite) with the standard game "g" played ``years`` years (said in a
    line, untimed); its application, open."""
    base = default_config(home)
    config = AppConfig(**{**base.__dict__, "judge_address": "judge@example.test"})
    config.games_dir.mkdir(parents=True)
    (config.games_dir / "g.yaml").write_text(SETTINGS)
    clock = ManualClock()
    app = App(config, clock=clock)
    app.scheduler.tick()
    started = time.perf_counter()
    phases = play(app, clock, years, seed)
    print(f"set-up: {phases} phases of a {years}-year standard game played in {time.perf_counter() - started:.1f} s")
    return app


def run(years: int, views: int, seed: int) -> dict[str, float]:
    from starlette.testclient import TestClient

    from gm.web.app import build_app

    with tempfile.TemporaryDirectory(prefix="gm-bench-web-") as home:
        app = played_home(Path(home), years, seed)
        timed = Timed(build_app(app.services, app.intake.table))
        client = TestClient(timed)
        figures: dict[str, float] = {}
        for label, path in (("game page", "/games/g"), ("phase page", "/games/g/phases/F1905M")):
            timed.times.clear()
            first = client.get(path)
            assert first.status_code == 200, first.text[:500]
            for _ in range(views):
                assert client.get(path).status_code == 200
            figures[f"{label} first"] = timed.times[0]
            figures[label] = statistics.median(timed.times[1:])
            print(f"{label} ({len(first.content) // 1024} KB): first view {timed.times[0]:.1f} ms, then median "
                  f"{figures[label]:.1f} ms (min {min(timed.times[1:]):.1f}, max {max(timed.times[1:]):.1f}) "
                  f"over {views} views")
        app.close()
    verdict = "under" if figures["game page"] < BUDGET_MS else "OVER"
    print(f"the game page of a {years}-year game: {figures['game page']:.1f} ms of server time after its first view, "
          f"{verdict} the {BUDGET_MS:.0f} ms budget")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--years", type=int, default=15)
    parser.add_argument("--views", type=int, default=30)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    figures = run(args.years, args.views, args.seed)
    return 0 if figures["game page"] < BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
