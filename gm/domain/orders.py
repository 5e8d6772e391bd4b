"""Orders as typed values.

An order names its unit by where it stands and, if the player wrote it, its type
(``UnitRef``); the adjudicator matches that against the board. ``str(order)`` is the
canonical form shown back to players and written in results.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Protocol

from gm.domain.geography import Location
from gm.domain.units import UnitType


class UnitRef(NamedTuple):
    """A unit as an order names it (a named tuple: orders are hashed on every phase)."""

    location: Location
    type: UnitType | None = None

    @property
    def province(self) -> str:
        return self.location.province

    def __str__(self) -> str:
        return f"{self.type.letter} {self.location}" if self.type else str(self.location)


class Words(Protocol):
    """How results name units and places (gm.reports.names.Namer), for ``Order.in_words``."""

    def unit(self, unit: UnitRef) -> str: ...

    def place(self, location: Location) -> str: ...


class Order:
    """Base of every order; ``unit`` is the unit ordered (None for a waive)."""

    __slots__ = ()
    unit: UnitRef | None

    def in_words(self, words: Words) -> str | None:
        """The order as results print it ("Army Paris -> Burgundy"); a variant's own order kinds
        override it (None: the canonical form is shown)."""
        return None


class Declaration(Order):
    """Base of orders that declare something (where a unit starts, a payment) rather than command
    a unit: a declaration never replaces, nor is replaced by, a unit's order, and the variant's
    rules decide what it does (``Variant.review_order``, its hooks)."""

    __slots__ = ()

    @property
    def replaces(self) -> str:
        """A later declaration with the same key replaces this one in a power's orders (by
        default only the very same declaration; one per power: override with a fixed key)."""
        return str(self)


@dataclass(frozen=True, slots=True)
class Hold(Order):
    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move(Order):
    unit: UnitRef
    destination: Location
    via_convoy: bool = False

    def __str__(self) -> str:
        via = " VIA CONVOY" if self.via_convoy else ""
        return f"{self.unit} - {self.destination}{via}"


@dataclass(frozen=True, slots=True)
class SupportHold(Order):
    unit: UnitRef
    supported: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported}"


@dataclass(frozen=True, slots=True)
class SupportMove(Order):
    unit: UnitRef
    supported: UnitRef
    destination: Location

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Convoy(Order):
    unit: UnitRef
    army: UnitRef
    destination: Location

    def __str__(self) -> str:
        return f"{self.unit} C {self.army} - {self.destination}"


def _route(locations: tuple[Location, ...]) -> str:
    return " - ".join(str(location) for location in locations)


@dataclass(frozen=True, slots=True)
class MoveInRounds(Order):
    """A move of several steps, resolved in rounds: the first step with every other order, each
    later step against the board the round before left (``F TYS - LYO - SPA/SC``)."""

    unit: UnitRef
    steps: tuple[Location, ...]

    def __str__(self) -> str:
        return f"{self.unit} - {_route(self.steps)}"


@dataclass(frozen=True, slots=True)
class MoveAlongPath(Order):
    """A move along a path of provinces in one phase, one province per step, in step with the
    other units on paths (``I HIS - NAR - ITA - DAL - MAC``)."""

    unit: UnitRef
    path: tuple[Location, ...]

    def __str__(self) -> str:
        return f"{self.unit} - {_route(self.path)}"


@dataclass(frozen=True, slots=True)
class MoveThen(Order):
    """A move (one province, or a path), then a second move carried out with the retreats
    (``C NUM - MAU then TIN``)."""

    unit: UnitRef
    first: tuple[Location, ...]
    then: tuple[Location, ...]

    def __str__(self) -> str:
        return f"{self.unit} - {_route(self.first)} then {_route(self.then)}"


@dataclass(frozen=True, slots=True)
class SecondMove(Order):
    """The second part of a ``MoveThen``, as the retreat phase carries it out."""

    unit: UnitRef  # where the unit stands after its first move
    path: tuple[Location, ...]

    def __str__(self) -> str:
        return f"{self.unit} - {_route(self.path)} (second move)"


@dataclass(frozen=True, slots=True)
class Retreat(Order):
    unit: UnitRef
    destination: Location

    def __str__(self) -> str:
        return f"{self.unit} R {self.destination}"


@dataclass(frozen=True, slots=True)
class Disband(Order):
    """Disband in a retreat phase, or remove a unit in an adjustment phase."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"DISBAND {self.unit}"


@dataclass(frozen=True, slots=True)
class Build(Order):
    unit: UnitRef  # type may be missing: the adjudicator decides from the terrain (DATC 4.C.3)

    def __str__(self) -> str:
        return f"BUILD {self.unit}"


@dataclass(frozen=True, slots=True)
class Waive(Order):
    unit: None = None

    def __str__(self) -> str:
        return "WAIVE"
