"""Offline: where to draw a province's unit, label, supply centre and coast fleets.

The unit stands at the province's anchor (moved inwards if the anchor is too near the edge);
the label and the supply-centre mark go on the first spot around it where they fit inside
the shape without covering the unit or each other. A fleet on one coast of a multi-coast
province stands inside the province next to that coast's anchor (or next to the seas that
coast touches).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import shapely
from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, polylabel

from gm.domain.geography import Location
from gm.maps.model import GameMap


@dataclass(frozen=True)
class Layout:
    """Sizes in pixels; the template draws with the same numbers (``gm.render.style``)."""

    unit_radius: float = 10.0
    centre_radius: float = 4.5
    char_width: float = 7.2  # bold 11 px capitals and digits
    label_height: float = 11.0


def _largest(shape: BaseGeometry) -> BaseGeometry:
    parts = list(getattr(shape, "geoms", [shape]))
    return max(parts, key=lambda p: p.area)


def _pole(shape: BaseGeometry) -> Point:
    largest = _largest(shape)
    return polylabel(largest, tolerance=0.5) if largest.geom_type == "Polygon" else largest.representative_point()


def inner_point(shape: BaseGeometry, target: Point, margin: float) -> Point:
    """The point nearest ``target`` that is at least ``margin`` inside ``shape`` (or as deep as can be)."""
    for m in (margin, margin * 0.6, margin * 0.3):
        inner = shape.buffer(-m)
        if not inner.is_empty:
            return target if inner.contains(target) else nearest_points(inner, target)[0]
    return _pole(shape)


def _label_box(centre: tuple[float, float], text: str, layout: Layout) -> BaseGeometry:
    w = len(text) * layout.char_width + 2
    h = layout.label_height
    return box(centre[0] - w / 2, centre[1] - h / 2, centre[0] + w / 2, centre[1] + h / 2)


def _best(candidates: list[tuple[float, float]], cost: Any) -> tuple[float, float]:
    best, best_cost = candidates[0], float("inf")
    for c in candidates:
        value = cost(c)
        if value <= 1e-6:
            return c
        if value < best_cost:
            best, best_cost = c, value
    return best


def _around(x: float, y: float, dx: float, dy: float) -> list[tuple[float, float]]:
    return [(x, y + dy), (x, y - dy), (x + dx, y), (x - dx, y), (x + dx, y + dy), (x - dx, y + dy),
            (x + dx, y - dy), (x - dx, y - dy)]


def place_province(
    game_map: GameMap,
    pid: str,
    shape: BaseGeometry,
    anchor: tuple[float, float] | None,
    coast_anchors: dict[str, tuple[float, float]],
    shapes: dict[str, BaseGeometry],
    layout: Layout,
) -> dict[str, Any]:
    r = layout.unit_radius
    target = Point(anchor) if anchor else _pole(shape)
    unit = inner_point(shape, target, r + 1)
    ux, uy = unit.x, unit.y
    unit_disc = unit.buffer(r + 1)
    text = pid
    half_w = (len(text) * layout.char_width + 2) / 2

    label_candidates = _around(ux, uy, r + half_w + 3, r + layout.label_height / 2 + 3)
    label_candidates += [(ux, uy + 2 * r + 8), (ux, uy - 2 * r - 8)]

    def label_cost(c: tuple[float, float]) -> float:
        lb = _label_box(c, text, layout)
        return lb.difference(shape).area + 4 * lb.intersection(unit_disc).area

    label = _best(label_candidates, label_cost)
    places: dict[str, Any] = {"unit": _round(ux, uy), "label": _round(*label)}
    if game_map.provinces[pid].supply_centre:
        taken = unit_disc.union(_label_box(label, text, layout).buffer(1.5))
        cr = layout.centre_radius
        candidates = _around(ux, uy, r + cr + 4, r + cr + 4)
        candidates += _around(ux, uy, r + cr + 14, r + cr + 14)
        candidates += [(label[0] + half_w + cr + 3, label[1]), (label[0] - half_w - cr - 3, label[1])]

        def centre_cost(c: tuple[float, float]) -> float:
            disc = Point(c).buffer(cr + 1.5)
            return disc.difference(shape).area + 4 * disc.intersection(taken).area

        places["centre"] = _round(*_best(candidates, centre_cost))
    coasts = game_map.provinces[pid].coasts
    if coasts:
        places["coasts"] = {}
        for coast in coasts:
            if coast in coast_anchors:
                spot = Point(coast_anchors[coast])
            else:
                spot = _coast_side(game_map, pid, coast, shape, shapes) or unit
            p = inner_point(shape, spot, r + 1)
            places["coasts"][coast] = _round(p.x, p.y)
    return places


def _coast_side(
    game_map: GameMap, pid: str, coast: str, shape: BaseGeometry, shapes: dict[str, BaseGeometry]
) -> Point | None:
    seas = [loc.province for loc in game_map.fleet_adjacency.get(Location(pid, coast), ())
            if game_map.provinces[loc.province].terrain.value == "sea" and loc.province in shapes]
    if not seas:
        return None
    touching = shape.boundary.intersection(shapely.union_all([shapes[s] for s in seas]).buffer(1.0))
    return None if touching.is_empty else touching.centroid


def _round(x: float, y: float) -> list[float]:
    return [round(x, 1), round(y, 1)]
