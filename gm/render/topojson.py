"""Read TopoJSON (the format of npm's ``world-atlas``) into plain polygon rings.

Only what the shape generator needs: quantized or plain arcs, and the Polygon and
MultiPolygon geometries of one object, as lists of rings of (longitude, latitude) points.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

Ring = list[tuple[float, float]]
Polygon = list[Ring]  # outer ring first, then holes


def decode_arcs(topology: dict[str, Any]) -> list[Ring]:
    transform = topology.get("transform")
    arcs: list[Ring] = []
    for arc in topology["arcs"]:
        if transform:
            (sx, sy), (tx, ty) = transform["scale"], transform["translate"]
            x = y = 0
            points = []
            for dx, dy, *_ in arc:
                x += dx
                y += dy
                points.append((x * sx + tx, y * sy + ty))
        else:
            points = [(float(p[0]), float(p[1])) for p in arc]
        arcs.append(points)
    return arcs


def _ring(arcs: list[Ring], indices: list[int]) -> Ring:
    points: Ring = []
    for index in indices:
        arc = arcs[index] if index >= 0 else arcs[~index][::-1]
        # consecutive arcs share their end points
        points.extend(arc[1:] if points else arc)
    return points


def unwrap(ring: Ring) -> Ring | None:
    """The ring with longitudes made continuous across the antimeridian (Chukotka at 190°E).

    TopoJSON rings are spherical: one that crosses 180° jumps to -180°, which in the plane is
    an edge across the whole world. None for a ring around a pole (Antarctica), which has no
    planar form.
    """
    out: Ring = []
    shift = 0.0
    previous = None
    for lon, lat in ring:
        if previous is not None:
            step = lon + shift - previous
            if step > 180:
                shift -= 360
            elif step < -180:
                shift += 360
        out.append((lon + shift, lat))
        previous = lon + shift
    if not out or abs(out[0][0] - out[-1][0]) > 180:
        return None
    west = min(lon for lon, _ in out)
    turns = math.ceil((-180 - west) / 360)  # so that the ring starts east of -180°
    return [(lon + 360 * turns, lat) for lon, lat in out] if turns else out


def polygons(topology: dict[str, Any], name: str) -> list[Polygon]:
    """Every polygon of the object ``name``, its rings as (lon, lat) points (see ``unwrap``)."""
    arcs = decode_arcs(topology)
    result: list[Polygon] = []

    def visit(geometry: dict[str, Any]) -> None:
        kind = geometry.get("type")
        if kind == "GeometryCollection":
            for child in geometry["geometries"]:
                visit(child)
        elif kind == "Polygon":
            result.append([_ring(arcs, r) for r in geometry["arcs"]])
        elif kind == "MultiPolygon":
            result.extend([_ring(arcs, r) for r in poly] for poly in geometry["arcs"])

    visit(topology["objects"][name])
    planar = []
    for rings in result:
        unwrapped = [unwrap(r) for r in rings]
        if unwrapped[0] is not None:
            planar.append([r for r in unwrapped if r is not None])
    return planar


def load_polygons(path: Path | str, name: str = "land") -> list[Polygon]:
    return polygons(json.loads(Path(path).read_text(encoding="utf-8")), name)
