"""Resolving a retreat phase: retreats to the same province all fail; unordered units disband."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from gm.adjudicator.legality import Ruling
from gm.domain.geography import Location
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
    retreats: dict[int, tuple[Unit, Location]] = {
        i: (r.unit, r.order.destination)
        for i, r in enumerate(rulings)
        if r.counts and r.unit is not None and isinstance(r.order, Retreat)
    }
    crowd = Counter(destination.province for _, destination in retreats.values())
    outcomes = []
    survivors = []
    for index, ruling in enumerate(rulings):
        if not ruling.counts:
            continue
        if index in retreats:
            unit, destination = retreats[index]
            if crowd[destination.province] > 1:
                outcomes.append(RetreatOutcome(index, False, Reason.BOUNCED))
                continue
            survivors.append(unit.moved_to(destination))
        outcomes.append(RetreatOutcome(index, True, None))
    return outcomes, survivors
