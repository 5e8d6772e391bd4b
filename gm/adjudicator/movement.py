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

from gm.adjudicator.effects import Effects
from gm.adjudicator.rulings import MovementOutcome, Ruling, refusal
from gm.adjudicator.variant import SupportCut, Variant, units_by_province
from gm.domain.geography import Location
from gm.domain.orders import (
    Convoy,
    Move,
    MoveAlongPath,
    MoveInRounds,
    MoveThen,
    Order,
    SupportHold,
    SupportMove,
    Waive,
)
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.position import Dislodgement, Position
from gm.domain.units import Unit, UnitType

HOLD: Final = 0
MOVE: Final = 1
SUPPORT: Final = 2
CONVOY: Final = 3


class _Node:
    """One unit on the board with its order and the state of its decision."""

    __slots__ = (
        "unit", "power", "side", "province", "slot", "strength", "hold_extra", "kind", "dest", "coast",
        "destination", "target", "target_type", "route", "convoyed", "opponents", "supports",
        "hold_supports", "later_supports", "fleets", "valid", "ruling", "mate", "carrier", "cargo", "partial", "exposed",
        "arriving", "resolved", "result", "visited", "in_cycle",
    )

    def __init__(self, unit: Unit, strength: float, slot: int):
        self.unit = unit
        self.power = unit.power
        self.side = unit.power  # the powers that fight as one (Variant.sides)
        self.province = unit.location.province
        self.slot = slot  # index in the position's units
        self.strength = strength
        self.hold_extra = 0.0  # added to its hold strength while it does not move
        self.kind = HOLD
        self.dest: str | None = None  # move: where it goes; support/convoy: where the helped move goes
        self.coast: str | None = None  # move: the coast it goes to; support: the coast it names
        self.destination: Location | None = None  # move: where it goes, coast included
        self.target: str | None = None  # support/convoy: the province of the unit helped
        self.target_type: UnitType | None = None  # support/convoy: the type of the unit helped
        self.route: tuple[str, ...] | None = None  # a path's provinces after the first step
        self.convoyed = False
        self.opponents: list[_Node] | None = None  # head-to-head partners
        self.supports: list[_Node] | None = None  # valid supports of this unit's move
        self.hold_supports: list[_Node] | None = None
        self.later_supports: list[_Node] | None = None  # supports into a later step of its path
        self.fleets: list[_Node] | None = None  # convoys matching this unit's move
        self.valid = True  # support/convoy matches an order
        self.ruling = -1  # index of the ruling that gave this order
        self.mate: _Node | None = None  # the next unit in the same province, where units share
        self.carrier: _Node | None = None  # the unit it goes with, adding nothing of its own
        self.cargo: list[_Node] | None = None  # the units that go with it
        self.partial = False  # an attack reduces its support by the attack's value (SupportCut)
        self.exposed = False  # any attack cuts its support, even one from where the support goes
        self.arriving: Unit | None = None  # the unit as it stands where its move takes it (asked once)
        self.resolved = self.result = self.visited = self.in_cycle = False


class LaterSupport:
    """A support given in this phase to a unit's move into a later step of its path."""

    __slots__ = ("slot", "province", "amount")

    def __init__(self, slot: int, province: str, amount: float):
        self.slot = slot  # the supported unit
        self.province = province
        self.amount = amount


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


def resolve_movement(variant: Variant, position: Position, rulings: Sequence[Ruling],
                     effects: Effects | None = None) -> MovementOutcome:
    return _Resolver(variant, position, rulings, effects).run(rulings).outcome


def resolve_round(variant: Variant, position: Position, rulings: Sequence[Ruling],
                  effects: Effects | None = None) -> Resolution:
    """One resolution, with what the rounds of moves of several steps need (gm.adjudicator.steps)."""
    return _Resolver(variant, position, rulings, effects).run(rulings)


class _Resolver:
    def __init__(self, variant: Variant, position: Position, rulings: Sequence[Ruling], effects: Effects | None):
        self.variant = variant
        self.stacks = stacks = variant.stacks
        strength = variant.strength
        self.position_units = units = position.units
        self.by_slot = by_slot = [_Node(u, strength(u), i) for i, u in enumerate(units)]
        self.effects = effects if effects is not None and effects.changes_anything else None
        nodes = by_slot
        self.gone: dict[int, str] = {}  # slot -> why a rule removed the unit before the battles
        if self.effects is not None:
            self._apply(self.effects)
            self.gone = gone = self.effects.destroyed
            if gone:
                nodes = [n for n in by_slot if n.slot not in gone]
        self.nodes = nodes
        if variant.partial_cuts:
            for node in nodes:
                node.partial = variant.support_cut(node.unit) is SupportCut.BY_ATTACK
        sides = variant.sides(position)
        if sides:
            for node in nodes:
                node.side = sides.get(node.power, node.power)
        # Units of one side share a province as one power's may (Variant.sides_share).
        self.share_sides = sides if sides and variant.sides_share else None
        # Powers that fight as one: a support counts for nothing against a partner of its own.
        self.partners = bool(sides)
        at: dict[str, _Node] = {}
        if stacks:
            last: dict[str, _Node] = {}
            for node in nodes:
                before = last.get(node.province)
                if before is None:
                    at[node.province] = node
                else:
                    before.mate = node
                last[node.province] = node
        else:
            at = {n.province: n for n in nodes}
        self.at = at
        self.moves_to: dict[str, list[_Node]] = {}
        self.sea = variant.map.fleet_province_adjacency
        self.cycle: list[_Node] = []
        self.hits = 0
        self.uncertain = False
        self.several_steps = False
        self.claims: dict[str, list[_Node]] = {}  # province -> units whose path enters it at a later step
        ordered = []
        self.declared = False  # some order is a declaration, attached to no unit
        for index, ruling in enumerate(rulings):
            if ruling.acts and ruling.slot < 0:
                self.declared = True
            elif ruling.acts:
                node = self.by_slot[ruling.slot]
                if node.carrier is None and ruling.slot not in self.gone:
                    if _give_order(node, ruling.acting or ruling.order, index):
                        self.several_steps = True
                    ordered.append(node)
        self._link(ordered)

    def _apply(self, effects: Effects) -> None:
        """The variant's changes before resolution: bonuses, carried units, units gone."""
        by_slot = self.by_slot
        for slot, amount in effects.bonus.items():
            by_slot[slot].strength += amount
        for slot, amount in effects.hold_bonus.items():
            by_slot[slot].hold_extra += amount
        for slot in effects.exposed:
            by_slot[slot].exposed = True
        for slot in effects.failed:  # judged already: a move that failed (its order is given after)
            node = by_slot[slot]
            node.resolved, node.result = True, False
        for slot, carrier in effects.carried.items():
            carried, by = by_slot[slot], by_slot[carrier]
            carried.carrier = by
            if by.cargo is None:
                by.cargo = [carried]
            else:
                by.cargo.append(carried)

    # -- setting up ----------------------------------------------------------------

    def _link(self, ordered: list[_Node]) -> None:
        moves_to = self.moves_to
        stacks = self.stacks
        convoys: dict[tuple[str, str | None], list[_Node]] = {}
        for node in ordered:
            kind = node.kind
            if kind == MOVE:
                moves_to.setdefault(node.dest, []).append(node)  # type: ignore[arg-type]
                if node.route is not None:
                    for later in node.route:
                        self.claims.setdefault(later, []).append(node)
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
                if not node.convoyed:
                    other = self.at.get(node.dest)  # type: ignore[arg-type]
                    while other is not None:  # units that may share swap places: no battle
                        if (other.kind == MOVE and other.dest == node.province and not other.convoyed
                                and not (stacks and self._share(node, other, other.province))):
                            if node.opponents is None:
                                node.opponents = [other]
                            else:
                                node.opponents.append(other)
                        other = other.mate
            elif kind == SUPPORT:
                _link_support(node, self._helped(node) if stacks else self.at.get(node.target))  # type: ignore[arg-type]
            elif kind == CONVOY:
                army = self._convoyed_army(node) if stacks else self.at.get(node.target)  # type: ignore[arg-type]
                node.valid = army is not None and army.fleets is not None and node in army.fleets

    def _helped(self, node: _Node) -> _Node | None:
        """In a shared province, the unit a support names: of its type, and ordered as the
        support says if one is (the move it supports, or not moving). A unit that goes with
        another (a leader leading its army) is helped as the one it goes with: what that one
        does, it does."""
        first = candidate = self.at.get(node.target)  # type: ignore[arg-type]
        fallback = None
        carried = None
        while candidate is not None:
            if candidate is not node and (node.target_type is None or candidate.unit.type is node.target_type):
                if candidate.carrier is not None:
                    carried = carried or candidate.carrier
                else:
                    if node.dest is None and candidate.kind != MOVE:
                        return candidate
                    if node.dest is not None and candidate.kind == MOVE and candidate.dest == node.dest:
                        return candidate
                    fallback = fallback or candidate
            candidate = candidate.mate
        return fallback or carried or first

    def _convoyed_army(self, node: _Node) -> _Node | None:
        candidate = self.at.get(node.target)  # type: ignore[arg-type]
        while candidate is not None:
            if candidate.kind == MOVE and candidate.fleets is not None and node in candidate.fleets:
                return candidate
            candidate = candidate.mate
        return None

    def _share(self, a: _Node, b: _Node, province: str) -> bool:
        """May these two stand together in ``province``, with the units that go with each? The
        variant is asked about the units as they would stand there (a unit moving in, at its
        destination): whether units may share can depend on the province (fleets at sea)."""
        sides = self.share_sides
        if sides is not None and a.side == b.side and a.power != b.power:  # partners: as one power
            on_side = self.variant.may_share_on_side
            return all(on_side(_standing(x, province), _standing(y, province), sides)
                       for x in [a, *(a.cargo or ())] for y in [b, *(b.cargo or ())])
        may = self.variant.may_share
        if not may(_standing(a, province), _standing(b, province)):
            return False
        if a.cargo is not None or b.cargo is not None:
            ours = [a, *(a.cargo or ())]
            theirs = [b, *(b.cargo or ())]
            return all(may(_standing(x, province), _standing(y, province)) for x in ours for y in theirs)
        return True

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
        if attack <= self._resistance(node, not optimistic):
            return False
        stacks = self.stacks
        dest: str = node.dest  # type: ignore[assignment]  # a move always has one
        for rival in self.moves_to[dest]:
            if rival is not node and not (stacks and self._share(node, rival, dest)) \
                    and attack <= (self._prevent(rival, not optimistic) if not self.partners
                                   else self._prevent_against(rival, not optimistic, node)):
                return False
        if self.claims and node.route is None and not node.convoyed:
            claimants = self.claims.get(dest)
            if claimants is not None:
                for path in claimants:  # a plain move meets a path entering its province later
                    if not (stacks and self._share(node, path, dest)) and self._resolve(path, not optimistic) \
                            and attack <= self._claim(path, dest, not optimistic):
                        return False
        return True

    def _claim(self, node: _Node, province: str, high: bool) -> float:
        """What a unit on a path brings against a plain move into a later province of its path:
        its strength, with the supports given this phase into that province."""
        total = node.strength
        if node.later_supports:
            for s in node.later_supports:
                if s.dest == province and self._resolve(s, high):
                    total += self._support_left(s, high) if s.partial else s.strength
        return total

    def _blocked_paths(self, contested: set[str]) -> dict[int, str]:
        """Each path that set out and meets, at a later province, a plain move from next door at
        least as strong as itself there: it bounces at that province (slot -> province); a
        province both bounced from is left empty by a standoff."""
        blocked: dict[int, str] = {}
        stacks = self.stacks
        for province, paths in self.claims.items():
            movers = [m for m in self.moves_to.get(province, ()) if m.route is None and not m.convoyed]
            for path in paths:
                if not path.result or path.route is None:
                    continue
                for mover in movers:
                    if mover is not path and not (stacks and self._share(mover, path, province)) \
                            and self._prevent(mover, False) >= self._claim(path, province, False):
                        earlier = blocked.get(path.slot)
                        if earlier is None or path.route.index(province) < path.route.index(earlier):
                            blocked[path.slot] = province
                        if not mover.result:
                            contested.add(province)
        return blocked

    def _cuts(self, attacker: _Node, node: _Node, optimistic: bool) -> bool:
        """Does this attack cut the support of ``node`` (in the reading given)?"""
        return (attacker.side != node.side and (node.exposed or attacker.province != node.dest)
                and not (self.stacks and self._share(attacker, node, node.province))
                and (not attacker.convoyed or self._path(attacker, not optimistic)))

    def _support_given(self, node: _Node, optimistic: bool) -> bool:
        attackers = self.moves_to.get(node.province)
        if attackers is None:
            return True
        if node.partial:
            if self._support_left(node, optimistic) <= 0:
                return False
        else:
            for attacker in attackers:
                if self._cuts(attacker, node, optimistic):
                    return False  # cut
        stacks = self.stacks
        for attacker in attackers:
            if not (stacks and self._share(attacker, node, node.province)) and self._resolve(attacker, not optimistic):
                return False  # dislodged
        return True

    def _support_left(self, node: _Node, optimistic: bool) -> float:
        """What is left of a support that attacks reduce by their value (``node.partial``): each
        attack's strength with its supports, at its least in the optimistic reading."""
        attackers = self.moves_to.get(node.province)
        if attackers is None:
            return node.strength
        cut = 0.0
        for attacker in attackers:
            if self._cuts(attacker, node, optimistic):
                cut += self._attack(attacker, not optimistic)
        return max(0.0, node.strength - cut)

    def _convoy_holds(self, node: _Node, optimistic: bool) -> bool:
        # DATC 5.D: adjudicate, not resolve, the attacks on a convoying fleet, so that every
        # convoy paradox is a clean single cycle.
        attackers = self.moves_to.get(node.province)
        if attackers is not None:
            stacks = self.stacks
            for attacker in attackers:
                if not (stacks and self._share(attacker, node, node.province)) and self._move_succeeds(attacker, not optimistic):
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

    def _support_total(self, supports: list[_Node], high: bool, against: str | None = None,
                       also: list[str] | None = None) -> float:
        """The supports given, without those of the sides ``against`` and ``also``."""
        total = 0.0
        for s in supports:
            if s.side != against and (also is None or s.side not in also) and self._resolve(s, high):
                total += self._support_left(s, high) if s.partial else s.strength
        return total

    def _support_against(self, supports: list[_Node], high: bool, foe: _Node) -> float:
        """The supports given in a battle with ``foe``, without those of its partners
        (``Variant.sides``: units of one side may not support against each other; a power's own
        support against itself is standard play's)."""
        total = 0.0
        for s in supports:
            if (s.side != foe.side or s.power == foe.power) and self._resolve(s, high):
                total += self._support_left(s, high) if s.partial else s.strength
        return total

    def _attack(self, node: _Node, high: bool) -> float:
        if node.convoyed and not self._path(node, high):
            return 0
        there = self.at.get(node.dest)  # type: ignore[arg-type]
        against: str | None = None  # the side of the units that will still be there to resist
        also: list[str] | None = None
        stacks = self.stacks
        while there is not None:
            if there.carrier is None and not (stacks and self._share(node, there, there.province)) and not (
                    there.kind == MOVE and not _head_to_head(node, there) and self._resolve(there, high)):
                if there.side == node.side:
                    return 0  # no self-dislodgement
                if against is None:
                    against = there.side
                elif there.side != against:
                    also = [there.side] if also is None else also + [there.side]
            there = there.mate
        if not node.supports:
            return node.strength
        return node.strength + self._support_total(node.supports, high, against, also)

    def _defend(self, node: _Node, high: bool) -> float:
        return node.strength + self._support_total(node.supports, high) if node.supports else node.strength

    def _prevent_against(self, node: _Node, high: bool, foe: _Node) -> float:
        """``_prevent`` in a battle with ``foe``: its partners' supports count for nothing."""
        if not node.supports:
            return self._prevent(node, high)
        if node.convoyed and not self._path(node, high):
            return 0
        if node.opponents is not None:
            for opponent in node.opponents:
                if self._resolve(opponent, not high):
                    return 0
        return node.strength + self._support_against(node.supports, high, foe)

    def _prevent(self, node: _Node, high: bool) -> float:
        if node.convoyed and not self._path(node, high):
            return 0
        if node.opponents is not None:
            for opponent in node.opponents:
                if self._resolve(opponent, not high):
                    return 0  # beaten head to head: no effect where the winner came from (DATC 4.A.7)
        return node.strength + self._support_total(node.supports, high) if node.supports else node.strength

    def _resistance(self, node: _Node, high: bool) -> float:
        """What the province ``node`` moves into resists it with: a head-to-head opponent its
        defence, a unit that stays its hold strength (a stack the sum of them); the supports of
        ``node``'s partners count for nothing against it."""
        there = self.at.get(node.dest)  # type: ignore[arg-type]
        total = 0.0
        stacks = self.stacks
        partners = self.partners
        while there is not None:
            if there.carrier is not None or (stacks and self._share(node, there, there.province)):
                pass
            elif there.kind == MOVE:
                if _head_to_head(node, there):
                    total += self._defend(there, high) if not partners or not there.supports \
                        else there.strength + self._support_against(there.supports, high, node)
                elif not self._resolve(there, not high):
                    total += there.strength  # it stays, alone: its move failed
            elif there.hold_supports:
                total += there.strength + there.hold_extra + (
                    self._support_total(there.hold_supports, high) if not partners
                    else self._support_against(there.hold_supports, high, node))
            else:
                total += there.strength + there.hold_extra
            there = there.mate
        return total

    # -- results -------------------------------------------------------------------

    def run(self, rulings: Sequence[Ruling]) -> Resolution:
        nodes = self.nodes
        depth = sys.getrecursionlimit()
        sys.setrecursionlimit(max(depth, 10_000))
        try:
            for node in nodes:
                if node.kind != HOLD and not node.resolved:
                    self._resolve(node, False)
        finally:
            sys.setrecursionlimit(depth)
        results = [_PENDING if r.acts else refusal(r) for r in rulings]
        winners: dict[str, list[_Node]] = {}
        for n in nodes:
            if n.result and n.kind == MOVE:
                if n.dest in winners:
                    winners[n.dest].append(n)  # type: ignore[index]
                else:
                    winners[n.dest] = [n]  # type: ignore[index]
        staying: list[Unit] = []
        moved: list[Unit] = []
        moved_to: dict[int, Location] = {}
        beaten: list[tuple[Unit, _Node]] = []
        beaten_by: dict[int, str] = {}
        for node in nodes:
            carrier = node.carrier
            if carrier is not None and carrier.kind == MOVE and carrier.result:
                attacker = None
                where = self._carried_to(node, carrier)
                moved.append(Unit(node.power, node.unit.type, where))
                moved_to[node.slot] = where
            elif node.kind == MOVE and node.result:
                attacker = None
                moved.append(Unit(node.power, node.unit.type, node.destination))  # type: ignore[arg-type]
                moved_to[node.slot] = node.destination  # type: ignore[assignment]
            else:
                attacker = self._dislodger(node, winners.get(node.province))
                if attacker is not None:
                    beaten.append((node.unit, attacker))
                    beaten_by[node.slot] = attacker.province
                else:
                    staying.append(node.unit)
            if node.ruling >= 0:
                ruling = rulings[node.ruling]
                succeeded, reason = self._verdict(node, attacker)
                results[node.ruling] = OrderResult(ruling.power, ruling.order, ruling.unit, succeeded, reason,
                                                   notes=self._notes(node) if self.effects is not None
                                                   or node.partial else ())
        if self.effects is not None or self.declared:  # declarations; units gone or going with another
            gone = self.gone
            for index, ruling in enumerate(rulings):
                if ruling.slot < 0:
                    if results[index] is _PENDING:  # what it does, the variant's rules say after
                        results[index] = OrderResult(ruling.power, ruling.order, ruling.unit, True)
                elif ruling.counts and ruling.slot in gone:
                    results[index] = OrderResult(ruling.power, ruling.order, ruling.unit, False, Reason.DESTROYED,
                                                 gone[ruling.slot])
                elif results[index] is _PENDING:  # it went with another
                    node = self.by_slot[ruling.slot]
                    results[index] = self._carried_result(ruling, node, node.slot in beaten_by)
        units = tuple(staying + moved)
        dislodged: tuple[Dislodgement, ...] = ()
        contested = self._contested() if beaten or self.several_steps else set()
        if beaten:
            standing = units_by_province(units)
            sides = self.share_sides
            dislodged = tuple(
                Dislodgement(unit, by.province,
                             self.variant.retreat_options(unit, by.province, by.convoyed, standing, contested, sides))
                for unit, by in beaten
            )
        outcome = MovementOutcome(results, units, dislodged, self.position_units, moved_to)
        if self.effects is not None:
            outcome.destroyed = [(self.effects.position.units[slot], why)
                                 for slot, why in self.effects.destroyed.items()]
        later = self._later_supports() if self.several_steps else []
        blocked = self._blocked_paths(contested) if self.claims else None
        return Resolution(outcome, moved_to, contested, later, beaten_by, self.several_steps, blocked)

    def _dislodger(self, node: _Node, winners: list[_Node] | None) -> _Node | None:
        """The unit that entered the province of ``node`` and may not share it."""
        if winners is None:
            return None
        if not self.stacks:
            return winners[0]
        for winner in winners:
            if not self._share(winner, node, node.province):
                return winner
        return None

    def _carried_to(self, node: _Node, carrier: _Node) -> Location:
        where: Location = carrier.destination  # type: ignore[assignment]
        return where if self.variant.can_stand(node.unit.type, where) else where.whole

    def _carried_result(self, ruling: Ruling, node: _Node, beaten: bool) -> OrderResult:
        return OrderResult(ruling.power, ruling.order, ruling.unit, not beaten, Reason.DISLODGED if beaten else None,
                           notes=self._notes(node))

    def _notes(self, node: _Node) -> tuple[str, ...]:
        notes: list[str] = []
        if self.effects is not None:
            notes.extend(self.effects.notes.get(node.slot, ()))
        if node.partial and node.kind == SUPPORT and node.result:
            left = self._support_left(node, False)
            if left < node.strength:
                notes.append(f"support reduced to {amount_text(left)} by the attack on it")
        return tuple(notes)

    def _later_supports(self) -> list[LaterSupport]:
        given: list[LaterSupport] = []
        for node in self.nodes:
            if node.later_supports:
                for support in node.later_supports:
                    if support.result:
                        amount = self._support_left(support, False) if support.partial else support.strength
                        given.append(LaterSupport(node.slot, support.dest, amount))  # type: ignore[arg-type]
        return given

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
                    and not (m.opponents is not None and any(o.result for o in m.opponents))]
            if len(real) >= 2:
                contested.add(province)
        return contested


_PENDING: Final = OrderResult("", Waive(), None, False)  # a result not yet decided


def amount_text(amount: float) -> str:
    """A strength as players read it: 1, ½, 1½, 2½."""
    whole = int(amount)
    half = "½" if amount - whole == 0.5 else ""
    if half:
        return f"{whole}{half}" if whole else half
    return str(whole) if amount == whole else str(amount)


def _standing(node: _Node, province: str) -> Unit:
    """The node's unit as it would stand in ``province``: where it is, or where its move (or the
    unit it goes with) takes it."""
    unit = node.unit
    if node.province == province:
        return unit
    arriving = node.arriving
    if arriving is None or arriving.location.province != province:
        mover = node.carrier or node
        where = mover.destination if mover.dest == province and mover.destination is not None else Location(province)
        arriving = node.arriving = unit.moved_to(where)
    return arriving


def _head_to_head(a: _Node, b: _Node) -> bool:
    """Do these two units move into each other's province over land (not by convoy)?"""
    return (a.kind == MOVE and b.kind == MOVE and a.dest == b.province and b.dest == a.province
            and not a.convoyed and not b.convoyed)


def _give_order(node: _Node, order: Order, index: int) -> bool:
    """Set the node's order; True when it is a move of several steps (gm.adjudicator.steps)."""
    # isinstance, not type(): it tells the compiler the order's class, so fields read fast.
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
        node.target_type = order.supported.type
        node.dest = order.destination.province
        node.coast = order.destination.coast
    elif isinstance(order, SupportHold):
        node.kind = SUPPORT
        node.target = order.supported.location.province
        node.target_type = order.supported.type
    elif isinstance(order, Convoy):
        node.kind = CONVOY
        node.target = order.army.location.province
        node.target_type = order.army.type
        node.dest = order.destination.province
    elif isinstance(order, MoveInRounds):
        _first_step(node, order.steps[0], None)
        return True
    elif isinstance(order, MoveAlongPath):
        _first_step(node, order.path[0], order.path[1:])
        return True
    elif isinstance(order, MoveThen):
        _first_step(node, order.first[0], order.first[1:] or None)
        return True
    return False


def _first_step(node: _Node, step: Location, later: tuple[Location, ...] | None) -> None:
    """A move of several steps is, in the first resolution, a move to its first step."""
    node.kind = MOVE
    node.destination = step
    node.dest = step.province
    node.coast = step.coast
    if later:
        node.route = tuple(loc.province for loc in later)


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
    elif helped.kind == MOVE and helped.dest != node.dest and helped.route and node.dest in helped.route:
        # a support into a later step of a path: decided now, added when the unit gets there
        if helped.later_supports:
            helped.later_supports.append(node)
        else:
            helped.later_supports = [node]
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
