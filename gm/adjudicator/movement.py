"""Resolving a movement phase: Kruijswijk's decisions with partial information (DATC 5.B, 5.E).

Each unit carries one decision: its move succeeds, its support is given, or its convoy
holds. ``_resolve`` settles a decision from the optimistic and pessimistic readings of its
conditions; when the two never agree because the decisions form a cycle, the backup rule
applies: a cycle of moves all succeed (circular movement); a cycle with convoys follows the
Szykman rule (the convoys fail); any other cycle (possible in variants) fails entirely.

This runs for every phase of every game, so it is written for speed: one node per unit
holding plain fields (provinces as strings, order kinds as small ints), and the phase's
results built in the same pass that reads the decisions.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Sequence
from typing import Final

from gm.adjudicator.legality import Ruling, refusal
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Convoy, Move, SupportHold, SupportMove
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.position import Dislodgement, Position
from gm.domain.units import Unit

HOLD: Final = 0
MOVE: Final = 1
SUPPORT: Final = 2
CONVOY: Final = 3


class _Node:
    """One unit on the board with its order and the state of its decision."""

    __slots__ = (
        "unit", "power", "province", "strength", "kind", "dest", "coast", "destination", "target", "convoyed",
        "opponent", "supports", "hold_supports", "fleets", "valid", "ruling",
        "resolved", "result", "visited", "in_cycle",
    )

    def __init__(self, unit: Unit, strength: float):
        self.unit = unit
        self.power = unit.power
        self.province = unit.location.province
        self.strength = strength
        self.kind = HOLD
        self.dest: str | None = None  # move: where it goes; support/convoy: where the helped move goes
        self.coast: str | None = None  # move: the coast it goes to; support: the coast it names
        self.destination: Location | None = None  # move: where it goes, coast included
        self.target: str | None = None  # support/convoy: the province of the unit helped
        self.convoyed = False
        self.opponent: _Node | None = None  # head-to-head partner
        self.supports: list[_Node] | None = None  # valid supports of this unit's move
        self.hold_supports: list[_Node] | None = None
        self.fleets: list[_Node] | None = None  # convoys matching this unit's move
        self.valid = True  # support/convoy matches an order
        self.ruling = -1  # index of the ruling that gave this order
        self.resolved = self.result = self.visited = self.in_cycle = False


class MovementOutcome:
    """What the moves did: each order's result and the board after them."""

    __slots__ = ("results", "units", "dislodged")

    def __init__(self, results: list[OrderResult], units: tuple[Unit, ...], dislodged: tuple[Dislodgement, ...]):
        self.results = results  # one per ruling, in the same order
        self.units = units  # the units on the board after the moves (dislodged ones not among them)
        self.dislodged = dislodged


def resolve_movement(variant: Variant, position: Position, rulings: Sequence[Ruling]) -> MovementOutcome:
    return _Resolver(variant, position, rulings).run(rulings)


class _Resolver:
    def __init__(self, variant: Variant, position: Position, rulings: Sequence[Ruling]):
        self.variant = variant
        strength = variant.strength
        self.nodes = nodes = [_Node(u, strength(u)) for u in position.units]
        self.at = at = {n.province: n for n in nodes}
        self.moves_to: dict[str, list[_Node]] = {}
        self.sea = variant.map.fleet_province_adjacency
        self.cycle: list[_Node] = []
        self.hits = 0
        self.uncertain = False
        ordered = []
        for index, ruling in enumerate(rulings):
            if ruling.counts and ruling.unit is not None:
                node = at[ruling.unit.location.province]
                _give_order(node, ruling, index)
                ordered.append(node)
        self._link(ordered)

    # -- setting up ----------------------------------------------------------------

    def _link(self, ordered: list[_Node]) -> None:
        at, moves_to = self.at, self.moves_to
        convoys: dict[tuple[str, str | None], list[_Node]] = {}
        for node in ordered:
            kind = node.kind
            if kind == MOVE:
                moves_to.setdefault(node.dest, []).append(node)  # type: ignore[arg-type]
            elif kind == CONVOY:
                convoys.setdefault((node.target, node.dest), []).append(node)  # type: ignore[arg-type]
        for node in ordered:
            if node.kind != MOVE:
                continue
            fleets = convoys.get((node.province, node.dest)) if convoys else None
            if not node.convoyed and node.unit.type.convoyable:
                # DATC 4.A.3 (2000/2023 rules, no land fallback): an adjacent move goes by convoy
                # only when ordered "via convoy" or when an own fleet convoys it.
                node.convoyed = (not self.variant.destinations(node.unit, node.dest)  # type: ignore[arg-type]
                                 or (fleets is not None and any(f.power == node.power for f in fleets)))
            if node.convoyed:
                node.fleets = fleets
        for node in ordered:
            kind = node.kind
            if kind == MOVE:
                other = at.get(node.dest)  # type: ignore[arg-type]
                if (other is not None and other.kind == MOVE and other.dest == node.province
                        and not node.convoyed and not other.convoyed):
                    node.opponent = other
            elif kind == SUPPORT:
                _link_support(node, at.get(node.target))  # type: ignore[arg-type]
            elif kind == CONVOY:
                army = at.get(node.target)  # type: ignore[arg-type]
                node.valid = army is not None and army.fleets is not None and node in army.fleets

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
                fleet.resolved, fleet.result = True, False
            return
        settle = all(m.kind == MOVE for m in members)  # circular movement succeeds
        for member in members:
            member.resolved, member.result = True, settle

    # -- the conditions (DATC 5.B) ---------------------------------------------------

    def _adjudicate(self, node: _Node, optimistic: bool) -> bool:
        kind = node.kind
        if kind == MOVE:
            return self._move_succeeds(node, optimistic)
        if kind == SUPPORT:
            return self._support_given(node, optimistic)
        return self._convoy_holds(node, optimistic)

    def _move_succeeds(self, node: _Node, optimistic: bool) -> bool:
        if node.convoyed and not self._path(node, optimistic):
            return False
        attack = self._attack(node, optimistic)
        if node.opponent is not None:
            if attack <= self._defend(node.opponent, not optimistic):
                return False
        elif attack <= self._hold(node.dest, not optimistic):  # type: ignore[arg-type]
            return False
        for rival in self.moves_to[node.dest]:  # type: ignore[index]
            if rival is not node and attack <= self._prevent(rival, not optimistic):
                return False
        return True

    def _support_given(self, node: _Node, optimistic: bool) -> bool:
        attackers = self.moves_to.get(node.province)
        if attackers is None:
            return True
        for attacker in attackers:
            if (attacker.power != node.power and attacker.province != node.dest
                    and (not attacker.convoyed or self._path(attacker, not optimistic))):
                return False  # cut
        for attacker in attackers:
            if self._resolve(attacker, not optimistic):
                return False  # dislodged
        return True

    def _convoy_holds(self, node: _Node, optimistic: bool) -> bool:
        # DATC 5.D: adjudicate, not resolve, the attacks on a convoying fleet, so that every
        # convoy paradox is a clean single cycle.
        attackers = self.moves_to.get(node.province)
        if attackers is not None:
            for attacker in attackers:
                if self._move_succeeds(attacker, not optimistic):
                    return False
        return True

    def _path(self, node: _Node, optimistic: bool) -> bool:
        """Can a convoyed move reach its destination (other moves always can)?"""
        if not node.convoyed:
            return True
        if node.fleets is None:
            return False
        dest = node.dest
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
            if s.power != against and self._resolve(s, high):
                total += s.strength
        return total

    def _attack(self, node: _Node, high: bool) -> float:
        if node.convoyed and not self._path(node, high):
            return 0
        there = self.at.get(node.dest)  # type: ignore[arg-type]
        if there is None or (node.opponent is None and there.kind == MOVE and self._resolve(there, high)):
            return node.strength + self._support_total(node.supports, high) if node.supports else node.strength
        if there.power == node.power:
            return 0  # no self-dislodgement
        if not node.supports:
            return node.strength
        return node.strength + self._support_total(node.supports, high, against=there.power)

    def _defend(self, node: _Node, high: bool) -> float:
        return node.strength + self._support_total(node.supports, high) if node.supports else node.strength

    def _prevent(self, node: _Node, high: bool) -> float:
        if node.convoyed and not self._path(node, high):
            return 0
        if node.opponent is not None and self._resolve(node.opponent, not high):
            return 0  # beaten head to head: no effect where the winner came from (DATC 4.A.7)
        return node.strength + self._support_total(node.supports, high) if node.supports else node.strength

    def _hold(self, province: str, high: bool) -> float:
        there = self.at.get(province)
        if there is None:
            return 0
        if there.kind == MOVE:
            return 0 if self._resolve(there, not high) else there.strength
        if not there.hold_supports:
            return there.strength
        return there.strength + self._support_total(there.hold_supports, high)

    # -- results -------------------------------------------------------------------

    def run(self, rulings: Sequence[Ruling]) -> MovementOutcome:
        nodes = self.nodes
        depth = sys.getrecursionlimit()
        sys.setrecursionlimit(max(depth, 10_000))
        try:
            for node in nodes:
                if node.kind != HOLD and not node.resolved:
                    self._resolve(node, False)
        finally:
            sys.setrecursionlimit(depth)
        results: list[OrderResult] = [None if r.counts else refusal(r)  # type: ignore[misc]
                                      for r in rulings]
        winners = {n.dest: n for n in nodes if n.result and n.kind == MOVE}
        staying: list[Unit] = []
        moved: list[Unit] = []
        beaten: list[tuple[Unit, _Node]] = []
        for node in nodes:
            attacker = winners.get(node.province)
            if node.kind == MOVE and node.result:
                moved.append(Unit(node.power, node.unit.type, node.destination))  # type: ignore[arg-type]
                attacker = None
            elif attacker is not None:
                beaten.append((node.unit, attacker))
            else:
                staying.append(node.unit)
            if node.ruling >= 0:
                ruling = rulings[node.ruling]
                succeeded, reason = self._verdict(node, attacker)
                results[node.ruling] = OrderResult(ruling.power, ruling.order, ruling.unit, succeeded, reason)
        units = tuple(staying + moved)
        dislodged: tuple[Dislodgement, ...] = ()
        if beaten:
            occupied = {u.location.province for u in units}
            contested = self._contested()
            dislodged = tuple(
                Dislodgement(unit, by.province,
                             self.variant.retreat_options(unit, by.province, by.convoyed, occupied, contested))
                for unit, by in beaten
            )
        return MovementOutcome(results, units, dislodged)

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
        """Provinces left empty by a standoff (no retreat there, DATC 4.A.5)."""
        contested = set()
        for province, movers in self.moves_to.items():
            if len(movers) < 2 or any(m.result for m in movers):
                continue
            real = [m for m in movers if self._path(m, False)
                    and not (m.opponent is not None and m.opponent.result)]
            if len(real) >= 2:
                contested.add(province)
        return contested


def _give_order(node: _Node, ruling: Ruling, index: int) -> None:
    # isinstance, not type(): it tells the compiler the order's class, so fields read fast.
    order = ruling.order
    node.ruling = index
    if isinstance(order, Move):
        node.kind = MOVE
        node.destination = order.destination
        node.dest = order.destination.province
        node.coast = order.destination.coast
        node.convoyed = order.via_convoy
    elif isinstance(order, SupportMove):
        node.kind = SUPPORT
        node.target = order.supported.location.province
        node.dest = order.destination.province
        node.coast = order.destination.coast
    elif isinstance(order, SupportHold):
        node.kind = SUPPORT
        node.target = order.supported.location.province
    elif isinstance(order, Convoy):
        node.kind = CONVOY
        node.target = order.army.location.province
        node.dest = order.destination.province


def _link_support(node: _Node, helped: _Node | None) -> None:
    if helped is None:
        node.valid = False
    elif node.dest is None:
        node.valid = helped.kind != MOVE
        if node.valid:
            if helped.hold_supports:
                helped.hold_supports.append(node)  # type: ignore[union-attr]
            else:
                helped.hold_supports = [node]
    else:
        node.valid = (
            helped.kind == MOVE
            and helped.dest == node.dest
            and (node.coast is None or node.coast == helped.coast)
        )
        if node.valid:
            if helped.supports:
                helped.supports.append(node)  # type: ignore[union-attr]
            else:
                helped.supports = [node]
