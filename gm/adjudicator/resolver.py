"""The generic resolver of decisions (Kruijswijk, DATC 5.E), with the backup rule as a policy.

Each node carries one decision: its move succeeds, its support is given, or its convoy holds.
``Resolver.resolve`` settles a decision from the optimistic and pessimistic readings of its
conditions (``adjudicate``, the subclass's: gm.adjudicator.conditions); when the two never
agree because the decisions form a cycle, the ``BackupRule`` settles the cycle. The resolver
knows nothing of what the decisions mean beyond that.
"""

from __future__ import annotations

import sys

from gm.adjudicator.nodes import CONVOY, HOLD, MOVE, Node


class BackupRule:
    """How a cycle of decisions that the readings cannot settle is settled: a cycle of moves
    all succeed (circular movement); a cycle with convoys follows the Szykman rule (the convoys
    fail); any other cycle (possible in variants) fails entirely. Another rule subclasses it."""

    def settle(self, members: list[Node]) -> None:
        convoys = [m for m in members if m.kind == CONVOY]
        if convoys:  # Szykman: the convoying fleets of the paradox do not convoy
            for fleet in convoys:
                fleet.resolved, fleet.result = True, False
            return
        settle = all(m.kind == MOVE for m in members)  # circular movement succeeds
        for member in members:
            member.resolved, member.result = True, settle


class Resolver:
    """Settles the decisions of ``nodes``; a subclass says what each decision depends on."""

    def __init__(self, backup: BackupRule):
        self.backup = backup
        self.cycle: list[Node] = []
        self.hits = 0
        self.uncertain = False

    def adjudicate(self, node: Node, optimistic: bool) -> bool:
        """The decision of ``node`` in one reading, the decisions it depends on resolved
        (optimistically or not) by ``resolve``."""
        raise NotImplementedError

    def resolve_all(self, nodes: list[Node]) -> None:
        """Settle every decision (chains of decisions recurse as deep as they are long)."""
        depth = sys.getrecursionlimit()
        sys.setrecursionlimit(max(depth, 10_000))
        try:
            for node in nodes:
                if node.kind != HOLD and not node.resolved:
                    self.resolve(node, False)
        finally:
            sys.setrecursionlimit(depth)

    def resolve(self, node: Node, optimistic: bool) -> bool:
        if node.resolved:
            return node.result
        if node.in_cycle:
            self.uncertain = True
            return optimistic
        if node.visited:
            node.in_cycle = True
            self.cycle.append(node)
            self.hits += 1
            self.uncertain = True
            return optimistic
        node.visited = True
        old_len, old_hits, old_uncertain = len(self.cycle), self.hits, self.uncertain
        self.uncertain = False
        opt_result = self.adjudicate(node, True)
        pes_result = self.adjudicate(node, False) if (self.uncertain and opt_result) else opt_result
        node.visited = False
        if opt_result == pes_result:
            if len(self.cycle) > old_len:
                self._drop_cycle(old_len)
            self.hits = old_hits
            self.uncertain = old_uncertain
            node.resolved = True
            node.result = opt_result
            return opt_result
        if node.in_cycle:
            self.hits -= 1
        # The ancestor of a cycle found below applies the backup rule. An order that is
        # undecided only because it leans on a cycle still being settled further up the
        # recursion (nothing new was found below it) joins that cycle instead.
        if self.hits == old_hits and len(self.cycle) > old_len:
            self.backup.settle(self._drop_cycle(old_len))
            self.uncertain = old_uncertain
            if not node.resolved:  # the backup rule settled the cycle; this order follows from it
                return self.resolve(node, optimistic)
            return node.result
        if not node.in_cycle:
            node.in_cycle = True
            self.cycle.append(node)
        return optimistic

    def _drop_cycle(self, old_len: int) -> list[Node]:
        members = self.cycle[old_len:]
        for member in members:
            member.in_cycle = False
        del self.cycle[old_len:]
        return members
