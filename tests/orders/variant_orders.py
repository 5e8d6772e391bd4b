"""Test-only orders of the coming variants (no rules module defines them yet), and the verb
handlers that read them, written as a rules module would.

Each ``__str__`` is written so that the variant's grammar reads it back to the same order.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.domain.geography import Location
from gm.domain.orders import Order, UnitRef
from gm.orders import Cursor, verbs


@dataclass(frozen=True, slots=True)
class Sack(Order):
    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} SACK"


@dataclass(frozen=True, slots=True)
class Lead(Order):
    unit: UnitRef  # the leader
    led: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} LEADS {self.led}"


@dataclass(frozen=True, slots=True)
class StartsIn(Order):
    """Where a leader starts the game (Rise of Rome II 3.3)."""

    unit: UnitRef  # the leader where it stands until placed
    start: Location

    def __str__(self) -> str:
        return f"{self.unit} STARTS IN {self.start}"


@dataclass(frozen=True, slots=True)
class AttackAtSea(Order):
    """A fleet attacking another fleet (Eagles), ``owner`` telling fleets of one sea apart."""

    unit: UnitRef
    target: UnitRef
    owner: str | None = None

    def __str__(self) -> str:
        owner = f" ({self.owner})" if self.owner else ""
        return f"{self.unit} ATTACKS {self.target}{owner}"


@dataclass(frozen=True, slots=True)
class Pay(Order):
    amount: int
    province: str
    unit: None = None

    def __str__(self) -> str:
        return f"PAY {self.amount} {self.province}"


@dataclass(frozen=True, slots=True)
class BuildCity(Order):
    location: Location
    unit: None = None

    def __str__(self) -> str:
        return f"BUILD CITY {self.location}"


@dataclass(frozen=True, slots=True)
class BuildFort(Order):
    location: Location
    unit: None = None

    def __str__(self) -> str:
        return f"BUILD FORT {self.location}"


@dataclass(frozen=True, slots=True)
class Raze(Order):
    location: Location
    unit: None = None

    def __str__(self) -> str:
        return f"RAZE {self.location}"


def sack(unit: UnitRef | None, c: Cursor) -> Order:
    if unit is None:  # "SACK A SYR" as a line verb
        unit = c.unit()
    return Sack(unit)


def leads(unit: UnitRef | None, c: Cursor) -> Order:
    assert unit is not None
    return Lead(unit, c.unit())


def starts_in(unit: UnitRef | None, c: Cursor) -> Order:
    assert unit is not None
    c.accept("in", "at")
    return StartsIn(unit, c.location(None, "home centre"))


def attacks(unit: UnitRef | None, c: Cursor) -> Order:
    """ "F MIN attacks F MIN (Alexandria)" attacks a fleet; "F MIN attacks Carthago" moves."""
    if not c.starts_typed_unit():
        return verbs.move(unit, c)
    assert unit is not None
    target = c.unit(what="attacked fleet")
    return AttackAtSea(unit, target, c.bracketed(c.power))


def pay(_unit: UnitRef | None, c: Cursor) -> Order:
    amount = c.number()
    if amount <= 0:
        raise c.error("pay a positive amount")
    if amount % 5:
        raise c.error(f"pay in multiples of 5 talents, not {amount}")
    return Pay(amount, c.location(None, "home province of the payee").province)
