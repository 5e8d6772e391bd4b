"""What to draw for one phase: provinces, centres, units and legend, in picture coordinates.

``build_scene`` turns a variant, a position and (optionally) the phase's report into plain
values (``scene_types``); the SVG template (``templates/map/board.svg.j2``) only loops over
them. The orders' lines are worked out in ``order_marks``; how each unit looks and where the
units of one province stand, in ``stacks`` (the marks of neighbouring provinces kept apart by
``spacing``); the units the phase removed, in ``removals``; the powers' colours, in
``colours``; the legends, in ``legend``; where the provinces' names go, in ``labels``, last,
clear of everything else. The variant's own layers (its part ``layers.MAP_LAYERS``) are drawn from
its state between the provinces and the units.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from functools import lru_cache

from gm.adjudicator.engine import PhaseReport
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Build, Order
from gm.domain.outcomes import OrderResult
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import Unit, UnitType
from gm.render import style
from gm.render.colours import Palette
from gm.render.labels import Label, Taken, Wanted, label_box, place_labels
from gm.render.layers import MAP_LAYERS, MapPen, Pattern, Symbol
from gm.render.legend import mark_legend, order_key, power_legend, tint_fill
from gm.render.order_marks import Cross, OrderMarks, UnitBox, draw_orders
from gm.render.removals import removals
from gm.render.room import Room, room_of
from gm.render.scene_types import (
    Area,
    CentreMark,
    LegendEntry,
    LinkMark,
    MarkerMark,
    MarkLegend,
    Scene,
    TintArea,
    TintPattern,
    UnitMark,
)
from gm.render.shapes import MapShapes, ProvinceShape
from gm.render.spacing import spaced_shapes
from gm.render.stacks import Piece, Placed, lay_out, unit_style
from gm.reports.names import off_board, unit_names

__all__ = ["DISLODGED_SIDES", "Area", "CentreMark", "Label", "LegendEntry", "LinkMark", "MarkLegend", "MarkerMark",
           "Scene", "TintArea", "TintPattern", "UnitMark", "build_scene", "dislodged_offset", "order_scene", "unit_mark"]

Point = tuple[float, float]
LINE_ROOM = 2.0  # half the room an order's line takes from the names


# Where a dislodged unit stands off its province's spot, in the order tried: up and right (beside
# the unit that beat it), then the other corners, then straight out; the first clear of every
# other unit's mark (a neighbouring province's unit may stand just there).
DISLODGED_SIDES = ((1, -1), (-1, -1), (1, 1), (-1, 1), (1.4, 0), (-1.4, 0), (0, -1.4), (0, 1.4))


def dislodged_offset(spot: Point, side: int = 0) -> Point:
    gap = style.UNIT_RADIUS + 4
    dx, dy = DISLODGED_SIDES[side]
    return spot[0] + dx * gap, spot[1] + dy * gap


def unit_mark(placed: Placed, colour: str) -> UnitMark:
    piece = placed.piece
    return UnitMark(placed.x, placed.y, piece.look.shape, piece.unit.type.letter, colour, style.ink_on(colour),
                    style.outline_for(colour), piece.dislodged, piece.new, piece.look.scale, piece.double, placed.count,
                    piece.removed, piece.ghost, piece.waiting, piece.name if placed.count == 1 else "")


def build_scene(variant: Variant, position: Position, report: PhaseReport | None = None,
                title: str | None = None, arrivals: Sequence[str] = (), orders: Sequence[OrderResult] = ()) -> Scene:
    """``arrivals``: the powers the map does not list, in the order they came into the game
    (their colours: ``colours.Palette``). Without a report, ``orders`` are drawn on the board
    as given (``order_scene``)."""
    shapes = spaced_shapes(variant.map.name)
    after = report.next if report is not None else position  # the board once the phase is over
    shown = {u.power for board in (position, after) for u in board.units}
    shown |= {d.unit.power for board in (position, after) for d in board.dislodged}
    shown |= set(position.centres.values()) | set(after.centres.values())
    palette = Palette(variant, shown, tuple(arrivals))
    # the board the legend counts: owners, centres and the variant's layers as the phase leaves them
    pen = layers_of(variant, after, shapes.provinces, palette)
    tallies = pen.tallies
    patterns = _tint_patterns(pen)
    # units dislodged on this board: waiting to retreat, or (with a movement report) dislodged now
    dislodged: set[tuple[str, Location]] = {(d.unit.power, d.unit.location) for d in position.dislodged}
    if report is not None and position.phase.kind is PhaseKind.MOVEMENT:
        dislodged |= {(d.unit.power, d.unit.location) for d in report.resolved.dislodged}
    pieces = _pieces(variant, position, report, dislodged, orders)
    legend, legend_height = power_legend(variant, position, after, palette, shapes.width, tallies.values())
    marks_legend, mark_legend_height = mark_legend(pen, patterns, shapes.width, legend_height, unit_kinds(pieces))
    scene = Scene(
        width=shapes.width,
        height=style.TITLE_HEIGHT + shapes.height + legend_height + mark_legend_height,
        map_top=style.TITLE_HEIGHT,
        map_width=shapes.width,
        map_height=shapes.height,
        title=title or f"{variant.map.title}: {variant.title(position.phase)}",
        subtitle="",
        neutral_land=shapes.neutral_land,
        coastline=shapes.land,
        legend=legend,
        mark_legend=marks_legend,
        legend_top=style.TITLE_HEIGHT + shapes.height,
    )
    _areas(scene, shapes, after, palette, variant)
    _layers(scene, shapes, pen, patterns)
    spots = _Spots(shapes, variant.map.supply_centres)
    for piece in pieces:
        spots.add(piece)
    for placed in spots.place():
        scene.units.append(unit_mark(placed, palette.colour(placed.piece.unit.power)))
    drawn = report.results if report is not None else orders
    if drawn:
        marks: OrderMarks = draw_orders(drawn, spots, palette.colour, dislodged)
        scene.strokes, scene.crosses = marks.strokes, marks.crosses
    # units drawn last on top; dislodged ones above the rest
    scene.units.sort(key=lambda m: m.dislodged)
    scene.crosses += [Cross(m.x, m.y, style.UNIT_RADIUS + 3, style.DISLODGED, False) for m in scene.units if m.removed]
    scene.key = order_key(_shown_marks(scene), scene.width)
    scene.labels = _labels(shapes, scene)
    return scene


def order_scene(variant: Variant, position: Position, orders: Sequence[tuple[str, Order]], title: str | None = None,
                arrivals: Sequence[str] = ()) -> Scene:
    """The board of ``position`` with ``orders`` (power, order: as typed, not yet adjudicated)
    drawn with the marks the results picture gives them, none failed: what a player sees of
    the orders they are writing."""
    results = []
    for power, order in orders:
        unit = None
        ref = getattr(order, "unit", None)
        if ref is not None:
            unit = next((u for u in position.units if u.power == power and u.location == ref.location), None)
        results.append(OrderResult(power, order, unit, True))
    return build_scene(variant, position, None, title, arrivals, results)


def _shown_marks(scene: Scene) -> set[str]:
    """The kinds of the orders' key the picture shows."""
    shown = {"move" if s.kind == "retreat" else s.kind for s in scene.strokes}
    if any(s.dashed for s in scene.strokes) or any(c.dashed for c in scene.crosses):
        shown.add("failed")
    if any(m.dislodged for m in scene.units):
        shown.add("dislodged")
    if scene.crosses:
        shown.add("removed")
    if any(m.new for m in scene.units):
        shown.add("built")
    if any(m.waiting for m in scene.units):
        shown.add("waiting")
    return shown


def layers_of(variant: Variant, position: Position, provinces: Collection[str], palette: Palette) -> MapPen:
    """What the variant draws and tallies on this board (its part ``layers.MAP_LAYERS``)."""
    pen = MapPen(provinces, palette.colour)
    draw = variant.parts.get(MAP_LAYERS)
    if draw is not None:
        draw(position, pen)
    return pen


def unit_kinds(pieces: Sequence[Piece]) -> list[tuple[str, str, str]]:
    """The unit kinds drawn that their letter alone may not tell (all but armies and fleets):
    each one's shape, letter and name, in the order first drawn."""
    kinds: dict[str, tuple[str, str, str]] = {}
    for piece in pieces:
        name = piece.unit.type.name
        if name not in ("army", "fleet"):
            kinds.setdefault(name, (piece.look.shape, piece.unit.type.letter, name))
    return list(kinds.values())


def _pieces(variant: Variant, position: Position, report: PhaseReport | None,
            dislodged: set[tuple[str, Location]], orders: Sequence[OrderResult] = ()) -> list[Piece]:
    """The units to draw: the board's (dislodged ones apart), those waiting to come onto it
    where they come unless placed (as the mails say), those built (by the report, or by the
    builds typed: ``orders``), and those the phase removed struck out (a unit removed where it
    had moved to is drawn there, faint). A unit the variant names has its name."""
    names = unit_names(variant)

    def piece(unit: Unit, **flags: bool) -> Piece:
        name = (names(unit) if names is not None else None) or ""
        return Piece(unit, unit_style(unit.type), _double(variant, unit), name=name, **flags)

    pieces = [piece(u, dislodged=(u.power, u.location) in dislodged) for u in position.units]
    pieces += [piece(d.unit, dislodged=True) for d in position.dislodged]
    pieces += [piece(u, waiting=True) for u in off_board(variant, position)]
    for result in report.results if report is not None else orders:
        if not (isinstance(result.order, Build) and result.succeeded):
            continue
        built = result.unit
        if built is None and result.order.unit.type is not None:
            built = Unit(result.power, result.order.unit.type, result.order.unit.location)
        if built is not None:
            pieces.append(piece(built, new=True))
    if report is None:
        return pieces
    for removal in removals(position, report):
        found = next((i for i, p in enumerate(pieces) if p.unit == removal.unit and p.dislodged == removal.dislodged
                      and not p.removed and not p.new), None)
        if found is not None:
            pieces[found] = replace(pieces[found], removed=True)
        else:
            pieces.append(piece(removal.unit, dislodged=removal.dislodged, removed=True, ghost=True))
    return pieces


def _labels(shapes: MapShapes, scene: Scene) -> list[Label]:
    """Every province's name, clear of the units (and their own names), the centre marks, the
    markers, the orders' lines and their ends (arrowheads) and each other."""
    ends = [box for box in (s.end_box for s in scene.strokes) if box is not None]
    lines = [(x - LINE_ROOM, y - LINE_ROOM, x + LINE_ROOM, y + LINE_ROOM) for s in scene.strokes for x, y in s.points()]
    taken = Taken([m.box for m in scene.units] + [m.name_box for m in scene.units if m.name]
                  + [c.box for c in scene.centres] + [m.box for m in scene.markers] + ends + lines)
    wanted = [Wanted(pid, shape.kind == "sea", shape.label, shape.path) for pid, shape in shapes.provinces.items()
              if shape.kind != "impassable"]
    return place_labels(wanted, taken, shapes.width, shapes.height)


def _double(variant: Variant, unit: Unit) -> bool:
    """A second rim: the style says so, or the unit is worth two (a double unit of any name)."""
    return unit_style(unit.type).double or variant.strength(unit) >= 2


class _Spots:
    """Where units at each location are drawn: each unit's own mark once the units are placed."""

    def __init__(self, shapes: MapShapes, centres: Collection[str] = ()):
        self.shapes = shapes
        self.centres = [shapes.provinces[c].centre for c in centres
                        if c in shapes.provinces and shapes.provinces[c].centre is not None]
        self.waiting: dict[tuple[Point, bool], list[Piece]] = {}  # by spot, and dislodged or not
        self.marks: dict[tuple[str, UnitType, Location, bool], list[Point]] = {}
        self.anywhere: dict[tuple[Location, bool], list[tuple[UnitType, Point]]] = {}
        self.placed: list[UnitBox] = []

    def boxes(self) -> list[UnitBox]:
        return self.placed

    def of(self, location: Location) -> Point | None:
        shape = self.shapes.provinces.get(location.province)
        return None if shape is None else shape.spot(location.coast)

    def add(self, piece: Piece) -> None:
        spot = self.of(piece.unit.location)
        if spot is not None:
            self.waiting.setdefault((spot, piece.dislodged), []).append(piece)

    def room(self, pieces: list[Piece]) -> Room | None:
        """The area the units of one spot are drawn in: their province's (dislodged units stand
        off their spot, beside the units that beat them)."""
        if len(pieces) < 2 or pieces[0].dislodged:
            return None
        return room_of(self.shapes.provinces[pieces[0].unit.location.province].path)

    def place(self) -> list[Placed]:
        """Every unit's mark, the units of one spot side by side, inside their province; the
        dislodged ones off their spot, half over the unit that took it, on the first side
        (``DISLODGED_SIDES``) clear of other provinces' marks placed before them and of every
        supply centre's mark, with its middle in its own province where one such is."""
        placed = [mark for (spot, dislodged), pieces in self.waiting.items() if not dislodged
                  for mark in lay_out(pieces, spot, self.room(pieces))]
        taken = [(mark.piece.unit.location.province, _box(mark)) for mark in placed]
        k = style.CENTRE_RADIUS + 1
        taken += [("", (c[0] - k, c[1] - k, c[0] + k, c[1] + k)) for c in self.centres]
        for (spot, dislodged), pieces in self.waiting.items():
            if not dislodged:
                continue
            own = pieces[0].unit.location.province  # it stands half over the unit that took its place
            room = room_of(self.shapes.provinces[own].path)
            tried = [lay_out(pieces, dislodged_offset(spot, side)) for side in range(len(DISLODGED_SIDES))]
            clear = [marks for marks in tried if not any(_overlap(_box(m), box) for m in marks
                                                         for province, box in taken if province != own)]
            home = [marks for marks in clear if room is None or room.holds((marks[0].x - 1, marks[0].y - 1,
                                                                            marks[0].x + 1, marks[0].y + 1))]
            clear = (home or clear or tried)[0]
            placed += clear
            taken += [(own, _box(m)) for m in clear]
        for mark in placed:
            look, double = mark.piece.look, mark.piece.double
            half_w, half_h = look.half_width(double), look.half_height(double)
            if mark.piece.dislodged:  # its ring
                half_w = half_h = look.reach(double) + 3.5
            self.placed.append(UnitBox(mark.x, mark.y, half_w, half_h, mark.piece.unit.location.province,
                                       mark.piece.dislodged, look.shape == "army" or mark.piece.dislodged))
            if mark.piece.ghost:
                continue  # no order starts from a unit drawn where it was removed
            unit = mark.piece.unit
            point = (mark.x, mark.y)
            self.marks.setdefault((unit.power, unit.type, unit.location, mark.piece.dislodged), []).extend(
                [point] * mark.count)
            self.anywhere.setdefault((unit.location, mark.piece.dislodged), []).append((unit.type, point))
        return placed

    def unit(self, power: str | None, unit_type: UnitType | None, location: Location, dislodged: bool,
             turn: int = 0) -> Point | None:
        """The mark of a unit (identical units: the ``turn``-th); of a unit of that type there when
        the power is not known; else the location's spot."""
        if power is not None and unit_type is not None:
            found = self.marks.get((power, unit_type, location, dislodged))
            if found:
                return found[turn % len(found)]
        there = self.anywhere.get((location, dislodged), [])
        for kind, point in there:
            if unit_type is None or kind is unit_type:
                return point
        spot = self.of(location)
        if spot is None:
            return None
        return dislodged_offset(spot) if dislodged else spot


def _box(mark: Placed) -> tuple[float, float, float, float]:
    """What a placed mark covers, with its dislodged ring."""
    piece = mark.piece
    half = max(piece.look.half_width(piece.double), piece.look.half_height(piece.double))
    if piece.dislodged:
        half = piece.look.reach(piece.double) + 3.5
    return mark.x - half, mark.y - half, mark.x + half, mark.y + half


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _areas(scene: Scene, shapes: MapShapes, position: Position, palette: Palette, variant: Variant) -> None:
    for pid, shape in shapes.provinces.items():
        if shape.kind == "sea":
            scene.seas.append(Area(pid, shape.path, style.SEA, style.SEA_BORDER))
            continue
        owner = position.centres.get(pid)
        if shape.kind == "impassable":
            fill = style.IMPASSABLE
        elif owner is not None:
            fill = palette.fill(owner)
        else:
            fill = style.LAND
        scene.lands.append(Area(pid, shape.path, fill, style.LAND_BORDER))
        if shape.centre is not None and pid in variant.map.supply_centres:
            scene.centres.append(CentreMark(shape.centre[0], shape.centre[1],
                                            palette.colour(owner) if owner else style.CENTRE_UNOWNED))


def _tint_patterns(pen: MapPen) -> dict[tuple[Pattern, str], TintPattern]:
    """One SVG pattern per pattern and colour the variant's tints use."""
    patterns: dict[tuple[Pattern, str], TintPattern] = {}
    for tint in pen.tints:
        key = (tint.pattern, tint.colour)
        if tint.pattern is not Pattern.FILL and key not in patterns:
            patterns[key] = TintPattern(f"tint-{len(patterns)}", tint.pattern.value, tint.colour)
    return patterns


def _layers(scene: Scene, shapes: MapShapes, pen: MapPen, patterns: dict[tuple[Pattern, str], TintPattern]) -> None:
    """The variant's tints, links and markers in picture coordinates. A link ends at the first
    marker standing beside each of its provinces (a road between two cities' marks), else at
    the province's supply-centre mark or unit spot."""
    scene.tint_patterns = list(patterns.values())
    for tint in pen.tints:
        scene.tints.append(TintArea(shapes.provinces[tint.province].path, tint_fill(tint.pattern, tint.colour, patterns)))
    beside: dict[str, int] = {}  # markers already standing beside each province's mark
    first: dict[str, Point] = {}  # the first of them
    ringed = {m.province for m in pen.markers if m.symbol is Symbol.RING}
    for marker in pen.markers:
        shape = shapes.provinces[marker.province]
        if marker.symbol.on_centre:
            x, y = _anchor(shape)
        else:
            x, y = _beside(shape, beside.get(marker.province, 0), marker.province in ringed)
            beside[marker.province] = beside.get(marker.province, 0) + 1
            first.setdefault(marker.province, (x, y))
        scene.markers.append(MarkerMark(x, y, marker.symbol.value, marker.colour, style.outline_for(marker.colour)))
    for link in pen.links:
        a = first.get(link.a) or _anchor(shapes.provinces[link.a])
        b = first.get(link.b) or _anchor(shapes.provinces[link.b])
        scene.links.append(LinkMark(a, b, link.colour, style.outline_for(link.colour), link.dashed))


def _anchor(shape: ProvinceShape) -> Point:
    """Where a province's own marks go: its supply-centre mark, else where its units stand."""
    return shape.centre if shape.centre is not None else shape.unit


def _beside(shape: ProvinceShape, index: int, ringed: bool = False) -> Point:
    """The ``index``-th marker of a province: right of its supply-centre mark (and of the ring
    around it, if one is drawn), else from the first spot around its units that is clear of
    them and of its name, inside it."""
    step = 2 * style.MARK_SIZE + 2
    if shape.centre is not None:
        gap = style.CENTRE_RADIUS + 2 + style.MARK_SIZE + (style.RING_GAP if ringed else 0.0)
        return shape.centre[0] + gap + index * step, shape.centre[1]
    x, y = _mark_spot(shape.id, shape.path, shape.unit, shape.label)
    return x + index * step, y


@lru_cache(maxsize=1024)
def _mark_spot(pid: str, path: str, unit: Point, label: Point) -> Point:
    """Where the markers of a province without a supply-centre mark start: tried where the shape
    builder tries a centre mark (below, above, right, left of the units, then the corners,
    then farther out), the first whose marker stands inside the province and clear of the
    units' mark and of the name; under the name if none is."""
    k = style.MARK_SIZE + 1.5
    left, top, right, bottom = label_box(pid, *label, style.LABEL_SIZE)
    half_w, half_h = (right - left) / 2 + 1.5, (bottom - top) / 2 + 1.5
    room = room_of(path)
    ux, uy = unit
    for reach in (style.UNIT_RADIUS + style.MARK_SIZE + 4, style.UNIT_RADIUS + style.MARK_SIZE + 14):
        for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)):
            x, y = ux + dx * reach, uy + dy * reach
            if abs(x - label[0]) < half_w + k and abs(y - label[1]) < half_h + k:
                continue
            if room is None or room.holds((x - k, y - k, x + k, y + k)):
                return x, y
    return label[0], label[1] + 13
