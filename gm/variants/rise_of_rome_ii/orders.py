"""Rise of Rome II's own orders, and the words players write them with.

* ``A Syracuse sack`` (``sacks``, or ``SACK A Syracuse``): the unit sacks the centre it holds (6).
* ``Hannibal leads A Carthage`` (``L Carthage leads A Carthage``): the leader leads the unit of
  its power that shares its space (3.4).
* ``Hannibal starts in New Carthage``: where the leader starts, with the first Spring orders (3.3).
* A leader by its name wherever a unit is written: ``Hannibal - Numidia``, ``S Hannibal``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from gm.domain.geography import Location
from gm.domain.orders import Declaration, Order, UnitRef, Words
from gm.domain.position import Position
from gm.domain.units import UnitType
from gm.orders import Cursor, OrderGrammar


@dataclass(frozen=True, slots=True)
class Sack(Order):
    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} SACK"

    def in_words(self, words: Words) -> str:
        return f"{words.unit(self.unit)} SACK"


@dataclass(frozen=True, slots=True)
class Lead(Order):
    unit: UnitRef  # the leader
    led: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} LEADS {self.led}"

    def in_words(self, words: Words) -> str:
        return f"{words.unit(self.unit)} LEADS {words.unit(self.led)}"


@dataclass(frozen=True, slots=True)
class StartsIn(Declaration):
    """Where a leader starts the game; it may be ordered in the same phase as well."""

    unit: UnitRef  # the leader, where it waits (its first home centre) or where it is placed
    start: Location

    def __str__(self) -> str:
        return f"{self.unit} STARTS IN {self.start}"

    def in_words(self, words: Words) -> str:
        return f"{words.unit(self.unit)} STARTS IN {words.place(self.start)}"

    @property
    def replaces(self) -> str:
        return "leader's start"  # a power places its one leader once: the last placement counts


def _sack(unit: UnitRef | None, c: Cursor) -> Order:
    return Sack(unit if unit is not None else c.unit())  # "A SYR sack", or "SACK A SYR"


def _leads(unit: UnitRef | None, c: Cursor) -> Order:
    assert unit is not None
    return Lead(unit, c.unit(what="unit to lead"))


def _starts(unit: UnitRef | None, c: Cursor) -> Order:
    assert unit is not None
    c.accept("in", "at")
    return StartsIn(unit, c.location(None, "home centre"))


def grammar(base: OrderGrammar, leader: UnitType,
            where_is: Callable[[str, Position | None], Location | None], names: Mapping[str, str]) -> OrderGrammar:
    """The standard grammar with these orders, and each leader by its name (``names``: a name or
    alias -> its power); ``where_is(power, position)`` finds a power's leader on the board being
    ordered (or where it waits to be placed)."""

    def finder(power: str) -> Callable[[object], UnitRef | None]:
        def find(context: object) -> UnitRef | None:
            where = where_is(power, context if isinstance(context, Position) else None)
            return UnitRef(where, leader) if where is not None else None
        return find

    return base.extended(
        unit_verbs={"sack": _sack, "sacks": _sack, "leads": _leads, "lead": _leads, "starts": _starts, "start": _starts},
        line_verbs={"sack": _sack},
        named_units={name: finder(power) for name, power in names.items()},
    )
