"""Resolving a movement phase: Kruijswijk's decisions with partial information (DATC 5.B, 5.E).

Each unit carries one decision: its move succeeds, its support is given, or its convoy
holds. ``_resolve`` settles a decision from the optimistic and pessimistic readings of its
conditions; when the two never agree because the decisions form a cycle, the backup rule
applies: a cycle of moves all succeed (circular movement); a cycle with convoys follows the
Szykman rule (the convoys fail); any other cycle (possible in variants) fails entirely.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from gm.adjudicator.legality import Ruling
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Convoy, Move, SupportHold, SupportMove
from gm.domain.outcomes import Reason
from gm.domain.position import Position
from gm.domain.units import Unit

HOLD, MOVE, SUPPORT, CONVOY = range(4)


class _Node:
    """One unit on the board with its order and the state of its decision."""

    __slots__ = (
        "unit", "power", "province", "kind", "destination", "target", "support_coast", "strength",
        "convoyed", "opponent", "supports", "hold_supports", "fleets", "valid", "ruling",
        "resolved", "result", "visited", "in_cycle", "paradox",
    )

    def __init__(self, unit: Unit, strength: float):
        self.unit = unit
        self.power = unit.power
        self.province = unit.location.province
        self.kind = HOLD
        self.destination: Location | None = None  # move target; support/convoy: where the move goes
        self.target: str | None = None  # support/convoy: the province of the unit helped
        self.support_coast: str | None = None
        self.strength = strength
        self.convoyed = False
        self.opponent: _Node | None = None  # head-to-head partner
        self.supports: list[_Node] = []  # valid supports of this unit's move
        self.hold_supports: list[_Node] = []
        self.fleets: list[_Node] = []  # convoys matching this unit's move
        self.valid = True  # support/convoy matches an order
        self.ruling: int | None = None  # index of the ruling that gave this order
        self.resolved = False
        self.result = False
        self.visited = False
        self.in_cycle = False
        self.paradox = False


@dataclass(slots=True)
class MovementOutcome:
    verdicts: list[tuple[int, bool, Reason | None]]  # (ruling index, succeeded, reason) per ordered unit
    moved: list[tuple[Unit, Location]]  # units that moved, and where to
    dislodged: list[tuple[Unit, str, bool]]  # unit, the province its attacker came from, by convoy
    contested: set[str]  # provinces left empty by a standoff


def resolve_movement(variant: Variant, position: Position, rulings: Sequence[Ruling]) -> MovementOutcome:
    return _Resolver(variant, position, rulings).run()


class _Resolver:
    def __init__(self, variant: Variant, position: Position, rulings: Sequence[Ruling]):
        self.variant = variant
        self.nodes = [_Node(u, variant.strength(u)) for u in position.units]
        self.at = {n.province: n for n in self.nodes}
        self.moves_to: dict[str, list[_Node]] = {}
        self.sea = variant.map.fleet_province_adjacency
        self.cycle: list[_Node] = []
        self.hits = 0
        self.uncertain = False
        for index, ruling in enumerate(rulings):
            if ruling.counts and ruling.unit is not None:
                self._give_order(self.at[ruling.unit.location.province], ruling, index)
        self._link()

    # -- setting up ----------------------------------------------------------------

    def _give_order(self, node: _Node, ruling: Ruling, index: int) -> None:
        order = ruling.order
        node.ruling = index
        if isinstance(order, Move):
            node.kind = MOVE
            node.destination = order.destination
            node.convoyed = order.via_convoy
        elif isinstance(order, SupportHold):
            node.kind = SUPPORT
            node.target = order.supported.province
        elif isinstance(order, SupportMove):
            node.kind = SUPPORT
            node.target = order.supported.province
            node.destination = order.destination
            node.support_coast = order.destination.coast
        elif isinstance(order, Convoy):
            node.kind = CONVOY
            node.target = order.army.province
            node.destination = order.destination

    def _link(self) -> None:
        convoys: dict[tuple[str, str], list[_Node]] = {}
        for node in self.nodes:
            if node.kind == CONVOY and node.target and node.destination:
                convoys.setdefault((node.target, node.destination.province), []).append(node)
        for node in self.nodes:
            if node.kind != MOVE or node.destination is None:
                continue
            dest = node.destination.province
            self.moves_to.setdefault(dest, []).append(node)
            fleets = convoys.get((node.province, dest), [])
            if node.unit.type.convoyable:
                adjacent = bool(self.variant.destinations(node.unit, dest))
                # DATC 4.A.3 (2000/2023 rules, no land fallback): an adjacent move goes by convoy
                # only when ordered "via convoy" or when an own fleet convoys it.
                node.convoyed = node.convoyed or not adjacent or any(f.power == node.power for f in fleets)
            node.fleets = fleets if node.convoyed else []
        for node in self.nodes:
            if node.kind == MOVE and not node.convoyed and node.destination is not None:
                other = self.at.get(node.destination.province)
                if (other is not None and other.kind == MOVE and not other.convoyed
                        and other.destination is not None and other.destination.province == node.province):
                    node.opponent = other
            elif node.kind == CONVOY:
                army = self.at.get(node.target or "")
                node.valid = army is not None and node in army.fleets
            elif node.kind == SUPPORT:
                self._link_support(node)

    def _link_support(self, node: _Node) -> None:
        helped = self.at.get(node.target or "")
        if helped is None:
            node.valid = False
        elif node.destination is None:
            node.valid = helped.kind != MOVE
            if node.valid:
                helped.hold_supports.append(node)
        else:
            node.valid = (
                helped.kind == MOVE
                and helped.destination is not None
                and helped.destination.province == node.destination.province
                and (node.support_coast is None or node.support_coast == helped.destination.coast)
            )
            if node.valid:
                helped.supports.append(node)

    # -- the generic resolver (DATC 5.E) ---------------------------------------------

    def _resolve(self, node: _Node, optimistic: bool) -> bool:
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
        opt_result = self._adjudicate(node, True)
        pes_result = self._adjudicate(node, False) if (self.uncertain and opt_result) else opt_result
        node.visited = False
        if opt_result == pes_result:
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
            members = self._drop_cycle(old_len)
            self._backup_rule(members)
            self.uncertain = old_uncertain
            if not node.resolved:  # the backup rule settled the cycle; this order follows from it
                return self._resolve(node, optimistic)
            return node.result
        if not node.in_cycle:
            node.in_cycle = True
            self.cycle.append(node)
        return optimistic

    def _drop_cycle(self, old_len: int) -> list[_Node]:
        members = self.cycle[old_len:]
        for member in members:
            member.in_cycle = False
        del self.cycle[old_len:]
        return members

    def _backup_rule(self, members: list[_Node]) -> None:
        convoys = [m for m in members if m.kind == CONVOY]
        if convoys:  # Szykman: the convoying fleets of the paradox do not convoy
            for fleet in convoys:
                fleet.resolved, fleet.result, fleet.paradox = True, False, True
            return
        settle = all(m.kind == MOVE for m in members)  # circular movement succeeds
        for member in members:
            member.resolved, member.result = True, settle

    # -- the conditions (DATC 5.B) ---------------------------------------------------

    def _adjudicate(self, node: _Node, optimistic: bool) -> bool:
        if node.kind == MOVE:
            return self._move_succeeds(node, optimistic)
        if node.kind == SUPPORT:
            return self._support_given(node, optimistic)
        return self._convoy_holds(node, optimistic)

    def _move_succeeds(self, node: _Node, optimistic: bool) -> bool:
        if not self._path(node, optimistic):
            return False
        attack = self._attack(node, optimistic)
        dest = node.destination.province  # type: ignore[union-attr]
        if node.opponent is not None:
            if attack <= self._defend(node.opponent, not optimistic):
                return False
        elif attack <= self._hold(dest, not optimistic):
            return False
        for rival in self.moves_to[dest]:
            if rival is not node and attack <= self._prevent(rival, not optimistic):
                return False
        return True

    def _support_given(self, node: _Node, optimistic: bool) -> bool:
        attackers = self.moves_to.get(node.province, ())
        into = node.destination.province if node.destination is not None else None
        for attacker in attackers:
            if attacker.power != node.power and attacker.province != into and self._path(attacker, not optimistic):
                return False  # cut
        for attacker in attackers:
            if self._resolve(attacker, not optimistic):
                return False  # dislodged
        return True

    def _convoy_holds(self, node: _Node, optimistic: bool) -> bool:
        # DATC 5.D: adjudicate, not resolve, the attacks on a convoying fleet, so that every
        # convoy paradox is a clean single cycle.
        for attacker in self.moves_to.get(node.province, ()):
            if self._move_succeeds(attacker, not optimistic):
                return False
        return True

    def _path(self, node: _Node, optimistic: bool) -> bool:
        if not node.convoyed:
            return True
        dest = node.destination.province  # type: ignore[union-attr]
        usable = {f.province for f in node.fleets if self._resolve(f, optimistic)}
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

    def _support_total(self, supports: list[_Node], high: bool, against: str | None = None) -> float:
        total = 0.0
        for s in supports:
            if (against is None or s.power != against) and self._resolve(s, high):
                total += s.strength
        return total

    def _attack(self, node: _Node, high: bool) -> float:
        if not self._path(node, high):
            return 0
        there = self.at.get(node.destination.province)  # type: ignore[union-attr]
        if there is None or (node.opponent is None and there.kind == MOVE and self._resolve(there, high)):
            return node.strength + self._support_total(node.supports, high)
        if there.power == node.power:
            return 0  # no self-dislodgement
        return node.strength + self._support_total(node.supports, high, against=there.power)

    def _defend(self, node: _Node, high: bool) -> float:
        return node.strength + self._support_total(node.supports, high)

    def _prevent(self, node: _Node, high: bool) -> float:
        if not self._path(node, high):
            return 0
        if node.opponent is not None and self._resolve(node.opponent, not high):
            return 0  # beaten head to head: no effect where the winner came from (DATC 4.A.7)
        return node.strength + self._support_total(node.supports, high)

    def _hold(self, province: str, high: bool) -> float:
        there = self.at.get(province)
        if there is None:
            return 0
        if there.kind == MOVE:
            return 0 if self._resolve(there, not high) else there.strength
        return there.strength + self._support_total(there.hold_supports, high)

    # -- results -------------------------------------------------------------------

    def run(self) -> MovementOutcome:
        depth = sys.getrecursionlimit()
        sys.setrecursionlimit(max(depth, 10_000))
        try:
            for node in self.nodes:
                if node.kind != HOLD:
                    self._resolve(node, False)
        finally:
            sys.setrecursionlimit(depth)
        outcome = MovementOutcome([], [], [], self._contested())
        winners = {n.destination.province: n for n in self.nodes if n.kind == MOVE and n.result}  # type: ignore[union-attr]
        for node in self.nodes:
            attacker = winners.get(node.province)
            if node.kind == MOVE and node.result:
                outcome.moved.append((node.unit, node.destination))  # type: ignore[arg-type]
                attacker = None
            elif attacker is not None:
                outcome.dislodged.append((node.unit, attacker.province, attacker.convoyed))
            if node.ruling is not None:
                succeeded, reason = self._verdict(node, attacker)
                outcome.verdicts.append((node.ruling, succeeded, reason))
        return outcome

    def _verdict(self, node: _Node, attacker: _Node | None) -> tuple[bool, Reason | None]:
        kind = node.kind
        if kind == MOVE:
            if node.result:
                return True, None
            return False, (Reason.BOUNCED if self._path(node, False) else Reason.NO_CONVOY)
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

    def _contested(self) -> set[str]:
        contested = set()
        for province, movers in self.moves_to.items():
            if len(movers) < 2 or any(m.result for m in movers):
                continue
            real = [m for m in movers if self._path(m, False)
                    and not (m.opponent is not None and m.opponent.result)]
            if len(real) >= 2:
                contested.add(province)
        return contested
