"""Finding the unit an order names among the units of a position (or the dislodged units of a
retreat phase), and which of a unit's orders counts."""

from __future__ import annotations

from collections.abc import Sequence

from gm.adjudicator.rulings import Ruling
from gm.domain.orders import UnitRef
from gm.domain.units import Unit


class UnitFinder:
    """The units of a position by province, for finding the unit an order names.

    Where a variant lets units share a province, an order names one of them by its power and
    type; identical units (two fleets of one power in one sea) take the orders given for them
    in turn, the latest ones counting, as one unit follows its last order.
    """

    def __init__(self, units: Sequence[Unit]):
        slots: dict[str, int] = {}
        stacked: dict[str, list[int]] | None = None
        for slot, unit in enumerate(units):
            province = unit.location.province
            if province in slots:
                if stacked is None:
                    stacked = {}
                stacked.setdefault(province, [slots[province]]).append(slot)
            else:
                slots[province] = slot
        self.units = units
        self.slots = slots  # province -> the slot of its (first) unit
        self.stacked = stacked  # province -> slots, where several units stand
        self.last_ordered: dict[int, int] = {}  # slot -> number of its latest order
        self.problem: str | None = None  # why the unit ``find`` found may not be ordered

    def find(self, power: str, ref: UnitRef, count: int) -> int:
        """The slot of the unit ``ref`` names for ``power`` (-1: none); ``problem`` says why it
        may not be ordered (None: it may). ``count`` numbers the orders, for identical units."""
        province = ref.location.province
        stacked = self.stacked
        if stacked is None or province not in stacked:
            slot = self.slots.get(province, -1)
            self.problem = None if slot >= 0 and self.units[slot].power == power else ""
            return slot
        candidates = stacked[province]
        mine = [s for s in candidates if self.units[s].power == power]
        self.problem = ""
        if not mine:
            return candidates[0]
        typed = [s for s in mine if self.units[s].type is ref.type] or mine
        kinds = {(self.units[s].type, self.units[s].location.coast) for s in typed}
        if len(kinds) > 1:
            names = " or ".join(sorted({str(self.units[s]) for s in typed}))
            self.problem = f"{power} has several units in {province}: say which ({names})"
            return typed[0]
        last = self.last_ordered
        slot = min(typed, key=lambda s: last.get(s, -1))
        last[slot] = count
        self.problem = None
        return slot

    def other(self, ref: UnitRef, acting: Unit) -> Unit | None:
        """The unit a support or convoy names: of the type written, not the acting unit."""
        province = ref.location.province
        if self.stacked is None or province not in self.stacked:
            slot = self.slots.get(province, -1)
            return self.units[slot] if slot >= 0 else None
        candidates = [self.units[s] for s in self.stacked[province] if self.units[s] is not acting]
        if not candidates:
            return acting
        return next((u for u in candidates if u.type is ref.type), candidates[0])


def unit_ref(unit: Unit, written: UnitRef | None = None) -> UnitRef:
    """The unit as the order should name it (DATC 4.B.5, 4.C.2: a wrong type or coast is ignored)."""
    if written is not None and written.type is unit.type and written.location == unit.location:
        return written
    return UnitRef(unit.location, unit.type)


def last_order_wins(rulings: list[Ruling]) -> list[Ruling]:
    """A unit given several legal orders follows the last one (as a mail judge revises orders)."""
    last: dict[int, Ruling] = {}
    for ruling in rulings:
        if ruling.illegal is None and ruling.slot >= 0:
            earlier = last.get(ruling.slot)
            if earlier is not None:
                earlier.superseded = True
            last[ruling.slot] = ruling
    return rulings
