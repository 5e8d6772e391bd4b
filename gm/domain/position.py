"""A game position: everything on the board at the start of a phase."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from gm.domain.geography import Location
from gm.domain.phases import Phase
from gm.domain.units import Unit


def frozen_mapping(items: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    if isinstance(items, MappingProxyType):
        return items
    return MappingProxyType(dict(items or {}))


@dataclass(frozen=True, slots=True)
class Dislodgement:
    unit: Unit
    attacker_from: str | None  # province the dislodging unit came from
    retreats: tuple[Location, ...]  # empty: the unit is destroyed


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A second move waiting for the retreat phase: the unit stands where its first move took it."""

    unit: Unit
    path: tuple[Location, ...]


@dataclass(frozen=True, slots=True)
class Position:
    phase: Phase
    units: tuple[Unit, ...]
    centres: Mapping[str, str]  # supply centre province -> owning power
    dislodged: tuple[Dislodgement, ...] = ()
    # Variant state that is not units or centres (treasuries, cities, dice seeds...):
    # JSON-compatible values only, so it can be stored and compared.
    extra: Mapping[str, Any] = field(default_factory=frozen_mapping)
    second_moves: tuple[PendingMove, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "centres", frozen_mapping(self.centres))
        object.__setattr__(self, "extra", frozen_mapping(self.extra))

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
        copy = object.__new__(Position)
        set_field = object.__setattr__
        set_field(copy, "phase", self.phase if phase is None else phase)
        set_field(copy, "units", self.units if units is None else units)
        set_field(copy, "centres", self.centres if centres is None else frozen_mapping(centres))
        set_field(copy, "dislodged", self.dislodged if dislodged is None else dislodged)
        set_field(copy, "extra", self.extra if extra is None else frozen_mapping(extra))
        set_field(copy, "second_moves", self.second_moves if second_moves is None else second_moves)
        return copy


def _unit_key(unit: Unit) -> tuple[str, str, str]:
    return (unit.power, unit.location.province, unit.location.coast or "")


def sorted_units(units: Iterable[Unit]) -> tuple[Unit, ...]:
    return tuple(sorted(units, key=_unit_key))
