"""Eagles' own order as HELP ORDERS shows it, with an example from a power's fleets (gm.orders.forms)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.domain.position import Position
from gm.domain.units import FLEET
from gm.orders.forms import MOVEMENT, OrderForm

if TYPE_CHECKING:
    from gm.variants.eagles.rules import Eagles


def order_forms(variant: Eagles) -> tuple[OrderForm, ...]:
    def attack(position: Position, power: str) -> str | None:
        """One of the power's fleets attacking another power's fleets it may reach: in its own sea,
        or in a port next to it (from a port, along the coast); the form with its fleet alone
        where no other fleet is in reach."""
        mine = [u for u in position.units_of(power) if u.type is FLEET]
        name = variant.name_of
        for fleet in sorted(mine, key=lambda u: name(u.location.province)):
            here = fleet.location.province
            for other in sorted(position.units, key=lambda u: name(u.location.province)):
                there = other.location.province
                if other.power == power or other.type is not FLEET:
                    continue
                if there == here and here in variant.seas or (
                        there != here and variant.can_support_into(fleet, there)
                        and not (here in variant.seas and there in variant.seas)):
                    return f"F {name(here)} attacks F {name(there)} ({other.power})"
        return f"F {name(mine[0].location.province)} attacks F <sea> (<power>)" if mine else None

    return (OrderForm("attack at sea", "F <sea> attacks F <sea> (<power>)",
                      "a fleet attacks another power's fleets in its own sea or in a port next to it (a fleet in "
                      "port: along the coast); fleets of one power attacking the same fleets attack together, "
                      "and the dice decide (rule 3)", ("attacks", "attack"), MOVEMENT, attack),)
