"""Running a phase of a test delta and reading its report."""

from __future__ import annotations

from gm.adjudicator.engine import PhaseReport, adjudicate
from gm.adjudicator.variant import Variant
from gm.domain.orders import Order
from gm.domain.outcomes import OrderResult
from gm.domain.position import Position


def run(variant: Variant, position: Position, orders: list[tuple[str, Order]], seed: str | None = None) -> PhaseReport:
    return adjudicate(variant, position, orders, seed=seed)


def result_of(report: PhaseReport, text: str) -> OrderResult:
    """The result of the order whose canonical text is ``text``."""
    found = [r for r in report.results if r.text == text]
    assert len(found) == 1, f"{text!r} not among {[r.text for r in report.results]}"
    return found[0]


def units(report: PhaseReport, *, after: str = "resolved") -> list[str]:
    """The units on the board ("Rome: A ROM"), sorted: after the phase, or at the next phase."""
    board = report.resolved if after == "resolved" else report.next
    return sorted(f"{u.power}: {u}" for u in board.units)


def dislodged(report: PhaseReport) -> dict[str, list[str]]:
    """Each dislodged unit ("Rome: A ROM") with where it may retreat."""
    return {f"{d.unit.power}: {d.unit}": sorted(str(r) for r in d.retreats) for d in report.resolved.dislodged}
