"""Moves of several steps: in rounds (Roman Diplomacy 4), along paths (Diplomacy of the Empire's
roads) and second moves with the retreats (Diplomacy of the Empire's cavalry and fleets)."""

from __future__ import annotations

from gm.adjudicator.engine import adjudicate
from gm.domain.orders import Move, MoveAlongPath, MoveInRounds, MoveThen, Retreat, SupportHold, SupportMove
from gm.domain.outcomes import Reason, SupportedInto
from gm.domain.phases import PhaseKind
from gm.domain.units import Unit
from gm.reports.notes import notes_text

from .deltas import Roads, Rounds, loc, position, ref
from .helpers import dislodged, result_of, run, units

RD = Rounds()
DOTE = Roads()


def steps(*texts: str) -> tuple:
    return tuple(loc(t) for t in texts)


# -- rounds ----------------------------------------------------------------------------

def test_a_fleet_makes_every_step_of_its_journey() -> None:
    board = position(RD, "S100M", {"Latium": ["F TYS"]})
    report = run(RD, board, [("Latium", MoveInRounds(ref(RD, "F TYS"), steps("LYO", "SPA/SC")))])
    assert result_of(report, "F TYS - LYO - SPA/SC").succeeded
    assert units(report) == ["Latium: F SPA/SC"]


def test_a_failed_step_ends_the_journey_where_the_fleet_stands() -> None:
    # Rule 4: "those parts already completed still take place".
    board = position(RD, "S100M", {"Latium": ["F TYS"], "Iberia": ["A SPA"]})
    report = run(RD, board, [("Latium", MoveInRounds(ref(RD, "F TYS"), steps("LYO", "SPA/SC")))])
    journey = result_of(report, "F TYS - LYO - SPA/SC")
    assert journey.reason is Reason.BOUNCED
    assert journey.notes == ("step 2 to SPA/SC bounced; it stops in LYO",)
    assert "Latium: F LYO" in units(report)


def test_a_first_step_that_fails_ends_the_journey_before_it_starts() -> None:
    board = position(RD, "S100M", {"Latium": ["F TYS"], "Gallia": ["F MAR"]})
    report = run(RD, board, [("Latium", MoveInRounds(ref(RD, "F TYS"), steps("LYO", "SPA/SC"))),
                             ("Gallia", Move(ref(RD, "F MAR"), loc("LYO")))])
    assert result_of(report, "F TYS - LYO - SPA/SC").reason is Reason.BOUNCED
    assert units(report) == ["Gallia: F MAR", "Latium: F TYS"]


def test_a_later_step_goes_against_the_board_the_round_before_left() -> None:
    board = position(RD, "S100M", {"Latium": ["F TYS"], "Iberia": ["A SPA"]})
    report = run(RD, board, [("Latium", MoveInRounds(ref(RD, "F TYS"), steps("LYO", "SPA/SC"))),
                             ("Iberia", Move(ref(RD, "A SPA"), loc("GAS")))])
    assert result_of(report, "F TYS - LYO - SPA/SC").succeeded  # Spain was left in round 1
    assert units(report) == ["Iberia: A GAS", "Latium: F SPA/SC"]


def test_two_fleets_stepping_into_one_province_in_the_same_round_both_stop() -> None:
    board = position(RD, "S100M", {"Latium": ["F TYS"], "Lusitania": ["F MAO"]})
    report = run(RD, board, [("Latium", MoveInRounds(ref(RD, "F TYS"), steps("LYO", "SPA/SC"))),
                             ("Lusitania", MoveInRounds(ref(RD, "F MAO"), steps("POR", "SPA/NC")))])
    assert units(report) == ["Latium: F LYO", "Lusitania: F POR"]


class _HeavyFleets(Rounds):
    """Latium's fleets weigh 2: enough to show what a unit holds with in a later round."""

    def strength(self, unit: Unit) -> float:
        return 2 if unit.power == "Latium" else 1


def test_in_a_later_round_everything_else_holds_without_its_supports() -> None:
    heavy = _HeavyFleets()
    board = position(heavy, "S100M", {"Latium": ["F TYS"], "Iberia": ["A SPA", "A POR", "A GAS"]})
    journey = [("Latium", MoveInRounds(ref(heavy, "F TYS"), steps("LYO", "SPA/SC")))]
    supported = [("Iberia", SupportHold(ref(heavy, "A POR"), ref(heavy, "A SPA"))),
                 ("Iberia", SupportHold(ref(heavy, "A GAS"), ref(heavy, "A SPA")))]
    report = run(heavy, board, journey + supported)
    # Round 1's supports were for round 1: in round 2 Spain holds with 1 against 2.
    assert result_of(report, "F TYS - LYO - SPA/SC").succeeded
    assert list(dislodged(report)) == ["Iberia: A SPA"]


def test_a_route_may_not_enter_a_province_twice() -> None:
    board = position(RD, "S100M", {"Latium": ["F TYS"]})
    report = run(RD, board, [("Latium", MoveInRounds(ref(RD, "F TYS"), steps("LYO", "TYS")))])
    assert result_of(report, "F TYS - LYO - TYS").reason_text == "illegal: the route enters Tyrrhenian Sea twice"


def test_a_step_that_is_no_move_makes_the_whole_order_illegal() -> None:
    board = position(RD, "S100M", {"Latium": ["F TYS"]})
    report = run(RD, board, [("Latium", MoveInRounds(ref(RD, "F TYS"), steps("LYO", "BUR")))])
    assert result_of(report, "F TYS - LYO - BUR").reason is Reason.ILLEGAL
    assert units(report) == ["Latium: F TYS"]


# -- paths -----------------------------------------------------------------------------

ROAD = ["HIS", "NAR", "ITA", "DAL", "MAC"]


def test_the_road_move_from_hispania_to_macedonia() -> None:
    board = position(DOTE, "S-43M", {"Hispania": ["I HIS"]})
    report = run(DOTE, board, [("Hispania", MoveAlongPath(ref(DOTE, "I HIS"), steps(*ROAD[1:])))])
    assert result_of(report, "I HIS - NAR - ITA - DAL - MAC").succeeded
    assert units(report) == ["Hispania: I MAC"]


def test_two_road_moves_head_on_bounce_where_they_meet() -> None:
    # The rules' example: HIS - NAR, ITA, DAL, MAC against MAC - DAL, ITA, NAR, HIS. Moving one
    # province per step in step, both enter Italia in step 2: they bounce, each stopping in the
    # province it entered before.
    board = position(DOTE, "S-43M", {"Hispania": ["I HIS"], "Macedonia": ["I MAC"]})
    report = run(DOTE, board, [
        ("Hispania", MoveAlongPath(ref(DOTE, "I HIS"), steps(*ROAD[1:]))),
        ("Macedonia", MoveAlongPath(ref(DOTE, "I MAC"), steps(*reversed(ROAD[:-1])))),
    ])
    assert units(report) == ["Hispania: I NAR", "Macedonia: I DAL"]
    west = result_of(report, "I HIS - NAR - ITA - DAL - MAC")
    assert west.reason is Reason.BOUNCED and west.notes == ("step 2 to ITA bounced; it stops in NAR",)


def test_a_unit_entering_a_province_of_the_path_in_the_same_step_bounces_with_it() -> None:
    board = position(DOTE, "S-43M", {"Hispania": ["I HIS"], "Italia": ["I RAE"]})
    report = run(DOTE, board, [("Hispania", MoveAlongPath(ref(DOTE, "I HIS"), steps(*ROAD[1:]))),
                               ("Italia", Move(ref(DOTE, "I RAE"), loc("NAR")))])
    assert units(report) == ["Hispania: I HIS", "Italia: I RAE"]


def test_a_plain_move_into_a_later_province_of_the_path_meets_it_there_whatever_the_step() -> None:
    # Italia's one-province move into Dalmatia and the road unit, three steps from it, bounce:
    # Italia stays in Pannonia, the road unit stops in Italia, the province before.
    board = position(DOTE, "S-43M", {"Hispania": ["I HIS"], "Italia": ["I PAN"]})
    report = run(DOTE, board, [("Hispania", MoveAlongPath(ref(DOTE, "I HIS"), steps(*ROAD[1:]))),
                               ("Italia", Move(ref(DOTE, "I PAN"), loc("DAL")))])
    assert units(report) == ["Hispania: I ITA", "Italia: I PAN"]
    assert result_of(report, "I PAN - DAL").reason is Reason.BOUNCED


def test_a_path_that_never_sets_out_meets_no_plain_move() -> None:
    # The road unit's first step bounces off a unit holding Narbonensis: Italia enters Dalmatia.
    board = position(DOTE, "S-43M", {"Hispania": ["I HIS"], "Italia": ["I PAN", "I NAR"]})
    report = run(DOTE, board, [("Hispania", MoveAlongPath(ref(DOTE, "I HIS"), steps(*ROAD[1:]))),
                               ("Italia", Move(ref(DOTE, "I PAN"), loc("DAL")))])
    assert units(report) == ["Hispania: I HIS", "Italia: I DAL", "Italia: I NAR"]


def test_a_support_into_a_later_province_of_the_path_counts_when_the_unit_gets_there() -> None:
    extra = {"roads": [["HIS", "NAR"], ["NAR", "ITA"]]}
    board = position(DOTE, "S-43M", {"Hispania": ["I HIS", "I RAE"], "Italia": ["I ITA"]}, extra=extra)
    report = run(DOTE, board, [("Hispania", MoveAlongPath(ref(DOTE, "I HIS"), steps("NAR", "ITA"))),
                               ("Hispania", SupportMove(ref(DOTE, "I RAE"), ref(DOTE, "I HIS"), loc("ITA")))])
    path = result_of(report, "I HIS - NAR - ITA")
    assert path.succeeded and path.notes == (SupportedInto("ITA", 1),)
    assert notes_text(path.notes) == ["supported into ITA (+1)"]
    assert dislodged(report) == {"Italia: I ITA": ["DAL", "NEA", "NOR", "PAN"]}
    unsupported = run(DOTE, board, [("Hispania", MoveAlongPath(ref(DOTE, "I HIS"), steps("NAR", "ITA")))])
    assert units(unsupported) == ["Hispania: I NAR", "Hispania: I RAE", "Italia: I ITA"]


def test_a_support_along_a_road_the_position_lacks_is_illegal() -> None:
    board = position(DOTE, "S-43M", {"Hispania": ["I HIS", "I RAE"], "Italia": ["I ITA"]})
    report = run(DOTE, board, [("Hispania", MoveAlongPath(ref(DOTE, "I HIS"), steps("NAR", "ITA"))),
                               ("Hispania", SupportMove(ref(DOTE, "I RAE"), ref(DOTE, "I HIS"), loc("ITA")))])
    assert result_of(report, "I RAE S I HIS - ITA").reason_text == "illegal: the unit in Hispania cannot reach Italia"


# -- second moves ---------------------------------------------------------------------------

def test_a_second_move_nobody_contests_is_made_with_the_movement_results() -> None:
    # "Numidia move to Ceasarienis then move to Tingitana"; no retreat phase is needed.
    board = position(DOTE, "S-43M", {"Numidia": ["C NUM"]})
    report = run(DOTE, board, [("Numidia", MoveThen(ref(DOTE, "C NUM"), steps("CEA"), steps("TIN")))])
    result = result_of(report, "C NUM - CEA then TIN")
    assert result.succeeded and result.notes == ("second move done",)
    assert units(report) == ["Numidia: C TIN"]
    assert report.next.phase.kind is PhaseKind.MOVEMENT and report.next.units[0].location == loc("TIN")


def test_a_second_move_into_an_occupied_province_fails_at_once() -> None:
    board = position(DOTE, "S-43M", {"Numidia": ["C NUM"], "Hispania": ["I TIN"]})
    report = run(DOTE, board, [("Numidia", MoveThen(ref(DOTE, "C NUM"), steps("CEA"), steps("TIN")))])
    assert result_of(report, "C NUM - CEA then TIN").notes == ("second move fails: TIN is occupied",)
    assert "Numidia: C CEA" in units(report)


def test_a_second_move_into_a_province_left_empty_by_a_standoff_fails() -> None:
    board = position(DOTE, "S-43M", {"Numidia": ["C NUM"], "Hispania": ["I BEA"], "Mauretania": ["F MBA"]})
    report = run(DOTE, board, [("Numidia", MoveThen(ref(DOTE, "C NUM"), steps("CEA"), steps("TIN"))),
                               ("Hispania", Move(ref(DOTE, "I BEA"), loc("TIN"))),
                               ("Mauretania", Move(ref(DOTE, "F MBA"), loc("TIN")))])
    assert result_of(report, "C NUM - CEA then TIN").notes == ("second move fails: TIN is left empty by a standoff",)


def test_a_second_move_may_not_return_to_where_the_first_began() -> None:
    board = position(DOTE, "S-43M", {"Numidia": ["C NUM"]})
    report = run(DOTE, board, [("Numidia", MoveThen(ref(DOTE, "C NUM"), steps("CEA"), steps("NUM")))])
    assert result_of(report, "C NUM - CEA then NUM").reason_text == "illegal: the second move may not return to Numidia"


def test_no_second_move_after_a_first_move_that_failed() -> None:
    board = position(DOTE, "S-43M", {"Numidia": ["C NUM"], "Hispania": ["I CEA"]})
    report = run(DOTE, board, [("Numidia", MoveThen(ref(DOTE, "C NUM"), steps("CEA"), steps("TIN")))])
    assert result_of(report, "C NUM - CEA then TIN").reason is Reason.BOUNCED
    assert report.resolved.second_moves == ()


def _with_a_retreat_to_tingitana() -> tuple:
    """Hispania's unit in Baetica is dislodged and may retreat to Tingitana, where Numidia's
    cavalry means to make its second move."""
    board = position(DOTE, "S-43M", {"Numidia": ["C NUM"], "Hispania": ["I BEA"], "Lusitania": ["I HIS", "I LUS"]})
    orders = [("Numidia", MoveThen(ref(DOTE, "C NUM"), steps("CEA"), steps("TIN"))),
              ("Lusitania", Move(ref(DOTE, "I HIS"), loc("BEA"))),
              ("Lusitania", SupportMove(ref(DOTE, "I LUS"), ref(DOTE, "I HIS"), loc("BEA")))]
    return adjudicate(DOTE, board, orders)


def test_a_second_move_waits_for_the_retreat_phase_and_is_public_with_the_results() -> None:
    movement = _with_a_retreat_to_tingitana()
    assert movement.next.phase.kind is PhaseKind.RETREATS
    assert [(str(m.unit), [str(p) for p in m.path]) for m in movement.next.second_moves] == [("C CEA", ["TIN"])]
    assert result_of(movement, "C NUM - CEA then TIN").notes == ("second move to TIN with the retreats",)
    retreats = adjudicate(DOTE, movement.next, [])  # the dislodged unit is disbanded
    assert result_of(retreats, "C CEA - TIN (second move)").succeeded
    assert units(retreats) == ["Lusitania: I BEA", "Lusitania: I LUS", "Numidia: C TIN"]


def test_a_retreat_into_the_province_of_a_second_move_bounces_and_the_retreating_unit_is_destroyed() -> None:
    movement = _with_a_retreat_to_tingitana()
    retreats = adjudicate(DOTE, movement.next, [("Hispania", Retreat(ref(DOTE, "I BEA"), loc("TIN")))])
    assert result_of(retreats, "I BEA R TIN").reason is Reason.BOUNCED
    assert result_of(retreats, "C CEA - TIN (second move)").reason is Reason.BOUNCED
    assert units(retreats) == ["Lusitania: I BEA", "Lusitania: I LUS", "Numidia: C CEA"]


def test_two_second_moves_into_one_province_bounce() -> None:
    board = position(DOTE, "S-43M", {"Numidia": ["C NUM"], "Hispania": ["C HIS"]})
    report = run(DOTE, board, [("Numidia", MoveThen(ref(DOTE, "C NUM"), steps("CEA"), steps("TIN"))),
                               ("Hispania", MoveThen(ref(DOTE, "C HIS"), steps("BEA"), steps("TIN")))])
    assert result_of(report, "C NUM - CEA then TIN").notes == ("second move bounced",)
    assert units(report) == ["Hispania: C BEA", "Numidia: C CEA"]


def test_a_second_move_along_a_road_after_a_first_move_along_one() -> None:
    # "Africa Procons move to Num, Cea, Tingitana then move to Beatica"
    board = position(DOTE, "S-43M", {"Numidia": ["C AFR"]})
    report = run(DOTE, board, [("Numidia", MoveThen(ref(DOTE, "C AFR"), steps("NUM", "CEA", "TIN"), steps("BEA")))])
    assert result_of(report, "C AFR - NUM - CEA - TIN then BEA").notes == ("second move done",)
    assert units(report) == ["Numidia: C BEA"]


# -- a retreat phase nobody can play -----------------------------------------------------

def test_a_retreat_phase_with_nowhere_to_go_is_skipped_and_the_unit_destroyed() -> None:
    garrisons = position(RD, "S100M", {"Latium": ["A ROM"], "Gallia": ["A TUS", "A VEN", "A APU", "A NAP"]})
    report = run(RD, garrisons, [("Gallia", Move(ref(RD, "A TUS"), loc("ROM"))),
                                 ("Gallia", SupportMove(ref(RD, "A VEN"), ref(RD, "A TUS"), loc("ROM")))])
    assert dislodged(report) == {"Latium: A ROM": []}
    assert str(report.next.phase) == "F100M"
    assert [str(u) for u in report.next.units if u.power == "Latium"] == []
    assert report.next.dislodged == ()

