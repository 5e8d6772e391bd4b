"""Resolving a retreat phase, and the second moves carried out with it.

Retreats to the same province all fail (the units are destroyed), unless one is strictly the
strongest (``Variant.retreat_strength``: a double unit retreats with the strength of two); it
gets in. Unordered dislodged units disband. A second move (``Position.second_moves``) fails if
a province on its way is occupied, and bounces with every retreat and every other second move
that claims a province of its way (a retreat that bounces so is destroyed; the moving unit
stays where it stands), by the same measure. Units a variant lets share a province do not
bounce each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from gm.adjudicator.rulings import Ruling
from gm.adjudicator.supply import units_by_province
from gm.adjudicator.variant import Variant
from gm.domain.orders import Retreat, SecondMove, UnitRef
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.position import Dislodgement, Position
from gm.domain.units import Unit


# Constructors written out, not generated (nor frozen): compiled (setup.py), they then run no
# Python.
@dataclass(slots=True, init=False)
class RetreatOutcome:
    ruling: int
    succeeded: bool
    reason: Reason | None

    def __init__(self, ruling: int, succeeded: bool, reason: Reason | None) -> None:
        self.ruling = ruling
        self.succeeded = succeeded
        self.reason = reason


@dataclass(slots=True, init=False)
class RetreatPhase:
    outcomes: list[RetreatOutcome]  # one per counting ruling
    survivors: list[Unit]  # dislodged units that found a place
    second_moves: list[OrderResult]  # one per second move, in the position's order
    units: tuple[Unit, ...]  # the units on the board, second moves made

    def __init__(self, outcomes: list[RetreatOutcome], survivors: list[Unit], second_moves: list[OrderResult],
                 units: tuple[Unit, ...]) -> None:
        self.outcomes = outcomes
        self.survivors = survivors
        self.second_moves = second_moves
        self.units = units


def resolve_retreats(variant: Variant, position: Position, rulings: Sequence[Ruling]) -> RetreatPhase:
    # Each retreat's unit as it would stand where it goes.
    retreats: dict[int, Unit] = {
        i: r.unit.moved_to(r.order.destination)
        for i, r in enumerate(rulings)
        if r.counts and r.unit is not None and isinstance(r.order, Retreat)
    }
    # Each claim on a province: who makes it (a ruling's index, or ~ the second move's index)
    # and the unit as it would stand there (Variant.may_share).
    claims: dict[str, list[tuple[int, Unit]]] = {}
    for index, arrived in retreats.items():
        claims.setdefault(arrived.location.province, []).append((index, arrived))
    open_moves: set[int] = set()
    occupied = {u.location.province for u in position.units} if position.second_moves else set()
    for number, pending in enumerate(position.second_moves):
        if not any(loc.province in occupied for loc in pending.path):
            open_moves.add(number)
            for loc in pending.path:
                claims.setdefault(loc.province, []).append((~number, pending.unit.moved_to(loc)))
    sides = variant.sides(position) if variant.sides_share else None
    beaten: set[int] = set()
    for made in claims.values():
        if len(made) > 1 and not _may_share(variant, [u for _, u in made], sides):
            beaten |= _losers(variant, made)
    outcomes = []
    survivors = []
    for index, ruling in enumerate(rulings):
        if not ruling.counts:
            continue
        retreated = retreats.get(index)
        if retreated is not None:
            if index in beaten:
                outcomes.append(RetreatOutcome(index, False, Reason.BOUNCED))
                continue
            survivors.append(retreated)
        outcomes.append(RetreatOutcome(index, True, None))
    results, moved = _second_moves(position, open_moves, beaten)
    units = tuple([moved.get(u, u) for u in position.units]) if moved else position.units
    return RetreatPhase(outcomes, survivors, results, units)


def _losers(variant: Variant, made: list[tuple[int, Unit]]) -> set[int]:
    """The claims on one province that bounce: all of them, but the one strictly strongest."""
    strengths = [variant.retreat_strength(unit) for _, unit in made]
    top = max(strengths)
    if strengths.count(top) == 1:
        return {who for (who, _), strength in zip(made, strengths) if strength != top}
    return {who for who, _ in made}


def _second_moves(position: Position, open_moves: set[int],
                  beaten: set[int]) -> tuple[list[OrderResult], dict[Unit, Unit]]:
    results = []
    moved: dict[Unit, Unit] = {}
    for number, pending in enumerate(position.second_moves):
        unit = pending.unit
        order = SecondMove(UnitRef(unit.location, unit.type), pending.path)
        if number not in open_moves:
            results.append(OrderResult(unit.power, order, unit, False, Reason.BOUNCED, notes=("its way is occupied",)))
        elif ~number in beaten:
            results.append(OrderResult(unit.power, order, unit, False, Reason.BOUNCED))
        else:
            results.append(OrderResult(unit.power, order, unit, True))
            moved[unit] = unit.moved_to(pending.path[-1])
    return results, moved


def _may_share(variant: Variant, units: list[Unit], sides: Mapping[str, str] | None) -> bool:
    return variant.stacks and variant.stack_problem(units, sides) is None


def retreats_left(variant: Variant, dislodged: Sequence[Dislodgement], units: Sequence[Unit],
                  sides: Mapping[str, str] | None = None,
                  closed: AbstractSet[str] = frozenset()) -> tuple[Dislodgement, ...]:
    """The dislodged units with their retreats judged again on a board that changed after they
    were listed (units that moved on, garrisons raised, units repelled): a retreat stays open
    where the unit may stand with what stands there now (``Variant.may_stand_with``) and the
    province is not in ``closed`` (left empty by a standoff)."""
    standing = units_by_province(units)
    left = []
    for entry in dislodged:
        retreats = tuple([loc for loc in entry.retreats if loc.province not in closed
                          and variant.may_stand_with(entry.unit.moved_to(loc), standing.get(loc.province, ()), sides)])
        left.append(entry if retreats == entry.retreats else Dislodgement(entry.unit, entry.attacker_from, retreats))
    return tuple(left)
