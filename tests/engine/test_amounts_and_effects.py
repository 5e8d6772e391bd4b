"""Strengths as exact amounts, supports cut by amounts, and rules that act before resolution:
a strength bonus, a border closed by another order, an order resolved as a standard one, a unit
gone before the battles (Rise of Rome II 6.2, 7.3 and 6.1, Diplomacy of the Empire's forts)."""

from __future__ import annotations

from gm.domain.orders import Hold, Move, SupportHold, SupportMove
from gm.domain.outcomes import Reason, SupportLeft
from gm.reports.notes import notes_text

from .deltas import LeadersAndBridges, Roads, Sack, loc, position, ref
from .helpers import dislodged, result_of, run

ROR = LeadersAndBridges()
DOTE = Roads()


def _double_support(attacker: str | None) -> tuple:
    """Rome's double army supports an attack of strength 1 into a province held with support (2)."""
    board = position(ROR, "S-220M", {"Rome": ["2A ROM", "A APU"], "Carthage": ["A CAM", "A SIC", "A ETU", "L ETU"]})
    orders = [
        ("Rome", SupportMove(ref(ROR, "2A ROM"), ref(ROR, "A APU"), loc("CAM"))),
        ("Rome", Move(ref(ROR, "A APU"), loc("CAM"))),
        ("Carthage", SupportHold(ref(ROR, "A SIC"), ref(ROR, "A CAM"))),
    ]
    if attacker is not None:
        orders.append(("Carthage", Move(ref(ROR, attacker), loc("ROM"))))
    return board, orders


def test_a_double_unit_supports_with_two() -> None:
    report = run(ROR, *_double_support(None))
    assert result_of(report, "A APU - CAM").succeeded  # 1 + 2 against 1 + 1


def test_an_attack_of_one_cuts_one_of_a_double_units_two() -> None:
    report = run(ROR, *_double_support("A ETU"))
    support = result_of(report, "2A ROM S A APU - CAM")
    assert support.succeeded and support.notes == (SupportLeft(1),)
    assert notes_text(support.notes) == ["support reduced to 1 by the attack on it"]
    assert result_of(report, "A APU - CAM").reason is Reason.BOUNCED  # 1 + 1 against 1 + 1


def test_a_leaders_attack_of_a_half_leaves_one_and_a_half() -> None:
    report = run(ROR, *_double_support("L ETU"))
    support = result_of(report, "2A ROM S A APU - CAM")
    assert support.notes == (SupportLeft(1.5),)
    assert notes_text(support.notes) == ["support reduced to 1½ by the attack on it"]
    assert result_of(report, "A APU - CAM").succeeded  # 1 + 1 1/2 against 1 + 1


def test_an_attack_still_cuts_the_whole_support_of_a_single_unit() -> None:
    board = position(ROR, "S-220M", {"Rome": ["A ROM", "A APU"], "Carthage": ["A CAM", "L ETU"]})
    report = run(ROR, board, [("Rome", SupportMove(ref(ROR, "A ROM"), ref(ROR, "A APU"), loc("CAM"))),
                              ("Rome", Move(ref(ROR, "A APU"), loc("CAM"))),
                              ("Carthage", Move(ref(ROR, "L ETU"), loc("ROM")))])
    assert result_of(report, "A ROM S A APU - CAM").reason is Reason.CUT


def test_a_dislodged_double_unit_gives_no_support() -> None:
    _, orders = _double_support(None)
    board = position(ROR, "S-220M", {"Rome": ["2A ROM", "A APU"], "Carthage": ["A CAM", "A SIC", "A ETU", "A UMB", "2F TYR"]})
    orders = orders + [("Carthage", Move(ref(ROR, "A ETU"), loc("ROM"))),
                       ("Carthage", SupportMove(ref(ROR, "A UMB"), ref(ROR, "A ETU"), loc("ROM")))]
    report = run(ROR, board, orders)
    # ETU's attack of 1 + 1 equals the double unit's hold of 2: it holds, but an attack worth 2
    # (its support counted: "the value of the attack", 6.2) takes all of its support.
    assert result_of(report, "2A ROM S A APU - CAM").reason is Reason.CUT
    assert "Rome: 2A ROM" not in dislodged(report)
    stronger = run(ROR, board, orders + [("Carthage", SupportMove(ref(ROR, "2F TYR"), ref(ROR, "A ETU"), loc("ROM")))])
    assert result_of(stronger, "2A ROM S A APU - CAM").reason is Reason.CUT
    assert "Rome: 2A ROM" in dislodged(stronger)


# -- rule 7.3, the rules' own example -----------------------------------------------------

def test_an_enemy_fleet_attacking_syracuse_closes_the_land_bridge_to_zama() -> None:
    board = position(ROR, "S-220M", {"Carthage": ["F AFR"], "Rome": ["A SYR"]})
    report = run(ROR, board, [("Carthage", Move(ref(ROR, "F AFR"), loc("SYR"))),
                              ("Rome", Move(ref(ROR, "A SYR"), loc("ZAM")))])
    blocked = result_of(report, "A SYR - ZAM")
    assert not blocked.succeeded and blocked.reason is Reason.PREVENTED
    assert blocked.reason_text == "prevented: the land bridge to ZAM is closed by F AFR"
    assert result_of(report, "F AFR - SYR").reason is Reason.BOUNCED  # the army held in Syracuse


def test_a_fleet_supporting_another_attack_leaves_the_bridge_open() -> None:
    board = position(ROR, "S-220M", {"Carthage": ["F AFR", "F IBE"], "Rome": ["A SYR"]})
    report = run(ROR, board, [("Carthage", SupportMove(ref(ROR, "F AFR"), ref(ROR, "F IBE"), loc("SIC"))),
                              ("Carthage", Move(ref(ROR, "F IBE"), loc("SIC"))),
                              ("Rome", Move(ref(ROR, "A SYR"), loc("ZAM")))])
    assert result_of(report, "A SYR - ZAM").succeeded


def test_a_fleet_supporting_an_attack_on_syracuse_closes_the_bridge_to_moves_and_supports() -> None:
    board = position(ROR, "S-220M", {"Carthage": ["F AFR", "F ION"], "Rome": ["A SYR", "A THA"]})
    report = run(ROR, board, [("Carthage", SupportMove(ref(ROR, "F AFR"), ref(ROR, "F ION"), loc("SYR"))),
                              ("Carthage", Move(ref(ROR, "F ION"), loc("SYR"))),
                              ("Rome", SupportMove(ref(ROR, "A SYR"), ref(ROR, "A THA"), loc("ZAM"))),
                              ("Rome", Move(ref(ROR, "A THA"), loc("ZAM")))])
    assert result_of(report, "A SYR S A THA - ZAM").reason is Reason.PREVENTED
    assert result_of(report, "F ION - SYR").succeeded  # 2 against the army's hold of 1


def test_the_fleets_own_power_may_still_use_the_bridge() -> None:
    board = position(ROR, "S-220M", {"Carthage": ["F AFR", "A SYR"]})
    report = run(ROR, board, [("Carthage", Move(ref(ROR, "F AFR"), loc("SYR"))),
                              ("Carthage", Move(ref(ROR, "A SYR"), loc("ZAM")))])
    assert result_of(report, "A SYR - ZAM").succeeded and result_of(report, "F AFR - SYR").succeeded


# -- an order resolved as a standard one, finished after resolution ------------------------

def test_a_sack_holds_and_any_attack_spoils_it() -> None:
    board = position(ROR, "S-220M", {"Rome": ["A SYR"], "Carthage": ["F AFR"]})
    quiet = run(ROR, board, [("Rome", Sack(ref(ROR, "A SYR")))])
    assert result_of(quiet, "A SYR SACK").succeeded
    attacked = run(ROR, board, [("Rome", Sack(ref(ROR, "A SYR"))), ("Carthage", Move(ref(ROR, "F AFR"), loc("SYR")))])
    assert not result_of(attacked, "A SYR SACK").succeeded
    assert result_of(attacked, "F AFR - SYR").reason is Reason.BOUNCED  # the sacking unit held


# -- a hold bonus: only while the unit does not move ---------------------------------------

def test_a_fortified_city_adds_one_to_its_owners_hold() -> None:
    extra = {"forts": {"ITA": "Italia"}}
    board = position(DOTE, "S-43M", {"Italia": ["I ITA"], "Hispania": ["I NAR", "I RAE"]}, extra=extra)
    attack = [("Hispania", Move(ref(DOTE, "I NAR"), loc("ITA"))),
              ("Hispania", SupportMove(ref(DOTE, "I RAE"), ref(DOTE, "I NAR"), loc("ITA")))]
    report = run(DOTE, board, attack + [("Italia", Hold(ref(DOTE, "I ITA")))])
    assert result_of(report, "I NAR - ITA").reason is Reason.BOUNCED  # 2 against 1 + 1
    assert result_of(report, "I ITA H").notes == ("fortified city: +1 while it holds",)
    unfortified = run(DOTE, position(DOTE, "S-43M", {"Italia": ["I ITA"], "Hispania": ["I NAR", "I RAE"]}), attack)
    assert result_of(unfortified, "I NAR - ITA").succeeded


def test_a_fortified_city_does_not_help_a_unit_whose_move_failed() -> None:
    extra = {"forts": {"ITA": "Italia"}}
    board = position(DOTE, "S-43M", {"Italia": ["I ITA"], "Hispania": ["I NAR", "I RAE"], "Dalmatia": ["I DAL"]},
                     extra=extra)
    report = run(DOTE, board, [("Hispania", Move(ref(DOTE, "I NAR"), loc("ITA"))),
                               ("Hispania", SupportMove(ref(DOTE, "I RAE"), ref(DOTE, "I NAR"), loc("ITA"))),
                               ("Italia", Move(ref(DOTE, "I ITA"), loc("DAL")))])
    assert result_of(report, "I NAR - ITA").succeeded  # its move bounced: it stands with 1, not 2


def test_a_catapult_weighs_one_and_a_half() -> None:
    board = position(DOTE, "S-43M", {"Italia": ["K ITA"], "Hispania": ["I NAR", "I RAE"]})
    report = run(DOTE, board, [("Hispania", Move(ref(DOTE, "I NAR"), loc("ITA"))),
                               ("Hispania", SupportMove(ref(DOTE, "I RAE"), ref(DOTE, "I NAR"), loc("ITA")))])
    assert result_of(report, "I NAR - ITA").succeeded  # 2 against 1 1/2
    board = position(DOTE, "S-43M", {"Italia": ["K ITA", "I DAL"], "Hispania": ["I NAR", "I RAE"]})
    report = run(DOTE, board, [("Hispania", Move(ref(DOTE, "I NAR"), loc("ITA"))),
                               ("Hispania", SupportMove(ref(DOTE, "I RAE"), ref(DOTE, "I NAR"), loc("ITA"))),
                               ("Italia", SupportHold(ref(DOTE, "I DAL"), ref(DOTE, "K ITA")))])
    assert result_of(report, "I NAR - ITA").reason is Reason.BOUNCED  # 2 against 2 1/2
