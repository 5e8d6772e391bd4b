"""Roman Diplomacy's own orders as HELP ORDERS shows them, each with an example from an empire's
own units and the empires in play (gm.orders.forms)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.domain.position import Position
from gm.domain.units import FLEET, Mobility
from gm.orders.forms import ANY_PHASE, MOVEMENT, OrderForm
from gm.variants.roman_diplomacy.state import RomanState

if TYPE_CHECKING:
    from gm.variants.roman_diplomacy.rules import RomanDiplomacy


def order_forms(variant: RomanDiplomacy) -> tuple[OrderForm, ...]:
    def name(province: str) -> str:
        return variant.map.provinces[province].name

    def others(position: Position, power: str) -> list[str]:
        return sorted(e for e in RomanState.of(position).empires if e != power)

    def steps(position: Position, power: str) -> str | None:
        occupied = {u.location.province for u in position.units}
        for fleet in (u for u in position.units_of(power) if u.type is FLEET):
            here = fleet.location.province
            for first in sorted(variant.map.neighbours.get(here, ()), key=name):
                reach = variant.destinations(fleet, first) if first not in occupied else ()
                if not reach:
                    continue
                moved = fleet.moved_to(reach[0])
                onward = sorted((p for p in variant.map.neighbours.get(first, ())
                                 if p != here and p not in occupied and variant.destinations(moved, p)), key=name)
                if onward:
                    return f"F {name(here)} - {name(first)} - {name(onward[0])}"
        return None

    def federate(position: Position, power: str) -> str | None:
        found = others(position, power)
        return f"FEDERATE {found[0]}" if found else None

    def give(position: Position, power: str) -> str | None:
        found = others(position, power)
        units = [u for u in position.units_of(power) if u.type.mobility is not Mobility.NONE]
        if not found or not units:
            return None
        return f"GIVE {units[0].type.letter} {name(units[0].location.province)} TO {found[0]}"

    return (
        OrderForm("fleet steps", "F <sea> - <sea> - <province>", "one fleet takes several steps, as many as the "
                  "empire has fleets, the others standing; judged in rounds (rule 4)", (), MOVEMENT, steps),
        OrderForm("federate", "FEDERATE <empire>", "ask to federate; empires federate when each asks the other "
                  "(rule 5)", ("federate",), ANY_PHASE, federate),
        OrderForm("defederate", "DEFEDERATE", "leave your federation at the end of the phase (rule 6)",
                  ("defederate",), ANY_PHASE, lambda position, power: "DEFEDERATE"),
        OrderForm("give", "GIVE <unit> TO <empire>, GIVE CENTRE <centre> TO <empire>, GIVE BUILD TO <empire>",
                  "hand a unit, a centre or a build to a federation partner for good (rule 5)", ("give",),
                  ANY_PHASE, give),
    )
