"""Milliseconds per movement phase: gm's adjudicator, and MILA's when it is installed.

    .venv/bin/python bench/adjudicate.py [--games 100] [--phases 40] [--seed 1] [--rounds 5]

Plays random games on the standard map with plausible orders (supports and convoys that
match other units' moves, so that bounces, dislodgements and retreats really happen), keeps
every movement phase, then times gm on each of them. With MILA's engine installed
(`pip install diplomacy==1.1.2`, or `pip install -e '.[bench]'`) the very same phases are
given to it in the same run, the median ratio is printed, and the two engines' boards after
each phase are compared.

Each round adjudicates every phase once with gm, then every phase once with MILA; a phase's
time is its best over the rounds, so a moment when the machine is busy does not count
against either engine. Each engine gets the phase just before it runs, as a judge has it
when a deadline comes (outside the timing): gm decodes the position as its store keeps it
and parses the orders' text; MILA's game is set up with the units, centres and orders.
gm starts every round with a new variant, its legality cache as empty as a new process's.

The same phases are then timed once more with stacks: a bench-only rule delta gives every
power a leader (strength 1/2) standing with its first unit and leading it (the engine's
stacks, strength bonuses and carried units at work), to show what stacks cost.
gm runs as installed: with its adjudicator compiled by mypyc (setup.py), or as pure Python
with GM_PURE_PYTHON=1.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from gm.adjudicator.effects import Effects
from gm.adjudicator.engine import adjudicate
from gm.adjudicator.variant import Variant
from gm.bots.plausible import PlausiblePlayer
from gm.domain.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from gm.domain.phases import PhaseKind
from gm.domain.position import Position, sorted_units
from gm.domain.units import Mobility, Unit, UnitType
from gm.games.orderbook import parse_stored
from gm.orders.grammar import OrderGrammar
from gm.store.codec import decode_position, encode_position
from gm.variants.catalog import VariantCatalog


@dataclass
class Sample:
    position: Position
    orders: list[tuple[str, Order]]
    after: list[str]

    @property
    def stored(self) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        """The position as gm's store keeps it, and the orders as players wrote them."""
        return encode_position(self.position), [(power, str(order)) for power, order in self.orders]


def load(variant: Variant, grammar: OrderGrammar,
         stored: tuple[dict[str, Any], list[tuple[str, str]]]) -> tuple[Position, list[tuple[str, Order]]]:
    """The phase as gm has it at a deadline: the position decoded, the orders parsed."""
    position, lines = stored
    orders = [(power, order) for power, line in lines for order in parse_stored(grammar, [line])]
    return decode_position(variant, position), orders


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
    grammar = OrderGrammar.for_variant(variant)
    timings = []
    for sample in samples:
        position, orders = load(variant, grammar, sample.stored)
        start = time.perf_counter()
        adjudicate(variant, position, orders)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def check_loading(samples: list[Sample]) -> None:
    """Decoding and parsing give back the very phases that were played."""
    variant = VariantCatalog().get("standard")
    grammar = OrderGrammar.for_variant(variant)
    for sample in samples:
        position, orders = load(variant, grammar, sample.stored)
        assert set(position.units) == set(sample.position.units) and orders == sample.orders, sample


def gm_build() -> str:
    import gm.adjudicator.movement

    compiled = not gm.adjudicator.movement.__file__.endswith(".py")
    return "compiled with mypyc" if compiled else "pure Python"


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


def mila_game(sample: Sample):  # type: ignore[no-untyped-def]
    from diplomacy import Game  # type: ignore[import-not-found]

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
    return game


def time_mila(samples: list[Sample]) -> tuple[list[float], int]:
    games = []
    timings = []
    for sample in samples:
        game = mila_game(sample)
        start = time.perf_counter()
        game.process()
        timings.append((time.perf_counter() - start) * 1000)
        games.append(game)
    agree = sum(
        sorted(u for units in game.get_units().values() for u in units) == sorted(sample.after)
        for game, sample in zip(games, samples)
    )
    return timings, agree


LEADER = UnitType("L", "leader", Mobility.ANY)


class Leaders(Variant):
    """Bench-only: standard play, plus a leader per power that shares its province with one
    unit of its own and, unordered, leads it (adds 1/2 and goes where it goes)."""

    def __init__(self, standard: Variant):
        super().__init__("leaders", standard.map, standard.calendar, standard.first_year,
                         unit_types=(*standard.unit_types, LEADER))
        self.stacks = True

    def strength(self, unit: Unit) -> float:
        return 0.5 if unit.type is LEADER else 1

    def may_share(self, a: Unit, b: Unit) -> bool:
        return a.power == b.power and (a.type is LEADER) != (b.type is LEADER)

    def before_movement(self, effects: Effects) -> None:
        units = effects.position.units
        for slot, unit in enumerate(units):
            if unit.type is LEADER and effects.ruling_for(slot) is None:
                led = next(s for s, u in enumerate(units) if u.location.province == unit.location.province and u is not unit)
                effects.carry(slot, led, "leads")
                effects.add_strength(led, 0.5, "led: +1/2")


def with_leaders(position: Position) -> Position:
    first: dict[str, Unit] = {}
    for unit in position.units:
        first.setdefault(unit.power, unit)
    leaders = [Unit(u.power, LEADER, u.location.whole) for u in first.values()]
    return position.replace(units=sorted_units([*position.units, *leaders]))


def time_stacked(samples: list[Sample]) -> list[float]:
    standard = VariantCatalog().get("standard")
    variant = Leaders(standard)
    grammar = OrderGrammar.for_variant(standard)
    timings = []
    for sample in samples:
        position, orders = load(standard, grammar, sample.stored)
        position = with_leaders(position)
        start = time.perf_counter()
        adjudicate(variant, position, orders)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def best(rounds: list[list[float]]) -> list[float]:
    return [min(times) for times in zip(*rounds)]


def describe(name: str, timings: list[float]) -> str:
    timings = sorted(timings)
    p90 = timings[int(len(timings) * 0.9)]
    return f"{name:>5}: median {statistics.median(timings):.3f} ms, p90 {p90:.3f} ms per movement phase"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--phases", type=int, default=40, help="phases per game at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5, help="each phase's time is its best of these")
    args = parser.parse_args()
    samples = collect(args.games, args.phases, args.seed)
    check_loading(samples)
    units = statistics.median(len(s.position.units) for s in samples)
    print(f"{len(samples)} movement phases from {args.games} random games (median {units:.0f} units), "
          f"best of {args.rounds} rounds; gm {gm_build()}")
    mila = importlib.util.find_spec("diplomacy") is not None
    time_gm(samples)  # warm up once
    gm_rounds, mila_rounds, agree = [], [], 0
    for _ in range(args.rounds):
        gm_rounds.append(time_gm(samples))
        if mila:
            timings, agree = time_mila(samples)
            mila_rounds.append(timings)
    gm_timings = best(gm_rounds)
    print(describe("gm", gm_timings))
    if not mila:
        print(" MILA: not installed (pip install diplomacy==1.1.2) - no comparison")
    else:
        mila_timings = best(mila_rounds)
        print(describe("MILA", mila_timings))
        ratio = statistics.median(m / g for m, g in zip(mila_timings, gm_timings))
        print(f"gm is {ratio:.1f}x faster (median of per-phase ratios); "
              f"boards agree after {agree} of {len(samples)} phases")
    stacked = best([time_stacked(samples) for _ in range(args.rounds)])
    cost = statistics.median(s / g for s, g in zip(stacked, gm_timings))
    print(describe("stack", stacked) + f" with a leader stacked on a unit of each power "
          f"({cost:.2f}x the same phases without)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
