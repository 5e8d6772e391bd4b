"""A recorded game of Diplomacy of the Empire as a golden regression test.

``diplomacy_of_the_empire_game.json`` holds a game of the seven claimants played by
``gm.bots.plausible.PlausiblePlayer`` (with the rules module's own orders: second moves, road
moves, payments, cities and forts within each claimant's money) for YEARS game years from
Spring 43 B.C. The test replays the orders through the order parser and the engine and
compares every outcome, announcement (tribute, captured cities and homes, inflation) and
position (treasuries, cities, roads and control are in each position's ``extra``).

The seed is the first one whose game exercises the rules that matter: a move along roads, a
second move, a city and a fort built, a payment, a retreat, a territory taken from another
claimant, and builds of infantry, cavalry, a catapult and a fleet. To record it again after a
deliberate change (and after reading the differences):

    .venv/bin/python -m tests.variants.test_diplomacy_of_the_empire_game
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gm.domain.orders import Build, MoveAlongPath, MoveThen, Retreat
from gm.orders import OrderGrammar, parse_line
from gm.store.codec import decode_position
from gm.variants.catalog import VariantCatalog
from gm.variants.diplomacy_of_the_empire.orders import BuildCity, BuildFort, Pay
from gm.variants.diplomacy_of_the_empire.rules import DiplomacyOfTheEmpire
from gm.variants.diplomacy_of_the_empire.state import EmpireState
from tests.variants.recorded import assert_orders_read_back, load, record_first_seed, record_game, replay

RECORDING = Path(__file__).with_name("diplomacy_of_the_empire_game.json")
YEARS = 6  # 43 B.C. to 38 B.C.
ABOUT = "Recorded by tests/variants/test_diplomacy_of_the_empire_game.py (see its docstring); do not edit by hand."
WANTED = (
    "move along roads",
    "second move",
    "city built",
    "fort built",
    "payment",
    "retreat",
    "territory taken from another claimant",
    "infantry built", "cavalry built", "catapult built", "fleet built",
)
BUILT = {"I": "infantry built", "C": "cavalry built", "K": "catapult built", "F": "fleet built"}


@pytest.fixture(scope="module")
def variant() -> DiplomacyOfTheEmpire:
    empire = VariantCatalog().get("diplomacy-of-the-empire")
    assert isinstance(empire, DiplomacyOfTheEmpire)
    return empire


@pytest.fixture(scope="module")
def recording() -> dict[str, Any]:
    return load(RECORDING)


def events(variant: DiplomacyOfTheEmpire, recording: dict[str, Any]) -> Counter[str]:
    grammar = OrderGrammar.for_variant(variant)
    found: Counter[str] = Counter()
    before = decode_position(variant, recording["start"])
    for phase in recording["phases"]:
        for _power, text, outcome, _reason in phase["results"]:
            order = parse_line(text, grammar).order
            if outcome != "succeeds":
                continue
            found["move along roads"] += isinstance(order, MoveAlongPath)
            found["second move"] += isinstance(order, MoveThen)
            found["city built"] += isinstance(order, BuildCity)
            found["fort built"] += isinstance(order, BuildFort)
            found["payment"] += isinstance(order, Pay)
            found["retreat"] += isinstance(order, Retreat)
            if isinstance(order, Build) and order.unit.type is not None:
                found[BUILT[order.unit.type.letter]] += 1
        after = decode_position(variant, phase["next"])
        was, now = EmpireState.of(before).control, EmpireState.of(after).control
        found["territory taken from another claimant"] += sum(1 for p, owner in now.items() if was.get(p, owner) != owner)
        before = after
    return found


def main() -> None:
    variant = VariantCatalog().get("diplomacy-of-the-empire")
    assert isinstance(variant, DiplomacyOfTheEmpire)
    record_first_seed(lambda seed: record_game(variant, seed, YEARS, ABOUT), lambda game: events(variant, game), WANTED, RECORDING, range(1, 601))


def test_the_recording_starts_from_the_seven_claimants_start(variant, recording):
    assert recording["variant"] == "diplomacy-of-the-empire"
    assert decode_position(variant, recording["start"]) == variant.initial_position()


def test_the_recording_covers_every_game_year(variant, recording):
    years = {variant.calendar.parse(p["phase"]).year for p in recording["phases"]}
    assert years == set(range(-43, -43 + YEARS))


def test_the_recording_exercises_the_rules_of_diplomacy_of_the_empire(variant, recording):
    found = events(variant, recording)
    missing = [w for w in WANTED if not found[w]]
    assert not missing, f"the recorded game has no {missing}: {dict(found)}"


def test_every_recorded_order_reads_back(variant, recording):
    assert_orders_read_back(variant, recording)


def test_replaying_the_orders_gives_every_recorded_outcome_and_position(variant, recording):
    replay(variant, recording)


if __name__ == "__main__":
    main()
