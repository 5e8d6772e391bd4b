"""Roman Diplomacy's own orders, and the words players write them with.

* ``F Tyrrhenian Sea - Gulf of Lyon - Spain``: a fleet's several steps (rule 4), resolved in
  rounds; an army's chain is read as a convoy path, as in standard play.
* ``FEDERATE Gallia``, ``DEFEDERATE`` (rules 5, 6).
* ``GIVE A Rome TO Gallia``, ``GIVE CENTRE Rome TO Gallia``, ``GIVE BUILD TO Gallia`` (rule 5).
* ``BUILD B Gaul`` raises a barbarian army (rule 8); ``REMOVE B Gaul`` stops keeping it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gm.domain.geography import Location
from gm.domain.orders import Declaration, MoveInRounds, Order, UnitRef, Words
from gm.domain.units import Mobility
from gm.orders import Cursor, OrderGrammar, verbs


@dataclass(frozen=True, slots=True)
class Federate(Declaration):
    empire: str
    unit: None = None

    def __str__(self) -> str:
        return f"FEDERATE {self.empire}"

    def in_words(self, words: Words) -> str:
        return str(self)


@dataclass(frozen=True, slots=True)
class Defederate(Declaration):
    unit: None = None

    def __str__(self) -> str:
        return "DEFEDERATE"

    def in_words(self, words: Words) -> str:
        return str(self)

    @property
    def replaces(self) -> str:
        return "defederate"


@dataclass(frozen=True, slots=True)
class Give(Declaration):
    """A unit (``what`` "unit"), a centre ("centre") or a build ("build") handed to an empire."""

    what: str
    to: str
    where: Location | None = None
    unit: UnitRef | None = None

    def __str__(self) -> str:
        if self.what == "unit":
            return f"GIVE {self.unit} TO {self.to}"
        if self.what == "centre":
            return f"GIVE CENTRE {self.where} TO {self.to}"
        return f"GIVE BUILD TO {self.to}"

    def in_words(self, words: Words) -> str:
        if self.what == "unit" and self.unit is not None:
            return f"GIVE {words.unit(self.unit)} TO {self.to}"
        if self.what == "centre" and self.where is not None:
            return f"GIVE CENTRE {words.place(self.where)} TO {self.to}"
        return str(self)


def _empire(c: Cursor) -> str:
    """The rest of the line as an empire's name (empires are named in play, not on the map)."""
    start = c.i
    while not c.at_end():
        c.advance()
    name = c.text(start).strip()
    if not name:
        raise c.error("name the empire")
    return name


def _federate(_unit: UnitRef | None, c: Cursor) -> Order:
    c.accept("with")
    return Federate(_empire(c))


def _defederate(_unit: UnitRef | None, c: Cursor) -> Order:
    return Defederate()


def _give(_unit: UnitRef | None, c: Cursor) -> Order:
    if c.accept("centre", "center", "sc"):
        where = c.location(None, "supply centre")
        what, unit = "centre", None
    elif c.accept("build", "builds"):
        where, what, unit = None, "build", None
    else:
        unit = c.unit(what="unit to give")
        where, what = None, "unit"
    if not c.accept("to"):
        raise c.error('write GIVE ... TO <empire>')
    return Give(what, _empire(c), where, unit)


def _steps(seas: frozenset[str]) -> Callable[[UnitRef, tuple[Location, ...]], Order | None]:
    """A fleet's chain is several steps (rule 4); any other unit's, a convoy path as usual. A
    unit written without its type is a fleet when it stands at sea."""
    def shape(unit: UnitRef, steps: tuple[Location, ...]) -> Order | None:
        fleet = unit.type.mobility is Mobility.SEA if unit.type is not None else unit.province in seas
        return MoveInRounds(unit, steps) if fleet else None
    return shape


def grammar(base: OrderGrammar, seas: frozenset[str]) -> OrderGrammar:
    return base.extended(
        unit_verbs=dict.fromkeys(verbs.MOVE_WORDS, verbs.moves(_steps(seas))),
        line_verbs={"federate": _federate, "defederate": _defederate, "give": _give},
    )
