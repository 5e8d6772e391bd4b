"""Where an SVG element of the board picture draws, in the picture's pixels: an estimate that
covers it (a painter renders the element in a box this size, checks that no ink reached the
box's edge, and renders it again in a larger one if some did).

Transforms of translation and scale are followed; anything else (a rotation, a relative path
command) gives ``None``: the element is then drawn over the whole picture.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from xml.etree.ElementTree import Element

Box = tuple[float, float, float, float]  # left, top, right, bottom
Transform = tuple[float, float, float, float]  # x' = sx * x + tx, y' = sy * y + ty: (sx, sy, tx, ty)

IDENTITY: Transform = (1.0, 1.0, 0.0, 0.0)
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_STEP = re.compile(r"\s*(translate|scale)\s*\(([^)]*)\)")
_COMMAND = re.compile(r"([A-Za-z])([^A-Za-z]*)")
TEXT_EM = 0.95  # the widest a character is assumed to be, in ems (DejaVu Sans Bold's capitals: 0.84 at most)


def compose(outer: Transform, attribute: str | None) -> Transform | None:
    """``outer`` followed (inside) by an element's ``transform`` attribute."""
    if not attribute:
        return outer
    sx, sy, tx, ty = outer
    position = 0
    for step in _STEP.finditer(attribute):
        if attribute[position:step.start()].strip(" ,"):
            return None
        position = step.end()
        values = [float(v) for v in _NUMBER.findall(step[2])]
        if step[1] == "translate" and values:
            dx, dy = values[0], values[1] if len(values) > 1 else 0.0
            tx, ty = tx + sx * dx, ty + sy * dy
        elif step[1] == "scale" and values:
            kx, ky = values[0], values[1] if len(values) > 1 else values[0]
            sx, sy = sx * kx, sy * ky
        else:
            return None
    if attribute[position:].strip(" ,"):
        return None
    return sx, sy, tx, ty


def bounds(element: Element, transform: Transform, inherited: dict[str, str]) -> Box | None:
    """The pixels ``element`` may draw on, with its stroke; ``inherited``: the presentation
    attributes its ancestors set (stroke-width, font-size, text-anchor)."""
    here = compose(transform, element.get("transform"))
    if here is None:
        return None
    attrs = {**inherited, **element.attrib}
    tag = element.tag
    if tag == "g":
        boxes = [bounds(child, here, attrs) for child in element]
        if any(b is None for b in boxes):
            return None
        return union(b for b in boxes if b is not None)
    box = _own(tag, element, attrs)
    if box is None:
        return None
    reach = _stroke_reach(attrs)
    return _map(here, (box[0] - reach, box[1] - reach, box[2] + reach, box[3] + reach))


def union(boxes: Iterable[Box]) -> Box | None:
    found = list(boxes)
    if not found:
        return None
    return min(b[0] for b in found), min(b[1] for b in found), max(b[2] for b in found), max(b[3] for b in found)


def _own(tag: str, element: Element, attrs: dict[str, str]) -> Box | None:
    number = _number
    if tag == "circle":
        cx, cy, r = number(attrs, "cx"), number(attrs, "cy"), number(attrs, "r")
        return cx - r, cy - r, cx + r, cy + r
    if tag == "rect":
        x, y = number(attrs, "x"), number(attrs, "y")
        return x, y, x + number(attrs, "width"), y + number(attrs, "height")
    if tag == "polygon" or tag == "polyline":
        return _points_box([float(v) for v in _NUMBER.findall(attrs.get("points", ""))])
    if tag == "line":
        return _points_box([number(attrs, "x1"), number(attrs, "y1"), number(attrs, "x2"), number(attrs, "y2")])
    if tag == "path":
        return path_box(attrs.get("d", ""))
    if tag == "text":
        return _text_box(element, attrs)
    return None


def path_box(d: str) -> Box | None:
    """The box of a path's points (a curve stays within its control points); absolute commands
    only (M L H V Q C S T Z), else None."""
    xs: list[float] = []
    ys: list[float] = []
    x = y = 0.0
    for command, rest in _COMMAND.findall(d):
        values = [float(v) for v in _NUMBER.findall(rest)]
        if command in "MLQCST":
            if len(values) % 2:
                return None
            xs.extend(values[0::2])
            ys.extend(values[1::2])
            if values:
                x, y = values[-2], values[-1]
        elif command == "H":
            xs.extend(values)
            ys.append(y)
            if values:
                x = values[-1]
        elif command == "V":
            ys.extend(values)
            xs.append(x)
            if values:
                y = values[-1]
        elif command != "Z" and command != "z":
            return None
    if not xs or not ys:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def _points_box(values: Sequence[float]) -> Box | None:
    if len(values) < 2:
        return None
    return min(values[0::2]), min(values[1::2]), max(values[0::2]), max(values[1::2])


def _text_box(element: Element, attrs: dict[str, str]) -> Box | None:
    text = "".join(element.itertext())
    size = _number(attrs, "font-size", 16.0)
    x, y = _number(attrs, "x"), _number(attrs, "y")
    width = len(text) * size * TEXT_EM
    anchor = attrs.get("text-anchor", "start")
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    return left - size * 0.2, y - size * 1.1, left + width + size * 0.2, y + size * 0.4


def _stroke_reach(attrs: dict[str, str]) -> float:
    """Half the stroke's width, and a pixel for the anti-aliasing and a mitre or a round cap."""
    if attrs.get("stroke", "none") == "none":
        return 1.5
    return _number(attrs, "stroke-width", 1.0) * 2 + 1.5


def _number(attrs: dict[str, str], name: str, default: float = 0.0) -> float:
    found = _NUMBER.match(attrs.get(name, "").strip())
    return float(found[0]) if found else default


def _map(transform: Transform, box: Box) -> Box:
    sx, sy, tx, ty = transform
    xs = (sx * box[0] + tx, sx * box[2] + tx)
    ys = (sy * box[1] + ty, sy * box[3] + ty)
    return min(xs), min(ys), max(xs), max(ys)
