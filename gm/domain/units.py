"""Units and unit types.

The core knows the two standard types; a variant may define more (leaders, garrisons,
catapults...) as further ``UnitType`` values with their own letter and mobility.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from gm.domain.geography import Location, new_tuple


class Mobility(Enum):
    """Which adjacency graph a unit type moves on."""

    LAND = "land"  # the army graph, province to province
    SEA = "sea"  # the fleet graph, location to location (coasts matter)
    ANY = "any"  # both graphs (e.g. a leader that may go wherever an army or fleet can)
    NONE = "none"  # never moves (a garrison)


@dataclass(frozen=True, slots=True, eq=False)
class UnitType:
    """One kind of unit. Each variant holds one instance per kind, so identity is equality."""

    letter: str
    name: str
    mobility: Mobility
    convoyable: bool = False  # may be carried by a convoy
    convoys: bool = False  # may carry a convoy
    needs_coast: bool = False  # must stand on a specific coast in multi-coast provinces

    def __str__(self) -> str:
        return self.letter


ARMY = UnitType("A", "army", Mobility.LAND, convoyable=True)
FLEET = UnitType("F", "fleet", Mobility.SEA, convoys=True, needs_coast=True)
STANDARD_UNIT_TYPES: tuple[UnitType, ...] = (ARMY, FLEET)


class Unit(NamedTuple):
    """A unit on the board (a named tuple for speed, like ``Location``)."""

    power: str
    type: UnitType
    location: Location

    @property
    def province(self) -> str:
        return self.location.province

    def __str__(self) -> str:
        return f"{self.type.letter} {self.location}"

    def moved_to(self, location: Location) -> Unit:
        return new_tuple(Unit, (self.power, self.type, location))  # the adjudicator moves units every phase
