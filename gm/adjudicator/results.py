"""The results of a resolved movement phase: each order's result, the board after the moves, the
dislodged units with their retreats, and what a later round of a phase needs to know."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from gm.adjudicator.claims import LaterSupport, blocked_paths, later_supports
from gm.adjudicator.conditions import Conditions
from gm.adjudicator.nodes import CONVOY, HOLD, MOVE, SUPPORT, Node
from gm.adjudicator.rulings import MovementOutcome, Ruling, refusal
from gm.adjudicator.supply import units_by_province
from gm.domain.geography import Location
from gm.domain.orders import Waive
from gm.domain.outcomes import Note, OrderResult, Reason, SupportLeft
from gm.domain.position import Dislodgement
from gm.domain.units import Unit


class Resolution:
    """The outcome of one resolution, with what a later round needs to know of it."""

    __slots__ = ("outcome", "moved", "contested", "later_supports", "beaten", "several_steps", "blocked")

    def __init__(self, outcome: MovementOutcome, moved: dict[int, Location], contested: set[str],
                 later_supports: list[LaterSupport], beaten: dict[int, str], several_steps: bool,
                 blocked: dict[int, str] | None = None):
        self.outcome = outcome
        self.blocked = blocked or {}  # slot -> the later province of its path a plain move bounced it from
        self.several_steps = several_steps  # some order was a move of several steps
        self.moved = moved  # slot -> where the unit's move took it
        self.contested = contested  # provinces left empty by a standoff
        self.later_supports = later_supports
        self.beaten = beaten  # slot -> where the unit that dislodged it came from


_PENDING: Final = OrderResult("", Waive(), None, False)  # a result not yet decided


def results_of(board: Conditions, rulings: Sequence[Ruling]) -> Resolution:
    """What the settled decisions of ``board`` come to."""
    nodes = board.nodes
    results = [_PENDING if r.acts else refusal(r) for r in rulings]
    winners: dict[str, list[Node]] = {}
    for n in nodes:
        if n.result and n.kind == MOVE:
            if n.dest in winners:
                winners[n.dest].append(n)
            else:
                winners[n.dest] = [n]
    staying: list[Unit] = []
    moved: list[Unit] = []
    moved_to: dict[int, Location] = {}
    beaten: list[tuple[Unit, Node]] = []
    beaten_by: dict[int, str] = {}
    noted = board.effects is not None
    for node in nodes:
        carrier = node.carrier
        if carrier is not None and carrier.kind == MOVE and carrier.result:
            attacker = None
            where = _carried_to(board, node, carrier)
            moved.append(Unit(node.power, node.unit.type, where))
            moved_to[node.slot] = where
        elif node.kind == MOVE and node.result:
            attacker = None
            moved.append(Unit(node.power, node.unit.type, node.destination))
            moved_to[node.slot] = node.destination
        else:
            attacker = _dislodger(board, node, winners.get(node.province))
            if attacker is not None:
                beaten.append((node.unit, attacker))
                beaten_by[node.slot] = attacker.province
            else:
                staying.append(node.unit)
        if node.ruling >= 0:
            ruling = rulings[node.ruling]
            succeeded, reason = _verdict(board, node, attacker)
            results[node.ruling] = OrderResult(ruling.power, ruling.order, ruling.unit, succeeded, reason,
                                               notes=_notes(board, node) if noted or node.partial else ())
    if noted or board.declared:  # declarations; units gone or going with another
        gone = board.gone
        for index, ruling in enumerate(rulings):
            if ruling.slot < 0:
                if results[index] is _PENDING:  # what it does, the variant's rules say after
                    results[index] = OrderResult(ruling.power, ruling.order, ruling.unit, True)
            elif ruling.counts and ruling.slot in gone:
                results[index] = OrderResult(ruling.power, ruling.order, ruling.unit, False, Reason.DESTROYED,
                                             gone[ruling.slot])
            elif results[index] is _PENDING:  # it went with another
                node = board.by_slot[ruling.slot]
                went = node.slot not in beaten_by
                results[index] = OrderResult(ruling.power, ruling.order, ruling.unit, went,
                                             None if went else Reason.DISLODGED, notes=_notes(board, node))
    units = tuple(staying + moved)
    dislodged: tuple[Dislodgement, ...] = ()
    contested = _contested(board) if beaten or board.several_steps else set()
    if beaten:
        standing = units_by_province(units)
        sides = board.share_sides
        retreat_options = board.variant.retreat_options
        dislodged = tuple(
            Dislodgement(unit, by.province, retreat_options(unit, by.province, by.convoyed, standing, contested, sides))
            for unit, by in beaten
        )
    outcome = MovementOutcome(results, units, dislodged, board.position_units, moved_to)
    effects = board.effects
    if effects is not None:
        outcome.destroyed = [(effects.position.units[slot], why) for slot, why in effects.destroyed.items()]
    later = later_supports(board) if board.several_steps else []
    blocked = blocked_paths(board, contested) if board.claims else None
    return Resolution(outcome, moved_to, contested, later, beaten_by, board.several_steps, blocked)


def _dislodger(board: Conditions, node: Node, winners: list[Node] | None) -> Node | None:
    """The unit that entered the province of ``node`` and may not share it."""
    if winners is None:
        return None
    for winner in winners:
        if board.opposed(winner, node, node.province):
            return winner
    return None


def _carried_to(board: Conditions, node: Node, carrier: Node) -> Location:
    where = carrier.destination
    return where if board.variant.can_stand(node.unit.type, where) else where.whole


def _notes(board: Conditions, node: Node) -> tuple[Note, ...]:
    notes: list[Note] = []
    effects = board.effects
    if effects is not None:
        notes.extend(effects.notes.get(node.slot, ()))
    if node.partial and node.kind == SUPPORT and node.result:
        left = board.support_left(node, False)
        if left < node.strength:
            notes.append(SupportLeft(left))
    return tuple(notes)


def _verdict(board: Conditions, node: Node, attacker: Node | None) -> tuple[bool, Reason | None]:
    kind = node.kind
    if kind == MOVE:
        if node.result:
            return True, None
        return False, (Reason.BOUNCED if board.reaches(node, False) else Reason.NO_CONVOY)
    if kind == HOLD:
        return (False, Reason.DISLODGED) if attacker is not None else (True, None)
    if kind == CONVOY and attacker is not None:
        return False, Reason.DISLODGED
    if not node.valid:
        return False, Reason.VOID
    if node.result:
        return True, None
    if kind == SUPPORT:
        return False, Reason.CUT  # by an attack, or by the dislodgement itself
    return False, Reason.PARADOX


def _contested(board: Conditions) -> set[str]:
    """Provinces left empty by a standoff (no retreat there, DATC 4.A.5)."""
    contested = set()
    for province, movers in board.moves_to.items():
        if len(movers) < 2 or any(m.result for m in movers):
            continue
        real = [m for m in movers if board.reaches(m, False)
                and not (m.opponents is not None and any(o.result for o in m.opponents))]
        if len(real) >= 2:
            contested.add(province)
    return contested
