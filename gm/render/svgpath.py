"""Polygons to SVG path data (offline, used by the shape generator)."""

from __future__ import annotations

from typing import Any


def _ring(coords: Any) -> str:
    out: list[str] = []
    last = None
    for x, y in coords:
        point = (round(x, 1), round(y, 1))
        if point == last:
            continue
        out.append(f"{point[0]:g} {point[1]:g}")
        last = point
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    if len(out) < 3:
        return ""
    return "M" + "L".join(out) + "Z"


def path_data(geometry: Any) -> str:
    """SVG path data for a (multi)polygon: every ring closed, holes included (even-odd fill)."""
    if geometry is None or geometry.is_empty:
        return ""
    parts = []
    for polygon in getattr(geometry, "geoms", [geometry]):
        if polygon.geom_type == "Polygon":
            parts.append(_ring(polygon.exterior.coords))
            parts.extend(_ring(hole.coords) for hole in polygon.interiors)
        elif hasattr(polygon, "geoms"):
            parts.append(path_data(polygon))
    return "".join(p for p in parts if p)
