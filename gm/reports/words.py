"""What the results and the replies say of a variant's own state, in its words: a part of the
variant (gm.adjudicator.parts) that the reports, the replies to orders and the web pages ask
for. Standard play's words here (every build and removal announced; nothing else to tell); a
variant with more to say declares its own (gm.variants.catalog), filling ``Words`` (it sits
below this layer, so it fills the interface without importing it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from gm.adjudicator.parts import Part
from gm.adjudicator.variant import Adjustment, Variant
from gm.domain.orders import Order
from gm.domain.position import Position


class Words(Protocol):
    def shown_adjustments(self, position: Position) -> list[Adjustment]:
        """The builds and removals the results announce for the adjustment phase ahead (a variant
        whose builds are bounded by something else, money, shows that in ``state_report``)."""
        ...

    def state_report(self, position: Position) -> list[tuple[str, list[str]]]:
        """What the results tell every player of the variant's own state at the start of the
        phase ahead, as sections (title, lines): treasuries and prices before a build phase."""
        ...

    def orders_note(self, position: Position, power: str, orders: Sequence[Order]) -> list[str]:
        """What a player should know of its current order set as a whole, in the reply to its
        orders (what its builds cost against its treasury)."""
        ...


class StandardWords:
    """Standard play's: the adjustments as the rules plan them, nothing more to say."""

    def __init__(self, variant: Variant):
        self.variant = variant

    def shown_adjustments(self, position: Position) -> list[Adjustment]:
        return self.variant.adjustments(position)

    def state_report(self, position: Position) -> list[tuple[str, list[str]]]:
        return []

    def orders_note(self, position: Position, power: str, orders: Sequence[Order]) -> list[str]:
        return []


WORDS: Final = Part[Words]("words")


def words_of(variant: Variant) -> Words:
    """The variant's words as it declares them, else standard play's."""
    return variant.parts.get(WORDS) or StandardWords(variant)
