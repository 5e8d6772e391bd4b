"""Board pictures as PNG in tens of milliseconds: what never changes drawn once, the rest per phase.

resvg draws a whole board in about 300 ms, most of it on what every picture of a board shares:
the seas, the provinces' outlines and the coastline, and, for any canvas, writing the PNG. So a
``Painter`` (one per variant, kept in ``variant.memo``; see ``painter_for``) draws a picture
from the very SVG the template makes (``svg.scene_svg``), in three kinds of layer:

- **The board** (once per picture size, ``Board``): the template's picture with no unit, name
  or owner (every province unowned), drawn by resvg; its marks drawn over the changing ones
  (the coastline, the frame) kept apart as thin layers; and for each land province, how much
  its fill shows in each pixel (its own edges, and its neighbours' outlines and fills drawn
  after it), so that an owner's colour is laid on with one blend per pixel.
- **The owners**: each province whose fill is not the board's, recoloured that way.
- **Every other mark** (the title, names, units, orders, centres, the legend): each element of
  the SVG drawn on its own, kept by its exact SVG text and laid over the canvas in the
  template's order: lines and curves (the orders, the removals' crosses) drawn here as resvg
  draws them (``vector``), the rest by resvg, small (``atlas``). A mark seen before (a unit
  standing where units stand, a name at its usual spot, a centre in its owner's colour) is not
  drawn again.

The picture is the template's, composed as resvg composes it; what differs is rounding in the
last bit of a blended pixel, and the anti-aliased edges where an owned province meets another
(its fill is blended in linearly where resvg blends fill and outline one after the other):
``tests/render/test_painter.py`` holds every board of every variant to resvg's own picture
within a tolerance. Then the canvas is written as PNG (``raster.encode_png``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from xml.etree import ElementTree
from xml.parsers import expat

import numpy as np

from gm.render import style, vector
from gm.render.atlas import Mark, Sheet, draw_marks
from gm.render.bounds import IDENTITY, Transform, bounds, compose
from gm.render.raster import Layer, Sparse, decode_rgba, encode_png, lay, lay_sparse, layer_of, sparse_of
from gm.render.scene_types import Area, Scene

Render = Callable[[str], bytes]  # SVG text -> PNG (resvg)
SPRITE_PIXELS = 6_000_000  # the marks kept, in pixels (8 bytes each)
OWNED_KEPT = 4  # boards in owners' colours kept (6 MB each for the standard map)
_SIZE_ATTRIBUTES = {"width", "height", "viewBox", "xmlns"}
_KEEPS_ITS_OWN = {"opacity", "mask", "clip-path", "filter"}  # a group drawn as one mark
_PLACEHOLDER = "M0,0"  # the board's large paths, left out of the SVG read per picture


@dataclass(frozen=True)
class Leaf:
    """An element the picture draws, in its ancestors' groups."""

    svg: str  # standalone: the ancestors' opening tags, the element, their closing tags
    tag: str
    attrs: dict[str, str]
    opened: str  # the ancestors' opening tags
    depth: int
    transform: Transform | None
    inherited: dict[str, str]

    @property
    def key(self) -> str:
        """A mark is kept by its exact SVG, so where it stands too: the same mark moved by whole
        pixels would be the same pixels but for resvg's rounding, which differs by a quarter of a
        level at every edge (a unit's circle, a name's letters)."""
        return self.svg

    @property
    def element(self) -> ElementTree.Element:
        """The element itself, read anew."""
        return ElementTree.fromstring(self.svg[len(self.opened):len(self.svg) - 4 * self.depth])

    def mark(self) -> Mark:
        box = None if self.transform is None else bounds(self.element, self.transform, self.inherited)
        return Mark(self.svg, box)


@dataclass
class Fill:
    """How much of a land province's fill shows in each pixel of the board."""

    base: str  # its colour on the board (unowned)
    inside: list[tuple[int, int, int]]  # where only its fill shows: row, first and past-last column
    edge: np.ndarray  # flat pixel indices where it shows in part
    weight: np.ndarray  # edge x 1, float32: how much


class Board:
    """The unchanging layers of one picture size of one map."""

    def __init__(self, scene: Scene, render: Render):
        self.width = scene.width
        self.height = scene.map_top + scene.map_height + 2  # the frame's outer half, below the map
        blank = replace(scene, height=self.height, title="", subtitle="", labels=[], centres=[], strokes=[],
                        crosses=[], units=[], tint_patterns=[], tints=[], links=[], markers=[], legend=[],
                        mark_legend=[], lands=[Area(a.id, a.path, _base_fill(a), a.stroke) for a in scene.lands])
        root, _, leaves = read_svg(_template_svg(blank))
        keys = [leaf.key for leaf in read_svg(_template_svg(stripped(blank)))[2]]
        assert len(keys) == len(leaves), "the board's SVG read differently once stripped"
        land_ids = {f"p-{a.id}" for a in scene.lands}
        lands = [i for i, leaf in enumerate(leaves) if leaf.attrs.get("id") in land_ids]
        last = lands[-1] if lands else 0
        self.background = _rgb(leaves[0].attrs.get("fill", style.BACKGROUND)) if leaves else (255, 255, 255)
        self.sheet = Sheet(root, "", self.width, self.height)
        self.under = set(keys[:last + 1])  # drawn into the board image
        self.image = decode_rgba(render(_document(root, self.width, self.height, leaves[:last + 1])))[:, :, :3].copy()
        self.over: dict[str, Sparse] = {  # drawn over the changing marks (the coastline, the frame)
            keys[i]: sparse_of(decode_rgba(render(_document(root, self.width, self.height, [leaves[i]]))))
            for i in range(last + 1, len(leaves))}
        self.fills = self._fills([leaves[i] for i in lands], render)

    def _fills(self, lands: list[Leaf], render: Render) -> dict[str, Fill]:
        """Each province drawn alone, its fill red and its outline green (so a pixel's red is how
        much fill its outline lets through, its green how much outline), then, from the last
        province drawn to the first, how much of each fill the later ones let through."""
        marks = []
        for leaf in lands:
            element = leaf.element
            element.attrib.update({"fill": "#ff0000", "stroke": "#00ff00"})
            svg = leaf.opened + ElementTree.tostring(element, encoding="unicode") + "</g>" * leaf.depth
            marks.append(Mark(svg, bounds(element, leaf.transform, leaf.inherited) if leaf.transform else None))
        through = np.ones((self.height, self.width), np.float32)
        fills: dict[str, Fill] = {}
        drawn = draw_marks(self.sheet, marks, render)
        for leaf, (left, top, pixels) in reversed(list(zip(lands, drawn, strict=True))):
            left, top, pixels = _within(left, top, pixels, self.width, self.height)
            alpha = pixels[:, :, 3:4].astype(np.float32) / (255.0 * 255.0)
            fill, line = (pixels[:, :, 0] * alpha[:, :, 0], pixels[:, :, 1] * alpha[:, :, 0])  # premultiplied
            later = through[top:top + pixels.shape[0], left:left + pixels.shape[1]]
            shows = fill * later
            later *= np.clip(1.0 - fill - line, 0.0, 1.0)
            rows, cols = np.nonzero(shows > 0.5 / 255)
            flat = (rows + top) * self.width + (cols + left)
            amount = shows[rows, cols]
            whole = amount >= 254.5 / 255
            fills[leaf.attrs.get("id", "")] = Fill(leaf.attrs.get("fill", style.LAND), _runs(flat[whole], self.width),
                                                   flat[~whole], amount[~whole][:, None])
        return fills


class Painter:
    """Draws board pictures of one map (see the module's docstring); keeps each picture size's
    board and the marks it drew last (``SPRITE_PIXELS``), the least recently used dropped first."""

    def __init__(self, render: Render | None = None, sprite_pixels: int = SPRITE_PIXELS):
        if render is None:
            from gm.render.png import svg_to_png
            render = svg_to_png
        self.render = render
        self.sprite_pixels = sprite_pixels
        self._boards: dict[tuple[int, int, int], Board] = {}
        self._sprites: OrderedDict[str, Layer | None] = OrderedDict()
        self._kept = 0
        self._once: set[str] = set()  # marks drawn for one picture only
        self._owned: OrderedDict[tuple[object, ...], np.ndarray] = OrderedDict()  # boards recoloured lately
        self._lock = threading.Lock()  # one picture at a time: its caches are not shared safely

    def png(self, scene: Scene) -> bytes:
        return encode_png(self.canvas(scene))

    def canvas(self, scene: Scene) -> np.ndarray:
        with self._lock:
            return self._canvas(scene)

    def _canvas(self, scene: Scene) -> np.ndarray:
        board = self.board(scene)
        root, defs, leaves = read_svg(_template_svg(stripped(scene)))
        steps: list[tuple[str, object]] = []
        wanted: dict[str, Leaf] = {}
        recoloured: list[tuple[Fill, str]] = []
        for index, leaf in enumerate(leaves):
            if index == 0 and leaf.tag == "rect":
                continue  # the background: the canvas is filled with it
            if leaf.key in board.under:
                continue
            fill = board.fills.get(leaf.attrs.get("id", "")) if leaf.tag == "path" else None
            if fill is not None:
                colour = leaf.attrs.get("fill", fill.base)
                if colour != fill.base:
                    recoloured.append((fill, colour))
                continue
            over = board.over.get(leaf.key)
            if over is not None:
                steps.append(("over", over))
                continue
            key = defs + leaf.key if "url(#" in leaf.key else leaf.key
            steps.append(("mark", key))
            if key not in self._sprites:
                wanted[key] = leaf
        if wanted:
            self._draw(wanted, Sheet(root, defs, scene.width, scene.height))
        canvas = np.empty((scene.height, scene.width, 3), np.uint8)
        rows = min(scene.height, board.height)
        canvas[:rows] = self._owners(board, recoloured)[:rows]  # the only marks before them: the title's, above the map
        canvas[rows:] = board.background
        for kind, what in steps:
            if kind == "mark":
                layer = self._sprite(what)  # type: ignore[arg-type]
                if layer is not None:
                    lay(canvas, layer)
            else:
                lay_sparse(canvas, what)  # type: ignore[arg-type]
        self._forget()
        return canvas

    def _owners(self, board: Board, recoloured: list[tuple[Fill, str]]) -> np.ndarray:
        """The board with its provinces in their owners' colours; the last few kept (a game's
        owners change once a year, and every game of a deadline starts alike)."""
        key = (id(board), *((id(fill), colour) for fill, colour in recoloured))
        found = self._owned.get(key)
        if found is not None:
            self._owned.move_to_end(key)
            return found
        image = board.image.copy()
        for fill, colour in recoloured:
            _recolour(image, fill, colour)
        self._owned[key] = image
        if len(self._owned) > OWNED_KEPT:
            self._owned.popitem(last=False)
        return image

    def board(self, scene: Scene) -> Board:
        key = (scene.width, scene.map_top, scene.map_height)
        found = self._boards.get(key)
        if found is None:
            found = self._boards[key] = Board(scene, self.render)
        return found

    def _draw(self, wanted: dict[str, Leaf], sheet: Sheet) -> None:
        """The marks of lines, curves and circles drawn here (``vector``), the rest by resvg."""
        every = list(wanted)
        drawn = vector.layers([wanted[key].svg for key in every])
        for index, layer in drawn.items():
            self._keep(every[index], layer)
        keys = [key for index, key in enumerate(every) if index not in drawn]
        if not keys:
            return
        marks = [wanted[k].mark() for k in keys]
        for key, mark, (x, y, pixels) in zip(keys, marks, draw_marks(sheet, marks, self.render), strict=True):
            self._keep(key, layer_of(pixels, x, y))
            if mark.box is None:  # cut to this picture's size: not kept for another
                self._once.add(key)

    def _keep(self, key: str, layer: Layer | None) -> None:
        self._sprites[key] = layer
        self._kept += layer.pixels if layer is not None else 0

    def _forget(self) -> None:
        """Once a picture is drawn: the marks drawn for it alone, and the least recently used
        past the budget."""
        for key in self._once:
            layer = self._sprites.pop(key, None)
            self._kept -= layer.pixels if layer is not None else 0
        self._once.clear()
        while self._kept > self.sprite_pixels and self._sprites:
            _, dropped = self._sprites.popitem(last=False)
            self._kept -= dropped.pixels if dropped is not None else 0

    def _sprite(self, key: str) -> Layer | None:
        layer = self._sprites[key]
        self._sprites.move_to_end(key)
        return layer


def painter_for(variant) -> Painter:  # type: ignore[no-untyped-def]
    """The variant's painter, kept in ``variant.memo`` (so by the catalog that made it)."""
    found = variant.memo.get(_MEMO_KEY)
    if found is None:
        found = variant.memo[_MEMO_KEY] = Painter()
    return found  # type: ignore[no-any-return]


_MEMO_KEY = "gm.render.painter"


# -- the SVG, read into marks ----------------------------------------------------------------------

class _Node:
    __slots__ = ("tag", "attrs", "start", "end", "children")

    def __init__(self, tag: str, attrs: dict[str, str], start: int):
        self.tag, self.attrs, self.start, self.end = tag, attrs, start, start
        self.children: list[_Node] = []


def read_svg(svg: str) -> tuple[str, str, list[Leaf]]:
    """The root's attributes (besides its size), its definitions (patterns) and the elements
    drawn, in the order drawn, each as the very text the SVG has for it."""
    data = svg.encode("utf-8")
    parser = expat.ParserCreate()
    stack: list[_Node] = []
    top: list[_Node] = []

    def opened(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentByteIndex)
        (stack[-1].children if stack else top).append(node)
        stack.append(node)

    def closed(tag: str) -> None:
        node = stack.pop()
        at = parser.CurrentByteIndex  # past "<tag .../>", or at "</tag>"
        node.end = at if not node.children and data[at - 2:at] == b"/>" else data.index(b">", at) + 1

    parser.StartElementHandler = opened
    parser.EndElementHandler = closed
    parser.Parse(data, True)
    root = top[0]
    leaves: list[Leaf] = []
    _walk(root, data, "", 0, IDENTITY, {}, leaves)
    defs = "".join(data[n.start:n.end].decode("utf-8") for n in root.children if n.tag == "defs")
    attributes = "".join(f" {k}={_quoted(v)}" for k, v in root.attrs.items() if k not in _SIZE_ATTRIBUTES)
    return attributes, defs, leaves


def _walk(parent: _Node, data: bytes, opened: str, depth: int, transform: Transform | None,
          inherited: dict[str, str], into: list[Leaf]) -> None:
    for child in parent.children:
        if child.tag in ("title", "defs") or (child.tag == "g" and not child.children):
            continue
        if child.tag == "g" and not _KEEPS_ITS_OWN & child.attrs.keys() and not _one_mark(child):
            here = None if transform is None else compose(transform, child.attrs.get("transform"))
            opening = data[child.start:data.index(b">", child.start) + 1].decode("utf-8")
            _walk(child, data, opened + opening, depth + 1, here, {**inherited, **child.attrs}, into)
        else:
            text = data[child.start:child.end].decode("utf-8")
            into.append(Leaf(opened + text + "</g>" * depth, child.tag, child.attrs, opened, depth, transform,
                             inherited))


def _one_mark(group: _Node) -> bool:
    """A small group of plain elements (a unit, an order's line and head) is drawn as one mark."""
    return len(group.children) <= 4 and not any(c.children for c in group.children if c.tag != "text")


def _quoted(value: str) -> str:
    return '"' + value.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;") + '"'


def _document(root: str, width: int, height: int, leaves: list[Leaf]) -> str:
    body = "".join(leaf.svg for leaf in leaves)
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"{root}>{body}</svg>'


def _template_svg(scene: Scene) -> str:
    from gm.render.svg import scene_svg
    return scene_svg(scene)


def stripped(scene: Scene) -> Scene:
    """The scene with the board's large paths left out (they are the board's, drawn once):
    what is read per picture."""
    return replace(scene, seas=[Area(a.id, "", a.fill, a.stroke) for a in scene.seas],
                   lands=[Area(a.id, "", a.fill, a.stroke) for a in scene.lands],
                   neutral_land=_PLACEHOLDER if scene.neutral_land else "",
                   coastline=_PLACEHOLDER if scene.coastline else "")


def _base_fill(area: Area) -> str:
    return style.IMPASSABLE if area.fill == style.IMPASSABLE else style.LAND


@lru_cache(maxsize=1024)
def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _within(left: int, top: int, pixels: np.ndarray, width: int, height: int) -> tuple[int, int, np.ndarray]:
    """The part of a mark's pixels at (left, top) that lies on a picture of that size."""
    x0, y0 = max(left, 0), max(top, 0)
    x1, y1 = min(left + pixels.shape[1], width), min(top + pixels.shape[0], height)
    return x0, y0, pixels[y0 - top:max(y1, y0) - top, x0 - left:max(x1, x0) - left]


def _runs(flat: np.ndarray, width: int) -> list[tuple[int, int, int]]:
    """Sorted flat pixel indices as runs along rows: (row, first column, past the last)."""
    if flat.size == 0:
        return []
    breaks = np.flatnonzero((np.diff(flat) != 1) | (np.diff(flat // width) != 0)) + 1
    starts = flat[np.concatenate(([0], breaks))]
    ends = flat[np.concatenate((breaks - 1, [flat.size - 1]))] + 1
    return [(int(a // width), int(a % width), int(a % width + (b - a))) for a, b in zip(starts, ends, strict=True)]


def _recolour(canvas: np.ndarray, fill: Fill, colour: str) -> None:
    new = np.array(_rgb(colour), np.uint8)
    for row, left, right in fill.inside:
        canvas[row, left:right] = new
    flat = canvas.reshape(-1, 3)
    if fill.edge.size:
        change = new.astype(np.float32) - np.array(_rgb(fill.base), np.float32)
        mixed = flat[fill.edge] + fill.weight * change
        flat[fill.edge] = np.clip(np.rint(mixed), 0, 255).astype(np.uint8)


