"""Milliseconds per movement phase: gm's adjudicator, and MILA's when it is installed.

    .venv/bin/python bench/adjudicate.py [--games 100] [--phases 40] [--seed 1] [--rounds 5]
    .venv/bin/python bench/adjudicate.py --variant NAME [...]
    .venv/bin/python bench/adjudicate.py --variant all [...]   # every variant, one table

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

The whole path is then timed for each phase kind (movement, retreats, adjustments) against
MILA twice: its ``set_orders`` and ``process`` with its game set up outside the timing, as
above; and its whole job, as gm's path does it (the game set up from the phase's units, centres
and phase, the orders given, ``process``, the board read back), since a retreat or adjustment
phase has so few orders that reading and writing the board is most of gm's path.

The same phases are then timed once more with stacks: a bench-only rule delta gives every
power a leader (strength 1/2) standing with its first unit and leading it (the engine's
stacks, strength bonuses and carried units at work), to show what stacks cost.
gm runs as installed: with its adjudicator compiled by mypyc (setup.py), or as pure Python
with GM_PURE_PYTHON=1.

With ``--variant NAME`` (any variant of the catalog) the same is done for that variant and for
standard play side by side, for each phase kind: movement, retreats and adjustments, each
phase loaded as at a deadline and timed alone (MILA is left out: it plays standard only). The
plausible player plays the variant through the ``Variant`` interface, and its own orders
where the variant declares them (gm.bots.plausible.PLAUSIBLE_ORDERS); the games' dice follow
``--seed``. A variant whose players found their powers starts with six of them founded
(gm.bots.plausible.plausible_start).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from gm.adjudicator.effects import Effects
from gm.adjudicator.engine import adjudicate
from gm.adjudicator.variant import Variant
from gm.bots.plausible import PlausiblePlayer, plausible_start
from gm.domain.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, Waive
from gm.domain.phases import PhaseKind
from gm.domain.position import Position, sorted_units
from gm.domain.units import Mobility, Unit, UnitType
from gm.games.orderbook import parse_stored
from gm.interchange import adjudicate_line
from gm.maps.model import normalise_name
from gm.orders.grammar import OrderGrammar
from gm.orders.parser import parse_line
from gm.orders.tokens import normalise_word
from gm.reports.names import Namer
from gm.store.codec import decode_position, encode_position
from gm.variants.catalog import UnknownVariant, VariantCatalog


@dataclass
class Sample:
    position: Position
    orders: list[tuple[str, Order]]
    after: list[str]
    dice: str | None = None  # the game's dice seed (variants that roll)

    @property
    def stored(self) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        """The position as gm's store keeps it, and the orders as players wrote them."""
        return encode_position(self.position), [(power, str(order)) for power, order in self.orders]

    def document(self, variant_name: str = "standard") -> str:
        """The phase as ``gm adjudicate --jsonl`` reads it: one line of interchange JSON, the
        position's units and centres and every power's orders as order text."""
        units: dict[str, list[str]] = {}
        for unit in self.position.units:
            units.setdefault(unit.power, []).append(str(unit))
        centres: dict[str, list[str]] = {}
        for centre, owner in sorted(self.position.centres.items()):
            centres.setdefault(owner, []).append(centre)
        orders: dict[str, list[str]] = {}
        for power, order in self.orders:
            orders.setdefault(power, []).append(str(order))
        document: dict[str, Any] = {"variant": variant_name, "phase": str(self.position.phase), "units": units,
                                    "centers": centres, "orders": orders}
        if self.position.dislodged:  # a retreat phase: as the movement phase's result wrote them
            dislodged: dict[str, list[dict[str, Any]]] = {}
            for d in self.position.dislodged:
                dislodged.setdefault(d.unit.power, []).append(
                    {"unit": str(d.unit), "attacker_from": d.attacker_from, "retreats": sorted(map(str, d.retreats))})
            document["dislodged"] = dislodged
        if self.dice is not None:
            document["seed"] = self.dice
        return json.dumps(document)


def load(variant: Variant, grammar: OrderGrammar,
         stored: tuple[dict[str, Any], list[tuple[str, str]]]) -> tuple[Position, list[tuple[str, Order]]]:
    """The phase as gm has it at a deadline: the position decoded, the orders parsed."""
    position, lines = stored
    orders = [(power, order) for power, line in lines for order in parse_stored(grammar, [line])]
    return decode_position(variant, position), orders


def collect(games: int, phases: int, seed: int, variant_name: str = "standard", dice: bool = False,
            kinds: tuple[PhaseKind, ...] = (PhaseKind.MOVEMENT,)) -> dict[PhaseKind, list[Sample]]:
    """The phases of ``kinds`` met in random games of plausible play, by kind."""
    variant = VariantCatalog().get(variant_name)
    samples: dict[PhaseKind, list[Sample]] = {kind: [] for kind in kinds}
    for game in range(games):
        player = PlausiblePlayer(variant, random.Random(seed * 100_003 + game))
        game_dice = f"bench {seed} {game}" if dice else None
        position = plausible_start(variant, player.rng)
        for _ in range(phases):
            orders = player.orders(position)
            report = adjudicate(variant, position, orders, seed=game_dice)
            if position.phase.kind in samples:
                after = sorted(map(str, report.resolved.units)) + sorted(f"*{d.unit}" for d in report.resolved.dislodged)
                samples[position.phase.kind].append(Sample(position, orders, after, game_dice))
            if report.winner:
                break
            position = report.next
    return samples


def time_gm(samples: list[Sample], variant_name: str = "standard") -> list[float]:
    variant = VariantCatalog().get(variant_name)
    grammar = OrderGrammar.for_variant(variant)
    timings = []
    for sample in samples:
        position, orders = load(variant, grammar, sample.stored)
        start = time.perf_counter()
        adjudicate(variant, position, orders, seed=sample.dice)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def check_loading(samples: list[Sample], variant_name: str = "standard") -> None:
    """Decoding and parsing give back the very phases that were played."""
    variant = VariantCatalog().get(variant_name)
    grammar = OrderGrammar.for_variant(variant)
    for sample in samples:
        position, orders = load(variant, grammar, sample.stored)
        assert encode_position(position) == encode_position(sample.position) and orders == sample.orders, sample


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
    if isinstance(order, Retreat):
        return f"{order.unit} R {order.destination}"
    if isinstance(order, Disband):
        return f"{order.unit} D"
    if isinstance(order, Build):
        return f"{order.unit} B"
    if isinstance(order, Waive):
        return "WAIVE"
    raise ValueError(order)


def mila_game(sample: Sample, orders: bool = True):  # type: ignore[no-untyped-def]
    """MILA's game set up with the phase's units and centres (and its orders unless ``orders``
    is false: the whole path hands them over as text in the timing)."""
    from diplomacy import Game  # type: ignore[import-not-found,import-untyped,unused-ignore]

    game = Game()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(str(sample.position.phase))  # first: a retreat phase's units get their retreats
    by_power: dict[str, list[str]] = {}
    for unit in sample.position.units:
        by_power.setdefault(unit.power.upper(), []).append(str(unit))
    for d in sample.position.dislodged:
        by_power.setdefault(d.unit.power.upper(), []).append(f"*{d.unit}")
    for power, units in by_power.items():
        game.set_units(power, units)
    centres: dict[str, list[str]] = {}
    for centre, owner in sample.position.centres.items():
        centres.setdefault(owner.upper(), []).append(centre)
    for power, owned in centres.items():
        game.set_centers(power, owned)
    game.set_current_phase(str(sample.position.phase))
    if orders:
        for power, lines in mila_orders(sample).items():
            game.set_orders(power, lines)
    return game


def mila_orders(sample: Sample) -> dict[str, list[str]]:
    """The phase's orders as MILA's order text, by power."""
    orders: dict[str, list[str]] = {}
    for power, order in sample.orders:
        orders.setdefault(power.upper(), []).append(mila_order(order))
    return orders


def time_mila(samples: list[Sample]) -> tuple[list[float], list[float], int]:
    """Per phase: MILA's ``process`` alone (the core), and ``set_orders`` of every power's order
    text followed by ``process`` (the whole path); and after how many phases the boards agree."""
    games = []
    core, whole = [], []
    for sample in samples:
        game = mila_game(sample, orders=False)
        orders = mila_orders(sample)
        start = time.perf_counter()
        for power, lines in orders.items():
            game.set_orders(power, lines)
        ordered = time.perf_counter()
        game.process()
        end = time.perf_counter()
        core.append((end - ordered) * 1000)
        whole.append((end - start) * 1000)
        games.append(game)
    agree = sum(
        sorted(u for units in game.get_units().values() for u in units) == sorted(sample.after)
        for game, sample in zip(games, samples)
    )
    return core, whole, agree


def time_mila_setup(samples: list[Sample]) -> list[float]:
    """Per phase, MILA doing all that gm's whole path does: a game set up with the phase's units,
    centres and phase (as gm reads them from the JSON), every power's order text, ``process``,
    and the board after it read back (as gm writes it)."""
    timings = []
    for sample in samples:
        orders = mila_orders(sample)
        start = time.perf_counter()
        game = mila_game(sample, orders=False)
        for power, lines in orders.items():
            game.set_orders(power, lines)
        game.process()
        game.get_units(), game.get_centers()
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def time_gm_whole(documents: list[str]) -> list[float]:
    """Per phase, the whole path of ``gm adjudicate --jsonl`` (gm.cli.adjudicate_cmd.run_stream
    calls ``adjudicate_line`` on each line): a line of interchange JSON read (position and order
    text), adjudicated, the result written as a line of JSON. A new catalog each round: the
    variant and its grammar (with its caches) as a new process has them."""
    catalog = VariantCatalog()
    timings = []
    for document in documents:
        start = time.perf_counter()
        adjudicate_line(document, catalog)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def check_whole(samples: list[Sample], documents: list[str]) -> None:
    """The whole path gives the very results the core gives on the same phases."""
    variant = VariantCatalog().get("standard")
    catalog = VariantCatalog()
    for sample, document in zip(samples, documents):
        result = json.loads(adjudicate_line(document, catalog))
        report = adjudicate(variant, sample.position, sample.orders)
        got = [(power, entry["order"], entry["outcome"]) for power, entries in result["results"].items()
               for entry in entries]
        want = [(r.power, r.text, "succeeds" if r.succeeded else "fails") for r in report.results]
        assert sorted(got) == sorted(want) and result["units"] == _by_power(report.next.units), sample


def _by_power(units: Any) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for unit in units:
        found.setdefault(unit.power, []).append(str(unit))
    return {power: sorted(items) for power, items in sorted(found.items())}


# The lines the parser is timed on: kinds of writing and their shares of the mix.
PARSER_MIX = (("canonical", 4), ("full names", 2), ("lower case", 3), ("misspelt", 1))


def parser_lines(samples: list[Sample], count: int = 1000, seed: int = 1) -> dict[str, list[str]]:
    """Distinct order lines of these phases, ``count`` in all, in the shares of ``PARSER_MIX``:
    canonical ("A MUN S A BER - SIL"), full names as the results write them ("Army Munich
    SUPPORT Army Berlin -> Silesia"), lower case ("a mun s a ber - sil"), and misspelt (the
    canonical line with one province written as its full name less one letter, "A MUN S A BER -
    Silsia": an error, with its suggestion)."""
    variant = VariantCatalog().get("standard")
    grammar = OrderGrammar(variant.map, variant.unit_types)
    namer = Namer(variant)
    rng = random.Random(seed)
    orders = list(dict.fromkeys(order for sample in samples for _, order in sample.orders))

    def misspelt(location: Any) -> str:
        name = variant.map.provinces[location.province].name
        for _ in range(50):
            k = rng.randrange(1, len(name) - 1)
            wrong = name[:k] + name[k + 1:]
            if name[k] != " " and normalise_name(wrong) not in grammar.provinces:
                return wrong
        return name + "x"

    def misspell(order: Order) -> str:
        if isinstance(order, Move):
            return f"{order.unit} - {misspelt(order.destination)}"
        if isinstance(order, SupportMove):
            return f"{order.unit} S {order.supported} - {misspelt(order.destination)}"
        if isinstance(order, Convoy):
            return f"{order.unit} C {order.army} - {misspelt(order.destination)}"
        if isinstance(order, SupportHold):
            return f"{order.unit} S {order.supported.type} {misspelt(order.supported.location)}"
        return f"{order.unit.type} {misspelt(order.unit.location)} H"  # type: ignore[union-attr]

    writers = {"canonical": str, "full names": namer.order, "lower case": lambda o: str(o).lower(),
               "misspelt": misspell}
    total = sum(share for _, share in PARSER_MIX)
    lines = {}
    for kind, share in PARSER_MIX:
        chosen = rng.sample(orders, min(len(orders), count * share // total))
        lines[kind] = list(dict.fromkeys(writers[kind](order) for order in chosen))  # type: ignore[operator]
    return lines


def time_parser(lines: dict[str, list[str]], cached: bool) -> dict[str, float]:
    """Microseconds per line of each kind, on a new grammar: without its cache of lines (every
    line read by the fast lane or the general parser, no memory of earlier lines, the tokenizer's
    memo of words emptied too), or with it (every line read once before: all from the cache)."""
    grammar = OrderGrammar.for_variant(VariantCatalog().get("standard"))
    grammar.fast_lane  # its tables are built with the grammar, as at a variant's first order
    normalise_word.cache_clear()
    if cached:
        for kind_lines in lines.values():
            for line in kind_lines:
                parse_line(line, grammar)
    timings = {}
    for kind, kind_lines in lines.items():
        start = time.perf_counter()
        for number, line in enumerate(kind_lines, 1):
            parse_line(line, grammar, number, cached=cached)
        timings[kind] = (time.perf_counter() - start) * 1e6 / len(kind_lines)
    return timings


def describe_parser(name: str, rounds: list[dict[str, float]]) -> str:
    each = {kind: min(r[kind] for r in rounds) for kind in rounds[0]}
    total = sum(share for _, share in PARSER_MIX)
    mix = sum(each[kind] * share for kind, share in PARSER_MIX) / total
    kinds = ", ".join(f"{kind} {each[kind]:.1f}" for kind, _ in PARSER_MIX)
    return f"{name:>9}: {mix:.1f} µs per line in the mix ({kinds})"


def fast_lane_share(lines: dict[str, list[str]]) -> str:
    grammar = OrderGrammar.for_variant(VariantCatalog().get("standard"))
    read = {kind: sum(grammar.fast_lane.order(line.strip()) is not None for line in kind_lines) / len(kind_lines)
            for kind, kind_lines in lines.items()}
    return ", ".join(f"{kind} {share:.0%}" for kind, share in read.items())


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


def whole_path_by_kind(by_kind: dict[PhaseKind, list[Sample]], rounds: int, mila: bool) -> str:
    """The whole path of each phase kind, gm against MILA, in the same alternating rounds."""
    by_kind = {kind: found for kind, found in by_kind.items() if found}
    documents = {kind: [sample.document() for sample in found] for kind, found in by_kind.items()}
    for kind, found in by_kind.items():
        check_whole(found, documents[kind])
    gm_rounds: dict[PhaseKind, list[list[float]]] = {kind: [] for kind in by_kind}
    mila_rounds: dict[PhaseKind, list[list[float]]] = {kind: [] for kind in by_kind}
    setup_rounds: dict[PhaseKind, list[list[float]]] = {kind: [] for kind in by_kind}
    for _ in range(rounds):
        for kind, found in by_kind.items():
            gm_rounds[kind].append(time_gm_whole(documents[kind]))
            if mila:
                mila_rounds[kind].append(time_mila(found)[1])
                setup_rounds[kind].append(time_mila_setup(found))
    lines = ["whole path by phase kind, as gm adjudicate --jsonl (JSON in and out), medians; ratios are medians of "
             "per-phase ratios, against MILA's set_orders() and process() (its game set up untimed), and against "
             "MILA doing the whole job (its game set up from the units, centres and phase, then the same, and the "
             "board read back):"]
    for kind, found in by_kind.items():
        gm_times = best(gm_rounds[kind])
        line = f"  {kind.name.lower():<12} {len(found):>5} phases  gm {statistics.median(gm_times):.3f} ms"
        if mila:
            mila_times, setup_times = best(mila_rounds[kind]), best(setup_rounds[kind])
            ratio = statistics.median(m / g for m, g in zip(mila_times, gm_times))
            whole = statistics.median(m / g for m, g in zip(setup_times, gm_times))
            line += (f"  MILA {statistics.median(mila_times):.3f} ms: {ratio:.1f}x;"
                     f"  MILA's whole job {statistics.median(setup_times):.3f} ms: {whole:.1f}x")
        lines.append(line)
        seasons = sorted({sample.position.phase.season_index for sample in found})
        if mila and len(seasons) > 1:  # a kind met in several seasons: each apart (a Fall retreat also plans the winter)
            parts = []
            for season in seasons:
                mine = [i for i, sample in enumerate(found) if sample.position.phase.season_index == season]
                season_ratio = statistics.median(mila_times[i] / gm_times[i] for i in mine)
                parts.append(f"{found[mine[0]].position.phase.season} {len(mine)} phases gm "
                             f"{statistics.median(gm_times[i] for i in mine):.3f} ms, MILA "
                             f"{statistics.median(mila_times[i] for i in mine):.3f} ms: {season_ratio:.1f}x")
            lines.append("      by season: " + "; ".join(parts))
    return "\n".join(lines)


def best(rounds: list[list[float]]) -> list[float]:
    return [min(times) for times in zip(*rounds)]


def p90(timings: list[float]) -> float:
    return sorted(timings)[int(len(timings) * 0.9)]


def describe(name: str, timings: list[float]) -> str:
    return f"{name:>5}: median {statistics.median(timings):.3f} ms, p90 {p90(timings):.3f} ms per movement phase"


KINDS = (PhaseKind.MOVEMENT, PhaseKind.RETREATS, PhaseKind.ADJUSTMENTS)


def _columns(variant_name: str, games: int, phases: int, seed: int, rounds: int) -> dict[PhaseKind, tuple[list, list[float]]]:
    """Each phase kind's samples of a variant's games, and their timings (best of the rounds)."""
    samples = collect(games, phases, seed, variant_name, dice=True, kinds=KINDS)
    for kind_samples in samples.values():
        check_loading(kind_samples, variant_name)
        time_gm(kind_samples, variant_name)  # warm up once
    return {kind: (kind_samples, best([time_gm(kind_samples, variant_name) for _ in range(rounds)]))
            for kind, kind_samples in samples.items() if kind_samples}


def compare_variants(names: list[str], games: int, phases: int, seed: int, rounds: int) -> list[str]:
    """The lines comparing each phase kind of each variant of ``names`` with standard play."""
    columns = {variant_name: _columns(variant_name, games, phases, seed, rounds)
               for variant_name in dict.fromkeys(("standard", *names))}
    if len(names) == 1:
        title = f"{VariantCatalog().get(names[0]).map.title} ({names[0]}) beside standard"
    else:
        title = f"{len(names)} variants beside standard"
    lines = [f"{title}: {games} random games each of at most {phases} phases, best of {rounds} rounds; gm {gm_build()}",
             f"{'phase':<13}{'variant':<26}{'median':>10}{'p90':>10}{'phases':>8}{'units':>7}"]
    shown = ("standard", *[n for n in names if n != "standard"])
    for kind in KINDS:
        for row, variant_name in enumerate(shown):
            head = f"{kind.name.lower() if row == 0 else '':<13}{variant_name:<26}"
            found = columns[variant_name].get(kind)
            if found is None:
                lines.append(head + "(none met)")
                continue
            kind_samples, timings = found
            units = statistics.median(len(s.position.units) for s in kind_samples)
            lines.append(head + f"{statistics.median(timings):>7.3f} ms{p90(timings):>7.3f} ms"
                                f"{len(kind_samples):>8}{units:>7.0f}")
    standard = columns["standard"].get(PhaseKind.MOVEMENT)
    for name in shown[1:]:
        movement = columns[name].get(PhaseKind.MOVEMENT)
        if standard and movement:
            ratio = statistics.median(movement[1]) / statistics.median(standard[1])
            lines.append(f"a movement phase of {name} costs {ratio:.2f}x one of standard play (medians)")
    return lines


def compare_variant(name: str, games: int, phases: int, seed: int, rounds: int) -> list[str]:
    """The lines comparing each phase kind of ``name`` with standard play."""
    return compare_variants([name], games, phases, seed, rounds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--phases", type=int, default=40, help="phases per game at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5, help="each phase's time is its best of these")
    parser.add_argument("--variant", help="a catalog variant to time beside standard, each phase kind "
                                          "('all': every variant of the catalog)")
    args = parser.parse_args()
    if args.variant:
        catalog = VariantCatalog()
        names = [n for n in catalog.names() if n != "standard"] if args.variant == "all" else [args.variant]
        try:
            for name in names:
                catalog.get(name)
        except UnknownVariant as exc:
            parser.error(str(exc))
        print("\n".join(compare_variants(names, args.games, args.phases, args.seed, args.rounds)))
        return 0
    by_kind = collect(args.games, args.phases, args.seed, kinds=KINDS)
    samples = by_kind[PhaseKind.MOVEMENT]
    check_loading(samples)
    units = statistics.median(len(s.position.units) for s in samples)
    print(f"{len(samples)} movement phases from {args.games} random games (median {units:.0f} units), "
          f"best of {args.rounds} rounds; gm {gm_build()}")
    mila = importlib.util.find_spec("diplomacy") is not None
    documents = [sample.document() for sample in samples]
    check_whole(samples, documents)
    time_gm(samples)  # warm up once
    time_gm_whole(documents)
    lines = parser_lines(samples)
    gm_rounds, whole_rounds, mila_rounds, mila_whole_rounds, agree = [], [], [], [], 0
    uncached_rounds, cached_rounds = [], []
    for _ in range(args.rounds):
        gm_rounds.append(time_gm(samples))
        whole_rounds.append(time_gm_whole(documents))
        uncached_rounds.append(time_parser(lines, cached=False))
        cached_rounds.append(time_parser(lines, cached=True))
        if mila:
            core, whole, agree = time_mila(samples)
            mila_rounds.append(core)
            mila_whole_rounds.append(whole)
    gm_timings = best(gm_rounds)
    whole_timings = best(whole_rounds)
    print("core: the position decoded and the orders parsed outside the timing; MILA's process() alone")
    print(describe("gm", gm_timings))
    if not mila:
        print(" MILA: not installed (pip install diplomacy==1.1.2) - no comparison")
    else:
        mila_timings = best(mila_rounds)
        print(describe("MILA", mila_timings))
        ratio = statistics.median(m / g for m, g in zip(mila_timings, gm_timings))
        print(f"gm is {ratio:.1f}x faster (median of per-phase ratios); "
              f"boards agree after {agree} of {len(samples)} phases")
    per_phase = sum(len(s.orders) for s in samples) / len(samples)
    print(f"whole path: gm from a line of interchange JSON (units, centres, {per_phase:.1f} order lines "
          f"a phase) to the result's JSON, as gm adjudicate --jsonl; MILA's set_orders() of the same orders "
          f"as text, then process()")
    print(describe("gm", whole_timings))
    if mila:
        mila_whole = best(mila_whole_rounds)
        print(describe("MILA", mila_whole))
        ratio = statistics.median(m / g for m, g in zip(mila_whole, whole_timings))
        print(f"gm is {ratio:.1f}x faster on the whole path (median of per-phase ratios)")
    print(whole_path_by_kind(by_kind, args.rounds, mila))
    shares = ", ".join(f"{share * 10}% {kind}" for kind, share in PARSER_MIX)
    print(f"order parser: {sum(map(len, lines.values()))} distinct order lines of these phases ({shares}), "
          f"best of {args.rounds} rounds, µs per line; read by the fast lane: {fast_lane_share(lines)}")
    for kind, kind_lines in lines.items():
        print(f"  e.g. {kind}: {kind_lines[0]!r}")
    print(describe_parser("uncached", uncached_rounds))
    print(describe_parser("cached", cached_rounds))
    stacked = best([time_stacked(samples) for _ in range(args.rounds)])
    cost = statistics.median(s / g for s, g in zip(stacked, gm_timings))
    print(describe("stack", stacked) + f" with a leader stacked on a unit of each power "
          f"({cost:.2f}x the same phases without)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
