"""How each unit is drawn and where: its look from the style table, and the marks of units
sharing a province side by side around the province's spot.

Marks of one province never overlap: they stand in rows of ``style.STACK_ROW``, each as wide
as its shape (and its count's badge), ``style.STACK_GAP`` apart, the rows as far apart as the
marks are high. Past a row's worth, identical units (one power, one type) share one mark with
their count on a badge, so a sea with a dozen fleets of three powers shows three marks.
Where the rows do not fit in the province's area around its spot (a narrow sea, a small
island), they move to the nearest place they fit, in fewer marks a row if need be, drawn
smaller if still too big (``_fit``, ``room``). Marks of different provinces may still touch
where provinces are small, as single units always could."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from gm.domain.units import Unit, UnitType
from gm.render import style
from gm.render.room import Room, nearest_fit

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
    removed: bool = False  # the phase removed it
    ghost: bool = False  # removed where it had moved to (drawn there, faint)
    waiting: bool = False  # not yet on the board: shown where it comes onto it unless placed
    name: str = ""  # its own name, written under it (Rise of Rome II's leaders)

    @property
    def half_width(self) -> float:
        return self.look.half_width(self.double)

    @property
    def kind(self) -> tuple[str, UnitType, bool, bool, bool, bool]:
        """What identical units share (they may be counted on one mark)."""
        return self.unit.power, self.unit.type, self.dislodged, self.new, self.removed, self.waiting


@dataclass(frozen=True)
class Placed:
    piece: Piece
    x: float
    y: float
    count: int = 1  # the units this mark stands for


def lay_out(pieces: Sequence[Piece], spot: Point, room: Room | None = None) -> list[Placed]:
    """Marks for the units drawn at one spot, centred on it, in rows; within ``room`` (the
    province's area), if given, where they do not fit there (``_fit``)."""
    if len(pieces) == 1:  # exactly on the spot (no arithmetic to round)
        return [Placed(pieces[0], spot[0], spot[1])]
    counted = _counted(pieces) if len(pieces) > style.STACK_ROW else [(p, 1) for p in pieces]
    centre, block = (spot, _blocks(counted)[0]) if room is None else _fit(room, spot, counted)
    return [Placed(piece, centre[0] + dx, centre[1] + dy, count) for piece, count, dx, dy in block]


Block = list[tuple[Piece, int, float, float]]  # each mark, its count and its offset from the centre


def _block(counted: Sequence[tuple[Piece, int]], per_row: int) -> Block:
    """The marks in rows of ``per_row``, each row centred, the rows as close as their marks'
    heights allow, around the origin."""
    rows = [counted[i:i + per_row] for i in range(0, len(counted), per_row)]
    heights = [max(half_height(p, n) for p, n in row) for row in rows]
    ys = [0.0]
    for above, below in zip(heights, heights[1:]):
        ys.append(ys[-1] + above + below + style.STACK_GAP)
    middle = (ys[0] - heights[0] + ys[-1] + heights[-1]) / 2
    block = []
    for row, y in zip(rows, ys, strict=True):
        width = sum(2 * half_width(p, n) for p, n in row) + style.STACK_GAP * (len(row) - 1)
        x = -width / 2
        for piece, count in row:
            block.append((piece, count, x + half_width(piece, count), y - middle))
            x += 2 * half_width(piece, count) + style.STACK_GAP
    return block


def _blocks(counted: Sequence[tuple[Piece, int]]) -> list[Block]:
    """The arrangements to choose from: rows of ``STACK_ROW`` marks, then of fewer."""
    return [_block(counted, per_row) for per_row in range(min(style.STACK_ROW, len(counted)), 0, -1)]


def _fit(room: Room, spot: Point, counted: Sequence[tuple[Piece, int]]) -> tuple[Point, Block]:
    """Where the marks stand wholly inside the room: in rows on the spot if they fit there;
    else the arrangement and place nearest the spot (an extra row counts as
    ``style.STACK_ROW_COST`` of distance); else the same with the marks drawn smaller
    (``style.STACK_SHRINK``). Failing that, the smaller marks with only their inner halves
    inside, then only their centres; failing all, in rows on the spot."""
    smaller = [(replace(p, look=replace(p.look, scale=p.look.scale * style.STACK_SHRINK)), n) for p, n in counted]
    for marks, share in ((counted, 1.0), (smaller, 1.0), (smaller, 0.5), (smaller, 0.0)):
        blocks = _blocks(marks)
        shapes = [[(dx - share * half_width(p, n), dy - share * half_height(p, n),
                    dx + share * half_width(p, n), dy + share * half_height(p, n)) for p, n, dx, dy in block]
                  for block in blocks]
        if all(room.holds((spot[0] + b[0], spot[1] + b[1], spot[0] + b[2], spot[1] + b[3])) for b in shapes[0]):
            return spot, blocks[0]
        found = []
        for block, boxes in zip(blocks, shapes, strict=True):
            point = nearest_fit(room, spot, boxes)
            if point is not None:
                rows = len({dy for _, _, _, dy in block}) - len({dy for _, _, _, dy in blocks[0]})
                found.append((math.dist(point, spot) + rows * style.STACK_ROW_COST, point, block))
        if found:
            _, point, block = min(found, key=lambda f: f[0])
            return point, block
    return spot, _blocks(counted)[0]


def half_width(piece: Piece, count: int = 1) -> float:
    """Half the room a mark takes in its row: its shape, and the badge of a count."""
    return piece.half_width + (style.BADGE_RADIUS if count > 1 else 0.0)


def half_height(piece: Piece, count: int = 1) -> float:
    """Half the height a mark takes: its shape, or the badge of a count above its corner."""
    badge = piece.look.scale * (style.BADGE_CORNER * style.UNIT_RADIUS + style.BADGE_RADIUS) if count > 1 else 0.0
    return max(piece.look.half_height(piece.double), badge)


def _counted(pieces: Sequence[Piece]) -> list[tuple[Piece, int]]:
    """Identical units on one mark each, in the order they first appear."""
    counts: dict[tuple[str, UnitType, bool, bool, bool, bool], list] = {}
    for piece in pieces:
        counts.setdefault(piece.kind, [piece, 0])[1] += 1
    return [(piece, count) for piece, count in counts.values()]
