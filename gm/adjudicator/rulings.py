"""What the review of a phase's orders hands on: one ``Ruling`` per submitted order, and what
resolving the movement orders gives back (``MovementOutcome``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from gm.domain.geography import Location
from gm.domain.orders import Order, UnitRef
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.position import Dislodgement, PendingMove, Position
from gm.domain.units import Unit


class Illegal(Exception):
    """An order that could never be carried out; the message says why, for the player."""


class MoveChecks(Protocol):
    """The standard legality checks, offered to a variant reviewing orders of its own kinds."""

    @property
    def position(self) -> Position | None: ...

    def move_target(self, unit: Unit, wanted: Location, via_convoy: bool) -> Location: ...

    def other_unit(self, ref: UnitRef, acting: Unit) -> Unit: ...

    def require_support_reach(self, unit: Unit, province: str) -> None: ...


class Ruling:
    """One submitted order after review: normalised, or the reason it does not count.

    A plain class, not a dataclass: compiled (setup.py), its constructor then runs no Python.
    """

    __slots__ = ("power", "order", "unit", "illegal", "superseded", "slot", "acting", "prevented")

    def __init__(self, power: str, order: Order, unit: Unit | None, illegal: str | None = None, slot: int = -1):
        self.power = power
        self.order = order
        self.unit = unit
        self.illegal = illegal
        self.superseded = False  # a later legal order for the same unit replaced this one
        self.slot = slot  # the unit's index in the position's units (or dislodged units); -1: none
        # Set by a variant's rules before resolution (gm.adjudicator.effects):
        self.acting: Order | None = None  # the standard order a variant's own order is resolved as
        self.prevented: str | None = None  # why a rule stopped this order (the unit holds)

    @property
    def counts(self) -> bool:
        """A legal order, not replaced by a later one for the same unit."""
        return self.illegal is None and not self.superseded

    @property
    def acts(self) -> bool:
        """It counts and no rule stopped it: the resolver carries it out."""
        return self.illegal is None and not self.superseded and self.prevented is None


def refusal(ruling: Ruling) -> OrderResult:
    """The result of an order that is not carried out."""
    if ruling.superseded:
        return OrderResult(ruling.power, ruling.order, ruling.unit, False, Reason.SUPERSEDED)
    if ruling.illegal is None and ruling.prevented is not None:
        return OrderResult(ruling.power, ruling.order, ruling.unit, False, Reason.PREVENTED, ruling.prevented)
    return OrderResult(ruling.power, ruling.order, ruling.unit, False, Reason.ILLEGAL, ruling.illegal or "")


class MovementOutcome:
    """What the moves did: each order's result and the board after them."""

    __slots__ = ("results", "units", "dislodged", "second_moves", "destroyed", "extra", "before", "moved")

    def __init__(self, results: list[OrderResult], units: tuple[Unit, ...], dislodged: tuple[Dislodgement, ...],
                 before: tuple[Unit, ...] = (), moved: dict[int, Location] | None = None):
        self.results = results  # one per ruling, in the same order
        self.units = units  # the units on the board after the moves (dislodged ones not among them)
        self.dislodged = dislodged
        self.second_moves: tuple[PendingMove, ...] = ()  # second moves left for the retreat phase
        self.destroyed: list[tuple[Unit, str]] = []  # units a rule removed, and why
        self.extra: Mapping[str, Any] | None = None  # the variant's new state, if it changed
        self.before = before  # the units at the start of the phase
        self.moved: dict[int, Location] = moved or {}  # slot in ``before`` -> where the unit went

    @property
    def moves(self) -> list[tuple[Unit, Location]]:
        """Each unit that moved (as it stood at the start of the phase) and where it went: what
        a variant needs to carry state kept by province along with the units."""
        return [(self.before[slot], where) for slot, where in self.moved.items()]
