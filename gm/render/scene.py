"""What to draw for one phase: provinces, centres, units and legend, in picture coordinates.

``build_scene`` turns a variant, a position and (optionally) the phase's report into plain
values; the SVG template (``templates/map/board.svg.j2``) only loops over them. The orders'
lines are worked out in ``order_marks``; how each unit looks and where the units of one
province stand, in ``stacks``; the variant's own layers (``layers.DrawsMapLayers``) are
drawn from its state between the provinces and the units.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from gm.adjudicator.engine import PhaseReport
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Build
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import Unit, UnitType
from gm.render import style
from gm.render.layers import DrawsMapLayers, MapPen, Pattern, Symbol
from gm.render.order_marks import Cross, OrderMarks, Stroke, draw_orders
from gm.render.room import Room
from gm.render.shapes import MapShapes, ProvinceShape, load_shapes
from gm.render.stacks import Piece, Placed, lay_out, unit_style

Point = tuple[float, float]


@dataclass(frozen=True)
class Area:
    id: str
    path: str
    fill: str
    stroke: str


@dataclass(frozen=True)
class UnitMark:
    x: float
    y: float
    shape: str  # one of style.UNIT_SHAPES
    letter: str
    fill: str
    ink: str  # the letter's colour
    edge: str
    dislodged: bool = False
    new: bool = False  # built this phase
    scale: float = 1.0
    double: bool = False  # a second rim
    count: int = 1  # the units of one power and type this mark stands for (a badge past 1)


@dataclass(frozen=True)
class TintArea:
    path: str
    fill: str  # a colour, or "url(#...)" of a pattern
    opacity: float


@dataclass(frozen=True)
class TintPattern:
    id: str
    pattern: str  # hatch | dots
    colour: str


@dataclass(frozen=True)
class MarkerMark:
    x: float
    y: float
    symbol: str  # a layers.Symbol value
    colour: str
    edge: str


@dataclass(frozen=True)
class LinkMark:
    d: str
    colour: str
    edge: str
    dashed: bool


@dataclass(frozen=True)
class MarkLegend:
    """A variant layer's legend entry: a sample (tint pattern, marker symbol or link) and its text."""

    x: float
    y: float
    kind: str  # tint | marker | link
    sample: str  # a tint: its fill (a colour or "url(#...)"); a marker: its symbol; a link: solid or dashed
    colour: str
    edge: str
    text: str


@dataclass(frozen=True)
class CentreMark:
    x: float
    y: float
    fill: str


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str
    sea: bool


@dataclass(frozen=True)
class LegendEntry:
    x: float
    y: float
    colour: str
    edge: str
    name: str
    detail: str


@dataclass
class Scene:
    width: int
    height: int
    map_top: int
    map_width: int
    map_height: int
    title: str
    subtitle: str
    seas: list[Area] = field(default_factory=list)
    lands: list[Area] = field(default_factory=list)
    neutral_land: str = ""
    coastline: str = ""
    labels: list[Label] = field(default_factory=list)
    centres: list[CentreMark] = field(default_factory=list)
    strokes: list[Stroke] = field(default_factory=list)
    crosses: list[Cross] = field(default_factory=list)
    units: list[UnitMark] = field(default_factory=list)
    tint_patterns: list[TintPattern] = field(default_factory=list)
    tints: list[TintArea] = field(default_factory=list)
    links: list[LinkMark] = field(default_factory=list)
    markers: list[MarkerMark] = field(default_factory=list)
    legend: list[LegendEntry] = field(default_factory=list)
    mark_legend: list[MarkLegend] = field(default_factory=list)
    legend_top: int = 0
    style: object = style


class Palette:
    """Each power's colour: the map's; a grey for the owners of units nobody plays (neutral
    garrisons, barbarians); a stable made-up one for powers the map does not list."""

    def __init__(self, variant: Variant):
        self.defs = variant.map.powers
        self.unplayed = {p: style.UNPLAYED[i % len(style.UNPLAYED)] for i, p in enumerate(variant.unplayed_powers)}

    def colour(self, power: str | None) -> str:
        if power is None:
            return style.CENTRE_UNOWNED
        d = self.defs.get(power)
        if d is not None:
            return style.normal(d.colour)
        return self.unplayed.get(power) or style.fallback_colour(power)

    def adjective(self, power: str) -> str:
        d = self.defs.get(power)
        return d.adjective if d else power


def dislodged_offset(spot: Point) -> Point:
    gap = style.UNIT_RADIUS + 4
    return spot[0] + gap, spot[1] - gap


def unit_mark(placed: Placed, colour: str) -> UnitMark:
    piece = placed.piece
    return UnitMark(placed.x, placed.y, piece.look.shape, piece.unit.type.letter, colour, style.ink_on(colour),
                    style.outline_for(colour), piece.dislodged, piece.new, piece.look.scale, piece.double, placed.count)


def build_scene(variant: Variant, position: Position, report: PhaseReport | None = None,
                title: str | None = None) -> Scene:
    shapes = load_shapes(variant.map.name)
    palette = Palette(variant)
    game_map = variant.map
    phase_title = variant.title(position.phase)
    others = ({u.power for u in position.units} | set(position.centres.values())) - set(game_map.powers)
    powers = list(game_map.powers) + sorted(others)
    pen = MapPen(shapes.provinces, palette.colour)
    if isinstance(variant, DrawsMapLayers):
        variant.map_layers(position, pen)
    patterns = _tint_patterns(pen)
    legend, legend_height = _legend(powers, position, palette, shapes.width, bool(variant.map.supply_centres))
    mark_legend, mark_legend_height = _mark_legend(pen, patterns, shapes.width, legend_height)
    scene = Scene(
        width=shapes.width,
        height=style.TITLE_HEIGHT + shapes.height + legend_height + mark_legend_height,
        map_top=style.TITLE_HEIGHT,
        map_width=shapes.width,
        map_height=shapes.height,
        title=title or f"{game_map.title}: {phase_title}",
        subtitle="",
        neutral_land=shapes.neutral_land,
        coastline=shapes.land,
        legend=legend,
        mark_legend=mark_legend,
        legend_top=style.TITLE_HEIGHT + shapes.height,
    )
    _areas(scene, shapes, position, palette, variant)
    _layers(scene, shapes, pen, patterns)
    spots = _Spots(shapes)
    # units dislodged on this board: waiting to retreat, or (with a movement report) dislodged now
    dislodged: set[tuple[str, Location]] = {(d.unit.power, d.unit.location) for d in position.dislodged}
    if report is not None and position.phase.kind is PhaseKind.MOVEMENT:
        dislodged |= {(d.unit.power, d.unit.location) for d in report.resolved.dislodged}
    units: list[tuple[Unit, bool, bool]] = [(u, (u.power, u.location) in dislodged, False) for u in position.units]
    units += [(d.unit, True, False) for d in position.dislodged]
    if report is not None:
        for result in report.results:
            if not (isinstance(result.order, Build) and result.succeeded):
                continue
            built = result.unit
            if built is None and result.order.unit.type is not None:
                built = Unit(result.power, result.order.unit.type, result.order.unit.location)
            if built is not None:
                units.append((built, False, True))
    for unit, is_dislodged, new in units:
        spots.add(Piece(unit, unit_style(unit.type), _double(variant, unit), is_dislodged, new))
    for placed in spots.place():
        scene.units.append(unit_mark(placed, palette.colour(placed.piece.unit.power)))
    if report is not None:
        marks: OrderMarks = draw_orders(report.results, spots, palette.colour, dislodged)
        scene.strokes, scene.crosses = marks.strokes, marks.crosses
    # units drawn last on top; dislodged ones above the rest
    scene.units.sort(key=lambda m: m.dislodged)
    return scene


def _double(variant: Variant, unit: Unit) -> bool:
    """A second rim: the style says so, or the unit is worth two (a double unit of any name)."""
    return unit_style(unit.type).double or variant.strength(unit) >= 2


class _Spots:
    """Where units at each location are drawn: each unit's own mark once the units are placed."""

    def __init__(self, shapes: MapShapes):
        self.shapes = shapes
        self.waiting: dict[Point, list[Piece]] = {}
        self.marks: dict[tuple[str, UnitType, Location, bool], list[Point]] = {}
        self.anywhere: dict[tuple[Location, bool], list[tuple[UnitType, Point]]] = {}

    def of(self, location: Location) -> Point | None:
        shape = self.shapes.provinces.get(location.province)
        return None if shape is None else shape.spot(location.coast)

    def add(self, piece: Piece) -> None:
        spot = self.of(piece.unit.location)
        if spot is not None:
            self.waiting.setdefault(dislodged_offset(spot) if piece.dislodged else spot, []).append(piece)

    def room(self, pieces: list[Piece]) -> Room | None:
        """The area the units of one spot are drawn in: their province's (dislodged units stand
        off their spot, beside the units that beat them)."""
        if len(pieces) < 2 or pieces[0].dislodged:
            return None
        return _room(self.shapes.provinces[pieces[0].unit.location.province].path)

    def place(self) -> list[Placed]:
        """Every unit's mark, the units of one spot side by side, inside their province."""
        placed = [mark for spot, pieces in self.waiting.items() for mark in lay_out(pieces, spot, self.room(pieces))]
        for mark in placed:
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


@lru_cache(maxsize=256)
def _room(path: str) -> Room | None:
    return Room.of_path(path)


def _areas(scene: Scene, shapes: MapShapes, position: Position, palette: Palette, variant: Variant) -> None:
    for pid, shape in shapes.provinces.items():
        if shape.kind == "sea":
            scene.seas.append(Area(pid, shape.path, style.SEA, style.SEA_BORDER))
            scene.labels.append(Label(shape.label[0], shape.label[1], pid, True))
            continue
        owner = position.centres.get(pid)
        if shape.kind == "impassable":
            fill = style.IMPASSABLE
        elif owner is not None:
            fill = style.tint(palette.colour(owner))
        else:
            fill = style.LAND
        scene.lands.append(Area(pid, shape.path, fill, style.LAND_BORDER))
        if shape.kind != "impassable":
            scene.labels.append(Label(shape.label[0], shape.label[1], pid, False))
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


def _tint_fill(pattern: Pattern, colour: str, patterns: dict[tuple[Pattern, str], TintPattern]) -> str:
    return colour if pattern is Pattern.FILL else f"url(#{patterns[pattern, colour].id})"


def _layers(scene: Scene, shapes: MapShapes, pen: MapPen, patterns: dict[tuple[Pattern, str], TintPattern]) -> None:
    """The variant's tints, links and markers in picture coordinates. A link ends at the first
    marker standing beside each of its provinces (a road between two cities' marks), else at
    the province's supply-centre mark or unit spot."""
    scene.tint_patterns = list(patterns.values())
    for tint in pen.tints:
        opacity = style.TINT_OPACITY if tint.pattern is Pattern.FILL else 1.0
        scene.tints.append(TintArea(shapes.provinces[tint.province].path, _tint_fill(tint.pattern, tint.colour, patterns),
                                    opacity))
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
        scene.links.append(LinkMark(f"M{a[0]:.1f},{a[1]:.1f} L{b[0]:.1f},{b[1]:.1f}", link.colour,
                                    style.outline_for(link.colour), link.dashed))


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
    half_w, half_h = (len(pid) * style.LABEL_CHAR_WIDTH + 2) / 2 + 1.5, style.LABEL_HEIGHT / 2 + 1.5
    room = _room(path)
    ux, uy = unit
    for reach in (style.UNIT_RADIUS + style.MARK_SIZE + 4, style.UNIT_RADIUS + style.MARK_SIZE + 14):
        for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)):
            x, y = ux + dx * reach, uy + dy * reach
            if abs(x - label[0]) < half_w + k and abs(y - label[1]) < half_h + k:
                continue
            if room is None or room.holds((x - k, y - k, x + k, y + k)):
                return x, y
    return label[0], label[1] + 13


def _mark_legend(pen: MapPen, patterns: dict[tuple[Pattern, str], TintPattern], width: int,
                 top: int) -> tuple[list[MarkLegend], int]:
    """One entry per legend text of the variant's layers, in rows under the powers' legend. An
    entry drawn in several colours (cities of several owners) shows its sample in neutral ink;
    a tint's sample is its fill (a colour, or its first pattern)."""
    samples: dict[tuple[str, str], tuple[str, str]] = {}  # (kind, text) -> (sample, colour)
    colours: dict[tuple[str, str], set[str]] = {}
    for tint in pen.tints:
        samples.setdefault(("tint", tint.legend), (_tint_fill(tint.pattern, tint.colour, patterns), tint.colour))
        colours.setdefault(("tint", tint.legend), set()).add(tint.colour)
    for link in pen.links:
        samples.setdefault(("link", link.legend), ("dashed" if link.dashed else "solid", link.colour))
        colours.setdefault(("link", link.legend), set()).add(link.colour)
    for marker in pen.markers:
        samples.setdefault(("marker", marker.legend), (marker.symbol.value, marker.colour))
        colours.setdefault(("marker", marker.legend), set()).add(marker.colour)
    if not samples:
        return [], 0
    placed, x, y = [], 12.0, float(top)
    for (kind, text), (sample, colour) in samples.items():
        if len(colours[kind, text]) > 1:
            colour = style.MARK_INK
            sample = colour if kind == "tint" and not sample.startswith("url(") else sample
        room = 34 + 6.9 * len(text) + 18  # the sample, the text (DejaVu Sans at 12.5 px), a gap
        if x + room > width - 10 and x > 12:
            x, y = 12.0, y + style.LEGEND_ROW
        placed.append(MarkLegend(x, y, kind, sample, colour, style.outline_for(colour), text))
        x += room
    return placed, int(y - top) + style.LEGEND_ROW + 4


def _legend(powers: list[str], position: Position, palette: Palette, width: int,
            with_centres: bool = True) -> tuple[list[LegendEntry], int]:
    """One entry per power, in a grid of as few rows as fit the width (columns balanced); its
    centres are counted where the map has supply centres."""
    items = []
    for power in powers:
        centres = len(position.centres_of(power))
        units = sum(1 for u in position.units if u.power == power)
        detail = f"{units} unit{'s' if units != 1 else ''}"
        if with_centres:
            detail = f"{centres} centre{'s' if centres != 1 else ''}, {detail}"
        items.append((power, palette.adjective(power), detail))
    if not items:
        return [], 0
    # DejaVu Sans at 12.5 px: about 7.6 px a bold letter, 6.9 px a plain one
    column = max(24 + 7.6 * len(name) + 6.9 * (len(detail) + 1) + 16 for _, name, detail in items)
    columns = max(1, min(len(items), int((width - 20) // column)))
    rows = -(-len(items) // columns)
    columns = -(-len(items) // rows)
    step = (width - 20) / columns
    entries = []
    for index, (power, name, detail) in enumerate(items):
        row, col = divmod(index, columns)
        colour = palette.colour(power)
        entries.append(LegendEntry(12 + col * step, row * style.LEGEND_ROW, colour, style.outline_for(colour),
                                   name, detail))
    return entries, rows * style.LEGEND_ROW + 12
