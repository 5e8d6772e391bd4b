"""What a unit brings to a battle (DATC 5.B): attack, hold (a province's resistance), defend and
prevent strengths, the supports counted in each, what is left of a support an attack reduces,
and whether a convoyed army can get there at all.

Each is read in a reading, ``high`` (the optimistic one for the unit asking, or the other), with
the decisions it depends on resolved by the resolver in that reading.
"""

from __future__ import annotations

from collections import deque

from gm.adjudicator.graph import Graph
from gm.adjudicator.nodes import MOVE, Node, head_to_head


class Strengths(Graph):
    def cuts(self, attacker: Node, node: Node, optimistic: bool) -> bool:
        """Does this attack cut the support of ``node`` (in the reading given)?"""
        return (attacker.side != node.side and (node.exposed or attacker.province != node.dest)
                and self.opposed(attacker, node, node.province)
                and (not attacker.convoyed or self.reaches(attacker, not optimistic)))

    def support_left(self, node: Node, optimistic: bool) -> float:
        """What is left of a support that attacks reduce by their value (``node.partial``): each
        attack's strength with its supports, at its least in the optimistic reading."""
        attackers = self.moves_to.get(node.province)
        if attackers is None:
            return node.strength
        cut = 0.0
        for attacker in attackers:
            if self.cuts(attacker, node, optimistic):
                cut += self.attack(attacker, not optimistic)
        return max(0.0, node.strength - cut)

    def reaches(self, node: Node, optimistic: bool) -> bool:
        """Can a convoyed move reach its destination (other moves always can)?"""
        if not node.convoyed:
            return True
        if node.fleets is None:
            return False
        dest = node.dest
        usable = {f.province for f in node.fleets if self.resolve(f, optimistic)}
        if not usable:
            return False
        queue = deque(p for p in self.sea.get(node.province, ()) if p in usable)
        seen = set(queue)
        while queue:
            here = queue.popleft()
            near = self.sea.get(here, frozenset())
            if dest in near:
                return True
            for nxt in near:
                if nxt in usable and nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return False

    def given(self, support: Node, high: bool) -> float:
        """What a support that is given adds: its strength, or what an attack left of it."""
        return self.support_left(support, high) if support.partial else support.strength

    def support_total(self, supports: list[Node], high: bool, against: str | None = None,
                      also: list[str] | None = None) -> float:
        """The supports given, without those of the sides ``against`` and ``also``."""
        total = 0.0
        for s in supports:
            if s.side != against and (also is None or s.side not in also) and self.resolve(s, high):
                total += self.given(s, high)
        return total

    def support_against(self, supports: list[Node], high: bool, foe: Node) -> float:
        """The supports given in a battle with ``foe``, without those of its partners
        (``Variant.sides``: units of one side may not support against each other; a power's own
        support against itself is standard play's)."""
        total = 0.0
        for s in supports:
            if (s.side != foe.side or s.power == foe.power) and self.resolve(s, high):
                total += self.given(s, high)
        return total

    def attack(self, node: Node, high: bool) -> float:
        if node.convoyed and not self.reaches(node, high):
            return 0
        there = self.at.get(node.dest)
        against: str | None = None  # the side of the units that will still be there to resist
        also: list[str] | None = None
        while there is not None:
            if there.carrier is None and self.opposed(node, there, there.province) and not (
                    there.kind == MOVE and not head_to_head(node, there) and self.resolve(there, high)):
                if there.side == node.side:
                    return 0  # no self-dislodgement
                if against is None:
                    against = there.side
                elif there.side != against:
                    also = [there.side] if also is None else also + [there.side]
            there = there.mate
        if not node.supports:
            return node.strength
        return node.strength + self.support_total(node.supports, high, against, also)

    def defend(self, node: Node, high: bool) -> float:
        return node.strength + self.support_total(node.supports, high) if node.supports else node.strength

    def prevent_against(self, node: Node, high: bool, foe: Node) -> float:
        """``prevent`` in a battle with ``foe``: its partners' supports count for nothing."""
        if not node.supports:
            return self.prevent(node, high)
        if node.convoyed and not self.reaches(node, high):
            return 0
        if node.opponents is not None:
            for opponent in node.opponents:
                if self.resolve(opponent, not high):
                    return 0
        return node.strength + self.support_against(node.supports, high, foe)

    def prevent(self, node: Node, high: bool) -> float:
        if node.convoyed and not self.reaches(node, high):
            return 0
        if node.opponents is not None:
            for opponent in node.opponents:
                if self.resolve(opponent, not high):
                    return 0  # beaten head to head: no effect where the winner came from (DATC 4.A.7)
        return node.strength + self.support_total(node.supports, high) if node.supports else node.strength

    def resistance(self, node: Node, high: bool) -> float:
        """What the province ``node`` moves into resists it with: a head-to-head opponent its
        defence, a unit that stays its hold strength (a stack the sum of them); the supports of
        ``node``'s partners count for nothing against it."""
        there = self.at.get(node.dest)
        total = 0.0
        partners = self.partners
        while there is not None:
            if there.carrier is not None or not self.opposed(node, there, there.province):
                pass
            elif there.kind == MOVE:
                if head_to_head(node, there):
                    total += self.defend(there, high) if not partners or not there.supports \
                        else there.strength + self.support_against(there.supports, high, node)
                elif not self.resolve(there, not high):
                    total += there.strength  # it stays, alone: its move failed
            elif there.hold_supports:
                total += there.strength + there.hold_extra + (
                    self.support_total(there.hold_supports, high) if not partners
                    else self.support_against(there.hold_supports, high, node))
            else:
                total += there.strength + there.hold_extra
            there = there.mate
        return total
