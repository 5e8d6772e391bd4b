"""A recorded game of Rise of Rome II as a golden regression test.

``rise_of_rome_ii_game.json`` holds a game played by ``gm.bots.plausible.PlausiblePlayer`` (with
the rules module's own orders: leaders placed and leading, sacks) for all seven powers with a
fixed seed, from Spring 220 B.C. for at least four game years. The test replays the orders
through the order parser and the engine and compares every outcome, announcement and position.

The seed is the first one whose game exercises the rules that matter: leaders placed away from
their first home centre, leading their units, a sack making a double unit that later reverts,
a rebellion, a land bridge closed by an enemy fleet, a retreat, a build away from home and a
Barbarian build in a build area. To record it again after a deliberate change (and after
reading the differences):

    .venv/bin/python -m tests.variants.test_rise_of_rome_ii_game
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gm.adjudicator.variant import Variant
from gm.domain.orders import Build, Retreat
from gm.orders import OrderGrammar, parse_line
from gm.store.codec import decode_position, encode_position
from gm.variants.catalog import VariantCatalog
from gm.variants.rise_of_rome_ii.orders import Lead, Sack, StartsIn
from tests.variants.recorded import load, record_first_seed, record_game, replay

RECORDING = Path(__file__).with_name("rise_of_rome_ii_game.json")
YEARS = 5
ABOUT = "Recorded by tests/variants/test_rise_of_rome_ii_game.py (see its docstring); do not edit by hand."
WANTED = (
    "leader placed away from its first home centre",
    "leader leads",
    "sack",
    "double unit reverts",
    "rebellion",
    "land bridge closed",
    "retreat",
    "build away from home",
    "barbarian build",
)


@pytest.fixture(scope="module")
def variant() -> Variant:
    return VariantCatalog().get("rise-of-rome-ii")


@pytest.fixture(scope="module")
def recording() -> dict[str, Any]:
    return load(RECORDING)


def events(variant: Variant, recording: dict[str, Any]) -> Counter[str]:
    grammar = OrderGrammar.for_variant(variant)
    barbarians = variant.map.rules["barbarian_power"]
    found: Counter[str] = Counter()
    before = decode_position(variant, recording["start"])
    for phase in recording["phases"]:
        for power, text, outcome, reason in phase["results"]:
            order = parse_line(text, grammar).order
            if reason and reason.startswith("prevented: the land bridge"):
                found["land bridge closed"] += 1
            if outcome != "succeeds":
                continue
            if isinstance(order, StartsIn) and order.start.province != variant.map.powers[power].home[0]:
                found["leader placed away from its first home centre"] += 1
            elif isinstance(order, Lead):
                found["leader leads"] += 1
            elif isinstance(order, Sack):
                found["sack"] += 1
            elif isinstance(order, Retreat):
                found["retreat"] += 1
            elif isinstance(order, Build):
                if power == barbarians:
                    found["barbarian build"] += 1
                elif order.unit.location.province not in variant.map.powers[power].home:
                    found["build away from home"] += 1
        found["rebellion"] += sum("rebels" in line for line in phase.get("announcements", []))
        after = decode_position(variant, phase["next"])
        doubles_before = {u.location.province for u in before.units if u.type.letter in ("2A", "2F")}
        if doubles_before and not [u for u in after.units if u.type.letter in ("2A", "2F")] \
                and not before.extra.get("retreating_doubles"):
            found["double unit reverts"] += 1
        before = after
    return found


def main() -> None:
    variant = VariantCatalog().get("rise-of-rome-ii")
    record_first_seed(lambda seed: record_game(variant, seed, YEARS, ABOUT), lambda game: events(variant, game), WANTED, RECORDING, range(1, 500))


def test_the_recording_starts_from_the_start_of_rise_of_rome_ii(variant, recording):
    assert recording["variant"] == "rise-of-rome-ii"
    assert recording["start"] == encode_position(variant.initial_position())


def test_the_recording_covers_at_least_four_game_years(variant, recording):
    years = {variant.calendar.parse(p["phase"]).year for p in recording["phases"]}
    assert len(years) >= 4 and min(years) == -220


def test_the_recording_exercises_the_rules_of_rise_of_rome_ii(variant, recording):
    found = events(variant, recording)
    missing = [w for w in WANTED if not found[w]]
    assert not missing, f"the recorded game has no {missing}: {dict(found)}"


def test_replaying_the_orders_gives_every_recorded_outcome_and_position(variant, recording):
    replay(variant, recording)


if __name__ == "__main__":
    main()
