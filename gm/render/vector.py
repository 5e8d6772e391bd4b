"""Marks of lines, curves, polygons and small circles (the orders' arrows, lines and dots, the
removals' crosses) drawn here as resvg would draw them, without resvg.

resvg takes one to three milliseconds for each such mark, and more by the pixel of the sheet it
draws on; a phase brings some twenty new ones, which this draws together in a few milliseconds
(bench/render.py, a running judge's picture: 64 ms to 45 ms). Each element is filled, then
stroked, with tiny-skia's coverage (``scan``, ``outline``) and blended as its low-precision
pipeline blends (``div255(v) = (v + 255) >> 8``), into a layer of premultiplied pixels. What
this does not draw as resvg would (text, group opacity, a transform other than a move, a
hairline stroke, joins other than round, a colour not written in hex, a centre's ring) raises
``Unsupported``, and resvg draws that mark.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree import ElementTree

import numpy as np

from gm.render.bounds import IDENTITY, Transform, compose
from gm.render.offset import Unsupported
from gm.render.outline import circle, filled, path_data, polygon, ring, stroked
from gm.render.raster import Layer, premultiplied_layer
from gm.render.scan import Edges, coverages

_INHERITED = {"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray",
              "stroke-linecap", "stroke-linejoin"}
_IGNORED = {"class", "id", "transform", "d", "points", "cx", "cy", "r", "font-family", "font-size", "font-weight",
            "text-anchor", "font-style"}
_SHAPES = {"path", "polygon", "circle"}
_HAIRLINE = 1.0  # tiny-skia draws a stroke this thin or thinner another way
_RING = 4.0  # a circle at least this large is stroked by resvg (see ``_walk``)
Paint = tuple[Edges, bool, tuple[int, int, int, int]]  # an outline, filled even-odd, in a premultiplied colour


def layers(svgs: Sequence[str]) -> dict[int, Layer | None]:
    """The marks it can draw of ``svgs`` (each an element within its ancestors' groups), by their
    index, as resvg would draw each on a transparent picture (None: no ink). All are filled at
    once (``scan.coverages``)."""
    marks: dict[int, list[Paint]] = {}
    for index, svg in enumerate(svgs):
        paints: list[Paint] = []
        try:
            _walk(ElementTree.fromstring(svg), IDENTITY, {}, paints)
        except Unsupported:
            continue
        marks[index] = [p for p in paints if p[0]]
    every = [paint for paints in marks.values() for paint in paints]
    filled = iter(coverages([(edges, even_odd) for edges, even_odd, _ in every]))
    return {index: _composed([(colour, next(filled)) for _, _, colour in paints]) for index, paints in marks.items()}


def _composed(paints: list[tuple[tuple[int, int, int, int], tuple[int, int, np.ndarray]]]) -> Layer | None:
    """The paints of one mark, each blended over those before it as tiny-skia blends."""
    if not paints:
        return None
    left = min(x for _, (x, _, _) in paints)
    top = min(y for _, (_, y, _) in paints)
    width = max(x + a.shape[1] for _, (x, _, a) in paints) - left
    height = max(y + a.shape[0] for _, (_, y, a) in paints) - top
    rgba = np.zeros((height * width, 4), np.uint32)  # premultiplied
    for colour, (x, y, alpha) in paints:
        rows, cols = np.nonzero(alpha)
        at = (rows + y - top) * width + cols + x - left
        source = (np.array(colour, np.uint32) * alpha[rows, cols][:, None].astype(np.uint32) + 255) >> 8
        rgba[at] = source + ((rgba[at] * (255 - source[:, 3:4]) + 255) >> 8)
    return premultiplied_layer(rgba.reshape(height, width, 4).astype(np.uint16), left, top)


def _walk(element: ElementTree.Element, transform: Transform, inherited: dict[str, str], paints: list[Paint]) -> None:
    here = compose(transform, element.get("transform"))
    if here is None or here[0] != 1.0 or here[1] != 1.0:
        raise Unsupported("a transform other than a move")
    unknown = element.attrib.keys() - _INHERITED - _IGNORED
    if unknown:
        raise Unsupported(f"attributes {sorted(unknown)}")
    attrs = {**inherited, **{k: v for k, v in element.attrib.items() if k in _INHERITED}}
    tag = element.tag.rsplit("}", 1)[-1]
    if tag == "g":
        for child in element:
            _walk(child, here, attrs, paints)
        return
    if tag not in _SHAPES or len(element):
        raise Unsupported(tag)
    dx, dy = here[2], here[3]
    fill, stroke = _colour(attrs.get("fill", "#000000"), attrs.get("fill-opacity")), \
        _colour(attrs.get("stroke", "none"), attrs.get("stroke-opacity"))
    width = _number(attrs.get("stroke-width", "1"))
    if stroke is not None and width <= _HAIRLINE:
        raise Unsupported("a hairline")
    if tag == "circle":
        cx, cy, r = (_number(element.get(k, "0")) for k in ("cx", "cy", "r"))
        if fill is not None and r > 0:
            paints.append((circle(cx, cy, r, dx, dy), False, fill))
        if stroke is not None and r >= _RING:
            # whether tiny-skia draws a side of a quarter of this ring as one curve or two rests
            # on the rounding of a sign: a few pixels of each differ, too many for a board's
            # centres; the order marks' dots are smaller and few
            raise Unsupported("a large circle's stroke")
        if stroke is not None and r > 0:
            paints.append((ring(cx, cy, r, width, dx, dy), False, stroke))
        return
    shape = path_data(element.get("d", ""), dx, dy) if tag == "path" else polygon(element.get("points", ""), dx, dy)
    if fill is not None:
        even_odd = attrs.get("fill-rule", "nonzero") == "evenodd"
        paints.append((filled([s for s in shape if len(s[0]) > 1 or s[1]]), even_odd, fill))
    if stroke is not None:
        cap, join = attrs.get("stroke-linecap", "butt"), attrs.get("stroke-linejoin", "miter")
        if cap not in ("round", "butt"):
            raise Unsupported(f"stroke-linecap {cap}")
        dashes = [_number(v) for v in attrs.get("stroke-dasharray", "none").replace(",", " ").split()
                  if v != "none"]
        paints.append((stroked(shape, width, cap == "round", join == "round", dashes), False, stroke))


def _colour(value: str, opacity: str | None) -> tuple[int, int, int, int] | None:
    """A paint as tiny-skia's pipeline holds it: premultiplied, each of 255 (None: none)."""
    if value == "none":
        return None
    digits = value[1:] if value.startswith("#") else ""
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    if len(digits) != 6:
        raise Unsupported(f"colour {value}")
    try:
        rgb = [int(digits[i:i + 2], 16) for i in (0, 2, 4)]
    except ValueError:
        raise Unsupported(f"colour {value}") from None
    alpha = round(min(max(_number(opacity), 0.0), 1.0) * 255) if opacity is not None else 255
    if alpha == 0:
        return None
    a = alpha / 255
    return (*(int(np.float32(c / 255 * a) * 255 + 0.5) for c in rgb), alpha)  # type: ignore[return-value]


def _number(value: str | None) -> float:
    try:
        return float(value or "")
    except ValueError:
        raise Unsupported(f"number {value}") from None
