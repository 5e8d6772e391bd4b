"""Rules that act before a movement phase is resolved, each with the reason the results show.

The engine makes one ``Effects`` per movement phase and hands it to the variant's
``before_movement``; the variant's rules turn orders into changes of the phase:

* ``add_strength`` / ``add_hold_strength``: a unit weighs more in everything it does, or only
  while it does not move (a leader leading a unit; a fortified city).
* ``carry``: a unit goes where another goes and adds nothing of its own (the leader it leads).
* ``resolve_as``: a variant's own order is resolved as a standard one (a sack holds).
* ``prevent``: an order is stopped (the unit holds), with the reason.
* ``refuse``: an order is illegal after all (a step too many), with the reason.
* ``close``: a border is closed to every unit but one power's, or only to some unit types (a
  land bridge under an enemy fleet's attack, closed to armies): moves and supports across it are
  prevented.
* ``expose``: any attack on a unit's province cuts its support, even an attack from the
  province the support goes into (a leader supporting from a space exposes every unit in it).
* ``preview``: the phase resolved as the orders and the changes so far stand, to look at before
  deciding more (where the fleets are once they have moved, before attacks at sea).
* ``destroy``: a unit is gone before the land battles (a fleet sunk at sea).
* ``fail``: a move already judged, and failed, before the rest of the phase (a fleet's naval
  move, made before the attacks at sea): it is not judged again; the unit stays where it is and
  its move still stands off, and cuts, as it did.
* ``roll``: a die (gm.adjudicator.dice); ``announce``: a line for the results. Both go into the
  phase's log, and from there into the results.

Units are named by their *slot*, their index in the position's units (``slot_of``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import MovementOutcome, Ruling
from gm.domain.orders import Move, MoveAlongPath, MoveInRounds, MoveThen, Order, SupportHold, SupportMove
from gm.domain.outcomes import Note, Roll
from gm.domain.position import Position
from gm.domain.units import Unit, UnitType


class Effects:
    __slots__ = ("position", "rulings", "log", "bonus", "hold_bonus", "carried", "destroyed", "notes", "exposed",
                 "failed", "_closed", "_resolver")

    def __init__(self, position: Position, rulings: Sequence[Ruling], log: PhaseLog,
                 resolver: Callable[[Effects], MovementOutcome] | None = None):
        self.position = position
        self.rulings = rulings
        self.log = log
        self.bonus: dict[int, float] = {}  # slot -> strength added to all it does
        self.hold_bonus: dict[int, float] = {}  # slot -> strength added while it does not move
        self.carried: dict[int, int] = {}  # slot -> slot of the unit it goes with
        self.destroyed: dict[int, str] = {}  # slot -> why it is gone
        self.notes: dict[int, list[Note]] = {}  # slot -> lines for the results of its order
        self.exposed: set[int] = set()  # slots whose support any attack cuts
        self.failed: set[int] = set()  # slots whose move was judged, and failed, before the phase
        self._closed: list[tuple[str, str, str, str | None, frozenset[UnitType] | None]] = []
        self._resolver = resolver  # the engine's resolution of the phase (for ``preview``)

    @property
    def phase(self) -> str:
        return str(self.position.phase)

    @property
    def changes_anything(self) -> bool:
        return bool(self.bonus or self.hold_bonus or self.carried or self.destroyed or self.notes or self.exposed
                    or self.failed)

    # -- finding units and orders ------------------------------------------------------

    def slot_of(self, unit: Unit) -> int:
        """The slot of ``unit`` (the first of identical units in one province)."""
        return self.position.units.index(unit)

    def ruling_for(self, slot: int) -> int | None:
        """The index of the order that counts for the unit in ``slot``, if it has one."""
        for index, ruling in enumerate(self.rulings):
            if ruling.slot == slot and ruling.counts:
                return index
        return None

    def order_of(self, slot: int) -> Order | None:
        index = self.ruling_for(slot)
        return None if index is None else self.rulings[index].order

    # -- changes -------------------------------------------------------------------

    def add_strength(self, slot: int, amount: float, reason: Note) -> None:
        self.bonus[slot] = self.bonus.get(slot, 0.0) + amount
        self.note(slot, reason)

    def add_hold_strength(self, slot: int, amount: float, reason: str) -> None:
        self.hold_bonus[slot] = self.hold_bonus.get(slot, 0.0) + amount
        self.note(slot, reason)

    def carry(self, slot: int, by: int, reason: str) -> None:
        self.carried[slot] = by
        self.note(slot, reason)

    def resolve_as(self, index: int, order: Order) -> None:
        self.rulings[index].acting = order

    def prevent(self, index: int, reason: str) -> None:
        self.rulings[index].prevented = reason

    def refuse(self, index: int, why: str) -> None:
        self.rulings[index].illegal = why

    def close(self, origin: str, destination: str, reason: str, open_to: str | None = None,
              types: frozenset[UnitType] | None = None) -> None:
        """No unit in ``origin`` (except ``open_to``'s; of ``types`` only, if given) may move or
        support into ``destination``."""
        self._closed.append((origin, destination, reason, open_to, types))

    def expose(self, slot: int) -> None:
        """Any attack on the unit's province cuts its support, even from where the support goes."""
        self.exposed.add(slot)

    def preview(self) -> MovementOutcome:
        """The phase resolved now, with the orders and changes as they stand (borders closed so
        far included): nothing is kept of it but what the caller reads."""
        if self._resolver is None:
            raise RuntimeError("no resolution to preview: Effects made without the engine's resolver")
        self.apply_closures()
        return self._resolver(self)

    def destroy(self, slot: int, reason: str) -> None:
        self.destroyed[slot] = reason

    def fail(self, slot: int) -> None:
        """The unit's move failed, judged before the rest of the phase: it is not judged again."""
        self.failed.add(slot)

    def note(self, slot: int, text: Note) -> None:
        self.notes.setdefault(slot, []).append(text)

    def roll(self, purpose: str, sides: int = 6, units: tuple[Unit, ...] = ()) -> Roll:
        """A die for this phase, for ``units`` if it concerns some; set ``effect`` on the roll once
        it has been used."""
        return self.log.roll(self.phase, purpose, sides, units)

    def announce(self, text: str) -> None:
        self.log.announce(text)

    # -- applied by the engine once the variant is done ------------------------------------

    def apply_closures(self) -> None:
        for origin, destination, reason, open_to, types in self._closed:
            for ruling in self.rulings:
                unit = ruling.unit
                if (ruling.acts and unit is not None and unit.location.province == origin
                        and unit.power != open_to and (types is None or unit.type in types)
                        and _crosses(ruling.acting or ruling.order, destination)):
                    ruling.prevented = reason


def _crosses(order: Order, destination: str) -> bool:
    """Does the order use the border into ``destination`` (to move, or to support across it)?"""
    if isinstance(order, Move):
        return not order.via_convoy and order.destination.province == destination
    if isinstance(order, MoveInRounds):
        return order.steps[0].province == destination
    if isinstance(order, MoveAlongPath):
        return order.path[0].province == destination
    if isinstance(order, MoveThen):
        return order.first[0].province == destination
    if isinstance(order, SupportMove):
        return order.destination.province == destination
    if isinstance(order, SupportHold):
        return order.supported.province == destination
    return False
