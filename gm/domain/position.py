"""A game position: everything on the board at the start of a phase."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from gm.domain.geography import Location
from gm.domain.phases import Phase
from gm.domain.units import Unit


def frozen_mapping(items: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    if isinstance(items, MappingProxyType):
        return items
    return MappingProxyType(dict(items or {}))


# Compiled with mypyc (setup.py): constructors written out, not generated, so that they run no
# Python (every phase makes several positions).
@dataclass(frozen=True, slots=True, init=False)
class Dislodgement:
    unit: Unit
    attacker_from: str | None  # province the dislodging unit came from
    retreats: tuple[Location, ...]  # empty: the unit is destroyed

    def __init__(self, unit: Unit, attacker_from: str | None, retreats: tuple[Location, ...]) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "attacker_from", attacker_from)
        object.__setattr__(self, "retreats", retreats)


@dataclass(frozen=True, slots=True, init=False)
class PendingMove:
    """A second move waiting for the retreat phase: the unit stands where its first move took it."""

    unit: Unit
    path: tuple[Location, ...]

    def __init__(self, unit: Unit, path: tuple[Location, ...]) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "path", path)


@dataclass(frozen=True, slots=True, init=False)
class Position:
    phase: Phase
    units: tuple[Unit, ...]
    centres: Mapping[str, str]  # supply centre province -> owning power (read-only)
    dislodged: tuple[Dislodgement, ...]
    # Variant state that is not units or centres (treasuries, cities, dice seeds...):
    # JSON-compatible values only, so it can be stored and compared (read-only).
    extra: Mapping[str, Any]
    second_moves: tuple[PendingMove, ...]

    def __init__(self, phase: Phase, units: tuple[Unit, ...], centres: Mapping[str, str],
                 dislodged: tuple[Dislodgement, ...] = (), extra: Mapping[str, Any] | None = None,
                 second_moves: tuple[PendingMove, ...] = ()) -> None:
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "centres", frozen_mapping(centres))
        object.__setattr__(self, "dislodged", dislodged)
        object.__setattr__(self, "extra", frozen_mapping(extra))
        object.__setattr__(self, "second_moves", second_moves)

    def centres_dict(self) -> dict[str, str]:
        """The centres as a new dict, to change: the read-only mapping's own copy (``dict()`` of
        the mapping reads it key by key, ten times slower)."""
        return self.centres.copy()  # type: ignore[attr-defined]  # a MappingProxyType (the constructor)

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units if u.power == power]

    def centres_of(self, power: str) -> list[str]:
        return sorted(p for p, owner in self.centres.items() if owner == power)

    def unit_in(self, province: str) -> Unit | None:
        """The unit in ``province`` (the first, where a variant lets units share a province)."""
        for unit in self.units:
            if unit.location.province == province:
                return unit
        return None

    def units_in(self, province: str) -> list[Unit]:
        return [u for u in self.units if u.location.province == province]

    def powers_with_units(self) -> set[str]:
        return {u.power for u in self.units} | {d.unit.power for d in self.dislodged}

    def replace(
        self,
        *,
        phase: Phase | None = None,
        units: tuple[Unit, ...] | None = None,
        centres: Mapping[str, str] | None = None,
        dislodged: tuple[Dislodgement, ...] | None = None,
        extra: Mapping[str, Any] | None = None,
        second_moves: tuple[PendingMove, ...] | None = None,
    ) -> Position:
        """A copy with some fields changed (``dataclasses.replace`` costs more, on every phase)."""
        return Position(self.phase if phase is None else phase, self.units if units is None else units,
                        self.centres if centres is None else centres, self.dislodged if dislodged is None else dislodged,
                        self.extra if extra is None else extra, self.second_moves if second_moves is None else second_moves)


def _unit_key(unit: Unit) -> tuple[str, str, str]:
    return (unit.power, unit.location.province, unit.location.coast or "")


def sorted_units(units: Iterable[Unit]) -> tuple[Unit, ...]:
    return tuple(sorted(units, key=_unit_key))
