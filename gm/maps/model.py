"""The immutable board graph a map file describes."""

from __future__ import annotations

import re

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from gm.domain.geography import Location, Terrain

_NAME_NOISE = re.compile(r"[\s.\-_'’]+")


def normalise_name(text: str) -> str:
    """The form in which two spellings of a name are compared: "St. Petersburg" = "st petersburg"."""
    return _NAME_NOISE.sub(" ", text.casefold()).strip()


@dataclass(frozen=True, slots=True)
class Province:
    id: str
    name: str
    terrain: Terrain
    supply_centre: bool = False
    aliases: tuple[str, ...] = ()
    coasts: tuple[str, ...] = ()  # empty unless the province has several coasts
    convoys: bool = False  # a fleet here may carry a convoy
    anchor: tuple[float, float] | None = None  # (longitude, latitude)
    outline: tuple[tuple[float, float], ...] = ()  # extra (lon, lat) points inside, for drawing
    coast_anchors: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)  # declared variant fields
    # From the terrain; fields rather than properties because legality asks them for every move.
    holds_fleets: bool = field(init=False, repr=False, compare=False)
    holds_armies: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "holds_fleets", self.terrain in (Terrain.SEA, Terrain.COAST))
        object.__setattr__(self, "holds_armies", self.terrain in (Terrain.LAND, Terrain.COAST))


@dataclass(frozen=True, slots=True)
class StartingUnit:
    letter: str
    location: Location


@dataclass(frozen=True, slots=True)
class PowerDef:
    name: str
    adjective: str
    colour: str
    aliases: tuple[str, ...] = ()
    home: tuple[str, ...] = ()
    owns: tuple[str, ...] = ()
    units: tuple[StartingUnit, ...] = ()


@dataclass(frozen=True)
class GameMap:
    name: str
    title: str
    source: str
    provinces: Mapping[str, Province]
    powers: Mapping[str, PowerDef]
    army_adjacency: Mapping[str, frozenset[str]]
    fleet_adjacency: Mapping[Location, frozenset[Location]]
    coast_names: Mapping[str, str]
    rules: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @cached_property
    def supply_centres(self) -> frozenset[str]:
        if self.rules.get("supply_centres") == "none":  # its powers' homes are marked only for the loader
            return frozenset()
        return frozenset(p.id for p in self.provinces.values() if p.supply_centre)

    @cached_property
    def neighbours(self) -> Mapping[str, frozenset[str]]:
        """Provinces next to each province by any border (army or fleet)."""
        result: dict[str, set[str]] = {pid: set() for pid in self.provinces}
        for pid, provinces in self.army_adjacency.items():
            result[pid] |= provinces
        for loc, locations in self.fleet_adjacency.items():
            result[loc.province] |= {n.province for n in locations}
        return MappingProxyType({k: frozenset(v) for k, v in result.items()})

    @cached_property
    def fleet_province_adjacency(self) -> Mapping[str, frozenset[str]]:
        """Province-level fleet adjacency (any coast to any coast)."""
        result: dict[str, set[str]] = {}
        for loc, near in self.fleet_adjacency.items():
            result.setdefault(loc.province, set()).update(n.province for n in near)
        return MappingProxyType({k: frozenset(v) for k, v in result.items()})

    def fleet_locations(self, province: str) -> tuple[Location, ...]:
        """Where a fleet can stand in a province: each coast, or the province itself."""
        prov = self.provinces[province]
        if prov.coasts:
            return tuple(Location(province, c) for c in prov.coasts)
        return (Location(province),) if prov.holds_fleets else ()

    def fleet_targets(self, origin: Location, province: str) -> tuple[Location, ...]:
        """The locations in ``province`` a fleet at ``origin`` may move to."""
        near = self.fleet_adjacency.get(origin, frozenset())
        return tuple([loc for loc in self.fleet_locations(province) if loc in near])  # a list: no generator to run

    def power_named(self, name: str) -> PowerDef | None:
        wanted = name.strip().casefold()
        for power in self.powers.values():
            if power.name.casefold() == wanted or wanted in (a.casefold() for a in power.aliases):
                return power
        return None
