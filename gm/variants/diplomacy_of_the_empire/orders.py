"""Diplomacy of the Empire's own orders, and the words players write them with.

* ``I HIS - NAR - ITA - DAL - MAC`` (also ``HISPANIA move to Nar, Ita, Dal, MACEDONIA``): a land
  unit in a city moves along roads (rule 8), one province per step (``MoveAlongPath``).
* ``C NUM - CEA then TIN``: a cavalry's or a fleet's second move, made with the retreats (rule 3,
  ``MoveThen``).
* ``PAY 35 Egyptus`` (rule 10), in any phase.
* ``BUILD CITY Sicilia``, ``BUILD FORT Asia``, ``RAZE Galatia`` (rule 6), in the build phase;
  ``DESTROY Sicilia`` disbands the unit there, as ``DISBAND`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.domain.geography import Location
from gm.domain.orders import Declaration, MoveAlongPath, MoveThen, Order, UnitRef, Words
from gm.domain.units import FLEET, Mobility, UnitType
from gm.orders import Cursor, OrderGrammar, verbs

INFANTRY = UnitType("I", "infantry", Mobility.LAND, convoyable=True)
CAVALRY = UnitType("C", "cavalry", Mobility.LAND, convoyable=True)
CATAPULT = UnitType("K", "catapult", Mobility.LAND, convoyable=True)
UNIT_TYPES = (INFANTRY, CAVALRY, CATAPULT, FLEET)


@dataclass(frozen=True, slots=True)
class Pay(Declaration):
    amount: int
    to: str
    unit: None = None

    def __str__(self) -> str:
        return f"PAY {self.amount} {self.to}"

    def in_words(self, words: Words) -> str:
        return f"PAY {self.amount} talents to {self.to}"


@dataclass(frozen=True, slots=True)
class BuildCity(Declaration):
    location: Location
    unit: None = None

    def __str__(self) -> str:
        return f"BUILD CITY {self.location}"

    def in_words(self, words: Words) -> str:
        return f"BUILD CITY {words.place(self.location)}"


@dataclass(frozen=True, slots=True)
class BuildFort(Declaration):
    location: Location
    unit: None = None

    def __str__(self) -> str:
        return f"BUILD FORT {self.location}"

    def in_words(self, words: Words) -> str:
        return f"BUILD FORT {words.place(self.location)}"


@dataclass(frozen=True, slots=True)
class Raze(Declaration):
    location: Location
    unit: None = None

    def __str__(self) -> str:
        return f"RAZE {self.location}"

    def in_words(self, words: Words) -> str:
        return f"RAZE {words.place(self.location)}"


def _pay(_unit: UnitRef | None, c: Cursor) -> Order:
    amount = c.number()
    if amount <= 0:
        raise c.error("pay a positive amount of talents")
    if amount % 5:
        raise c.error(f"pay in multiples of 5 talents, not {amount}")
    c.accept("talents", "talent")
    c.accept("to")
    return Pay(amount, c.power("payee"))


def _second_move(unit: UnitRef, first: tuple[Location, ...], then: tuple[Location, ...]) -> Order | None:
    """Read for every unit: the review refuses it, with the rule's reason, for any but cavalry
    and fleets (3)."""
    return MoveThen(unit, first, then)


def grammar(base: OrderGrammar) -> OrderGrammar:
    build = verbs.by_next_word({"city": verbs.province_order(BuildCity), "fort": verbs.province_order(BuildFort)},
                               verbs.build_line)
    return base.extended(
        unit_verbs=dict.fromkeys(verbs.MOVE_WORDS, verbs.moves(MoveAlongPath, _second_move)),
        line_verbs={**dict.fromkeys(verbs.BUILD_WORDS, build), "pay": _pay, "raze": verbs.province_order(Raze),
                    "destroy": verbs.disband_line},
    )
