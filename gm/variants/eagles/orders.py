"""Eagles' own order: a fleet's attack on fleets at sea (rule 3).

* ``F MIN attacks F MIN (Carthago Nova)``: the fleet in Mare Internum attacks Carthago Nova's
  fleets there; several fleets of one power ordered to attack the same fleets attack together.
  Also ``F MIN ATTACK F CAR`` (a fleet in port next to the sea; its owner may be left out where
  only one power's fleet stands there). ``F MIN attacks Carthago`` stays a move.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.domain.orders import Order, UnitRef, Words
from gm.orders import Cursor, OrderGrammar, verbs
from gm.orders.tokens import OPEN


@dataclass(frozen=True, slots=True)
class Attack(Order):
    """A fleet attacking the fleets of ``owner`` at ``target`` (its own sea, or a port next to it)."""

    unit: UnitRef
    target: UnitRef
    owner: str | None = None

    def __str__(self) -> str:
        owner = f" ({self.owner})" if self.owner else ""
        return f"{self.unit} ATTACKS {self.target}{owner}"

    def in_words(self, words: Words) -> str:
        owner = f" ({self.owner})" if self.owner else ""
        return f"{words.unit(self.unit)} attacks {words.unit(self.target)}{owner}"


def _attacks(unit: UnitRef | None, c: Cursor) -> Order:
    """ "F MIN attacks F MIN (Alexandria)" attacks fleets; "F MIN attacks Carthago" moves."""
    after = c.peek()
    if after is None or after.kind == OPEN:
        raise c.error('missing what is attacked after "attacks": a province to move to, or a fleet: '
                      "F <sea> attacks F <sea> (<power>)")
    if not c.starts_typed_unit():
        return verbs.move(unit, c)
    if unit is None:
        raise c.error("name the attacking fleet first: F <sea> attacks F <sea> (<power>)")
    target = c.unit(what="attacked fleet")
    return Attack(unit, target, c.bracketed(c.power))


def grammar(base: OrderGrammar) -> OrderGrammar:
    return base.extended(unit_verbs={"attacks": _attacks, "attack": _attacks})
