"""Several units in one province: leaders and the units they lead (Rise of Rome II 3.4), and
garrisons beside friendly units (Roman Diplomacy 3), on test-only deltas over the real boards."""

from __future__ import annotations

import pytest

from gm.domain.orders import Hold, Move, SupportHold, SupportMove
from gm.domain.outcomes import Reason

from .deltas import Garrisons, Lead, LeadersAndBridges, loc, position, ref, unit
from .helpers import dislodged, result_of, run, units

ROR = LeadersAndBridges()
RD = Garrisons()


def test_a_led_army_with_one_support_beats_an_army_with_one_support() -> None:
    # 3.4: the led army moves with 1 + 1/2, with one support 2 1/2, against a hold of 1 + 1.
    board = position(ROR, "S-220M", {"Carthage": ["A CAR", "L CAR", "A THA"], "Rome": ["A ZAM", "A NUM"]})
    orders = [
        ("Carthage", Lead(ref(ROR, "L CAR"), ref(ROR, "A CAR"))),
        ("Carthage", Move(ref(ROR, "A CAR"), loc("ZAM"))),
        ("Carthage", SupportMove(ref(ROR, "A THA"), ref(ROR, "A CAR"), loc("ZAM"))),
        ("Rome", Hold(ref(ROR, "A ZAM"))),
        ("Rome", SupportHold(ref(ROR, "A NUM"), ref(ROR, "A ZAM"))),
    ]
    report = run(ROR, board, orders)
    moved = result_of(report, "A CAR - ZAM")
    assert moved.succeeded
    assert moved.notes == ("led by the leader in CAR: +½",)
    assert result_of(report, "L CAR LEADS A CAR").succeeded
    assert "Carthage: L ZAM" in units(report) and "Carthage: A ZAM" in units(report)
    assert list(dislodged(report)) == ["Rome: A ZAM"]


def test_without_its_leader_the_same_attack_bounces() -> None:
    board = position(ROR, "S-220M", {"Carthage": ["A CAR", "L CAR", "A THA"], "Rome": ["A ZAM", "A NUM"]})
    orders = [
        ("Carthage", Move(ref(ROR, "A CAR"), loc("ZAM"))),
        ("Carthage", SupportMove(ref(ROR, "A THA"), ref(ROR, "A CAR"), loc("ZAM"))),
        ("Rome", SupportHold(ref(ROR, "A NUM"), ref(ROR, "A ZAM"))),
    ]
    report = run(ROR, board, orders)
    assert result_of(report, "A CAR - ZAM").reason is Reason.BOUNCED
    assert "Carthage: L CAR" in units(report)  # the leader, unordered, stays


def test_an_attack_on_a_space_cuts_the_support_of_every_unit_in_it() -> None:
    # 3.4: the leader supports a foreign unit, its army supports too; one attack cuts both.
    board = position(ROR, "S-220M", {"Rome": ["A ROM", "L ROM", "A ETU"], "Carthage": ["A CAM", "A SIC", "A UMB"],
                                     "Greek States": ["A APU"]})
    orders = [
        ("Rome", SupportMove(ref(ROR, "L ROM"), ref(ROR, "A APU"), loc("CAM"))),
        ("Rome", SupportMove(ref(ROR, "A ROM"), ref(ROR, "A APU"), loc("CAM"))),
        ("Greek States", Move(ref(ROR, "A APU"), loc("CAM"))),
        ("Carthage", Move(ref(ROR, "A SIC"), loc("CAM"))),
        ("Carthage", Hold(ref(ROR, "A CAM"))),
    ]
    uncut = run(ROR, board, orders)
    assert result_of(uncut, "A APU - CAM").succeeded  # 1 + 1/2 + 1 against 1
    cut = run(ROR, board, orders + [("Carthage", Move(ref(ROR, "A UMB"), loc("ROM")))])
    assert result_of(cut, "L ROM S A APU - CAM").reason is Reason.CUT
    assert result_of(cut, "A ROM S A APU - CAM").reason is Reason.CUT


def test_an_overpowered_space_loses_every_unit_in_it_and_each_retreats_on_its_own() -> None:
    board = position(ROR, "S-220M", {"Rome": ["A ROM", "L ROM"], "Carthage": ["A CAM", "A APU", "A ETU"]})
    orders = [
        ("Carthage", Move(ref(ROR, "A CAM"), loc("ROM"))),
        ("Carthage", SupportMove(ref(ROR, "A APU"), ref(ROR, "A CAM"), loc("ROM"))),
        ("Carthage", SupportMove(ref(ROR, "A ETU"), ref(ROR, "A CAM"), loc("ROM"))),
    ]
    report = run(ROR, board, orders)  # 3 against the stack's 1 + 1/2
    assert result_of(report, "A CAM - ROM").succeeded
    assert dislodged(report) == {"Rome: A ROM": ["UMB"], "Rome: L ROM": ["TYR", "UMB"]}
    weaker = run(ROR, board, orders[:2])  # 2 against 1 1/2: still enough
    assert set(dislodged(weaker)) == {"Rome: A ROM", "Rome: L ROM"}
    alone = run(ROR, board, orders[:1])  # 1 against 1 1/2: the stack holds with the sum
    assert result_of(alone, "A CAM - ROM").reason is Reason.BOUNCED


def test_a_leader_joins_its_own_army_but_not_a_foreign_one() -> None:
    board = position(ROR, "S-220M", {"Rome": ["A ROM", "L CAM"], "Carthage": ["A APU"]})
    joins = run(ROR, board, [("Rome", Move(ref(ROR, "L CAM"), loc("ROM")))])
    assert result_of(joins, "L CAM - ROM").succeeded
    assert "Rome: L ROM" in units(joins) and "Rome: A ROM" in units(joins)
    refused = run(ROR, board, [("Rome", Move(ref(ROR, "L CAM"), loc("APU")))])
    assert result_of(refused, "L CAM - APU").reason is Reason.BOUNCED  # 1/2 against the army's 1


def test_a_leader_and_its_army_entering_one_space_together_do_not_bounce() -> None:
    board = position(ROR, "S-220M", {"Rome": ["A ROM", "L APU"]})
    report = run(ROR, board, [("Rome", Move(ref(ROR, "A ROM"), loc("CAM"))),
                              ("Rome", Move(ref(ROR, "L APU"), loc("CAM")))])
    assert units(report) == ["Rome: A CAM", "Rome: L CAM"]


def test_an_order_naming_a_shared_province_goes_to_the_unit_of_the_type_written() -> None:
    board = position(ROR, "S-220M", {"Rome": ["A ROM", "L ROM"]})
    report = run(ROR, board, [("Rome", Move(ref(ROR, "L ROM"), loc("TYR"))), ("Rome", Move(ref(ROR, "A ROM"), loc("CAM")))])
    assert units(report) == ["Rome: A CAM", "Rome: L TYR"]


def test_a_garrison_beside_a_friendly_army_must_be_beaten_with_it() -> None:
    board = position(RD, "S100M", {"Latium": ["G ROM", "A ROM"], "Gallia": ["A TUS", "A VEN", "A APU"]})
    attack = [("Gallia", Move(ref(RD, "A TUS"), loc("ROM"))),
              ("Gallia", SupportMove(ref(RD, "A VEN"), ref(RD, "A TUS"), loc("ROM")))]
    held = run(RD, board, attack)  # 2 against 1 + 1
    assert result_of(held, "A TUS - ROM").reason is Reason.BOUNCED
    beaten = run(RD, board, attack + [("Gallia", SupportMove(ref(RD, "A APU"), ref(RD, "A TUS"), loc("ROM")))])
    assert result_of(beaten, "A TUS - ROM").succeeded
    # Both are dislodged; the garrison never moves, so it has nowhere to go and is destroyed.
    assert dislodged(beaten) == {"Latium: A ROM": ["NAP"], "Latium: G ROM": []}


def test_a_garrison_supports_like_an_army() -> None:
    board = position(RD, "S100M", {"Latium": ["G ROM", "A NAP"], "Gallia": ["A APU"]})
    report = run(RD, board, [("Latium", SupportMove(ref(RD, "G ROM"), ref(RD, "A NAP"), loc("APU"))),
                             ("Latium", Move(ref(RD, "A NAP"), loc("APU")))])
    assert result_of(report, "A NAP - APU").succeeded


def test_federated_empires_neither_support_against_nor_cut_each_other() -> None:
    extra = {"federations": {"Roman League": ["Latium", "Gallia"]}}
    board = position(RD, "S100M", {"Latium": ["A ROM", "A VEN"], "Gallia": ["A TUS"], "Samnium": ["A APU"]},
                     extra=extra)
    # Samnium attacks Rome with Gallia's support: a federated support does not count against Latium.
    report = run(RD, board, [("Samnium", Move(ref(RD, "A APU"), loc("ROM"))),
                             ("Gallia", SupportMove(ref(RD, "A TUS"), ref(RD, "A APU"), loc("ROM"))),
                             ("Latium", Move(ref(RD, "A VEN"), loc("TUS")))])
    assert result_of(report, "A APU - ROM").reason is Reason.BOUNCED
    assert result_of(report, "A TUS S A APU - ROM").succeeded  # Latium's attack did not cut it
    alone = position(RD, "S100M", {"Latium": ["A ROM", "A VEN"], "Gallia": ["A TUS"], "Samnium": ["A APU"]})
    report = run(RD, alone, [("Samnium", Move(ref(RD, "A APU"), loc("ROM"))),
                             ("Gallia", SupportMove(ref(RD, "A TUS"), ref(RD, "A APU"), loc("ROM")))])
    assert result_of(report, "A APU - ROM").succeeded


@pytest.mark.parametrize("units_in_rome", [["A ROM", "A ROM"], ["L ROM", "L ROM"]])
def test_stacks_the_variant_refuses_are_refused(units_in_rome: list[str]) -> None:
    problem = ROR.stack_problem([unit(ROR, "Rome", text) for text in units_in_rome])
    assert problem is not None and "may not stand together" in problem


def test_a_variant_order_is_judged_on_each_board_anew() -> None:
    # The verdict cache keeps only what depends on the map: a lead needs the led unit there.
    lead = [("Rome", Lead(ref(ROR, "L ROM"), ref(ROR, "A ROM")))]
    with_army = run(ROR, position(ROR, "S-220M", {"Rome": ["A ROM", "L ROM"]}), lead)
    assert result_of(with_army, "L ROM LEADS A ROM").succeeded
    alone = run(ROR, position(ROR, "S-220M", {"Rome": ["L ROM"], "Carthage": ["A CAM"]}), lead)
    assert result_of(alone, "L ROM LEADS A ROM").reason is Reason.ILLEGAL


def test_units_that_may_share_swap_places_without_a_battle() -> None:
    # Rome's leader and double army swap; Carthage's army entering one of the two places
    # bounces against the double army's 2 (the swap is not a lost head-to-head battle).
    board = position(ROR, "S-220M", {"Rome": ["L ETU", "2A ROM"], "Carthage": ["A UMB"]})
    report = run(ROR, board, [("Rome", Move(ref(ROR, "L ETU"), loc("ROM"))),
                              ("Rome", Move(ref(ROR, "2A ROM"), loc("ETU"))),
                              ("Carthage", Move(ref(ROR, "A UMB"), loc("ETU")))])
    assert units(report) == ["Carthage: A UMB", "Rome: 2A ETU", "Rome: L ROM"]
