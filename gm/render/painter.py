"""Board pictures as PNG, drawn by Skia (the ``skia-python`` wheel) from the scene's values.

The scene (``scene.build_scene``) is drawn twice over in gm: as SVG text by the template
(``templates/map/board.svg.j2``, for the web) and here, straight onto a raster canvas, in the
template's order and with its sizes, so that the two pictures agree within a tolerance
(``tests/render/test_painter.py`` holds every board of every variant to resvg's picture of the
SVG). Skia draws a whole board, its seas and provinces included, in about 15 ms; what never
changes between pictures of one map and size (the background, the seas, the unowned land and
every province's outline) is drawn once and copied (``Board``), so a picture costs the owned
provinces and the marks (docs/design/performance.md). Why Skia and not pycairo or aggdraw, by
measurement: the same doc.

The canvas is written as a palette PNG of ``PALETTE`` colours without dithering
(``raster.encode_png``): a board is flat colours and their anti-aliased edges, and such a PNG
is a third of the size of a true-colour one and looks the same.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np
import skia

from gm.adjudicator.kept import PerVariant
from gm.maps import cache
from gm.render import style
from gm.render.legend import KEY_TOP
from gm.render.order_marks import Stroke
from gm.render.raster import encode_png
from gm.render.scene_types import KeyMark, LegendEntry, MarkerMark, MarkLegend, Scene, TintArea, UnitMark

Point = tuple[float, float]
R = style.UNIT_RADIUS
_NUMBER = re.compile(r"[MLQZmlqz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


# -- colours, paints, paths, fonts -----------------------------------------------------------------

@lru_cache(maxsize=1024)
def colour(value: str, opacity: float = 1.0) -> skia.Color4f:
    c = value.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        r, g, b = (int(c[i:i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        r = g = b = 0.5
    return skia.Color4f(r, g, b, opacity)


def fill(value: str, opacity: float = 1.0) -> skia.Paint:
    return skia.Paint(AntiAlias=True, Color4f=colour(value, opacity))


def pen(value: str, width: float, opacity: float = 1.0, dashes: Sequence[float] = (), round_cap: bool = False,
        round_join: bool = True) -> skia.Paint:
    paint = skia.Paint(AntiAlias=True, Style=skia.Paint.kStroke_Style, StrokeWidth=width, Color4f=colour(value, opacity),
                       StrokeCap=skia.Paint.kRound_Cap if round_cap else skia.Paint.kButt_Cap,
                       StrokeJoin=skia.Paint.kRound_Join if round_join else skia.Paint.kMiter_Join)
    if dashes:
        paint.setPathEffect(skia.DashPathEffect.Make(list(dashes), 0))
    return paint


@lru_cache(maxsize=4096)
def svg_path(data: str, even_odd: bool = True) -> skia.Path:
    """SVG path data of moves, lines, quadratic curves and closes (the map's shapes, the
    template's own marks) as a Skia path."""
    path = skia.Path()
    command, numbers = "", []
    for token in [*_NUMBER.findall(data), "M"]:
        if token.isalpha():
            _trace(path, command, numbers)
            command, numbers = token, []
        else:
            numbers.append(float(token))
    if even_odd:
        path.setFillType(skia.PathFillType.kEvenOdd)
    return path


def _trace(path: skia.Path, command: str, n: list[float]) -> None:
    if command == "M" and len(n) >= 2:
        path.moveTo(n[0], n[1])
        for i in range(2, len(n) - 1, 2):
            path.lineTo(n[i], n[i + 1])
    elif command == "L":
        for i in range(0, len(n) - 1, 2):
            path.lineTo(n[i], n[i + 1])
    elif command == "Q":
        for i in range(0, len(n) - 3, 4):
            path.quadTo(n[i], n[i + 1], n[i + 2], n[i + 3])
    elif command in ("Z", "z"):
        path.close()


def polygon(points: Iterable[Point], close: bool = True) -> skia.Path:
    path = skia.Path()
    path.addPoly([skia.Point(x, y) for x, y in points], close)
    return path


def stroke_path(stroke: Stroke) -> skia.Path:
    path = skia.Path()
    if stroke.steps:
        path.moveTo(*stroke.steps[0][0])
    for _, ctrl, end in stroke.steps:
        if ctrl is None:
            path.lineTo(*end)
        else:
            path.quadTo(ctrl[0], ctrl[1], end[0], end[1])
    return path


@lru_cache(maxsize=8)
def typeface(bold: bool, italic: bool) -> skia.Typeface:
    """DejaVu Sans, as resvg is given it (``png.font_files``), else the system's sans."""
    from gm.render.png import font_files
    name = "DejaVuSans" + ("-Bold" if bold else "") + ("Oblique" if italic and not bold else "") + \
        ("Oblique" if italic and bold else "")
    for path in font_files():
        if path.endswith(f"/{name}.ttf"):
            return skia.Typeface.MakeFromFile(path)
    weight = skia.FontStyle.kBold_Weight if bold else skia.FontStyle.kNormal_Weight
    slant = skia.FontStyle.kItalic_Slant if italic else skia.FontStyle.kUpright_Slant
    return skia.Typeface("DejaVu Sans", skia.FontStyle(weight, skia.FontStyle.kNormal_Width, slant))


@lru_cache(maxsize=64)
def font(size: float, bold: bool = False, italic: bool = False) -> skia.Font:
    found = skia.Font(typeface(bold, italic), size)
    found.setSubpixel(True)
    found.setLinearMetrics(True)
    found.setHinting(skia.FontHinting.kNone)
    found.setEdging(skia.Font.Edging.kAntiAlias)
    return found


def text(canvas: skia.Canvas, words: str, x: float, y: float, size: float, ink: str, bold: bool = False,
         italic: bool = False, anchor: str = "start", halo: tuple[str, float] | None = None) -> float:
    """Text with its baseline at ``y``, anchored as SVG's text-anchor; a halo drawn under it
    (``paint-order="stroke"``). Its advance."""
    face = font(size, bold, italic)
    width = face.measureText(words)
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    blob = skia.TextBlob.MakeFromString(words, face)
    if blob is None:
        return width
    if halo is not None:
        canvas.drawTextBlob(blob, left, y, pen(halo[0], halo[1]))
    canvas.drawTextBlob(blob, left, y, fill(ink))
    return width


# -- the unchanging layers -------------------------------------------------------------------------

class Board:
    """What every picture of one map and size shares: the background, the seas, the land left
    to no power and every land province in its unowned fill with its outline, drawn once (and
    kept on disk for the next process: ``base_layers``); the provinces' and the coastline's
    paths, each made when first drawn."""

    def __init__(self, scene: Scene):
        self.width, self.height = scene.width, scene.map_top + scene.map_height
        self._land_paths = {a.id: a.path for a in scene.lands}
        self.base_fill = {a.id: _base_fill(a.fill) for a in scene.lands}
        self.coastline = svg_path(scene.coastline) if scene.coastline else None
        self.image = base_layers(scene, self)

    def land(self, province: str) -> skia.Path:
        return svg_path(self._land_paths[province])

    def draw_base(self, scene: Scene) -> np.ndarray:
        image = np.empty((self.height, self.width, 4), np.uint8)
        surface = _surface(image)
        canvas = surface.getCanvas()
        canvas.drawColor(colour(style.BACKGROUND))
        canvas.translate(0, scene.map_top)
        canvas.drawRect(skia.Rect.MakeWH(scene.map_width, scene.map_height), fill(style.SEA))
        for area in scene.seas:
            path = svg_path(area.path)
            canvas.drawPath(path, fill(area.fill))
            canvas.drawPath(path, pen(area.stroke, 0.8))
        if scene.neutral_land:
            canvas.drawPath(svg_path(scene.neutral_land), fill(style.NEUTRAL_LAND))
        for area in scene.lands:
            _land(canvas, self.land(area.id), self.base_fill[area.id], area.stroke)
        del surface
        return image


def base_layers(scene: Scene, board: Board) -> np.ndarray:
    """The board's unchanging layers as pixels: from gm's cache (gm.maps.cache) when a process
    drew them before, from the very shapes and colours, with this renderer; else drawn, and kept
    there. A new process (a cron tick sending results, `gm render-map`, a drawing worker) so
    copies them instead of drawing them (7.5 MB for the standard board, read in a few ms; drawn
    in 40-60 ms). Kept raw: compressed, they would take as long to read as to draw."""
    entry = f"{_base_key(scene, board)}.rgba"
    size = board.height * board.width * 4
    kept = cache.read("boards", entry)
    if kept is not None and len(kept) == size:
        return np.frombuffer(kept, np.uint8).reshape(board.height, board.width, 4)  # read only: only copied
    image = board.draw_base(scene)
    cache.write("boards", entry, image.tobytes(), keep=16)  # 16 boards: 120 MB at most
    return image


def _base_key(scene: Scene, board: Board) -> str:
    """What the base layers are drawn from, hashed: the picture's size, every sea's and land's
    shape and colours (so the map's shapes file and the scene's own choices), and the code and
    Skia that draw them."""
    digest = hashlib.sha256(repr((board.width, board.height, scene.map_top, scene.map_width, scene.map_height,
                                  scene.neutral_land, style.BACKGROUND, style.SEA, style.NEUTRAL_LAND,
                                  skia.__version__, _renderer_version())).encode())
    for area in scene.seas:
        digest.update(f"{area.path}|{area.fill}|{area.stroke};".encode())
    for area in scene.lands:
        digest.update(f"{area.id}|{area.path}|{board.base_fill[area.id]}|{area.stroke};".encode())
    return digest.hexdigest()[:40]


@lru_cache(maxsize=1)
def _renderer_version() -> str:
    return cache.code_version(__file__, style.__file__)


def _base_fill(value: str) -> str:
    return style.IMPASSABLE if value == style.IMPASSABLE else style.LAND


def _land(canvas: skia.Canvas, path: skia.Path, colour_: str, edge: str) -> None:
    canvas.drawPath(path, fill(colour_))
    canvas.drawPath(path, pen(edge, 0.9))


def _surface(pixels: np.ndarray) -> skia.Surface:
    height, width = pixels.shape[:2]
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
    return skia.Surface.MakeRasterDirect(info, pixels)


# -- the painter -----------------------------------------------------------------------------------

class Painter:
    """Draws the board pictures of one map (one per variant: ``painter_for``),
    keeping each picture size's ``Board``."""

    def __init__(self) -> None:
        self._boards: dict[tuple[int, int, int, int], Board] = {}
        self._lock = threading.Lock()  # Skia's canvas is one thread's at a time

    def png(self, scene: Scene) -> bytes:
        return encode_png(self.canvas(scene), keep=flat_colours(scene))

    def canvas(self, scene: Scene) -> np.ndarray:
        """The picture, rows x columns x RGBA (opaque)."""
        with self._lock:
            pixels = np.empty((scene.height, scene.width, 4), np.uint8)
            board = self.board(scene)
            rows = min(board.height, scene.height)
            pixels[:rows] = board.image[:rows]
            pixels[rows:] = (*[round(c * 255) for c in _rgb(style.BACKGROUND)], 255)
            surface = _surface(pixels)
            draw(surface.getCanvas(), scene, board)
            del surface
            return pixels

    def board(self, scene: Scene) -> Board:
        key = (scene.width, scene.map_top, scene.map_height, hash(scene.coastline))
        found = self._boards.get(key)
        if found is None:
            found = self._boards[key] = Board(scene)
        return found


def flat_colours(scene: Scene) -> list[tuple[int, int, int]]:
    """The colours the picture fills with, the most used first: the PNG keeps each as it is."""
    named = [style.BACKGROUND, style.SEA, style.LAND, style.NEUTRAL_LAND, style.IMPASSABLE, style.INK, style.SEA_INK,
             "#ffffff", "#111111", style.CENTRE_UNOWNED, style.DISLODGED, style.COASTLINE, style.LAND_BORDER,
             style.SEA_BORDER]
    named += [a.fill for a in scene.lands] + [e.colour for e in scene.legend] + [c.fill for c in scene.centres]
    named += [u.fill for u in scene.units] + [m.colour for m in scene.markers]
    seen: dict[tuple[int, int, int], None] = {}
    for value in named:
        if not value.startswith("url("):
            seen.setdefault(tuple(round(c * 255) for c in _rgb(value)), None)  # type: ignore[arg-type]
    return list(seen)


def _rgb(value: str) -> tuple[float, float, float]:
    c = colour(value)
    return c.fR, c.fG, c.fB


def _painter(variant: object) -> Painter:
    return Painter()


# Each variant's painter, kept here by the variant (so by the catalog that made it).
painter_for: PerVariant[object, Painter] = PerVariant(_painter)


def draw(canvas: skia.Canvas, scene: Scene, board: Board) -> None:
    """Everything the board does not hold, in the template's order."""
    text(canvas, scene.title, 14, 26, 19, style.INK, bold=True)
    for mark in scene.key:
        _key(canvas, mark)
    canvas.save()
    canvas.translate(0, scene.map_top)
    for area in scene.lands:
        if area.fill != board.base_fill.get(area.id, area.fill):
            _land(canvas, board.land(area.id), area.fill, area.stroke)
    patterns = {p.id: p for p in scene.tint_patterns}
    for tint in scene.tints:
        _tint(canvas, tint, patterns)
    if board.coastline is not None:
        canvas.drawPath(board.coastline, pen(style.COASTLINE, 1.3))
    for link in scene.links:
        _link(canvas, link.a, link.b, link.colour, link.edge, link.dashed)
    for label in scene.labels:
        ink = style.SEA_INK if label.sea else style.INK
        if label.leader:
            a, b = (label.leader[0], label.leader[1]), (label.leader[2], label.leader[3])
            line = polygon((a, b), close=False)
            canvas.drawPath(line, pen("#ffffff", 2.4, 0.8, round_join=False))
            canvas.drawPath(line, pen(ink, 0.9, round_join=False))
        text(canvas, label.text, label.x, label.baseline, label.size, ink, bold=True, italic=label.sea, anchor="middle",
             halo=(style.SEA if label.sea else "#ffffff", style.LABEL_HALO))
    for centre in scene.centres:
        canvas.drawCircle(centre.x, centre.y, style.CENTRE_RADIUS, fill(centre.fill))
        canvas.drawCircle(centre.x, centre.y, style.CENTRE_RADIUS, pen("#111111", 1.3))
    for marker in scene.markers:
        _marker(canvas, marker)
    for stroke in scene.strokes:
        _stroke(canvas, stroke)
    for unit in scene.units:
        _unit(canvas, unit)
    for unit in scene.units:
        if unit.name:
            text(canvas, unit.name, unit.x, unit.name_baseline, style.NAME_SIZE, style.INK, bold=True, italic=True,
                 anchor="middle", halo=("#ffffff", style.LABEL_HALO))
    for cross in scene.crosses:
        k = cross.size
        path = polygon(((cross.x - k, cross.y - k), (cross.x + k, cross.y + k)), close=False)
        path.moveTo(cross.x + k, cross.y - k)
        path.lineTo(cross.x - k, cross.y + k)
        canvas.drawPath(path, pen(style.DISLODGED, 3.2, dashes=(4, 3) if cross.dashed else (), round_cap=True))
    canvas.restore()
    canvas.drawRect(skia.Rect.MakeXYWH(0, scene.map_top, scene.map_width, scene.map_height),
                    pen("#555555", 1.5, round_join=False))
    canvas.save()
    canvas.translate(0, scene.legend_top + 8)
    for entry in scene.legend:
        _legend(canvas, entry)
    for mark in scene.mark_legend:
        _mark_legend(canvas, mark, patterns)
    canvas.restore()


def _tint(canvas: skia.Canvas, tint: TintArea, patterns: dict[str, object]) -> None:
    path = svg_path(tint.path)
    if not tint.fill.startswith("url(#"):
        canvas.drawPath(path, fill(tint.fill))
        return
    pattern = patterns.get(tint.fill[5:-1])
    if pattern is None:
        return
    canvas.save()
    canvas.clipPath(path, doAntiAlias=True)
    _pattern(canvas, pattern.pattern, pattern.colour, path.getBounds())  # type: ignore[attr-defined]
    canvas.restore()


def _pattern(canvas: skia.Canvas, kind: str, ink: str, box: skia.Rect) -> None:
    """The template's pattern over ``box`` (clipped already): hatching, lines of the pattern's
    cell turned by 45 degrees, or dots, each cell's middle, from the origin of the map."""
    step = style.HATCH_SPACING
    if kind == "hatch":
        canvas.save()
        canvas.rotate(45)
        corners = [(box.left(), box.top()), (box.right(), box.top()), (box.left(), box.bottom()),
                   (box.right(), box.bottom())]
        c, s = math.cos(math.radians(-45)), math.sin(math.radians(-45))
        turned = [(x * c - y * s, x * s + y * c) for x, y in corners]
        xs, ys = [p[0] for p in turned], [p[1] for p in turned]
        lines = skia.Path()
        for i in range(math.floor(min(xs) / step) - 1, math.ceil(max(xs) / step) + 1):
            x = i * step + step / 2
            lines.moveTo(x, min(ys) - step)
            lines.lineTo(x, max(ys) + step)
        canvas.drawPath(lines, pen(ink, 2.6, round_join=False))
        canvas.restore()
        return
    dots = skia.Path()
    for i in range(math.floor(box.left() / step), math.ceil(box.right() / step) + 1):
        for j in range(math.floor(box.top() / step), math.ceil(box.bottom() / step) + 1):
            dots.addCircle(i * step + step / 2, j * step + step / 2, 1.5)
    canvas.drawPath(dots, fill(ink))


def _link(canvas: skia.Canvas, a: Point, b: Point, ink: str, edge: str, dashed: bool) -> None:
    line = polygon((a, b), close=False)
    dashes = (6, 4) if dashed else ()
    canvas.drawPath(line, pen(edge, style.LINK_WIDTH + 2, 0.7, dashes, round_cap=True))
    canvas.drawPath(line, pen(ink, style.LINK_WIDTH, 1.0, dashes, round_cap=True))


def _stroke(canvas: skia.Canvas, stroke: Stroke) -> None:
    path = stroke_path(stroke)
    dashes = (7, 5) if stroke.dashed else ()
    canvas.drawPath(path, pen(stroke.edge, stroke.width + 2.2, 0.8, dashes, round_cap=True))
    canvas.drawPath(path, pen(stroke.colour, stroke.width, 1.0, dashes, round_cap=True))
    for shape in (stroke.head, stroke.diamond):
        if shape:
            outline = polygon(shape)
            canvas.drawPath(outline, fill(stroke.colour))
            canvas.drawPath(outline, pen(stroke.edge, 1.1))
    if stroke.dot is not None:
        x, y, r = stroke.dot
        canvas.drawCircle(x, y, r, fill(stroke.colour))
        canvas.drawCircle(x, y, r, pen(stroke.edge, 1.1))


@lru_cache(maxsize=16)
def body(shape: str) -> skia.Path:
    """A unit's body around (0, 0) at scale 1: the template's ``body`` macro."""
    if shape == "army":
        path = skia.Path()
        path.addCircle(0, 0, R)
        return path
    if shape == "fleet":
        return polygon(((-R - 4, -R * 0.72), (R + 4, -R * 0.72), (R * 0.6, R * 0.85), (-R * 0.6, R * 0.85)))
    if shape == "star":
        return svg_path("M0.0,-11.0L3.5,-4.9L10.5,-3.4L5.7,1.9L6.5,8.9L0.0,6.0L-6.5,8.9L-5.7,1.9L-10.5,-3.4L-3.5,-4.9Z",
                        even_odd=False)
    if shape == "square":
        k = R * 0.9
        return polygon(((-k, -k), (-R * 0.45, -k), (-R * 0.45, -R * 0.6), (-R * 0.15, -R * 0.6), (-R * 0.15, -k),
                        (R * 0.15, -k), (R * 0.15, -R * 0.6), (R * 0.45, -R * 0.6), (R * 0.45, -k), (k, -k), (k, k),
                        (-k, k)))
    if shape == "diamond":
        k = R * 1.1
        return polygon(((0, -k), (k, 0), (0, k), (-k, 0)))
    if shape == "triangle":
        return polygon(((0, -R * 1.15), (R * 1.05, R * 0.8), (-R * 1.05, R * 0.8)))
    if shape == "burst":
        return svg_path("M11.0,0.0L7.8,3.2L7.8,7.8L3.2,7.8L0.0,11.0L-3.2,7.8L-7.8,7.8L-7.8,3.2L-11.0,0.0L-7.8,-3.2"
                        "L-7.8,-7.8L-3.2,-7.8L-0.0,-11.0L3.2,-7.8L7.8,-7.8L7.8,-3.2Z", even_odd=False)
    return polygon(((-R, 0), (-R / 2, -R * 0.87), (R / 2, -R * 0.87), (R, 0), (R / 2, R * 0.87), (-R / 2, R * 0.87)))


_ROUND_JOINED = {"fleet", "star", "diamond", "triangle", "burst"}


def _body(canvas: skia.Canvas, shape: str, ink: str, edge: str) -> None:
    path = body(shape)
    canvas.drawPath(path, fill(ink))
    canvas.drawPath(path, pen(edge, 1.3, round_join=shape in _ROUND_JOINED))


def _unit(canvas: skia.Canvas, unit: UnitMark) -> None:
    r = unit.reach
    if unit.dislodged:
        canvas.drawCircle(unit.x, unit.y, r + 3.5, fill("#ffffff", 0.85))
        canvas.drawCircle(unit.x, unit.y, r + 3.5, pen(style.DISLODGED, 2.4))
    if unit.new:
        canvas.drawCircle(unit.x, unit.y, r + 4, pen(unit.edge, 3.4))
        canvas.drawCircle(unit.x, unit.y, r + 4, pen(unit.fill, 1.8))
    if unit.waiting:
        canvas.drawCircle(unit.x, unit.y, r + 4, fill("#ffffff", 0.6))
        canvas.drawCircle(unit.x, unit.y, r + 4, pen(style.INK, 1.8, dashes=(3.5, 2.5)))
    canvas.save()
    canvas.translate(unit.x, unit.y)
    if unit.ghost:
        canvas.saveLayerAlpha(None, 128)
    if unit.scale != 1:
        canvas.scale(unit.scale, unit.scale)
    if unit.double:
        canvas.save()
        canvas.scale(style.DOUBLE_RIM, style.DOUBLE_RIM)
        _body(canvas, unit.shape, unit.fill, unit.edge)
        canvas.restore()
    _body(canvas, unit.shape, unit.fill, unit.edge)
    text(canvas, unit.letter, 0, 4.5 if unit.shape != "fleet" else 3.5, 12 if len(unit.letter) < 2 else 10, unit.ink,
         bold=True, anchor="middle")
    if unit.count > 1:
        corner = R * style.BADGE_CORNER
        canvas.drawCircle(corner, -corner, style.BADGE_RADIUS, fill("#ffffff"))
        canvas.drawCircle(corner, -corner, style.BADGE_RADIUS, pen("#111111", 1.1))
        text(canvas, str(unit.count), corner, -corner + 3.2, 9, "#111111", bold=True, anchor="middle")
    if unit.ghost:
        canvas.restore()
    canvas.restore()


def _marker(canvas: skia.Canvas, m: MarkerMark) -> None:
    """A variant layer's marker: the template's ``marker`` macro."""
    k, x, y = style.MARK_SIZE, m.x, m.y
    if m.symbol == "ring":
        canvas.drawCircle(x, y, style.CENTRE_RADIUS + 3, pen(m.edge, 3.6))
        canvas.drawCircle(x, y, style.CENTRE_RADIUS + 3, pen(m.colour, 2))
        return
    if m.symbol == "cross":
        path = polygon(((x - k - 2, y - k - 2), (x + k + 2, y + k + 2)), close=False)
        path.moveTo(x + k + 2, y - k - 2)
        path.lineTo(x - k - 2, y + k + 2)
        canvas.drawPath(path, pen(m.colour, 2.6, round_cap=True))
        return
    width = 1.1
    if m.symbol == "square":
        shape = polygon(((x - k, y - k), (x + k, y - k), (x + k, y + k), (x - k, y + k)))
    elif m.symbol == "castle":
        shape = polygon(((x - k, y + k), (x - k, y - k), (x - k / 3, y - k), (x - k / 3, y - k / 2), (x + k / 3, y - k / 2),
                         (x + k / 3, y - k), (x + k, y - k), (x + k, y + k)))
    elif m.symbol == "star":
        width = 1
        shape = polygon([(x + dx * k, y + dy * k) for dx, dy in (
            (0, -1.2), (0.35, -0.35), (1.2, -0.3), (0.55, 0.25), (0.75, 1.1), (0, 0.6), (-0.75, 1.1), (-0.55, 0.25),
            (-1.2, -0.3), (-0.35, -0.35))])
    elif m.symbol == "triangle":
        shape = polygon(((x, y - k), (x + k, y + k), (x - k, y + k)))
    else:
        width = 1
        shape = skia.Path()
        shape.addCircle(x, y, k * 0.7)
    canvas.drawPath(shape, fill(m.colour))
    canvas.drawPath(shape, pen(m.edge, width, round_join=False))


def _key(canvas: skia.Canvas, mark: KeyMark) -> None:
    """One sample of the orders' key above the map, and its word: the template's ``key`` macro."""
    x, y = mark.x, KEY_TOP
    dark = "#333333"
    if mark.kind in ("move", "retreat"):
        canvas.drawPath(polygon(((x, y), (x + 30, y)), close=False), pen(dark, 2.6, round_join=False))
        canvas.drawPath(polygon(((x + 30, y - 5), (x + 40, y), (x + 30, y + 5))), fill(dark))
    elif mark.kind == "support":
        canvas.drawPath(polygon(((x, y), (x + 28, y)), close=False), pen(dark, 1.8, round_join=False))
        canvas.drawCircle(x + 30, y, 3.2, fill(dark))
    elif mark.kind == "convoy":
        canvas.drawPath(polygon(((x, y), (x + 26, y)), close=False), pen(dark, 1.8, round_join=False))
        canvas.drawPath(polygon(((x + 26, y), (x + 31, y - 5), (x + 36, y), (x + 31, y + 5))), fill(dark))
    elif mark.kind == "failed":
        canvas.drawPath(polygon(((x, y), (x + 36, y)), close=False), pen(dark, 2.2, dashes=(6, 4), round_join=False))
    elif mark.kind == "dislodged":
        canvas.drawCircle(x + 8, y, 8, fill("#ffffff"))
        canvas.drawCircle(x + 8, y, 8, pen(style.DISLODGED, 2.4, round_join=False))
    elif mark.kind == "removed":
        path = polygon(((x, y - 7), (x + 14, y + 7)), close=False)
        path.moveTo(x + 14, y - 7)
        path.lineTo(x, y + 7)
        canvas.drawPath(path, pen(style.DISLODGED, 3, round_cap=True, round_join=False))
    elif mark.kind == "built":
        canvas.drawCircle(x + 8, y, 7, pen("#333333", 3.4, round_join=False))
        canvas.drawCircle(x + 8, y, 7, pen("#ffffff", 1.8, round_join=False))
    elif mark.kind == "waiting":
        canvas.drawCircle(x + 8, y, 7, pen("#333333", 1.8, dashes=(3.5, 2.5), round_join=False))
    text(canvas, mark.text, x + mark.sample + 6, y + 4, 11, style.INK)


def _legend(canvas: skia.Canvas, entry: LegendEntry) -> None:
    canvas.drawCircle(entry.x + 10, entry.y + 11, 8, fill(entry.colour))
    canvas.drawCircle(entry.x + 10, entry.y + 11, 8, pen(entry.edge, 1.3, round_join=False))
    advance = text(canvas, entry.name, entry.x + 24, entry.y + 15.5, 12.5, style.INK, bold=True)
    text(canvas, " " + entry.detail, entry.x + 24 + advance, entry.y + 15.5, 12.5, style.INK)


def _mark_legend(canvas: skia.Canvas, e: MarkLegend, patterns: dict[str, object]) -> None:
    if e.kind == "tint":
        box = polygon(((e.x, e.y + 3), (e.x + 26, e.y + 3), (e.x + 26, e.y + 19), (e.x, e.y + 19)))
        if e.sample.startswith("url(#"):
            found = patterns.get(e.sample[5:-1])
            if found is not None:
                canvas.save()
                canvas.clipPath(box, doAntiAlias=True)
                _pattern(canvas, found.pattern, found.colour, box.getBounds())  # type: ignore[attr-defined]
                canvas.restore()
        else:
            canvas.drawPath(box, fill(e.sample))
        canvas.drawPath(box, pen(style.LAND_BORDER, 1, round_join=False))
    elif e.kind == "link":
        _link(canvas, (e.x, e.y + 11), (e.x + 26, e.y + 11), e.colour, e.edge, e.sample == "dashed")
    elif e.kind == "unit":
        canvas.save()
        canvas.translate(e.x + 13, e.y + 11)
        canvas.scale(0.8, 0.8)
        _body(canvas, e.sample, e.colour, e.edge)
        text(canvas, e.letter, 0, 4.5 if e.sample != "fleet" else 3.5, 12, style.ink_on(e.colour), bold=True,
             anchor="middle")
        canvas.restore()
    else:
        _marker(canvas, MarkerMark(e.x + 13, e.y + 11, e.sample, e.colour, e.edge))
    text(canvas, e.text, e.x + 34, e.y + 15.5, 12.5, style.INK)
