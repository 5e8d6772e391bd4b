"""The conditions of each decision (DATC 5.B): when a move succeeds, a support is given, a
convoy holds; what the generic resolver (gm.adjudicator.resolver) asks of each node."""

from __future__ import annotations

from gm.adjudicator.claims import beaten_by_a_path
from gm.adjudicator.nodes import MOVE, SUPPORT, Node
from gm.adjudicator.strengths import Strengths


class Conditions(Strengths):
    def adjudicate(self, node: Node, optimistic: bool) -> bool:
        kind = node.kind
        if kind == MOVE:
            return self.move_succeeds(node, optimistic)
        if kind == SUPPORT:
            return self.support_given(node, optimistic)
        return self.convoy_holds(node, optimistic)

    def move_succeeds(self, node: Node, optimistic: bool) -> bool:
        if node.convoyed and not self.reaches(node, optimistic):
            return False
        attack = self.attack(node, optimistic)
        if attack <= self.resistance(node, not optimistic):
            return False
        dest = node.dest
        for rival in self.moves_to[dest]:
            if rival is not node and self.opposed(node, rival, dest) \
                    and attack <= (self.prevent(rival, not optimistic) if not self.partners
                                   else self.prevent_against(rival, not optimistic, node)):
                return False
        # a plain move meets a path entering its province later (gm.adjudicator.claims)
        return not (self.claims and node.route is None and not node.convoyed
                    and beaten_by_a_path(self, node, attack, optimistic))

    def support_given(self, node: Node, optimistic: bool) -> bool:
        attackers = self.moves_to.get(node.province)
        if attackers is None:
            return True
        if node.partial:
            if self.support_left(node, optimistic) <= 0:
                return False
        else:
            for attacker in attackers:
                if self.cuts(attacker, node, optimistic):
                    return False  # cut
        for attacker in attackers:
            if self.opposed(attacker, node, node.province) and self.resolve(attacker, not optimistic):
                return False  # dislodged
        return True

    def convoy_holds(self, node: Node, optimistic: bool) -> bool:
        # DATC 5.D: adjudicate, not resolve, the attacks on a convoying fleet, so that every
        # convoy paradox is a clean single cycle.
        attackers = self.moves_to.get(node.province)
        if attackers is not None:
            for attacker in attackers:
                if self.opposed(attacker, node, node.province) and self.move_succeeds(attacker, not optimistic):
                    return False
        return True
