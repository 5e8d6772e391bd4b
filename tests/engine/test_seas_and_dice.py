"""Several fleets of several powers in one sea, and dice anyone can check (Eagles' sea warfare,
on a test-only delta over the real board)."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.adjudicator.dice import Dice, DiceError, commitment, derive
from gm.domain.orders import Hold, Move, Retreat, SupportMove
from gm.domain.outcomes import Reason
from gm.domain.position import Dislodgement

from .deltas import AttackAtSea, Seas, loc, position, ref, unit
from .helpers import dislodged, result_of, run, units

EAGLES = Seas()


def test_fleets_entering_a_sea_never_bounce_and_never_dislodge() -> None:
    board = position(EAGLES, "S118M", {"Roma": ["F MIN"], "Carthago": ["F MSA"], "Byzantium": ["F MTY"]})
    report = run(EAGLES, board, [("Roma", Hold(ref(EAGLES, "F MIN"))),
                                 ("Carthago", Move(ref(EAGLES, "F MSA"), loc("MIN"))),
                                 ("Byzantium", Move(ref(EAGLES, "F MTY"), loc("MIN")))])
    assert units(report) == ["Byzantium: F MIN", "Carthago: F MIN", "Roma: F MIN"]
    assert dislodged(report) == {}


def test_a_fleet_entering_a_sea_cuts_no_support_given_from_it() -> None:
    board = position(EAGLES, "S118M", {"Roma": ["F MSA", "A NUM"], "Carthago": ["A CAR", "F MIN"]})
    report = run(EAGLES, board, [("Roma", SupportMove(ref(EAGLES, "F MSA"), ref(EAGLES, "A NUM"), loc("CAR"))),
                                 ("Roma", Move(ref(EAGLES, "A NUM"), loc("CAR"))),
                                 ("Carthago", Move(ref(EAGLES, "F MIN"), loc("MSA")))])
    assert result_of(report, "F MSA S A NUM - CAR").succeeded
    assert result_of(report, "A NUM - CAR").succeeded


def test_a_fleet_leaving_port_enters_a_sea_where_another_powers_fleet_stands() -> None:
    # The variant is asked about the units as they would stand together: both in the sea.
    board = position(EAGLES, "S118M", {"Roma": ["F MIN"], "Carthago": ["F CAR"]})
    report = run(EAGLES, board, [("Carthago", Move(ref(EAGLES, "F CAR"), loc("MIN")))])
    assert result_of(report, "F CAR - MIN").succeeded
    assert units(report) == ["Carthago: F MIN", "Roma: F MIN"]


def test_fleets_of_two_seas_entering_one_port_bounce_as_standard() -> None:
    # At sea they may share; in the port they would stand together, which they may not.
    board = position(EAGLES, "S118M", {"Roma": ["F MIN"], "Byzantium": ["F MSA"]})
    report = run(EAGLES, board, [("Roma", Move(ref(EAGLES, "F MIN"), loc("CAR"))),
                                 ("Byzantium", Move(ref(EAGLES, "F MSA"), loc("CAR")))])
    assert result_of(report, "F MIN - CAR").reason is Reason.BOUNCED
    assert result_of(report, "F MSA - CAR").reason is Reason.BOUNCED


def test_fleets_retreating_into_one_sea_share_it_and_into_one_port_clash() -> None:
    roman, carthaginian = unit(EAGLES, "Roma", "F SIC"), unit(EAGLES, "Carthago", "F BYC")
    board = position(EAGLES, "S118R", {}).replace(dislodged=(
        Dislodgement(roman, None, (loc("MIN"), loc("SAD"))), Dislodgement(carthaginian, None, (loc("MIN"), loc("SAD")))))
    into_sea = run(EAGLES, board, [("Roma", Retreat(ref(EAGLES, "F SIC"), loc("MIN"))),
                                   ("Carthago", Retreat(ref(EAGLES, "F BYC"), loc("MIN")))])
    assert units(into_sea) == ["Carthago: F MIN", "Roma: F MIN"]
    into_port = run(EAGLES, board, [("Roma", Retreat(ref(EAGLES, "F SIC"), loc("SAD"))),
                                    ("Carthago", Retreat(ref(EAGLES, "F BYC"), loc("SAD")))])
    assert units(into_port) == []


def _seed_rolling(value: int, purpose: str, phase: str = "S118M") -> str:
    """A seed whose first roll for ``purpose`` shows ``value`` (tests fix the seed)."""
    return next(seed for seed in (f"seed-{n}" for n in range(1000))
                if derive(seed, f"{phase}|{purpose}|0", 6) == value)


ATTACK = "attack by F MIN (Roma) on F MIN"


@pytest.mark.parametrize(("value", "survivors"), [
    (6, ["Roma: F MIN"]),
    (1, ["Carthago: F MIN"]),
    (3, ["Carthago: F MIN", "Roma: F MIN"]),
])
def test_an_attack_at_sea_rolls_a_die_recorded_in_the_results(value: int, survivors: list[str]) -> None:
    board = position(EAGLES, "S118M", {"Roma": ["F MIN"], "Carthago": ["F MIN"]})
    orders = [("Roma", AttackAtSea(ref(EAGLES, "F MIN"), ref(EAGLES, "F MIN"), "Carthago"))]
    report = run(EAGLES, board, orders, seed=_seed_rolling(value, ATTACK))
    (roll,) = report.rolls
    assert (roll.phase, roll.purpose, roll.sides, roll.value) == ("S118M", ATTACK, 6, value)
    assert roll.effect in ("F MIN (Carthago) sunk", "F MIN (Roma) sunk", "no effect")
    assert units(report) == survivors
    if value != 3:
        (gone,) = report.destroyed
        assert gone[1] in ("sunk by F MIN (Roma)", "sunk attacking")


def test_a_fleet_sunk_before_the_land_battle_gives_no_support_and_its_order_says_why() -> None:
    board = position(EAGLES, "S118M", {"Roma": ["F MSA", "A NUM"], "Carthago": ["F MSA", "A CAR"]})
    orders = [("Roma", AttackAtSea(ref(EAGLES, "F MSA"), ref(EAGLES, "F MSA"), "Carthago")),
              ("Carthago", SupportMove(ref(EAGLES, "F MSA"), ref(EAGLES, "A CAR"), loc("NUM"))),
              ("Carthago", Move(ref(EAGLES, "A CAR"), loc("NUM")))]
    sunk = run(EAGLES, board, orders, seed=_seed_rolling(6, "attack by F MSA (Roma) on F MSA"))
    support = result_of(sunk, "F MSA S A CAR - NUM")
    assert support.reason is Reason.DESTROYED and support.detail == "sunk by F MSA (Roma)"
    assert result_of(sunk, "A CAR - NUM").reason is Reason.BOUNCED
    attacked = run(EAGLES, board, orders, seed=_seed_rolling(4, "attack by F MSA (Roma) on F MSA"))
    support = result_of(attacked, "F MSA S A CAR - NUM")
    assert support.reason_text == "prevented: attacked by F MSA (Roma)"  # an attacked fleet gives no support
    assert result_of(attacked, "A CAR - NUM").reason is Reason.BOUNCED


def test_the_same_seed_always_gives_the_same_phase() -> None:
    board = position(EAGLES, "S118M", {"Roma": ["F MIN"], "Carthago": ["F MIN"]})
    orders = [("Roma", AttackAtSea(ref(EAGLES, "F MIN"), ref(EAGLES, "F MIN"), "Carthago")),
              ("Carthago", AttackAtSea(ref(EAGLES, "F MIN"), ref(EAGLES, "F MIN"), "Roma"))]
    for seed in ("alpha", "beta", "gamma"):
        first, second = run(EAGLES, board, orders, seed=seed), run(EAGLES, board, orders, seed=seed)
        assert [(r.purpose, r.value, r.effect) for r in first.rolls] == [(r.purpose, r.value, r.effect) for r in second.rolls]
        assert units(first) == units(second)


def test_a_phase_that_must_roll_without_a_seed_is_refused() -> None:
    board = position(EAGLES, "S118M", {"Roma": ["F MIN"], "Carthago": ["F MIN"]})
    with pytest.raises(DiceError):
        run(EAGLES, board, [("Roma", AttackAtSea(ref(EAGLES, "F MIN"), ref(EAGLES, "F MIN"), "Carthago"))])


def test_anyone_can_rederive_a_roll_from_the_published_seed() -> None:
    # The recipe of gm/adjudicator/dice.py, written out independently.
    dice = Dice("the published seed")
    roll = dice.roll("F118M", "storm F MIN")
    again = dice.roll("F118M", "storm F MIN")  # the same purpose twice: the second is n = 1
    for made, got in ((0, roll), (1, again)):
        digest = hmac.new(b"the published seed", f"F118M|storm F MIN|{made}|0".encode(), hashlib.sha256).digest()
        number = int.from_bytes(digest[:8], "big")
        assert number < (1 << 64) - (1 << 64) % 6  # no rejection for these two
        assert got.value == number % 6 + 1
    assert commitment("the published seed") == hashlib.sha256(b"the published seed").hexdigest()


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=20), st.text(max_size=20), st.integers(min_value=1, max_value=20))
def test_every_roll_is_a_face_of_the_die_and_reproducible(seed: str, purpose: str, sides: int) -> None:
    value = derive(seed, f"S1M|{purpose}|0", sides)
    assert 1 <= value <= sides
    assert derive(seed, f"S1M|{purpose}|0", sides) == value


def test_the_dice_are_fair_over_many_rolls() -> None:
    counts = [0] * 6
    for n in range(6000):
        counts[derive("fairness", f"S1M|roll|{n}", 6) - 1] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_a_support_goes_to_the_unit_in_a_shared_sea_that_makes_the_move_it_names() -> None:
    board = position(EAGLES, "S118M", {"Byzantium": ["F MIN"], "Roma": ["F MIN", "F MSA"], "Carthago": ["A CAR"]})
    report = run(EAGLES, board, [("Roma", Move(ref(EAGLES, "F MIN"), loc("CAR"))),
                                 ("Roma", SupportMove(ref(EAGLES, "F MSA"), ref(EAGLES, "F MIN"), loc("CAR")))])
    assert result_of(report, "F MSA S F MIN - CAR").succeeded
    assert list(dislodged(report)) == ["Carthago: A CAR"]
