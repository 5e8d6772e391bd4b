"""A recorded game of Eagles as a golden regression test.

``eagles_game.json`` holds a game of six players played by ``gm.bots.plausible.PlausiblePlayer``
(with the rules module's own orders: fleets attacking other powers' fleets at sea) for YEARS game
years from Spring A.D. 118. The start is drawn with the game's dice as ``gm.games.lifecycle.start``
draws it (each general, then two allied centres each; three players asked for fleets in their
coastal original centres), and every phase is adjudicated with the
same dice seed, so every roll (order of attacks, attacks, defenders' dice, barbarians, winter
storms) is recorded with the phase and compared on replay with the outcomes, announcements and
positions.

The seed is the first one whose game exercises the rules that matter: several fleets in one sea,
a fleet sunk in an attack, a fleet damaged or lost in a winter storm, a force destroyed or
repelled by barbarians, a neutral centre taken from its defending army, a retreat and a build. To
record it again after a deliberate change (and after reading the differences):

    .venv/bin/python -m tests.variants.test_eagles_game
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gm.adjudicator.phaselog import PhaseLog
from gm.domain.orders import Build, Retreat
from gm.domain.position import Position
from gm.domain.units import FLEET
from gm.orders import OrderGrammar, parse_line
from gm.store.codec import decode_position, encode_position
from gm.variants.catalog import VariantCatalog
from gm.variants.eagles.rules import NEUTRAL, Eagles
from gm.variants.eagles.state import EaglesState
from gm.variants.setup import setup_of
from tests.variants.recorded import assert_orders_read_back, load, record_first_seed, record_game, replay

RECORDING = Path(__file__).with_name("eagles_game.json")
PLAYERS = 6
ASKING_FOR_FLEETS = 3  # the first three players drawn asked for fleets when joining (JOIN game fleets)
YEARS = 6  # A.D. 118 to 123
ABOUT = "Recorded by tests/variants/test_eagles_game.py (see its docstring); do not edit by hand."
WANTED = (
    "several fleets in one sea",
    "fleet sunk in an attack",
    "storm damage or loss",
    "force destroyed or repelled by barbarians",
    "neutral centre taken",
    "retreat",
    "build",
)


@pytest.fixture(scope="module")
def variant() -> Eagles:
    eagles = VariantCatalog().get("eagles")
    assert isinstance(eagles, Eagles)
    return eagles


@pytest.fixture(scope="module")
def recording() -> dict[str, Any]:
    return load(RECORDING)


def opening(variant: Eagles, seed: int) -> Position:
    """The start as the game's lifecycle draws it, with the game's dice."""
    log = PhaseLog(f"recorded {seed}")
    powers = setup_of(variant).powers_in_play(PLAYERS, log)
    return setup_of(variant).opening(powers, log, {power: "fleets" for power in powers[:ASKING_FOR_FLEETS]})


def record(variant: Eagles, seed: int) -> dict[str, Any]:
    return record_game(variant, seed, YEARS, ABOUT, start=opening(variant, seed))


def events(variant: Eagles, recording: dict[str, Any]) -> Counter[str]:
    grammar = OrderGrammar.for_variant(variant)
    found: Counter[str] = Counter()
    before = decode_position(variant, recording["start"])
    defended = {u.location.province for u in before.units if u.power == NEUTRAL}
    for phase in recording["phases"]:
        for power, text, outcome, _reason in phase["results"]:
            order = parse_line(text, grammar).order
            if outcome == "succeeds" and isinstance(order, Retreat):
                found["retreat"] += 1
            elif outcome == "succeeds" and isinstance(order, Build):
                found["build"] += 1
        for purpose, _value, effect in phase.get("rolls", []):
            found["fleet sunk in an attack"] += purpose.startswith("attack by ") and "sunk" in effect
            found["storm damage or loss"] += purpose.startswith("storm: ") and effect != "no effect"
            found["force destroyed or repelled by barbarians"] += (purpose.startswith("barbarians: ")
                                                                    and not effect.startswith("no effect"))
        after = decode_position(variant, phase["next"])
        seas = Counter(u.location.province for u in after.units if u.type is FLEET and u.location.province in variant.seas)
        found["several fleets in one sea"] += any(n > 1 for n in seas.values())
        taken = {c for c in defended if after.centres.get(c) not in (None, NEUTRAL)}
        found["neutral centre taken"] += len(taken)
        defended -= taken
        before = after
    return found


def main() -> None:
    variant = VariantCatalog().get("eagles")
    assert isinstance(variant, Eagles)
    record_first_seed(lambda seed: record(variant, seed), lambda game: events(variant, game), WANTED, RECORDING, range(1, 201))


def test_the_recording_starts_from_the_start_its_dice_draw(variant, recording):
    assert recording["variant"] == "eagles"
    start = opening(variant, recording["seed"])
    assert recording["start"] == encode_position(start)
    assert str(start.phase) == "S118M"
    originals = EaglesState.of(start).original_centres
    assert len(originals) == PLAYERS and all(len(centres) == 3 for centres in originals.values())
    assert {u.location.province for u in start.units if u.power == NEUTRAL} == (
        variant.centres_in_play(PLAYERS) - set(start.centres) - variant.undefended)


def test_the_recording_covers_every_game_year(variant, recording):
    years = {variant.calendar.parse(p["phase"]).year for p in recording["phases"]}
    assert years == set(range(118, 118 + YEARS))


def test_the_recording_exercises_the_rules_of_eagles(variant, recording):
    found = events(variant, recording)
    missing = [w for w in WANTED if not found[w]]
    assert not missing, f"the recorded game has no {missing}: {dict(found)}"


def test_every_recorded_order_reads_back(variant, recording):
    assert_orders_read_back(variant, recording)


def test_replaying_the_orders_gives_every_recorded_roll_outcome_and_position(variant, recording):
    replay(variant, recording)


if __name__ == "__main__":
    main()
