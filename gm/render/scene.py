"""What to draw for one phase: provinces, centres, units and legend, in picture coordinates.

``build_scene`` turns a variant, a position and (optionally) the phase's report into plain
values; the SVG template (``templates/map/board.svg.j2``) only loops over them. The orders'
lines are worked out in ``order_marks``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gm.adjudicator.engine import PhaseReport
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Build
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import Unit
from gm.render import style
from gm.render.order_marks import Cross, OrderMarks, Stroke, draw_orders
from gm.render.shapes import MapShapes, load_shapes

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
    shape: str  # army | fleet | other
    letter: str
    fill: str
    ink: str  # the letter's colour
    edge: str
    dislodged: bool = False
    new: bool = False  # built this phase


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
    legend: list[LegendEntry] = field(default_factory=list)
    legend_top: int = 0
    style: object = style


class Palette:
    """Each power's colour: the map's, or a stable made-up one for powers it does not list."""

    def __init__(self, variant: Variant):
        self.defs = variant.map.powers

    def colour(self, power: str | None) -> str:
        if power is None:
            return style.CENTRE_UNOWNED
        d = self.defs.get(power)
        return style.normal(d.colour) if d else style.fallback_colour(power)

    def adjective(self, power: str) -> str:
        d = self.defs.get(power)
        return d.adjective if d else power


def dislodged_offset(spot: Point) -> Point:
    gap = style.UNIT_RADIUS + 4
    return spot[0] + gap, spot[1] - gap


def unit_mark(unit_letter: str, spot: Point, colour: str, dislodged: bool = False, new: bool = False) -> UnitMark:
    shape = {"A": "army", "F": "fleet"}.get(unit_letter, "other")
    return UnitMark(spot[0], spot[1], shape, unit_letter, colour, style.ink_on(colour), style.outline_for(colour),
                    dislodged, new)


def build_scene(variant: Variant, position: Position, report: PhaseReport | None = None,
                title: str | None = None) -> Scene:
    shapes = load_shapes(variant.map.name)
    palette = Palette(variant)
    game_map = variant.map
    phase_title = variant.title(position.phase)
    others = ({u.power for u in position.units} | set(position.centres.values())) - set(game_map.powers)
    powers = list(game_map.powers) + sorted(others)
    legend, legend_height = _legend(powers, position, palette, shapes.width)
    scene = Scene(
        width=shapes.width,
        height=style.TITLE_HEIGHT + shapes.height + legend_height,
        map_top=style.TITLE_HEIGHT,
        map_width=shapes.width,
        map_height=shapes.height,
        title=title or f"{game_map.title}: {phase_title}",
        subtitle="",
        neutral_land=shapes.neutral_land,
        coastline=shapes.land,
        legend=legend,
        legend_top=style.TITLE_HEIGHT + shapes.height,
    )
    _areas(scene, shapes, position, palette, variant)
    spots = _Spots(shapes)
    # units dislodged on this board: waiting to retreat, or (with a movement report) dislodged now
    dislodged: set[tuple[str, Location]] = {(d.unit.power, d.unit.location) for d in position.dislodged}
    if report is not None and position.phase.kind is PhaseKind.MOVEMENT:
        dislodged |= {(d.unit.power, d.unit.location) for d in report.resolved.dislodged}
    units: list[tuple[Unit, bool]] = [(u, (u.power, u.location) in dislodged) for u in position.units]
    units += [(d.unit, True) for d in position.dislodged]
    for unit, is_dislodged in units:
        spot = spots.of(unit.location)
        if spot is None:
            continue
        if is_dislodged:
            spot = dislodged_offset(spot)
        scene.units.append(unit_mark(unit.type.letter, spot, palette.colour(unit.power), dislodged=is_dislodged))
    if report is not None:
        marks: OrderMarks = draw_orders(report.results, spots, palette.colour, dislodged, dislodged_offset)
        scene.strokes, scene.crosses = marks.strokes, marks.crosses
        for result in report.results:
            if isinstance(result.order, Build) and result.succeeded:
                spot = spots.of(result.order.unit.location)
                letter = result.unit.type.letter if result.unit else (
                    result.order.unit.type.letter if result.order.unit.type else "?")
                if spot is not None:
                    scene.units.append(unit_mark(letter, spot, palette.colour(result.power), new=True))
    # units drawn last on top; dislodged ones above the rest
    scene.units.sort(key=lambda m: m.dislodged)
    return scene


class _Spots:
    """Where units at each location are drawn."""

    def __init__(self, shapes: MapShapes):
        self.shapes = shapes

    def of(self, location: Location) -> Point | None:
        shape = self.shapes.provinces.get(location.province)
        return None if shape is None else shape.spot(location.coast)


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


def _legend(powers: list[str], position: Position, palette: Palette, width: int) -> tuple[list[LegendEntry], int]:
    """One entry per power, in a grid of as few rows as fit the width (columns balanced)."""
    items = []
    for power in powers:
        centres = len(position.centres_of(power))
        units = sum(1 for u in position.units if u.power == power)
        detail = f"{centres} centre{'s' if centres != 1 else ''}, {units} unit{'s' if units != 1 else ''}"
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
