"""A recorded game of Classical as a golden regression test.

``classical_game.json`` holds a game played by ``gm.bots.plausible.PlausiblePlayer`` for all five
powers with a fixed seed, from Spring 273 B.C. for seven game years: every phase's orders (as the
text a player could have mailed, in the order submitted), the outcome of each order, and the
position the phase led to. The test replays the orders through the order parser and the engine
and compares every outcome and every position exactly.

The seed is the first one whose game exercises the Classical rules and the phase kinds that
matter: builds in centres that are not home centres (rule 6), armies and fleets crossing land
bridges (rule 8), a convoy, a retreat and a removal. To record the game again after a deliberate
change to the engine (and after reading the differences):

    .venv/bin/python -m tests.variants.test_classical_game
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gm.adjudicator.variant import Variant
from gm.domain.orders import Build, Disband, Move, Retreat
from gm.domain.phases import PhaseKind
from gm.orders import OrderGrammar, parse_line
from gm.store.codec import decode_position, encode_position
from gm.variants.catalog import VariantCatalog
from tests.variants.recorded import load, record_first_seed, record_game, replay

RECORDING = Path(__file__).with_name("classical_game.json")
YEARS = 7  # 273 B.C. to 267 B.C.


@pytest.fixture(scope="module")
def variant() -> Variant:
    return VariantCatalog().get("classical")


@pytest.fixture(scope="module")
def recording() -> dict[str, Any]:
    return load(RECORDING)


# -- recording ---------------------------------------------------------------------------------

ABOUT = "Recorded by tests/variants/test_classical_game.py (see its docstring); do not edit by hand."


def events(variant: Variant, recording: dict[str, Any]) -> Counter[str]:
    """What the recorded game exercises, counted from its outcomes and positions."""
    bridges = {frozenset(b["between"]) for b in variant.map.rules["land_bridges"]}
    grammar = OrderGrammar.for_variant(variant)
    found: Counter[str] = Counter()
    before = decode_position(variant, recording["start"])
    for phase in recording["phases"]:
        found[f"phase {before.phase.kind.name.lower()}"] += 1
        for (power, text, outcome, _reason) in phase["results"]:
            if outcome != "succeeds":
                continue
            order = parse_line(text, grammar).order
            if isinstance(order, Build) and order.unit.location.province not in variant.map.powers[power].home:
                found["build in a centre that is not a home centre"] += 1
            elif isinstance(order, Disband) and before.phase.kind is PhaseKind.ADJUSTMENTS:
                found["removal"] += 1
            elif isinstance(order, Retreat):
                found["retreat"] += 1
            elif isinstance(order, Move):
                origin, target = order.unit.location.province, order.destination.province
                if frozenset((origin, target)) in bridges:
                    found[f"{order.unit.type.name} across a land bridge"] += 1
                if target not in variant.map.neighbours[origin]:
                    found["convoy"] += 1
        before = decode_position(variant, phase["next"])
    return found


WANTED = (
    "build in a centre that is not a home centre",
    "army across a land bridge",
    "fleet across a land bridge",
    "convoy",
    "retreat",
    "removal",
    "phase retreats",
)


def main() -> None:
    variant = VariantCatalog().get("classical")
    record_first_seed(lambda seed: record_game(variant, seed, YEARS, ABOUT), lambda game: events(variant, game), WANTED, RECORDING, range(1, 1000))


# -- the tests ---------------------------------------------------------------------------------


def test_the_recording_starts_from_the_classical_start(variant, recording):
    assert recording["variant"] == "classical"
    start = decode_position(variant, recording["start"])
    assert recording["start"] == encode_position(variant.initial_position())
    assert variant.title(start.phase) == "Spring 273 B.C. movement"


def test_the_recording_covers_at_least_five_game_years_in_years_bc(variant, recording):
    years = {variant.calendar.parse(p["phase"]).year for p in recording["phases"]}
    assert len(years) >= 5
    assert min(years) == -273 and all(y < 0 for y in years)
    for phase in recording["phases"]:
        assert phase["title"] == variant.title(variant.calendar.parse(phase["phase"]))
        assert " B.C. " in phase["title"]


def test_the_recording_exercises_the_classical_rules(variant, recording):
    found = events(variant, recording)
    missing = [w for w in WANTED if not found[w]]
    assert not missing, f"the recorded game has no {missing}: {dict(found)}"


def test_replaying_the_orders_gives_every_recorded_outcome_and_position(variant, recording):
    replay(variant, recording)


if __name__ == "__main__":
    main()
