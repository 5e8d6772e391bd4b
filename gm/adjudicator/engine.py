"""One phase in, one report out: the adjudicator's single entry point.

``adjudicate`` reviews the orders, resolves the phase with the variant's rules, and moves on
to the next phase that has something to do, updating supply-centre ownership when a season
that changes it is over. A phase with nothing to decide is skipped: adjustments nobody can
make, and a retreat phase in which no dislodged unit has anywhere to go (its units are
destroyed and any second moves are carried out with the movement phase's results).

A movement phase runs: review → the variant's rules before resolution (gm.adjudicator.effects)
→ resolution, in rounds where moves have several steps (gm.adjudicator.steps) → the variant's
rules after it. Every die rolled on the way is in the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from gm.adjudicator.adjustments import resolve_adjustments
from gm.adjudicator.dice import DiceError
from gm.adjudicator.effects import Effects
from gm.adjudicator.legality import review_declarations, review_movement
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.retreat_review import review_retreats
from gm.adjudicator.retreats import resolve_retreats
from gm.adjudicator.rulings import refusal
from gm.adjudicator.steps import resolve_moves
from gm.adjudicator.variant import Variant
from gm.domain.orders import Declaration, MoveThen, Order, Retreat, SecondMove
from gm.domain.outcomes import OrderResult, Roll
from gm.domain.phases import PhaseKind
from gm.domain.geography import Location
from gm.domain.position import Position
from gm.domain.units import Unit


class PhaseReport:
    """What a phase did. A plain class: compiled (setup.py), its constructor runs no Python."""

    __slots__ = ("results", "resolved", "next", "winner", "civil_disorder", "rolls", "destroyed", "announcements",
                 "draw")

    def __init__(self, results: list[OrderResult], resolved: Position, next: Position, winner: str | None,
                 civil_disorder: tuple[Unit, ...] = (), rolls: tuple[Roll, ...] = (),
                 destroyed: tuple[tuple[Unit, str], ...] = (), announcements: tuple[str, ...] = (),
                 draw: tuple[str, ...] = ()):
        self.results = results  # one per submitted order, in the order submitted (then second moves)
        self.resolved = resolved  # the board when this phase is over (dislodged units still listed)
        self.next = next  # the position at the start of the next phase that has work
        self.winner = winner
        self.civil_disorder = civil_disorder  # units removed for lack of removal orders
        self.rolls = rolls  # every die rolled, in order
        self.destroyed = destroyed  # units a variant's rule removed, and why
        self.announcements = announcements  # what the variant's rules did that no order asked for
        self.draw = draw  # the powers the game ends in a draw between (several reached victory at once)


def adjudicate(variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]],
               seed: str | None = None) -> PhaseReport:
    """``seed``: the game's secret dice seed (gm.adjudicator.dice), for variants that roll."""
    kind = position.phase.kind
    log = PhaseLog(seed)
    disorder: list[Unit] = []
    destroyed: list[tuple[Unit, str]] = []
    if kind is PhaseKind.MOVEMENT:
        results, resolved, destroyed = _movement(variant, position, submitted, log)
    else:  # declarations stand beside the phase's own orders
        ordinary = [(p, o) for p, o in submitted if not isinstance(o, Declaration)]
        if kind is PhaseKind.RETREATS:
            own, resolved = _retreats(variant, position, ordinary, log)
        else:
            declared = [(p, o) for p, o in submitted if isinstance(o, Declaration)]
            board = variant.prepare_adjustments(position, declared, log) if declared else position
            own, resolved, disorder = _adjustments(variant, board, ordinary)
        results = _with_declarations(variant, position, submitted, own)
    resolved = variant.end_of_phase(resolved, results, log)
    done = resolved
    if kind is PhaseKind.MOVEMENT and (resolved.dislodged or resolved.second_moves) and not retreats_playable(resolved):
        resolved, done = _retreats_unplayed(variant, resolved, results, log)
    following = advance(variant, done, log)
    winner = variant.winner(following)
    return PhaseReport(results, resolved, following, winner, tuple(disorder), tuple(log.rolls), tuple(destroyed),
                       tuple(log.announcements), () if winner else variant.drawn(following))


def judge_adjustments(variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]) -> list[OrderResult]:
    """The results an adjustment phase's orders would have, each in the order submitted, with
    every rule that judges them (a variant's accounts at the end of the phase too), and nothing
    after the phase: what a reply to orders can tell for sure before the deadline. No die is
    rolled (None where one would be: then the rules at the end of the phase are left out)."""
    log = PhaseLog(None)
    ordinary = [(p, o) for p, o in submitted if not isinstance(o, Declaration)]
    declared = [(p, o) for p, o in submitted if isinstance(o, Declaration)]
    try:
        board = variant.prepare_adjustments(position, declared, log) if declared else position
    except DiceError:
        board = position
    own, resolved, _ = _adjustments(variant, board, ordinary)
    results = _with_declarations(variant, position, submitted, own)
    try:
        variant.end_of_phase(resolved, results, log)
    except DiceError:
        pass
    return results


def _with_declarations(variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]],
                       own: list[OrderResult]) -> list[OrderResult]:
    """The phase's results in the order submitted, its declarations judged among them."""
    declarations = [(p, o) for p, o in submitted if isinstance(o, Declaration)]
    if not declarations:
        return own
    judged = iter(review_declarations(variant, position, declarations))
    others = iter(own)
    results: list[OrderResult] = []
    for power, order in submitted:
        if not isinstance(order, Declaration):
            results.append(next(others))
            continue
        ruling = next(judged)
        results.append(OrderResult(power, ruling.order, ruling.unit, True) if ruling.counts else refusal(ruling))
    results.extend(others)  # second moves carried out with the retreats
    return results


def retreats_playable(position: Position) -> bool:
    """Has some dislodged unit somewhere to retreat to (a decision for its player)?"""
    return any(d.retreats for d in position.dislodged)


def advance(variant: Variant, position: Position, log: PhaseLog | None = None) -> Position:
    """From a finished phase to the start of the next phase with something to do."""
    calendar = variant.calendar
    log = log or PhaseLog(None)
    current = position
    while True:
        nxt = calendar.following(current.phase)
        if (nxt.year, nxt.season_index) != (current.phase.year, current.phase.season_index):
            current = variant.end_of_season(current, log)
        current = current.replace(phase=nxt)
        if variant.has_work(current):
            return current
        if nxt.kind is PhaseKind.RETREATS and (current.dislodged or current.second_moves):
            current = _retreats(variant, current, [], log)[1]


def _movement(
    variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]], log: PhaseLog
) -> tuple[list[OrderResult], Position, list[tuple[Unit, str]]]:
    position, submitted = variant.prepare_movement(position, submitted)
    rulings = review_movement(variant, position, submitted)
    effects = Effects(position, rulings, log, lambda e: resolve_moves(variant, position, rulings, e))
    variant.before_movement(effects)
    effects.apply_closures()
    outcome = variant.after_movement(effects, resolve_moves(variant, position, rulings, effects))
    resolved = position.replace(units=outcome.units, dislodged=outcome.dislodged,
                                second_moves=outcome.second_moves, extra=outcome.extra)
    return outcome.results, resolved, outcome.destroyed


def _retreats_unplayed(variant: Variant, resolved: Position, results: list[OrderResult],
                       log: PhaseLog) -> tuple[Position, Position]:
    """The retreat phase nobody can play, carried out at once: the dislodged units are destroyed
    and the second moves are made; each second move's outcome is noted on the order that asked
    for it. Returns the board to report (dislodged units still listed, with nowhere to go) and
    the position when that retreat phase is over."""
    retreat_phase = variant.calendar.following(resolved.phase)
    carried_out, after = _retreats(variant, resolved, [], log)
    for outcome in carried_out:
        _note_second_move(results, outcome)
    if retreat_phase.kind is PhaseKind.RETREATS:
        after = after.replace(phase=retreat_phase)
    return resolved.replace(units=after.units, second_moves=(), extra=after.extra), after


def _note_second_move(results: list[OrderResult], outcome: OrderResult) -> None:
    second = outcome.order
    assert isinstance(second, SecondMove)
    for result in results:
        order = result.order
        if (isinstance(order, MoveThen) and result.succeeded and result.power == outcome.power
                and order.then == second.path and order.first[-1] == second.unit.location):
            done = "second move done" if outcome.succeeded else f"second move {outcome.reason_text or 'failed'}"
            result.notes = result.notes[:-1] + (done,)  # in place of "second move ... with the retreats"
            return


def _retreats(
    variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]], log: PhaseLog
) -> tuple[list[OrderResult], Position]:
    rulings = review_retreats(variant, position, submitted)
    phase = resolve_retreats(variant, position, rulings)
    decided = {outcome.ruling: outcome for outcome in phase.outcomes}
    results: list[OrderResult] = []
    went: dict[int, Location] = {}  # slot in the dislodged units -> where it retreated
    for index, ruling in enumerate(rulings):
        outcome = decided.get(index)
        results.append(refusal(ruling) if outcome is None else
                       OrderResult(ruling.power, ruling.order, ruling.unit, outcome.succeeded, outcome.reason))
        order = ruling.order
        if outcome is not None and outcome.succeeded and isinstance(order, Retreat):
            went[ruling.slot] = order.destination
    moves: list[tuple[Unit, Location | None]] = [(d.unit, went.get(slot)) for slot, d in enumerate(position.dislodged)]
    for second in phase.second_moves:
        if second.succeeded and second.unit is not None and isinstance(second.order, SecondMove):
            moves.append((second.unit, second.order.path[-1]))
    resolved = position.replace(units=phase.units + tuple(phase.survivors), dislodged=(), second_moves=())
    return results + phase.second_moves, variant.after_retreats(resolved, moves, log)


def _adjustments(
    variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]
) -> tuple[list[OrderResult], Position, list[Unit]]:
    result = resolve_adjustments(variant, position, submitted)
    results = [
        OrderResult(submitted[o.index][0], o.order, o.unit, o.succeeded, o.reason, o.detail)
        for o in result.outcomes
    ]
    return results, position.replace(units=tuple(result.units)), result.civil_disorder
