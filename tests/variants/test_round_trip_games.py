"""gm accepts its own output: random games of every variant, played by the plausible
bot with fixed seeds, go through `gm adjudicate` phase after phase, each phase's input made from
the previous phase's output alone (its units, centres, dislodged units and second moves when
the next phase is a retreat phase, its `extra`, its `next_phase`) with the bot's orders written
as text. No input is ever refused, every order has the result the engine gives it, and every
output is the position the engine reaches, as the store keeps it (gm.store.codec)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gm.adjudicator.engine import adjudicate
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.variant import Variant
from gm.bots.plausible import PlausiblePlayer
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.interchange import adjudicate_json, read_request
from gm.store.codec import encode_position
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

CATALOG = VariantCatalog()
VARIANTS = ("standard", "classical", "rise-of-rome-ii", "eagles", "roman-diplomacy-i", "roman-diplomacy-ii",
            "diplomacy-of-the-empire")
SEEDS = tuple(range(1, 9))
YEARS = 8
FOUNDERS = {  # Roman Diplomacy: the empires that found the game (as gm.games.lifecycle.start does)
    "roman-diplomacy-i": (("Latium", "ROM"), ("Hispania", "SPA"), ("Graecia", "GRE"), ("Pontus", "SEV"),
                          ("Carthago", "TUN")),
    "roman-diplomacy-ii": (("Roma", "ROM"), ("Carthago", "CAR"), ("Aegyptus", "ALE"), ("Macedon", "KOR"),
                           ("Syria", "ANT")),
}


def start(variant: Variant, seed: int) -> Position:
    position = variant.initial_position()
    for empire, city in FOUNDERS.get(variant.name, ()):
        position = setup_of(variant).with_joining(position, empire, city)
    return setup_of(variant).admit_joining(position, PhaseLog(f"round trip {seed}")) if variant.name in FOUNDERS else position


def by_power(units: Any) -> dict[str, list[str]]:
    listed: dict[str, list[str]] = {}
    for unit in units:
        listed.setdefault(unit.power, []).append(str(unit))
    return {power: sorted(texts) for power, texts in sorted(listed.items())}


def as_input(variant: Variant, position: Position) -> dict[str, Any]:
    """The first phase's input, written from the engine's start."""
    centres: dict[str, list[str]] = {}
    for province, owner in sorted(position.centres.items()):
        centres.setdefault(owner, []).append(province)
    return {"variant": variant.name, "phase": str(position.phase), "units": by_power(position.units),
            "centers": centres, "extra": dict(position.extra)}


def following(variant: Variant, output: dict[str, Any]) -> dict[str, Any]:
    """The next phase's input, from a phase's output alone."""
    document = {"variant": variant.name, "phase": output["next_phase"], "units": output["units"],
                "centers": output["centers"], "extra": output["extra"]}
    if variant.calendar.parse(output["next_phase"]).kind is PhaseKind.RETREATS:
        document["dislodged"] = output["dislodged"]
        if "second_moves" in output:
            document["second_moves"] = output["second_moves"]
    return document


def outcomes(output: dict[str, Any]) -> list[tuple[str, str, str, str | None]]:
    return sorted((power, r["order"], r["outcome"], r.get("reason")) for power, rs in output["results"].items()
                  for r in rs)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", VARIANTS)
def test_each_phases_output_is_the_next_phases_input(name: str, seed: int) -> None:
    variant = CATALOG.get(name)
    bot = PlausiblePlayer(variant, random.Random(seed))
    position = start(variant, seed)
    document = as_input(variant, position)
    last_year = position.phase.year + YEARS
    dice = f"round trip {seed}"
    phases = 0
    while position.phase.year < last_year:
        submitted = bot.orders(position)
        report = adjudicate(variant, position, submitted, seed=dice)
        where = f"{name}, seed {seed}, {position.phase}"
        output = adjudicate_json({**document, "seed": dice, "orders": _written(submitted)}, CATALOG)  # never refused
        assert output["phase"] == str(position.phase), where
        assert outcomes(output) == sorted(
            (r.power, str(r.order), "succeeds" if r.succeeded else "fails", None if r.succeeded else r.reason_text or "fails")
            for r in report.results), where
        assert output["winner"] == report.winner, where
        document = following(variant, output)
        read_back = read_request(document, CATALOG).position
        assert stored(read_back) == stored(report.next), where
        position = report.next
        phases += 1
        if report.winner or report.draw:
            break
    assert phases >= 10


def stored(position: Position) -> dict[str, Any]:
    """The position as the store keeps it; dislodged units in one order (two dislodged from one
    province, a leader and its army, are named apart by their types, so their order means nothing)."""
    encoded = encode_position(position)
    encoded["dislodged"] = sorted(encoded.get("dislodged", []), key=json.dumps)
    return encoded


def _written(submitted: list[tuple[str, Any]]) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for power, order in submitted:
        orders.setdefault(power, []).append(str(order))
    return orders
