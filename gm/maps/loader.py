"""Read a map file, check it, and build the immutable ``GameMap``.

Every problem found is reported at once, each naming the file, the province and the fix;
a map with problems is never half-loaded.
"""

from __future__ import annotations

import copyreg
import functools
import hashlib
import io
import pickle
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gm.domain.geography import Location, Terrain
from gm.maps import cache
from gm.maps.model import GameMap, PowerDef, Province, StartingUnit, normalise_name
from gm.yamlfile import YamlProblem, line_of, load_strict

MAPS_DIR = Path(__file__).resolve().parents[2] / "maps"

DEFAULT_COASTS = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}
TOP_KEYS = {"title", "source", "coasts", "fields", "powers", "provinces", "rules"}
POWER_KEYS = {"adjective", "colour", "aliases", "home", "owns", "units"}
PROVINCE_KEYS = {"name", "terrain", "centre", "aliases", "anchor", "outline", "army", "fleet", "coasts", "convoys"}
COAST_KEYS = {"fleet", "anchor"}
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "number": (int, float),
    "bool": (bool,),
    "str": (str,),
    "list": (list,),
}
_ID = re.compile(r"^[A-Z][A-Z0-9]*$")
_UNIT = re.compile(r"^([A-Z])\s+([A-Z][A-Z0-9]*(?:/[A-Z]+)?)$")


@dataclass(frozen=True)
class MapProblem:
    file: str
    where: str  # the province or power concerned, or "" for the whole file
    message: str
    fix: str
    line: int | None = None

    def __str__(self) -> str:
        at = f"{self.file}:{self.line}" if self.line else self.file
        subject = f" {self.where}:" if self.where else ""
        return f"{at}:{subject} {self.message}; {self.fix}"


class MapError(Exception):
    def __init__(self, problems: list[MapProblem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def map_path(variant: str) -> Path:
    return MAPS_DIR / f"{variant}.yaml"


def available_maps() -> list[str]:
    return sorted(p.stem for p in MAPS_DIR.glob("*.yaml"))


def load_map(path: Path | str) -> GameMap:
    """The map a file describes: read from gm's cache (gm.maps.cache) when the file is the one
    read before, by the same code; else read from the YAML, and kept there for the next process
    (the standard map takes 60-160 ms to read from the YAML, under 2 ms from the cache)."""
    path = Path(path)
    try:
        entry = f"{path.stem}-{hashlib.sha256(path.read_bytes()).hexdigest()[:32]}-{_code_version()}.pickle"
    except OSError:
        entry = None  # read_map says what is wrong with the file
    if entry is not None:
        found = _unpickled(cache.read("maps", entry))
        if found is not None:
            return found
    game_map, problems = read_map(path)
    if problems or game_map is None:
        raise MapError(problems)
    kept = _pickled(game_map) if entry is not None else None
    if entry is not None and kept is not None:
        cache.write("maps", entry, kept)
    return game_map


# Pickle, the standard library's, keeps a map whole as Python objects (frozen dataclasses,
# enums, frozensets) with no schema to keep beside the classes, and reads it back in C; the
# entry is gm's own, written and read by the same code (its version is in the entry's name).
# Only read-only mappings (MappingProxyType) need telling how: as the dict they show.
def _read_only(shown: dict[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(shown)


_DISPATCH = {**copyreg.dispatch_table, MappingProxyType: lambda proxy: (_read_only, (dict(proxy),))}


def _pickled(game_map: GameMap) -> bytes | None:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _DISPATCH  # this pickler's alone: nothing registered for the process
    try:
        pickler.dump(game_map)
    except (pickle.PicklingError, TypeError, AttributeError):  # a class that cannot be kept: no entry
        return None
    return buffer.getvalue()


def _unpickled(data: bytes | None) -> GameMap | None:
    if data is None:
        return None
    try:
        found = pickle.loads(data)  # noqa: S301 - gm's own entry in its own cache folder
    except Exception:  # noqa: BLE001 - a damaged entry: read the YAML again
        return None
    return found if isinstance(found, GameMap) else None


@functools.cache
def _code_version() -> str:
    """The version of the code whose classes a cached map is made of."""
    from gm.domain import geography
    from gm.maps import model

    return cache.code_version(__file__, model.__file__, geography.__file__)


def check_map_file(path: Path | str) -> list[MapProblem]:
    return read_map(Path(path))[1]


def read_map(path: Path) -> tuple[GameMap | None, list[MapProblem]]:
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        return None, [MapProblem(name, "", f"cannot be read ({exc.strerror})", "check the path")]
    try:
        raw = load_strict(text)
    except YamlProblem as exc:
        return None, [MapProblem(name, "", exc.message, "correct the YAML", exc.line or None)]
    reader = _Reader(name, path.stem)
    game_map = reader.read(raw)
    return (None if reader.problems else game_map), reader.problems


class _Reader:
    def __init__(self, file: str, name: str):
        self.file = file
        self.name = name
        self.problems: list[MapProblem] = []

    def problem(self, where: str, message: str, fix: str, line: int | None = None) -> None:
        self.problems.append(MapProblem(self.file, where, message, fix, line))

    # -- structure -----------------------------------------------------------------

    def read(self, raw: Any) -> GameMap | None:
        if not isinstance(raw, Mapping):
            self.problem("", "is not a mapping of sections", "start with 'title:', 'powers:', 'provinces:'")
            return None
        for key in raw:
            if key not in TOP_KEYS:
                self.problem("", f"unknown section {key!r}", f"use one of {sorted(TOP_KEYS)}", line_of(raw, key))
        coast_names = dict(DEFAULT_COASTS)
        coast_names.update({str(k).upper(): str(v) for k, v in (raw.get("coasts") or {}).items()})
        fields = self._fields(raw.get("fields") or {})
        provinces, army, fleet = self._provinces(raw.get("provinces"), coast_names, fields)
        powers = self._powers(raw.get("powers"), provinces)
        if not self.problems:
            self._check_graph(provinces, army, fleet, raw.get("provinces") or {})
            self._check_powers(powers, provinces, raw.get("powers") or {})
            self._check_names(provinces, powers)
        if self.problems:
            return None
        return GameMap(
            name=self.name,
            title=str(raw.get("title") or self.name),
            source=str(raw.get("source") or ""),
            provinces=MappingProxyType(provinces),
            powers=MappingProxyType(powers),
            army_adjacency=MappingProxyType({k: frozenset(v) for k, v in army.items()}),
            fleet_adjacency=MappingProxyType({k: frozenset(v) for k, v in fleet.items()}),
            coast_names=MappingProxyType(coast_names),
            rules=MappingProxyType(dict(raw.get("rules") or {})),
        )

    def _fields(self, raw: Any) -> dict[str, tuple[type, ...]]:
        fields: dict[str, tuple[type, ...]] = {}
        if not isinstance(raw, Mapping):
            self.problem("", "'fields' is not a mapping", "write 'fields: {name: type}'")
            return fields
        for key, kind in raw.items():
            if key in PROVINCE_KEYS:
                self.problem("", f"field {key!r} is a core field", "choose another name", line_of(raw, key))
            elif kind not in FIELD_TYPES:
                self.problem("", f"field {key!r} has unknown type {kind!r}",
                             f"use one of {sorted(FIELD_TYPES)}", line_of(raw, key))
            else:
                fields[key] = FIELD_TYPES[kind]
        return fields

    def _provinces(
        self, raw: Any, coast_names: dict[str, str], fields: dict[str, tuple[type, ...]]
    ) -> tuple[dict[str, Province], dict[str, list[str]], dict[Location, list[Location]]]:
        provinces: dict[str, Province] = {}
        army: dict[str, list[str]] = {}
        fleet: dict[Location, list[Location]] = {}
        if not isinstance(raw, Mapping) or not raw:
            self.problem("", "has no provinces", "add a 'provinces:' section")
            return provinces, army, fleet
        for pid, spec in raw.items():
            line = line_of(raw, pid)
            pid = sys.intern(str(pid))  # ids are interned: comparing two is an identity check
            if not _ID.match(pid):
                self.problem(pid, "id is not upper-case letters and digits", "rename it, e.g. 'LON'", line)
                continue
            if not isinstance(spec, Mapping):
                self.problem(pid, "has no fields", "give at least 'name' and 'terrain'", line)
                continue
            province = self._province(pid, spec, coast_names, fields, line)
            if province is None:
                continue
            provinces[pid] = province
            army[pid] = self._id_list(pid, spec, "army")
            if province.coasts:
                if "fleet" in spec:
                    self.problem(pid, "has coasts and a 'fleet' list of its own",
                                 "move the fleet neighbours into each coast's 'fleet'", line_of(spec, "fleet"))
                for coast in province.coasts:
                    fleet[Location(pid, coast)] = [
                        Location.parse(t) for t in self._id_list(f"{pid}/{coast}", spec["coasts"][coast], "fleet")
                    ]
            elif province.holds_fleets or "fleet" in spec:
                fleet[Location(pid)] = [Location.parse(t) for t in self._id_list(pid, spec, "fleet")]
        return provinces, army, fleet

    def _province(
        self, pid: str, spec: Mapping, coast_names: dict[str, str], fields: dict[str, tuple[type, ...]], line: int | None
    ) -> Province | None:
        extra: dict[str, Any] = {}
        for key, value in spec.items():
            if key in PROVINCE_KEYS:
                continue
            if key in fields:
                if not isinstance(value, fields[key]) or (fields[key] != (bool,) and isinstance(value, bool)):
                    self.problem(pid, f"field {key!r} has the wrong type", "see the 'fields' declaration",
                                 line_of(spec, key))
                extra[key] = value
            else:
                self.problem(pid, f"unknown field {key!r}",
                             "correct the spelling, or declare it under 'fields:' at the top", line_of(spec, key))
        name = spec.get("name")
        if not isinstance(name, str) or not name.strip():
            self.problem(pid, "has no full name", "add 'name: <full name>'", line)
            return None
        try:
            terrain = Terrain(spec.get("terrain"))
        except ValueError:
            self.problem(pid, f"terrain {spec.get('terrain')!r} is unknown",
                         "use land, sea, coast or impassable", line_of(spec, "terrain") or line)
            return None
        aliases = spec.get("aliases") or []
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            self.problem(pid, "aliases are not a list of names", "write 'aliases: [name, ...]'", line_of(spec, "aliases"))
            aliases = []
        coasts_raw = spec.get("coasts") or {}
        coasts: list[str] = []
        coast_anchors: dict[str, tuple[float, float]] = {}
        if coasts_raw:
            if terrain is not Terrain.COAST:
                self.problem(pid, "has coasts but is not a coastal province",
                             "remove 'coasts' or set 'terrain: coast'", line_of(spec, "coasts"))
            if not isinstance(coasts_raw, Mapping) or len(coasts_raw) < 2:
                self.problem(pid, "'coasts' must name two or more coasts",
                             "list each coast with its 'fleet' neighbours, or drop 'coasts'", line_of(spec, "coasts"))
            else:
                for coast, cspec in coasts_raw.items():
                    coast = sys.intern(str(coast).upper())
                    if coast not in coast_names:
                        self.problem(pid, f"coast {coast!r} is not a known coast",
                                     "declare it under 'coasts:' at the top", line_of(coasts_raw, coast))
                    if not isinstance(cspec, Mapping) or set(cspec) - COAST_KEYS:
                        self.problem(pid, f"coast {coast} has unknown fields", "give only 'fleet' and 'anchor'",
                                     line_of(coasts_raw, coast))
                        continue
                    coasts.append(coast)
                    if "anchor" in cspec:
                        anchor = self._anchor(f"{pid}/{coast}", cspec["anchor"], line_of(cspec, "anchor"))
                        if anchor:
                            coast_anchors[coast] = anchor
        anchor = self._anchor(pid, spec["anchor"], line_of(spec, "anchor")) if "anchor" in spec else None
        outline: list[tuple[float, float]] = []
        if "outline" in spec:
            if not isinstance(spec["outline"], list):
                self.problem(pid, "'outline' is not a list of points", "write 'outline: [[lon, lat], ...]'",
                             line_of(spec, "outline"))
            else:
                for point in spec["outline"]:
                    checked = self._anchor(pid, point, line_of(spec, "outline"))
                    if checked:
                        outline.append(checked)
        convoys = spec.get("convoys", terrain is Terrain.SEA)
        return Province(
            id=pid,
            name=name.strip(),
            terrain=terrain,
            supply_centre=bool(spec.get("centre", False)),
            aliases=tuple(a.strip() for a in aliases),
            coasts=tuple(coasts),
            convoys=bool(convoys),
            anchor=anchor,
            outline=tuple(outline),
            coast_anchors=MappingProxyType(coast_anchors),
            extra=MappingProxyType(extra),
        )

    def _anchor(self, where: str, value: Any, line: int | None) -> tuple[float, float] | None:
        ok = (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        )
        if not ok or not (-180 <= value[0] <= 180 and -90 <= value[1] <= 90):
            self.problem(where, f"anchor {value!r} is not [longitude, latitude]",
                         "write 'anchor: [lon, lat]' with -180..180 and -90..90", line)
            return None
        return (float(value[0]), float(value[1]))

    def _id_list(self, where: str, spec: Mapping, key: str) -> list[str]:
        value = spec.get(key) or []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problem(where, f"'{key}' is not a list of ids", f"write '{key}: [ID, ...]'", line_of(spec, key))
            return []
        seen: set[str] = set()
        result = []
        for item in value:
            item = sys.intern(item.strip().upper())
            if item in seen:
                self.problem(where, f"lists {item} twice in '{key}'", "remove one", line_of(spec, key))
            seen.add(item)
            result.append(item)
        return result

    def _powers(self, raw: Any, provinces: dict[str, Province]) -> dict[str, PowerDef]:
        powers: dict[str, PowerDef] = {}
        if raw is None or raw == {}:
            return powers  # a map may have no fixed powers: players found them during the game
        if not isinstance(raw, Mapping):
            self.problem("", "'powers' is not a mapping of power names", "write 'powers: {Name: {...}}'")
            return powers
        for name, spec in raw.items():
            line = line_of(raw, name)
            name = str(name)
            if not isinstance(spec, Mapping):
                self.problem(name, "has no fields", "give at least 'adjective'", line)
                continue
            for key in spec:
                if key not in POWER_KEYS:
                    self.problem(name, f"unknown field {key!r}", f"use one of {sorted(POWER_KEYS)}", line_of(spec, key))
            units = []
            for text in spec.get("units") or []:
                match = _UNIT.match(str(text).strip().upper())
                if not match:
                    self.problem(name, f"starting unit {text!r} is not a type letter and a location, like 'A PAR' or 'F STP/SC'",
                                 "write the type letter and the location id", line_of(spec, "units"))
                    continue
                units.append(StartingUnit(match.group(1), Location.parse(match.group(2))))
            powers[name] = PowerDef(
                name=name,
                adjective=str(spec.get("adjective") or name),
                colour=str(spec.get("colour") or "#888888"),
                aliases=tuple(str(a) for a in spec.get("aliases") or []),
                home=tuple(str(h).upper() for h in spec.get("home") or []),
                owns=tuple(str(h).upper() for h in spec.get("owns") or []),
                units=tuple(units),
            )
        return powers

    # -- consistency ---------------------------------------------------------------

    def _check_graph(
        self,
        provinces: dict[str, Province],
        army: dict[str, list[str]],
        fleet: dict[Location, list[Location]],
        raw: Mapping,
    ) -> None:
        for pid, near in army.items():
            prov = provinces[pid]
            line = line_of(raw.get(pid, {}), "army")
            if near and not prov.holds_armies:
                self.problem(pid, f"is {prov.terrain.value} but has army neighbours",
                             "remove its 'army' list", line)
            for other in near:
                if other not in provinces:
                    self.problem(pid, f"army neighbour {other} does not exist", "correct or remove it", line)
                elif other == pid:
                    self.problem(pid, "is its own army neighbour", "remove it", line)
                elif not provinces[other].holds_armies:
                    self.problem(pid, f"army neighbour {other} is {provinces[other].terrain.value}",
                                 f"move {other} to the 'fleet' list", line)
                elif pid not in army.get(other, ()):
                    self.problem(pid, f"lists {other} as army neighbour but {other} does not list {pid}",
                                 f"add {pid} to {other}'s army list or remove {other}", line)
        for loc, locations in fleet.items():
            prov = provinces[loc.province]
            line = line_of(raw.get(loc.province, {}), "fleet" if not loc.coast else "coasts")
            if locations and not prov.holds_fleets:
                self.problem(str(loc), f"is {prov.terrain.value} but has fleet neighbours",
                             "remove its 'fleet' list", line)
            for neighbour in locations:
                target = provinces.get(neighbour.province)
                if target is None:
                    self.problem(str(loc), f"fleet neighbour {neighbour} does not exist", "correct or remove it", line)
                elif neighbour.province == loc.province:
                    self.problem(str(loc), "is its own fleet neighbour", "remove it", line)
                elif not target.holds_fleets:
                    self.problem(str(loc), f"fleet neighbour {neighbour} is {target.terrain.value}",
                                 "fleets cannot go there; remove it", line)
                elif target.coasts and neighbour.coast is None:
                    self.problem(str(loc), f"fleet neighbour {neighbour} has several coasts",
                                 f"name the coast, e.g. {neighbour}/{target.coasts[0]}", line)
                elif neighbour.coast and neighbour.coast not in target.coasts:
                    self.problem(str(loc), f"fleet neighbour {neighbour}: {neighbour.province} has no such coast",
                                 f"use one of {list(target.coasts) or [neighbour.province]}", line)
                elif loc not in fleet.get(neighbour, ()):
                    self.problem(str(loc), f"lists {neighbour} as fleet neighbour but {neighbour} does not list {loc}",
                                 f"add {loc} to {neighbour}'s fleet list or remove {neighbour}", line)

    def _check_powers(self, powers: dict[str, PowerDef], provinces: dict[str, Province], raw: Mapping) -> None:
        owner_of: dict[str, str] = {}
        occupied: dict[str, str] = {}
        for power in powers.values():
            spec = raw.get(power.name, {})
            for centre in power.home + power.owns:
                if centre not in provinces:
                    self.problem(power.name, f"centre {centre} does not exist", "correct or remove it",
                                 line_of(spec, "home"))
                elif not provinces[centre].supply_centre:
                    self.problem(power.name, f"home or owned centre {centre} is not a supply centre",
                                 f"add 'centre: true' to {centre} or remove it from {power.name}", line_of(spec, "home"))
                elif centre in owner_of:
                    self.problem(power.name, f"centre {centre} is also {owner_of[centre]}'s",
                                 "give it to one power only", line_of(spec, "home"))
                else:
                    owner_of[centre] = power.name
            for unit in power.units:
                where = f"{power.name} {unit.letter} {unit.location}"
                prov = provinces.get(unit.location.province)
                line = line_of(spec, "units")
                if prov is None:
                    self.problem(where, "starts in a province that does not exist", "correct the id", line)
                    continue
                if unit.location.province in occupied:
                    self.problem(where, f"starts where {occupied[unit.location.province]} also has a unit",
                                 "one unit per province", line)
                occupied[unit.location.province] = power.name
                if unit.letter == "A" and not prov.holds_armies:
                    self.problem(where, f"is an army on {prov.terrain.value}", "make it a fleet or move it", line)
                elif unit.letter == "F":
                    if not prov.holds_fleets:
                        self.problem(where, f"is a fleet on {prov.terrain.value}", "make it an army or move it", line)
                    elif prov.coasts and unit.location.coast not in prov.coasts:
                        self.problem(where, f"must name one of the coasts {list(prov.coasts)}",
                                     f"write e.g. F {prov.id}/{prov.coasts[0]}", line)

    def _check_names(self, provinces: dict[str, Province], powers: dict[str, PowerDef]) -> None:
        # Powers may share a name with a province (Rome, Carthage): names clash only within a kind.
        for kind, spellings in (
            ("province", [(s, p.id) for p in provinces.values() for s in (p.id, p.name, *p.aliases)]),
            ("power", [(s, p.name) for p in powers.values() for s in (p.name, *p.aliases)]),
        ):
            seen: dict[str, str] = {}
            for spelling, owner in spellings:
                key = normalise_name(spelling)
                if not key:
                    self.problem(owner, f"has an empty {kind} spelling", "remove it")
                elif seen.setdefault(key, owner) != owner:
                    self.problem(owner, f"spelling {spelling!r} is also used by {seen[key]}",
                                 "remove the alias from one of them")
