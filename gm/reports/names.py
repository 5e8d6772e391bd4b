"""Orders, units and places in words, with the variant's own names (never raw ids).

Given the board the orders were written for, a unit is named as it stands there: its real type
whatever the order wrote ("F Aegyptus" for an infantry is "Infantry Aegyptus"), and a unit the
variant names by name with it ("Hannibal (Leader, New Carthage)"). Without a board, units are
named as written.

A Namer made ``whole`` joins the words of each place name with no-break spaces (``KEEP``), so
that a mail folded to its width never breaks a name across lines ("St / Petersburg"); the
mail's folding (gm.games.mailer) gives them back as plain spaces.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from gm.adjudicator.parts import Part
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
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import Unit

KEEP = "\u00a0"  # a space no line is broken at


UnitNames = Callable[[Unit], "str | None"]
# A variant whose units may have names of their own (Rise of Rome II's leaders): a unit's name,
# None for a unit with none.
UNIT_NAMES: Final = Part[UnitNames]("unit_names")

OffBoard = Callable[[Position], "list[Unit]"]
# A variant whose powers have units waiting to come onto the board (Rise of Rome II's leaders
# before the first Spring orders): where each waits, as units.
OFF_BOARD: Final = Part[OffBoard]("off_board")


def off_board(variant: Variant, position: Position) -> list[Unit]:
    """The units waiting to come onto the board (``OFF_BOARD``), none for most variants."""
    waiting = variant.parts.get(OFF_BOARD)
    return waiting(position) if waiting is not None else []


def unit_names(variant: Variant) -> UnitNames | None:
    """The variant's names of units (``UNIT_NAMES``), None where it names none."""
    return variant.parts.get(UNIT_NAMES)


class Namer:
    def __init__(self, variant: Variant, position: Position | None = None, *, whole: bool = False):
        self.variant = variant
        self.whole = whole  # place names as one word (``KEEP``): for text a mail folds
        self.map = variant.map
        self._names = unit_names(variant)
        self._standing: dict[str, list[Unit]] = {}
        # a unit given up in a build phase is removed (REMOVE), in a retreat phase disbanded
        self.removing = position is not None and position.phase.kind is PhaseKind.ADJUSTMENTS
        if position is not None:
            waiting = off_board(variant, position)
            for unit in (*position.units, *(d.unit for d in position.dislodged), *waiting):
                self._standing.setdefault(unit.location.province, []).append(unit)

    def place(self, location: Location) -> str:
        province = self.map.provinces.get(location.province)
        name = province.name if province else location.province
        if location.coast:
            name = f"{name} ({self.map.coast_names.get(location.coast, location.coast)})"
        return name.replace(" ", KEEP) if self.whole else name

    def standing(self, ref: UnitRef, power: str | None = None) -> Unit | None:
        """The unit on the board (or waiting to come onto it) an order's unit names: of the type
        written (orders are stored with the real unit's, gm.games.reading), of ``power`` where
        several are alike; of any type where none is written. None when none stands there."""
        units = self._standing.get(ref.location.province)
        if not units:
            return None
        if ref.type is not None:
            units = [u for u in units if u.type is ref.type]
        mine = [u for u in units if u.power == power]
        return (mine or units or [None])[0]

    def unit(self, unit: Unit | UnitRef, power: str | None = None, *, on_board: bool = True) -> str:
        """"Army Paris"; "Hannibal (Leader, New Carthage)"; the place alone for a unit whose type
        is unknown. ``power``: whose order names it (a unit waiting off the board is its);
        ``on_board``: False for a unit not yet there (a build), named as written."""
        if isinstance(unit, Unit):
            found: Unit | None = unit
        elif not on_board:
            found = Unit(power, unit.type, unit.location) if power is not None and unit.type is not None else None
        else:
            found = self.standing(unit, power)
            if found is None and power is not None and unit.type is not None:
                found = Unit(power, unit.type, unit.location)  # not on the board (a leader waiting)
        kind = found.type if found is not None else unit.type
        place = self.place(found.location if found is not None else unit.location)
        name = self._names(found) if self._names is not None and found is not None else None
        if kind is None:
            return place
        if name:
            return f"{name} ({kind.name.capitalize()}, {place})"
        return f"{kind.name.capitalize()} {place}"

    def adjective(self, power: str) -> str:
        found = self.map.powers.get(power)
        return found.adjective if found else power

    def owned_unit(self, unit: Unit) -> str:
        """"the French army in Paris"; "Hannibal, the Carthaginian leader in Zama"."""
        name = self._names(unit) if self._names is not None else None
        text = f"the {self.adjective(unit.power)} {unit.type.name} in {self.place(unit.location)}"
        return f"{name}, {text}" if name else text

    def order(self, order: Order, power: str | None = None) -> str:
        """The order in words; ``power``: whose order it is (names its units off the board)."""
        return _Words(self, power).order(order)

    def route(self, locations: tuple[Location, ...]) -> str:
        """"Gulf of Lyon -> Spain (south coast)": the provinces of a move of several steps."""
        return " -> ".join(self.place(loc) for loc in locations)

    def places(self, locations: list[Location]) -> str:
        names = [self.place(loc) for loc in locations]
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + " or " + names[-1]


class _Words:
    """One order's words: its units named for the power that gave it (``Order.in_words``)."""

    def __init__(self, namer: Namer, power: str | None):
        self.namer = namer
        self.power = power

    def unit(self, unit: UnitRef) -> str:
        return self.namer.unit(unit, self.power)

    def place(self, location: Location) -> str:
        return self.namer.place(location)

    def order(self, order: Order) -> str:
        namer, unit = self.namer, self.unit
        if isinstance(order, Hold):
            return f"{unit(order.unit)} HOLD"
        if isinstance(order, Move):
            via = " via convoy" if order.via_convoy else ""
            return f"{unit(order.unit)} -> {namer.place(order.destination)}{via}"
        if isinstance(order, MoveInRounds):
            return f"{unit(order.unit)} -> {namer.route(order.steps)}"
        if isinstance(order, MoveAlongPath):
            return f"{unit(order.unit)} -> {namer.route(order.path)}"
        if isinstance(order, MoveThen):
            return f"{unit(order.unit)} -> {namer.route(order.first)} then {namer.route(order.then)}"
        if isinstance(order, SecondMove):
            return f"{unit(order.unit)} -> {namer.route(order.path)} (second move)"
        if isinstance(order, SupportHold):
            return f"{unit(order.unit)} SUPPORT {namer.unit(order.supported)}"
        if isinstance(order, SupportMove):
            return f"{unit(order.unit)} SUPPORT {namer.unit(order.supported)} -> {namer.place(order.destination)}"
        if isinstance(order, Convoy):
            return f"{unit(order.unit)} CONVOY {namer.unit(order.army)} -> {namer.place(order.destination)}"
        if isinstance(order, Retreat):
            return f"{unit(order.unit)} RETREAT -> {namer.place(order.destination)}"
        if isinstance(order, Disband):  # the line verbs first, as players write them (BUILD, REMOVE)
            return f"{'REMOVE' if namer.removing else 'DISBAND'} {unit(order.unit)}"
        if isinstance(order, Build):
            return f"BUILD {namer.unit(order.unit, self.power, on_board=False)}"
        if isinstance(order, Waive):
            return "WAIVE"
        return order.in_words(self) or str(order)
