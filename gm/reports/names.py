"""Orders, units and places in words, with the variant's own names (never raw ids)."""

from __future__ import annotations

from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MoveAlongPath,
    MoveInRounds,
    MoveThen,
    Order,
    Retreat,
    SecondMove,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from gm.domain.units import Unit


class Namer:
    def __init__(self, variant: Variant):
        self.variant = variant
        self.map = variant.map

    def place(self, location: Location) -> str:
        province = self.map.provinces.get(location.province)
        name = province.name if province else location.province
        if location.coast:
            return f"{name} ({self.map.coast_names.get(location.coast, location.coast)})"
        return name

    def unit(self, unit: Unit | UnitRef) -> str:
        kind = unit.type.name.capitalize() if unit.type else "Unit"
        return f"{kind} {self.place(unit.location)}"

    def adjective(self, power: str) -> str:
        found = self.map.powers.get(power)
        return found.adjective if found else power

    def owned_unit(self, unit: Unit) -> str:
        """"the French army in Paris"."""
        return f"the {self.adjective(unit.power)} {unit.type.name} in {self.place(unit.location)}"

    def order(self, order: Order) -> str:
        if isinstance(order, Hold):
            return f"{self.unit(order.unit)} HOLD"
        if isinstance(order, Move):
            via = " via convoy" if order.via_convoy else ""
            return f"{self.unit(order.unit)} -> {self.place(order.destination)}{via}"
        if isinstance(order, MoveInRounds):
            return f"{self.unit(order.unit)} -> {self.route(order.steps)}"
        if isinstance(order, MoveAlongPath):
            return f"{self.unit(order.unit)} -> {self.route(order.path)}"
        if isinstance(order, MoveThen):
            return f"{self.unit(order.unit)} -> {self.route(order.first)} then {self.route(order.then)}"
        if isinstance(order, SecondMove):
            return f"{self.unit(order.unit)} -> {self.route(order.path)} (second move)"
        if isinstance(order, SupportHold):
            return f"{self.unit(order.unit)} SUPPORT {self.unit(order.supported)}"
        if isinstance(order, SupportMove):
            return f"{self.unit(order.unit)} SUPPORT {self.unit(order.supported)} -> {self.place(order.destination)}"
        if isinstance(order, Convoy):
            return f"{self.unit(order.unit)} CONVOY {self.unit(order.army)} -> {self.place(order.destination)}"
        if isinstance(order, Retreat):
            return f"{self.unit(order.unit)} RETREAT -> {self.place(order.destination)}"
        if isinstance(order, Disband):
            return f"{self.unit(order.unit)} DISBAND"
        if isinstance(order, Build):
            return f"BUILD {self.unit(order.unit)}"
        if isinstance(order, Waive):
            return "WAIVE"
        return order.in_words(self) or str(order)

    def route(self, locations: tuple[Location, ...]) -> str:
        """"Gulf of Lyon -> Spain (south coast)": the provinces of a move of several steps."""
        return " -> ".join(self.place(loc) for loc in locations)

    def places(self, locations: list[Location]) -> str:
        names = [self.place(loc) for loc in locations]
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + " or " + names[-1]
