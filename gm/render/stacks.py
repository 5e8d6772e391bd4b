"""How each unit is drawn and where: its look from the style table, and the marks of units
sharing a province side by side around the province's spot.

Marks of one province never overlap: they stand in rows of ``style.STACK_ROW``, each as wide
as its shape (and its count's badge), ``style.STACK_GAP`` apart. Past a row's worth, identical units (one power, one
type) share one mark with their count on a badge, so a sea with a dozen fleets of three
powers shows three marks. Marks of different provinces may still touch where provinces are
small, as single units always could.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gm.domain.units import Unit, UnitType
from gm.render import style

Point = tuple[float, float]


def unit_style(unit_type: UnitType) -> style.UnitStyle:
    """The look of a unit type: by its name in the style table, else by how it moves."""
    found = style.UNIT_STYLES.get(unit_type.name.casefold())
    if found is not None:
        return found
    return style.UNIT_STYLE_BY_MOBILITY.get(unit_type.mobility.value, style.UNIT_STYLE_FALLBACK)


@dataclass(frozen=True)
class Piece:
    """A unit to draw."""

    unit: Unit
    look: style.UnitStyle
    double: bool  # a second rim: a double unit, or any unit of strength 2 or more
    dislodged: bool = False
    new: bool = False  # built this phase

    @property
    def half_width(self) -> float:
        return self.look.half_width(self.double)

    @property
    def kind(self) -> tuple[str, UnitType, bool, bool]:
        """What identical units share (they may be counted on one mark)."""
        return self.unit.power, self.unit.type, self.dislodged, self.new


@dataclass(frozen=True)
class Placed:
    piece: Piece
    x: float
    y: float
    count: int = 1  # the units this mark stands for


def lay_out(pieces: Sequence[Piece], spot: Point) -> list[Placed]:
    """Marks for the units drawn at one spot, centred on it, in rows."""
    if len(pieces) == 1:  # exactly on the spot (no arithmetic to round)
        return [Placed(pieces[0], spot[0], spot[1])]
    counted = _counted(pieces) if len(pieces) > style.STACK_ROW else [(p, 1) for p in pieces]
    rows = [counted[i:i + style.STACK_ROW] for i in range(0, len(counted), style.STACK_ROW)]
    height = 2 * max(half_width(p, n) for p, n in counted) + style.STACK_GAP
    placed = []
    for number, row in enumerate(rows):
        y = spot[1] + (number - (len(rows) - 1) / 2) * height
        width = sum(2 * half_width(p, n) for p, n in row) + style.STACK_GAP * (len(row) - 1)
        x = spot[0] - width / 2
        for piece, count in row:
            placed.append(Placed(piece, x + half_width(piece, count), y, count))
            x += 2 * half_width(piece, count) + style.STACK_GAP
    return placed


def half_width(piece: Piece, count: int = 1) -> float:
    """Half the room a mark takes in its row: its shape, and the badge of a count."""
    return piece.half_width + (style.BADGE_RADIUS if count > 1 else 0.0)


def _counted(pieces: Sequence[Piece]) -> list[tuple[Piece, int]]:
    """Identical units on one mark each, in the order they first appear."""
    counts: dict[tuple[str, UnitType, bool, bool], list] = {}
    for piece in pieces:
        counts.setdefault(piece.kind, [piece, 0])[1] += 1
    return [(piece, count) for piece, count in counts.values()]
