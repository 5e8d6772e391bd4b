"""One phase in, one report out: the adjudicator's single entry point.

``adjudicate`` reviews the orders, resolves the phase with the variant's rules, and moves on
to the next phase that has something to do (skipping retreats nobody needs and adjustments
nobody can make), updating supply-centre ownership when a season that changes it is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gm.adjudicator.adjustments import resolve_adjustments
from gm.adjudicator.legality import refusal, review_movement, review_retreats
from gm.adjudicator.movement import resolve_movement
from gm.adjudicator.retreats import resolve_retreats
from gm.adjudicator.variant import Variant
from gm.domain.orders import Order
from gm.domain.outcomes import OrderResult
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import Unit


@dataclass(frozen=True)
class PhaseReport:
    results: list[OrderResult]  # one per submitted order, in the order submitted
    resolved: Position  # the board when this phase is over (dislodged units still listed)
    next: Position  # the position at the start of the next phase that has work
    winner: str | None
    civil_disorder: tuple[Unit, ...] = ()  # units removed for lack of removal orders


def adjudicate(variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]) -> PhaseReport:
    kind = position.phase.kind
    disorder: list[Unit] = []
    if kind is PhaseKind.MOVEMENT:
        results, resolved = _movement(variant, position, submitted)
    elif kind is PhaseKind.RETREATS:
        results, resolved = _retreats(variant, position, submitted)
    else:
        results, resolved, disorder = _adjustments(variant, position, submitted)
    following = advance(variant, resolved)
    return PhaseReport(results, resolved, following, variant.winner(following), tuple(disorder))


def advance(variant: Variant, position: Position) -> Position:
    """From a finished phase to the start of the next phase with something to do."""
    calendar = variant.calendar
    current = position
    while True:
        nxt = calendar.following(current.phase)
        if (nxt.year, nxt.season_index) != (current.phase.year, current.phase.season_index):
            current = variant.end_of_season(current)
        current = current.replace(phase=nxt)
        if variant.has_work(current):
            return current


def _movement(
    variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]
) -> tuple[list[OrderResult], Position]:
    outcome = resolve_movement(variant, position, review_movement(variant, position, submitted))
    return outcome.results, position.replace(units=outcome.units, dislodged=outcome.dislodged)


def _retreats(
    variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]
) -> tuple[list[OrderResult], Position]:
    rulings = review_retreats(variant, position, submitted)
    outcomes, survivors = resolve_retreats(rulings)
    results: list[OrderResult] = [refusal(r) if not r.counts else None for r in rulings]  # type: ignore[misc]
    for outcome in outcomes:
        ruling = rulings[outcome.ruling]
        results[outcome.ruling] = OrderResult(
            ruling.power, ruling.order, ruling.unit, outcome.succeeded, outcome.reason
        )
    resolved = position.replace(units=position.units + tuple(survivors), dislodged=())
    return results, resolved


def _adjustments(
    variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]
) -> tuple[list[OrderResult], Position, list[Unit]]:
    result = resolve_adjustments(variant, position, submitted)
    results = [
        OrderResult(submitted[o.index][0], o.order, o.unit, o.succeeded, o.reason, o.detail)
        for o in result.outcomes
    ]
    return results, position.replace(units=tuple(result.units)), result.civil_disorder
