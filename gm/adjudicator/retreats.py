"""Resolving a retreat phase: retreats to the same province all fail; unordered units disband."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from gm.adjudicator.legality import Ruling
from gm.domain.orders import Retreat
from gm.domain.outcomes import Reason
from gm.domain.units import Unit


@dataclass(frozen=True, slots=True)
class RetreatOutcome:
    ruling: int
    succeeded: bool
    reason: Reason | None


def resolve_retreats(rulings: Sequence[Ruling]) -> tuple[list[RetreatOutcome], list[Unit]]:
    """The outcome of each counting ruling, and the units that stay on the board."""
    retreats = {i: r for i, r in enumerate(rulings) if r.counts and isinstance(r.order, Retreat)}
    crowd = Counter(r.order.destination.province for r in retreats.values())  # type: ignore[union-attr]
    outcomes = []
    survivors = []
    for index, ruling in enumerate(rulings):
        if not ruling.counts:
            continue
        if index in retreats:
            destination = ruling.order.destination  # type: ignore[union-attr]
            if crowd[destination.province] > 1:
                outcomes.append(RetreatOutcome(index, False, Reason.BOUNCED))
                continue
            survivors.append(ruling.unit.moved_to(destination))  # type: ignore[union-attr]
        outcomes.append(RetreatOutcome(index, True, None))
    return outcomes, survivors
