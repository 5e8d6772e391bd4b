"""Milliseconds per movement phase: gm's adjudicator, and MILA's when it is installed.

    .venv/bin/python bench/adjudicate.py [--games 100] [--phases 40] [--seed 1]

Plays random games on the standard map with plausible orders (supports and convoys that
match other units' moves, so that bounces, dislodgements and retreats really happen), keeps
every movement phase, then times gm on each of them. With MILA's engine installed
(`pip install diplomacy==1.1.2`, or `pip install -e '.[bench]'`) the very same phases are
given to it in the same run, the median ratio is printed, and the two engines' boards after
each phase are compared.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass

from gm.adjudicator.engine import adjudicate
from gm.bots.plausible import PlausiblePlayer
from gm.domain.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.variants.catalog import VariantCatalog


@dataclass
class Sample:
    position: Position
    orders: list[tuple[str, Order]]
    after: list[str]


def collect(games: int, phases: int, seed: int) -> list[Sample]:
    variant = VariantCatalog().get("standard")
    samples = []
    for game in range(games):
        player = PlausiblePlayer(variant, random.Random(seed * 100_003 + game))
        position = variant.initial_position()
        for _ in range(phases):
            orders = player.orders(position)
            report = adjudicate(variant, position, orders)
            if position.phase.kind is PhaseKind.MOVEMENT:
                after = sorted(map(str, report.resolved.units)) + sorted(f"*{d.unit}" for d in report.resolved.dislodged)
                samples.append(Sample(position, orders, after))
            if report.winner:
                break
            position = report.next
    return samples


def time_gm(samples: list[Sample]) -> list[float]:
    variant = VariantCatalog().get("standard")
    timings = []
    for sample in samples:
        start = time.perf_counter()
        adjudicate(variant, sample.position, sample.orders)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def mila_order(order: Order) -> str:
    if isinstance(order, Move):
        return f"{order.unit} - {order.destination}" + (" VIA" if order.via_convoy else "")
    if isinstance(order, SupportMove):
        return f"{order.unit} S {order.supported} - {order.destination.province}"
    if isinstance(order, SupportHold):
        return f"{order.unit} S {order.supported}"
    if isinstance(order, Convoy):
        return f"{order.unit} C {order.army} - {order.destination}"
    if isinstance(order, Hold):
        return f"{order.unit} H"
    raise ValueError(order)


def time_mila(samples: list[Sample]) -> tuple[list[float], int]:
    from diplomacy import Game  # type: ignore[import-not-found]

    timings = []
    agree = 0
    for sample in samples:
        game = Game()
        game.clear_units()
        game.clear_centers()
        by_power: dict[str, list[str]] = {}
        for unit in sample.position.units:
            by_power.setdefault(unit.power.upper(), []).append(str(unit))
        for power, units in by_power.items():
            game.set_units(power, units)
        centres: dict[str, list[str]] = {}
        for centre, owner in sample.position.centres.items():
            centres.setdefault(owner.upper(), []).append(centre)
        for power, owned in centres.items():
            game.set_centers(power, owned)
        game.set_current_phase(str(sample.position.phase))
        orders: dict[str, list[str]] = {}
        for power, order in sample.orders:
            orders.setdefault(power.upper(), []).append(mila_order(order))
        for power, lines in orders.items():
            game.set_orders(power, lines)
        start = time.perf_counter()
        game.process()
        timings.append((time.perf_counter() - start) * 1000)
        after = sorted(u for units in game.get_units().values() for u in units)
        if after == sorted(sample.after):
            agree += 1
    return timings, agree


def describe(name: str, timings: list[float]) -> str:
    timings = sorted(timings)
    p90 = timings[int(len(timings) * 0.9)]
    return f"{name:>5}: median {statistics.median(timings):.3f} ms, p90 {p90:.3f} ms per movement phase"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--phases", type=int, default=40, help="phases per game at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    samples = collect(args.games, args.phases, args.seed)
    units = statistics.median(len(s.position.units) for s in samples)
    print(f"{len(samples)} movement phases from {args.games} random games (median {units:.0f} units)")
    gm_timings = time_gm(samples)
    time_gm(samples)  # warm caches once, then measure again
    gm_timings = time_gm(samples)
    print(describe("gm", gm_timings))
    try:
        mila_timings, agree = time_mila(samples)
    except ImportError:
        print(" MILA: not installed (pip install diplomacy==1.1.2) - no comparison")
        return 0
    print(describe("MILA", mila_timings))
    ratio = statistics.median(m / g for m, g in zip(mila_timings, gm_timings))
    print(f"gm is {ratio:.1f}x faster (median of per-phase ratios); "
          f"boards agree after {agree} of {len(samples)} phases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
