"""What a unit on a path claims of the provinces it enters at a later step, in the first round of
a phase (gm.adjudicator.steps runs the rounds after it).

A plain move (one province, not by convoy) into a later province of a path meets the path there
whatever the step: it is judged against the path's strength there, the supports given this phase
into that province counted (``claim``); the weaker fails, and on a tie both do, the path
stopping in the province before (``blocked_paths``). A support given to a later province of a
path is decided now and added in the step that enters it (``later_supports``).
"""

from __future__ import annotations

from gm.adjudicator.nodes import Node
from gm.adjudicator.strengths import Strengths


class LaterSupport:
    """A support given in this phase to a unit's move into a later step of its path."""

    __slots__ = ("slot", "province", "amount")

    def __init__(self, slot: int, province: str, amount: float):
        self.slot = slot  # the supported unit
        self.province = province
        self.amount = amount


def claim(board: Strengths, node: Node, province: str, high: bool) -> float:
    """What a unit on a path brings against a plain move into a later province of its path:
    its strength, with the supports given this phase into that province."""
    total = node.strength
    if node.later_supports:
        for s in node.later_supports:
            if s.dest == province and board.resolve(s, high):
                total += board.given(s, high)
    return total


def beaten_by_a_path(board: Strengths, node: Node, attack: float, optimistic: bool) -> bool:
    """Does a path entering the province of the plain move ``node`` later hold it off (the
    move's ``attack`` no stronger than the path's claim there)?"""
    dest = node.dest
    claimants = board.claims.get(dest)
    if claimants is None:
        return False
    for path in claimants:
        if board.opposed(node, path, dest) and board.resolve(path, not optimistic) \
                and attack <= claim(board, path, dest, not optimistic):
            return True
    return False


def blocked_paths(board: Strengths, contested: set[str]) -> dict[int, str]:
    """Each path that set out and meets, at a later province, a plain move from next door at
    least as strong as itself there: it bounces at that province (slot -> province); a
    province both bounced from is left empty by a standoff (added to ``contested``)."""
    blocked: dict[int, str] = {}
    for province, paths in board.claims.items():
        movers = [m for m in board.moves_to.get(province, ()) if m.route is None and not m.convoyed]
        for path in paths:
            route = path.route
            if not path.result or route is None:
                continue
            for mover in movers:
                if mover is not path and board.opposed(mover, path, province) \
                        and board.prevent(mover, False) >= claim(board, path, province, False):
                    earlier = blocked.get(path.slot)
                    if earlier is None or route.index(province) < route.index(earlier):
                        blocked[path.slot] = province
                    if not mover.result:
                        contested.add(province)
    return blocked


def later_supports(board: Strengths) -> list[LaterSupport]:
    """The supports given this phase into a later province of a path, with what each adds."""
    given: list[LaterSupport] = []
    for node in board.nodes:
        if node.later_supports:
            for support in node.later_supports:
                if support.result:
                    given.append(LaterSupport(node.slot, support.dest, board.given(support, False)))
    return given
