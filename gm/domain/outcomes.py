"""What happened to each order."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from gm.domain.orders import Order
from gm.domain.units import Unit


class Reason(Enum):
    """Why an order failed; the value is what results and the interchange format print."""

    BOUNCED = "bounced"
    CUT = "cut"
    DISLODGED = "dislodged"
    NO_CONVOY = "no convoy"
    VOID = "void"  # a support or convoy that matches no order
    ILLEGAL = "illegal"  # ignored; the unit holds
    PARADOX = "paradox"  # a convoy that fails under the Szykman rule
    DESTROYED = "destroyed"  # a retreat that clashed with another, or no room
    SUPERSEDED = "superseded"  # a later order for the same unit replaced this one
    PREVENTED = "prevented"  # a variant's rule stopped it before resolution (the detail says which)


@dataclass(slots=True)
class Roll:
    """One die rolled while a phase was resolved: what for, the die, what it showed, what it did,
    and the units it was rolled for.

    ``effect`` is filled in by the rule that rolled, once it has read the value."""

    phase: str
    purpose: str  # unique within the phase: "storm F MIN", "attack 2 at MIN"
    sides: int
    value: int
    effect: str = ""
    units: tuple[Unit, ...] = ()  # the units it decides about (the attacking and attacked fleets)


@dataclass(frozen=True, slots=True)
class SupportLeft:
    """A note: what an attack left of a support it reduces by its value (``SupportCut.BY_ATTACK``).
    The results put it in words (gm.reports.notes)."""

    amount: float


@dataclass(frozen=True, slots=True)
class SupportedInto:
    """A note: a path's step into ``province`` given the supports of the phase's first round into
    it (gm.adjudicator.steps). The results put it in words (gm.reports.notes)."""

    province: str
    amount: float


# What a result notes of what a rule changed: the rules' own words, or a fact the results word.
Note: TypeAlias = str | SupportLeft | SupportedInto


@dataclass(slots=True, init=False)
class OrderResult:
    power: str
    order: Order  # as the engine understood it
    unit: Unit | None  # the unit it commands (None for builds of nothing yet, waives)
    succeeded: bool
    reason: Reason | None
    detail: str  # for ILLEGAL and PREVENTED: why
    notes: tuple[Note, ...]  # what a variant's rules changed, for the results ("strength 1½: led")

    # Written out, not generated: compiled (setup.py), this constructor then runs no Python,
    # and the adjudicator makes one result per order.
    def __init__(
        self, power: str, order: Order, unit: Unit | None, succeeded: bool,
        reason: Reason | None = None, detail: str = "", notes: tuple[Note, ...] = (),
    ) -> None:
        self.power = power
        self.order = order
        self.unit = unit
        self.succeeded = succeeded
        self.reason = reason
        self.detail = detail
        self.notes = notes

    @property
    def text(self) -> str:
        """The order in canonical form."""
        return str(self.order)

    @property
    def reason_text(self) -> str | None:
        if self.reason is None:
            return None
        if self.detail:
            return f"{self.reason._value_}: {self.detail}"  # ``value`` is a Python property, ten times slower
        return self.reason._value_
