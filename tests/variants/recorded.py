"""Recorded games as golden regression tests: a game played by the plausible bot with a fixed
seed (every phase's orders as text a player could mail, each outcome, the position reached),
replayed through the order parser and the engine and compared exactly.

A variant whose players found their powers (Roman Diplomacy) starts from the position its
founders made (``start``), and players may join during the game: ``joining`` names, before each
phase, the empires asking to join then (empire, city); the recording keeps them with the phase
("joining") and the replay asks for them again with ``Setup.with_joining`` (gm.variants.setup). A variant that rolls
dice is recorded with the game's seed, and every roll is compared too."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from gm.adjudicator.engine import PhaseReport, adjudicate
from gm.adjudicator.variant import Variant
from gm.bots.plausible import PlausiblePlayer
from gm.domain.position import Position
from gm.orders import OrderGrammar, parse_line
from gm.store.codec import decode_position, encode_position
from gm.variants.setup import setup_of


def results(report: PhaseReport) -> list[list[Any]]:
    return [[r.power, r.text, "succeeds" if r.succeeded else "fails", r.reason_text] for r in report.results]


def rolls(report: PhaseReport) -> list[list[Any]]:
    """Every die of the phase as the results show it: purpose, value, effect."""
    return [[r.purpose, r.value, r.effect] for r in report.rolls]


def record_game(variant: Variant, seed: int, years: int, about: str, start: Position | None = None,
                joining: Callable[[Position], Sequence[tuple[str, str]]] | None = None) -> dict[str, Any]:
    """``start``: the first position (the variant's initial one unless given); ``joining``: the
    empires (empire, city) that ask to join before the phase of the position it is given."""
    bot = PlausiblePlayer(variant, random.Random(seed))
    if start is None:
        start = variant.initial_position()
    last_year = start.phase.year + years - 1  # no year 0 is crossed this early in the game
    position = start
    phases = []
    while position.phase.year <= last_year:
        joined = [[empire, city] for empire, city in joining(position)] if joining is not None else []
        for empire, city in joined:
            position = setup_of(variant).with_joining(position, empire, city)
        submitted = bot.orders(position)
        report = adjudicate(variant, position, submitted, seed=f"recorded {seed}")
        phase: dict[str, Any] = {"phase": str(position.phase), "title": variant.title(position.phase)}
        if joined:
            phase["joining"] = joined
        phase.update({
            "orders": [[power, str(order)] for power, order in submitted],
            "results": results(report),
            "winner": report.winner,
            "next": encode_position(report.next),
        })
        if report.announcements:
            phase["announcements"] = list(report.announcements)
        if report.draw:
            phase["draw"] = list(report.draw)
        if report.rolls:
            phase["rolls"] = rolls(report)
        phases.append(phase)
        position = report.next
        if report.winner or report.draw:
            break
    return {
        "variant": variant.name,
        "about": about,
        "bot": "gm.bots.plausible.PlausiblePlayer",
        "seed": seed,
        "start": encode_position(start),
        "phases": phases,
    }


def replay(variant: Variant, recording: dict[str, Any]) -> None:
    """Every recorded outcome, announcement and position, from the recorded orders' text."""
    grammar = OrderGrammar.for_variant(variant)
    position: Position = decode_position(variant, recording["start"])
    for number, phase in enumerate(recording["phases"]):
        assert str(position.phase) == phase["phase"], f"phase {number}"
        for empire, city in phase.get("joining", []):
            position = setup_of(variant).with_joining(position, empire, city)
        submitted = []
        for power, text in phase["orders"]:
            parsed = parse_line(text, grammar)
            assert parsed.ok, f"{phase['phase']}: {text!r} no longer reads: {parsed.diagnostics}"
            submitted.append((power, parsed.order))
        report = adjudicate(variant, position, submitted, seed=f"recorded {recording['seed']}")
        where = f"{phase['phase']} ({phase['title']})"
        assert results(report) == phase["results"], f"{where}: the outcomes differ"
        assert list(report.announcements) == phase.get("announcements", []), f"{where}: the announcements differ"
        assert report.winner == phase["winner"], f"{where}: the winner differs"
        assert list(report.draw) == phase.get("draw", []), f"{where}: the draw differs"
        assert rolls(report) == phase.get("rolls", []), f"{where}: the dice differ"
        assert encode_position(report.next) == phase["next"], f"{where}: the next position differs"
        position = report.next


def record_first_seed(record: Callable[[int], dict[str, Any]], events: Callable[[dict[str, Any]], Counter[str]],
                      wanted: Sequence[str], path: Path, seeds: range) -> None:
    """Write to ``path`` the recording of the first seed whose game shows every event wanted."""
    for seed in seeds:
        game = record(seed)
        found = events(game)
        if all(found[w] for w in wanted):
            path.write_text(dump(game) + "\n", encoding="utf-8")
            print(f"seed {seed}: {len(game['phases'])} phases, {dict(found)} -> {path}")
            return
    raise SystemExit(f"no seed under {seeds.stop} exercises everything wanted")


def assert_orders_read_back(variant: Variant, recording: dict[str, Any]) -> None:
    """Every recorded order is read by the variant's parser back to the very same text."""
    grammar = OrderGrammar.for_variant(variant)
    for phase in recording["phases"]:
        for _power, text in phase["orders"]:
            parsed = parse_line(text, grammar)
            assert parsed.ok and str(parsed.order) == text, f"{phase['phase']}: {text!r}"


def dump(value: Any, depth: int = 0) -> str:
    """JSON with one line per order, result, unit list or centre (readable diffs)."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or len(flat) <= 100 and not isinstance(value, dict) or not value:
        return flat
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, dict):
        if len(flat) <= 100 and depth > 0 and all(not isinstance(v, (dict, list)) for v in value.values()):
            return flat
        items = [f"{inner}{json.dumps(k)}: {dump(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [inner + dump(v, depth + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))
