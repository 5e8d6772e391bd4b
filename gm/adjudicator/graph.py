"""The graph a movement phase is resolved on: a node per unit, the units standing in each
province (in a chain, where units share one), the moves into each province, the supports and
convoys linked to the moves they help, and the provinces paths enter at a later step.

Sharing is asked here too (``share``, ``opposed``): units that may share a province do not
fight, so every battle the resolver judges first asks whether its two sides are opposed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gm.adjudicator.effects import Effects
from gm.adjudicator.nodes import CONVOY, MOVE, SUPPORT, Node, give_order, link_support, standing
from gm.adjudicator.resolver import BackupRule, Resolver
from gm.adjudicator.rulings import Ruling
from gm.adjudicator.variant import SupportCut, Variant
from gm.domain.position import Position


class Graph(Resolver):
    def __init__(self, variant: Variant, position: Position, rulings: Sequence[Ruling], effects: Effects | None,
                 backup: BackupRule):
        super().__init__(backup)
        self.variant = variant
        self.stacks = variant.stacks
        strength = variant.strength
        self.position_units = units = position.units
        self.by_slot = by_slot = [Node(u, strength(u), i) for i, u in enumerate(units)]
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
        self.share_sides: Mapping[str, str] | None = sides if sides and variant.sides_share else None
        # Powers that fight as one: a support counts for nothing against a partner of its own.
        self.partners = bool(sides)
        self.at = self._standing_in(nodes)
        self.moves_to: dict[str, list[Node]] = {}
        self.sea = variant.map.fleet_province_adjacency
        self.several_steps = False
        self.claims: dict[str, list[Node]] = {}  # province -> units whose path enters it at a later step
        ordered = []
        self.declared = False  # some order is a declaration, attached to no unit
        for index, ruling in enumerate(rulings):
            if ruling.acts and ruling.slot < 0:
                self.declared = True
            elif ruling.acts:
                node = self.by_slot[ruling.slot]
                if node.carrier is None and ruling.slot not in self.gone:
                    if give_order(node, ruling.acting or ruling.order, index):
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

    def _standing_in(self, nodes: list[Node]) -> dict[str, Node]:
        """The first unit standing in each province; where units share, the others follow it
        through ``mate``."""
        if not self.stacks:
            return {n.province: n for n in nodes}
        at: dict[str, Node] = {}
        last: dict[str, Node] = {}
        for node in nodes:
            before = last.get(node.province)
            if before is None:
                at[node.province] = node
            else:
                before.mate = node
            last[node.province] = node
        return at

    def _link(self, ordered: list[Node]) -> None:
        moves_to = self.moves_to
        convoys: dict[tuple[str, str], list[Node]] = {}
        for node in ordered:
            kind = node.kind
            if kind == MOVE:
                moves_to.setdefault(node.dest, []).append(node)
                if node.route is not None:
                    for later in node.route:
                        self.claims.setdefault(later, []).append(node)
            elif kind == CONVOY:
                convoys.setdefault((node.target, node.dest), []).append(node)
        for node in ordered:
            if node.kind != MOVE:
                continue
            fleets = convoys.get((node.province, node.dest)) if convoys else None
            if not node.convoyed and node.unit.type.convoyable:
                # DATC 4.A.3 (2000/2023 rules, no land fallback): an adjacent move goes by convoy
                # only when ordered "via convoy" or when an own fleet convoys it.
                node.convoyed = (not self.variant.destinations(node.unit, node.dest)
                                 or (fleets is not None and any(f.power == node.power for f in fleets)))
            if node.convoyed:
                node.fleets = fleets
        stacks = self.stacks
        for node in ordered:
            kind = node.kind
            if kind == MOVE:
                if not node.convoyed:
                    other = self.at.get(node.dest)
                    while other is not None:  # units that may share swap places: no battle
                        if (other.kind == MOVE and other.dest == node.province and not other.convoyed
                                and self.opposed(node, other, other.province)):
                            if node.opponents is None:
                                node.opponents = [other]
                            else:
                                node.opponents.append(other)
                        other = other.mate
            elif kind == SUPPORT:
                link_support(node, self._helped(node) if stacks else self.at.get(node.target))
            elif kind == CONVOY:
                army = self._convoyed_army(node) if stacks else self.at.get(node.target)
                node.valid = army is not None and army.fleets is not None and node in army.fleets

    def _helped(self, node: Node) -> Node | None:
        """In a shared province, the unit a support names: of its type, and ordered as the
        support says if one is (the move it supports, or not moving). A unit that goes with
        another (a leader leading its army) is helped as the one it goes with: what that one
        does, it does."""
        first = candidate = self.at.get(node.target)
        fallback = None
        carried = None
        while candidate is not None:
            if candidate is not node and (node.target_type is None or candidate.unit.type is node.target_type):
                if candidate.carrier is not None:
                    carried = carried or candidate.carrier
                else:
                    if not node.dest and candidate.kind != MOVE:
                        return candidate
                    if node.dest and candidate.kind == MOVE and candidate.dest == node.dest:
                        return candidate
                    fallback = fallback or candidate
            candidate = candidate.mate
        return fallback or carried or first

    def _convoyed_army(self, node: Node) -> Node | None:
        candidate = self.at.get(node.target)
        while candidate is not None:
            if candidate.kind == MOVE and candidate.fleets is not None and node in candidate.fleets:
                return candidate
            candidate = candidate.mate
        return None

    def opposed(self, a: Node, b: Node, province: str) -> bool:
        """Do these two fight in ``province`` (the one may not stand there with the other)?
        Always, unless the variant's units may share a province (``Variant.stacks``)."""
        return not self.stacks or not self.share(a, b, province)

    def share(self, a: Node, b: Node, province: str) -> bool:
        """May these two stand together in ``province``, with the units that go with each? The
        variant is asked about the units as they would stand there (a unit moving in, at its
        destination): whether units may share can depend on the province (fleets at sea)."""
        sides = self.share_sides
        if sides is not None and a.side == b.side and a.power != b.power:  # partners: as one power
            on_side = self.variant.may_share_on_side
            return all(on_side(standing(x, province), standing(y, province), sides)
                       for x in [a, *(a.cargo or ())] for y in [b, *(b.cargo or ())])
        may = self.variant.may_share
        if not may(standing(a, province), standing(b, province)):
            return False
        if a.cargo is not None or b.cargo is not None:
            ours = [a, *(a.cargo or ())]
            theirs = [b, *(b.cargo or ())]
            return all(may(standing(x, province), standing(y, province)) for x in ours for y in theirs)
        return True
