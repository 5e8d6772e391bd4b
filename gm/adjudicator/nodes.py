"""The nodes of a movement phase's graph: one per unit, holding its order, what it is linked to
(the units it supports, convoys, meets head to head) and the state of its decision.

Plain fields for speed (provinces as strings, "" for none; order kinds as small ints): every
phase of every game builds them (gm.adjudicator.graph).
"""

from __future__ import annotations

from typing import Final

from gm.domain.geography import Location
from gm.domain.orders import Convoy, Move, MoveAlongPath, MoveInRounds, MoveThen, Order, SupportHold, SupportMove
from gm.domain.units import Unit, UnitType

HOLD: Final = 0
MOVE: Final = 1
SUPPORT: Final = 2
CONVOY: Final = 3

NOWHERE: Final = Location("")  # the destination of a unit that does not move


class Node:
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
        self.dest = ""  # move: where it goes; support/convoy: where the helped move goes ("": a hold)
        self.coast: str | None = None  # move: the coast it goes to; support: the coast it names
        self.destination = NOWHERE  # move: where it goes, coast included
        self.target = ""  # support/convoy: the province of the unit helped
        self.target_type: UnitType | None = None  # support/convoy: the type of the unit helped
        self.route: tuple[str, ...] | None = None  # a path's provinces after the first step
        self.convoyed = False
        self.opponents: list[Node] | None = None  # head-to-head partners
        self.supports: list[Node] | None = None  # valid supports of this unit's move
        self.hold_supports: list[Node] | None = None
        self.later_supports: list[Node] | None = None  # supports into a later step of its path
        self.fleets: list[Node] | None = None  # convoys matching this unit's move
        self.valid = True  # support/convoy matches an order
        self.ruling = -1  # index of the ruling that gave this order
        self.mate: Node | None = None  # the next unit in the same province, where units share
        self.carrier: Node | None = None  # the unit it goes with, adding nothing of its own
        self.cargo: list[Node] | None = None  # the units that go with it
        self.partial = False  # an attack reduces its support by the attack's value (SupportCut)
        self.exposed = False  # any attack cuts its support, even one from where the support goes
        self.arriving: Unit | None = None  # the unit as it stands where its move takes it (asked once)
        self.resolved = self.result = self.visited = self.in_cycle = False


def give_order(node: Node, order: Order, index: int) -> bool:
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


def _first_step(node: Node, step: Location, later: tuple[Location, ...] | None) -> None:
    """A move of several steps is, in the first resolution, a move to its first step."""
    node.kind = MOVE
    node.destination = step
    node.dest = step.province
    node.coast = step.coast
    if later:
        node.route = tuple(loc.province for loc in later)


def link_support(node: Node, helped: Node | None) -> None:
    """Attach a support to the unit it helps (``helped``), or find it void."""
    if helped is None:
        node.valid = False
    elif not node.dest:
        node.valid = helped.kind != MOVE
        if node.valid:
            helped.hold_supports = _added(helped.hold_supports, node)
    elif helped.kind == MOVE and helped.dest != node.dest and helped.route and node.dest in helped.route:
        # a support into a later step of a path: decided now, added when the unit gets there
        helped.later_supports = _added(helped.later_supports, node)
    else:
        node.valid = (
            helped.kind == MOVE
            and helped.dest == node.dest
            and (node.coast is None or node.coast == helped.coast)
        )
        if node.valid:
            helped.supports = _added(helped.supports, node)


def _added(nodes: list[Node] | None, node: Node) -> list[Node]:
    if nodes is None:
        return [node]
    nodes.append(node)
    return nodes


def head_to_head(a: Node, b: Node) -> bool:
    """Do these two units move into each other's province over land (not by convoy)?"""
    return (a.kind == MOVE and b.kind == MOVE and a.dest == b.province and b.dest == a.province
            and not a.convoyed and not b.convoyed)


def standing(node: Node, province: str) -> Unit:
    """The node's unit as it would stand in ``province``: where it is, or where its move (or the
    unit it goes with) takes it."""
    unit = node.unit
    if node.province == province:
        return unit
    arriving = node.arriving
    if arriving is None or arriving.location.province != province:
        mover = node.carrier or node
        where = mover.destination if mover.dest == province else Location(province)
        arriving = node.arriving = unit.moved_to(where)
    return arriving
