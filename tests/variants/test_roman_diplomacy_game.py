"""A recorded game of Roman Diplomacy I as a golden regression test.

``roman_diplomacy_game.json`` holds a game played by ``gm.bots.plausible.PlausiblePlayer`` (with
the rules module's own orders: fleets' several steps, FEDERATE, builds in the Imperial City
first) with a fixed seed from Winter A.D. 99 for YEARS game years. Its map lists no powers:
four empires found the game as ``gm.games.lifecycle.start`` does it (each joins with its
Imperial City, then ``admit_joining`` brings them in for the opening adjustment phase), and two
more join during the game (JOINING: before Spring 100 and before Spring 101; they come in at the
next adjustment phase), six players over the first two years. The test replays the orders
through the order parser and the engine and compares every outcome, announcement and position.

The seed is the first one whose game exercises the rules that matter: a fleet taking several
steps, a federation made, a neutral garrison taken, barbarian land cleared by an army and
spreading into it again, a barbarian army raised, an empire joining during the game, a retreat
and a build in an Imperial City after the opening one. To record it again after a deliberate
change (and after reading the differences):

    .venv/bin/python -m tests.variants.test_roman_diplomacy_game
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.variant import Variant
from gm.domain.orders import Build, MoveInRounds, Retreat
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.orders import OrderGrammar, parse_line
from gm.store.codec import decode_position, encode_position
from gm.variants.catalog import VariantCatalog
from gm.variants.roman_diplomacy.state import RomanState
from gm.variants.setup import setup_of
from tests.variants.recorded import assert_orders_read_back, load, record_first_seed, record_game, replay

RECORDING = Path(__file__).with_name("roman_diplomacy_game.json")
YEARS = 12  # A.D. 99 (the opening builds) to A.D. 110
ABOUT = "Recorded by tests/variants/test_roman_diplomacy_game.py (see its docstring); do not edit by hand."
FOUNDERS = (("Latium", "ROM"), ("Hispania", "SPA"), ("Graecia", "GRE"), ("Pontus", "SEV"))
JOINING = {  # the phase before which an empire asks to join: its name, the cities it would have
    "S100M": ("Carthago", ("TUN", "NAP", "MAR")),
    "S101M": ("Asia", ("SMY", "ANK", "CON", "BUL", "RUM", "TRI", "VEN")),
}
WANTED = (
    "fleet takes several steps",
    "federation made",
    "neutral garrison taken",
    "barbarian land cleared by an army",
    "cleared land barbarian again",
    "barbarian army raised",
    "empire joins during the game",
    "retreat",
    "Imperial City build after the opening",
)


@pytest.fixture(scope="module")
def variant() -> Variant:
    return VariantCatalog().get("roman-diplomacy-i")


@pytest.fixture(scope="module")
def recording() -> dict[str, Any]:
    return load(RECORDING)


def opening(variant: Variant, seed: int) -> Position:
    """The start as the game's lifecycle makes it: the founders' choices, then their admission."""
    position = variant.initial_position()
    for empire, city in FOUNDERS:
        position = setup_of(variant).with_joining(position, empire, city)
    return setup_of(variant).admit_joining(position, PhaseLog(f"recorded {seed}"))


def joining(variant: Variant) -> Any:
    def asking(position: Position) -> Sequence[tuple[str, str]]:
        wanted = JOINING.get(str(position.phase))
        if wanted is None:
            return []
        empire, cities = wanted
        free = {variant.map.provinces[c].name for c in cities} & set(setup_of(variant).joining_choices(position))
        city = next((c for c in cities if variant.map.provinces[c].name in free), None)
        return [(empire, city)] if city else []
    return asking


def record(variant: Variant, seed: int) -> dict[str, Any]:
    return record_game(variant, seed, YEARS, ABOUT, start=opening(variant, seed), joining=joining(variant))


def events(variant: Variant, recording: dict[str, Any]) -> Counter[str]:
    grammar = OrderGrammar.for_variant(variant)
    found: Counter[str] = Counter()
    before = decode_position(variant, recording["start"])
    first = str(before.phase)
    neutral = {u.location.province for u in before.units if u.power == "Neutral" and u.type.letter == "G"}
    cleared: set[str] = set()
    for phase in recording["phases"]:
        cities = RomanState.of(before).empires
        for power, text, outcome, _reason in phase["results"]:
            order = parse_line(text, grammar).order
            if outcome != "succeeds":
                continue
            if isinstance(order, MoveInRounds) and len(order.steps) > 1:
                found["fleet takes several steps"] += 1
            elif isinstance(order, Retreat):
                found["retreat"] += 1
            elif isinstance(order, Build):
                if order.unit.type is not None and order.unit.type.letter == "B":
                    found["barbarian army raised"] += 1
                elif order.unit.location.province == cities.get(power) and phase["phase"] != first:
                    found["Imperial City build after the opening"] += 1
        for line in phase.get("announcements", []):
            found["federation made"] += " federate: " in line
            found["empire joins during the game"] += "joins the game" in line
        after = decode_position(variant, phase["next"])
        joined = set(RomanState.of(after).empires.values())
        for centre, owner in after.centres.items():
            if centre in neutral and owner not in ("Neutral", "Barbarian") and centre not in joined:
                found["neutral garrison taken"] += 1
                neutral.discard(centre)
        neutral |= {u.location.province for u in after.units if u.power == "Neutral" and u.type.letter == "G"}
        was, now = RomanState.of(before).barbarians, RomanState.of(after).barbarians
        armies = {u.location.province for u in after.units if u.type.letter == "A"}
        newly_cleared = {p for p in was - now if p in armies}
        found["barbarian land cleared by an army"] += len(newly_cleared)
        found["cleared land barbarian again"] += len(cleared & (now - was))
        cleared = (cleared - now) | newly_cleared
        before = after
    return found


def main() -> None:
    variant = VariantCatalog().get("roman-diplomacy-i")
    record_first_seed(lambda seed: record(variant, seed), lambda game: events(variant, game), WANTED, RECORDING, range(1, 201))


def test_the_recording_starts_from_the_founders_opening(variant, recording):
    assert recording["variant"] == "roman-diplomacy-i"
    start = opening(variant, recording["seed"])
    assert recording["start"] == encode_position(start)
    assert str(start.phase) == "W99A" and start.phase.kind is PhaseKind.ADJUSTMENTS
    assert RomanState.of(start).empires == dict(FOUNDERS)
    assert start.centres == {city: empire for empire, city in FOUNDERS}


def test_six_players_join_over_the_first_two_years(variant, recording):
    asked = [(p["phase"], empire) for p in recording["phases"] for empire, _city in p.get("joining", [])]
    assert [phase for phase, _ in asked] == list(JOINING)
    admitted = [(p["phase"], line) for p in recording["phases"] for line in p.get("announcements", [])
                if "joins the game" in line]
    assert [line.split(" joins")[0] for _, line in admitted] == [empire for _, empire in asked]
    assert all(variant.calendar.parse(phase).year <= 101 for phase, _ in admitted)
    assert len(FOUNDERS) + len(admitted) >= 6


def test_the_recording_covers_at_least_five_game_years(variant, recording):
    years = {variant.calendar.parse(p["phase"]).year for p in recording["phases"]}
    assert len(years) >= 5 and min(years) == 99


def test_the_recording_exercises_the_rules_of_roman_diplomacy(variant, recording):
    found = events(variant, recording)
    missing = [w for w in WANTED if not found[w]]
    assert not missing, f"the recorded game has no {missing}: {dict(found)}"


def test_every_recorded_order_reads_back(variant, recording):
    assert_orders_read_back(variant, recording)


def test_replaying_the_orders_gives_every_recorded_outcome_and_position(variant, recording):
    replay(variant, recording)


if __name__ == "__main__":
    main()
