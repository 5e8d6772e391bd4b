"""The variant's hooks around a phase: the board prepared before review (a unit placed by an
order), where each unit went (to carry state kept by province along with it, through the moves
and the retreats), and what a rule announces."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gm.adjudicator.effects import Effects
from gm.adjudicator.engine import adjudicate
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import MovementOutcome
from gm.domain.geography import Location
from gm.domain.orders import Build, Declaration, Move, MoveInRounds, Order, Retreat, SupportMove, UnitRef
from gm.domain.position import Position
from gm.domain.units import ARMY, Unit

from .deltas import LEADER, LeadersAndBridges, Rounds, loc, position, ref


@dataclass(frozen=True, slots=True)
class Place(Declaration):
    """Test-only: "L CAR PLACED IN NEW": where a leader waiting off the board starts (a
    declaration: the leader may be ordered in the same phase)."""

    unit: UnitRef
    start: Location

    def __str__(self) -> str:
        return f"{self.unit} PLACED IN {self.start}"


class Placed(LeadersAndBridges):
    """Leaders wait off the board (``extra.unplaced``: power -> where they would start) until an
    order places them, in the phase's own review; orders for a leader name it where it waits."""

    def prepare_movement(self, position: Position, submitted: Sequence[tuple[str, Order]]):  # type: ignore[no-untyped-def]
        waiting = dict(position.extra.get("unplaced", {}))
        if not waiting:
            return position, submitted
        starts = {power: Location.parse(where) for power, where in waiting.items()}
        for power, order in submitted:
            if isinstance(order, Place) and power in starts:
                starts[power] = order.start
        rebased = [(power, _rebased(order, Location.parse(waiting[power]), starts[power]) if power in starts else order)
                   for power, order in submitted]
        leaders = tuple(Unit(power, LEADER, where) for power, where in starts.items())
        extra = {k: v for k, v in position.extra.items() if k != "unplaced"}
        return position.replace(units=position.units + leaders, extra=extra), rebased

    def review_order(self, review, unit, order):  # type: ignore[no-untyped-def]
        if isinstance(order, Place):
            return order
        return super().review_order(review, unit, order)


def _rebased(order: Order, waiting: Location, start: Location) -> Order:
    if isinstance(order, Move) and order.unit.type is LEADER and order.unit.location == waiting:
        return Move(UnitRef(start, LEADER), order.destination)
    if isinstance(order, Place):
        return Place(UnitRef(start, LEADER), start)
    return order


def test_a_unit_placed_by_an_order_is_on_the_board_for_the_orders_of_the_same_phase() -> None:
    variant = Placed()
    board = position(variant, "S-220M", {"Carthage": ["A NEW"]}, extra={"unplaced": {"Carthage": "CAR"}})
    report = adjudicate(variant, board, [("Carthage", Place(ref(variant, "L CAR"), loc("NEW"))),
                                         ("Carthage", Move(ref(variant, "L CAR"), loc("MAU")))])
    assert [r.text for r in report.results] == ["L NEW PLACED IN NEW", "L NEW - MAU"]
    assert all(r.succeeded for r in report.results)
    assert sorted(str(u) for u in report.resolved.units) == ["A NEW", "L MAU"]
    assert "unplaced" not in report.next.extra


class Following(Rounds):
    """Keeps a mark by province (``extra.marked``) on the units that carry it, through moves,
    rounds and retreats, and announces each mark lost."""

    def after_movement(self, effects: Effects, outcome: MovementOutcome) -> MovementOutcome:
        marked = set(effects.position.extra.get("marked", []))
        moved = {unit.location.province: where.province for unit, where in outcome.moves}
        outcome.extra = {"marked": sorted(moved.get(p, p) for p in marked)}
        return outcome

    def after_retreats(self, position: Position, moves: Sequence[tuple[Unit, Location | None]], log: PhaseLog) -> Position:
        marked = set(position.extra.get("marked", []))
        for unit, where in moves:
            if unit.location.province in marked:
                marked.discard(unit.location.province)
                if where is None:
                    log.announce(f"the mark of {unit} is lost")
                else:
                    marked.add(where.province)
        return position.replace(extra={"marked": sorted(marked)})


def test_state_kept_by_province_follows_its_unit_through_every_step_of_a_move() -> None:
    variant = Following()
    board = position(variant, "S100M", {"Latium": ["F TYS", "A ROM"]}, extra={"marked": ["TYS"]})
    report = adjudicate(variant, board, [("Latium", MoveInRounds(ref(variant, "F TYS"), (loc("LYO"), loc("SPA/SC"))))])
    assert report.next.extra["marked"] == ["SPA"]


def test_state_kept_by_province_follows_a_retreat_and_is_announced_when_lost() -> None:
    variant = Following()
    board = position(variant, "S100M", {"Latium": ["A ROM"], "Gallia": ["A TUS", "A VEN"]}, extra={"marked": ["ROM"]})
    movement = adjudicate(variant, board, [("Gallia", Move(ref(variant, "A TUS"), loc("ROM"))),
                                           ("Gallia", SupportMove(ref(variant, "A VEN"), ref(variant, "A TUS"), loc("ROM")))])
    assert movement.next.extra["marked"] == ["ROM"]  # the dislodged unit still has it
    retreated = adjudicate(variant, movement.next, [("Latium", Retreat(ref(variant, "A ROM"), loc("NAP")))])
    assert retreated.next.extra["marked"] == ["NAP"] and retreated.announcements == ()
    disbanded = adjudicate(variant, movement.next, [])
    assert disbanded.next.extra["marked"] == [] and disbanded.announcements == ("the mark of A ROM is lost",)


def test_units_that_need_no_supply_centre_are_neither_counted_nor_removed_for_supply() -> None:
    from gm.domain.orders import Disband
    variant = LeadersAndBridges()
    board = position(variant, "W-220A", {"Rome": ["A ROM", "L ROM", "A UMB", "F CAM"]}, centres={"ROM": "Rome", "CAM": "Rome"})
    assert [a.count for a in variant.adjustments(board) if a.power == "Rome"] == [-1]  # 2 centres, 3 units
    refused = adjudicate(variant, board, [("Rome", Disband(ref(variant, "L ROM")))])
    assert refused.results[0].reason_text == ("illegal: the leader in Rome needs no supply centre and is never "
                                              "removed for supply")
    left = sorted(str(u) for u in refused.resolved.units)  # one unit removed in civil disorder, never the leader
    assert len(left) == 3 and "L ROM" in left and len(refused.civil_disorder) == 1


@dataclass(frozen=True, slots=True)
class Pledge(Declaration):
    """Test-only: "PLEDGE <word>", a declaration attached to no unit, allowed in any phase."""

    word: str
    unit: None = None

    def __str__(self) -> str:
        return f"PLEDGE {self.word}"


class Pledging(LeadersAndBridges):
    """Keeps every pledge in ``extra.pledges`` at the end of the phase it was made in; builds of
    two powers in one province both fail, and every power may build in Syracuse."""

    def __init__(self) -> None:
        super().__init__()
        self.rival_builds_fail = True

    def review_order(self, review, unit, order):  # type: ignore[no-untyped-def]
        return order if isinstance(order, Pledge) else super().review_order(review, unit, order)

    def end_of_phase(self, position: Position, results, log: PhaseLog) -> Position:  # type: ignore[no-untyped-def]
        pledges = [*position.extra.get("pledges", []),
                   *(f"{r.power}: {r.order.word}" for r in results if isinstance(r.order, Pledge) and r.succeeded)]
        return position.replace(extra={**position.extra, "pledges": pledges})

    def build_sites(self, position: Position, power: str) -> frozenset[str]:
        return super().build_sites(position, power) | {"SYR"}


def test_declarations_count_in_every_phase_and_the_variant_sees_them_at_its_end() -> None:
    variant = Pledging()
    for phase in ("S-219M", "S-219R", "W-219A"):
        board = position(variant, phase, {"Rome": ["A ROM"]}, centres={"ROM": "Rome", "UMB": "Rome"})
        if phase == "S-219R":
            board = board.replace(dislodged=())
        report = adjudicate(variant, board, [("Rome", Pledge("peace")), ("Rome", Build(UnitRef(loc("UMB"))))]
                            if phase.endswith("A") else [("Rome", Pledge("peace"))])
        assert report.results[0].succeeded and report.results[0].text == "PLEDGE peace", phase
        assert report.resolved.extra["pledges"] == ["Rome: peace"], phase


def test_builds_of_two_powers_in_one_province_both_fail_where_the_variant_says_so() -> None:
    variant = Pledging()
    board = position(variant, "W-219A", {"Rome": ["A ROM"], "Carthage": ["A CAR"]},
                     centres={"ROM": "Rome", "UMB": "Rome", "CAR": "Carthage", "THA": "Carthage"})
    report = adjudicate(variant, board, [("Rome", Build(UnitRef(loc("SYR"), ARMY))),
                                         ("Carthage", Build(UnitRef(loc("SYR"), ARMY)))])
    assert [r.reason_text for r in report.results] == ["bounced: another power builds there too"] * 2
    assert sorted(str(u) for u in report.resolved.units) == ["A CAR", "A ROM"]


class HiredArmies(LeadersAndBridges):
    """Fleets are hired: their power may let one go in any adjustment phase."""

    def kept_by_choice(self, unit) -> bool:  # type: ignore[no-untyped-def]
        return unit.type.letter == "F"


def test_a_unit_kept_by_choice_is_let_go_at_will_and_counts_for_a_removal_owed() -> None:
    from gm.domain.orders import Disband
    variant = HiredArmies()
    even = position(variant, "W-219A", {"Rome": ["A ROM", "F CAM"]}, centres={"ROM": "Rome", "CAM": "Rome"})
    report = adjudicate(variant, even, [("Rome", Disband(ref(variant, "F CAM"))), ("Rome", Disband(ref(variant, "A ROM")))])
    assert [r.reason_text for r in report.results] == [None, "illegal: Rome has no units to remove"]
    assert [str(u) for u in report.resolved.units] == ["A ROM"]
    short = position(variant, "W-219A", {"Rome": ["A ROM", "A UMB", "F CAM"]}, centres={"ROM": "Rome", "CAM": "Rome"})
    owed = adjudicate(variant, short, [("Rome", Disband(ref(variant, "F CAM")))])
    assert sorted(str(u) for u in owed.resolved.units) == ["A ROM", "A UMB"] and not owed.civil_disorder
