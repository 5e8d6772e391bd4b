"""Resolving a retreat phase, and the second moves carried out with it.

Retreats to the same province all fail (the units are destroyed); unordered dislodged units
disband. A second move (``Position.second_moves``) fails if a province on its way is occupied,
and bounces with every retreat and every other second move that claims a province of its way
(a retreat that bounces so is destroyed; the moving unit stays where it stands). Units a
variant lets share a province do not bounce each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gm.adjudicator.rulings import Ruling
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Retreat, SecondMove, UnitRef
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.position import PendingMove, Position
from gm.domain.units import Unit


@dataclass(frozen=True, slots=True)
class RetreatOutcome:
    ruling: int
    succeeded: bool
    reason: Reason | None


@dataclass(frozen=True, slots=True)
class RetreatPhase:
    outcomes: list[RetreatOutcome]  # one per counting ruling
    survivors: list[Unit]  # dislodged units that found a place
    second_moves: list[OrderResult]  # one per second move, in the position's order
    units: tuple[Unit, ...]  # the units on the board, second moves made


def resolve_retreats(variant: Variant, position: Position, rulings: Sequence[Ruling]) -> RetreatPhase:
    retreats: dict[int, tuple[Unit, Location]] = {
        i: (r.unit, r.order.destination)
        for i, r in enumerate(rulings)
        if r.counts and r.unit is not None and isinstance(r.order, Retreat)
    }
    claims: dict[str, list[Unit]] = {}
    for unit, destination in retreats.values():  # each as it would stand there (Variant.may_share)
        claims.setdefault(destination.province, []).append(unit.moved_to(destination))
    occupied = {u.location.province for u in position.units}
    open_moves: list[PendingMove] = []
    for pending in position.second_moves:
        if not any(loc.province in occupied for loc in pending.path):
            open_moves.append(pending)
            for loc in pending.path:
                claims.setdefault(loc.province, []).append(pending.unit.moved_to(loc))
    clashes = {p for p, units in claims.items() if len(units) > 1 and not _may_share(variant, units)}
    outcomes = []
    survivors = []
    for index, ruling in enumerate(rulings):
        if not ruling.counts:
            continue
        if index in retreats:
            unit, destination = retreats[index]
            if destination.province in clashes:
                outcomes.append(RetreatOutcome(index, False, Reason.BOUNCED))
                continue
            survivors.append(unit.moved_to(destination))
        outcomes.append(RetreatOutcome(index, True, None))
    results, moved = _second_moves(position, open_moves, clashes)
    units = tuple(moved.get(u, u) for u in position.units)
    return RetreatPhase(outcomes, survivors, results, units)


def _second_moves(position: Position, open_moves: list[PendingMove],
                  clashes: set[str]) -> tuple[list[OrderResult], dict[Unit, Unit]]:
    results = []
    moved: dict[Unit, Unit] = {}
    for pending in position.second_moves:
        unit = pending.unit
        order = SecondMove(UnitRef(unit.location, unit.type), pending.path)
        if pending not in open_moves:
            results.append(OrderResult(unit.power, order, unit, False, Reason.BOUNCED, notes=("its way is occupied",)))
        elif any(loc.province in clashes for loc in pending.path):
            results.append(OrderResult(unit.power, order, unit, False, Reason.BOUNCED))
        else:
            results.append(OrderResult(unit.power, order, unit, True))
            moved[unit] = unit.moved_to(pending.path[-1])
    return results, moved


def _may_share(variant: Variant, units: list[Unit]) -> bool:
    return variant.stacks and variant.stack_problem(units) is None
