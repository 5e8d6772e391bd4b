"""What the standard rules count on a board, once per position: the centres each power owns, its
units that need supply, the provinces units stand in (the builds of a phase and the look for a
winner after it ask the same again), and the units standing in each province.

Each count is kept with what it counted as one value, so that threads sharing a variant never
see one position's units with another's counts; ``Position.centres`` and ``Position.units`` are
read-only, so the same object always counts the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from types import MappingProxyType

from gm.domain.position import Position
from gm.domain.units import Unit


class SupplyCounts:
    """A variant's counts of the last position asked about (the variant's own, per variant)."""

    def __init__(self) -> None:
        self._occupied: tuple[tuple[Unit, ...], AbstractSet[str]] = ((), frozenset())
        self._centres: tuple[Mapping[str, str], dict[str, int]] = (MappingProxyType({}), {})
        self._supplied: tuple[tuple[Unit, ...], dict[str, int]] = ((), {})

    def occupied(self, position: Position) -> AbstractSet[str]:
        """The provinces the position's units stand in (an adjustment phase asks for each power)."""
        units, occupied = self._occupied
        if units is not position.units:
            occupied = frozenset([u.location.province for u in position.units])
            self._occupied = (position.units, occupied)
        return occupied

    def centres_held(self, position: Position) -> dict[str, int]:
        """How many centres each power owns (not to be changed)."""
        centres, counts = self._centres
        if centres is not position.centres:
            counts = tally(position.centres.values())
            self._centres = (position.centres, counts)
        return counts

    def supplied_held(self, position: Position, supplied: Callable[[Unit], bool]) -> dict[str, int]:
        """How many units that need supply (``supplied``, of the unit alone) each power has (not
        to be changed)."""
        units, counts = self._supplied
        if units is not position.units:
            counts = tally([u.power for u in position.units if supplied(u)])  # a list: a generator costs more compiled
            self._supplied = (position.units, counts)
        return counts

    def balance(self, position: Position, powers: Iterable[str], supplied: Callable[[Unit], bool]
                ) -> list[tuple[str, int]]:
        """Each power's supply centres less its units that need supply: what it builds (positive)
        or removes (negative) in the standard rules."""
        centres = self.centres_held(position)
        units = self.supplied_held(position, supplied)
        return [(power, centres.get(power, 0) - units.get(power, 0)) for power in powers]


def tally(powers: Iterable[str]) -> dict[str, int]:
    """How many times each power is named (a Counter, without its Python-level constructor)."""
    counts: dict[str, int] = {}
    for power in powers:
        counts[power] = counts.get(power, 0) + 1
    return counts


def units_by_province(units: Iterable[Unit]) -> dict[str, list[Unit]]:
    """The units standing in each province (what ``Variant.retreat_options`` is given)."""
    standing: dict[str, list[Unit]] = {}
    for unit in units:
        province = unit.location.province
        there = standing.get(province)
        if there is None:
            standing[province] = [unit]
        else:
            there.append(unit)
    return standing
