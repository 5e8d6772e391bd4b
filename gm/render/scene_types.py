"""The plain values a board picture is drawn from (``scene.build_scene`` makes them; the SVG
template only loops over them), and the room each mark takes on the picture (``box``: left,
top, right, bottom, with its outline), which the names keep clear of."""

from __future__ import annotations

from dataclasses import dataclass, field

from gm.render import style
from gm.render.labels import Box, Label
from gm.render.order_marks import Cross, Stroke

EDGE = 0.7  # half an outline's width


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
    removed: bool = False  # the phase removed it (struck out)
    ghost: bool = False  # removed where it had moved to: drawn faint there
    waiting: bool = False  # not yet on the board (a dashed ring): where it comes onto it unless placed
    name: str = ""  # its own name, written under it

    @property
    def reach(self) -> float:
        """How far its shape reaches from its centre: its rings stand just outside."""
        return style.UnitStyle(self.shape, self.scale).reach(self.double)

    @property
    def name_baseline(self) -> float:
        return self.y + style.UnitStyle(self.shape, self.scale).half_height(self.double) + style.NAME_SIZE + 1.5

    @property
    def name_box(self) -> Box:
        """The room its name takes under it."""
        half = len(self.name) * style.NAME_SIZE * 0.33 + 1.5
        return self.x - half, self.name_baseline - style.NAME_SIZE, self.x + half, self.name_baseline + 3.5

    @property
    def box(self) -> Box:
        look = style.UnitStyle(self.shape, self.scale)
        half_w, half_h = look.half_width(self.double) + EDGE, look.half_height(self.double) + EDGE
        left, top, right, bottom = self.x - half_w, self.y - half_h, self.x + half_w, self.y + half_h
        if self.count > 1:
            reach = self.scale * (style.BADGE_CORNER * style.UNIT_RADIUS + style.BADGE_RADIUS) + EDGE
            right, top = max(right, self.x + reach), min(top, self.y - reach)
        ring = 0.0
        if self.dislodged:
            ring = self.reach + 3.5 + 1.2
        if self.new:
            ring = max(ring, self.reach + 4 + 1.7)
        if self.removed:
            ring = max(ring, style.UNIT_RADIUS + 3 + 1.6)  # the cross
        if self.waiting:
            ring = max(ring, self.reach + 4 + 1.2)
        if ring:
            left, top = min(left, self.x - ring), min(top, self.y - ring)
            right, bottom = max(right, self.x + ring), max(bottom, self.y + ring)
        return left, top, right, bottom


@dataclass(frozen=True)
class TintArea:
    path: str
    fill: str  # a colour, or "url(#...)" of a pattern


@dataclass(frozen=True)
class TintPattern:
    id: str
    pattern: str  # hatch | dots
    colour: str


MARKER_REACH = {"square": style.MARK_SIZE + 0.6, "castle": style.MARK_SIZE + 0.6, "triangle": style.MARK_SIZE + 0.6,
                "star": 1.2 * style.MARK_SIZE + 0.5, "dot": 0.7 * style.MARK_SIZE + 0.5,
                "ring": style.CENTRE_RADIUS + 3 + 1.8, "cross": style.MARK_SIZE + 2 + 1.3}


@dataclass(frozen=True)
class MarkerMark:
    x: float
    y: float
    symbol: str  # a layers.Symbol value
    colour: str
    edge: str

    @property
    def box(self) -> Box:
        k = MARKER_REACH.get(self.symbol, style.MARK_SIZE + 1)
        return self.x - k, self.y - k, self.x + k, self.y + k


@dataclass(frozen=True)
class LinkMark:
    a: tuple[float, float]
    b: tuple[float, float]
    colour: str
    edge: str
    dashed: bool

    @property
    def d(self) -> str:
        return f"M{self.a[0]:.1f},{self.a[1]:.1f} L{self.b[0]:.1f},{self.b[1]:.1f}"


@dataclass(frozen=True)
class MarkLegend:
    """A variant layer's legend entry: a sample (tint pattern, marker symbol or link) and its text."""

    x: float
    y: float
    kind: str  # tint | marker | link | unit
    sample: str  # a tint: its fill (a colour or "url(#...)"); a marker: its symbol; a link: solid or dashed;
    # a unit kind: its shape
    colour: str
    edge: str
    text: str
    letter: str = ""  # a unit kind's letter


@dataclass(frozen=True)
class CentreMark:
    x: float
    y: float
    fill: str

    @property
    def box(self) -> Box:
        k = style.CENTRE_RADIUS + EDGE
        return self.x - k, self.y - k, self.x + k, self.y + k


@dataclass(frozen=True)
class LegendEntry:
    x: float
    y: float
    colour: str
    edge: str
    name: str
    detail: str


@dataclass(frozen=True)
class KeyMark:
    """One sample of the orders' key above the map, at ``x``: ``kind`` (move, support, convoy,
    failed, dislodged, removed, built, waiting), ``sample`` its width, then its word."""

    x: float
    kind: str
    sample: float
    text: str


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
    key: list[KeyMark] = field(default_factory=list)
    legend: list[LegendEntry] = field(default_factory=list)
    mark_legend: list[MarkLegend] = field(default_factory=list)
    legend_top: int = 0
    style: object = style
