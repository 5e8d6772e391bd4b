"""Offline: compute every province's shape from the map file and real coastlines.

``gm maps shapes VARIANT`` runs this. Each province's seeds (its ``anchor`` and any
``outline`` points) grow Voronoi cells: the land provinces' cells are clipped to Natural
Earth land, the sea provinces' cells to the water, each land mass or body of water divided
only among the seeds that lie in it. Land that holds no seed is drawn as neutral land (an
island too small to matter joins the nearest land province); water without a seed stays
plain water. Everything is projected (``projection.Conic``) and scaled to the picture plane,
simplified as one coverage (so borders stay shared), and written as SVG path data with the
places to draw units, labels and supply centres (``shapes_layout``). Needs shapely (the
``shapes`` extra); the runtime renderer does not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from gm.domain.geography import Terrain
from gm.maps.model import GameMap
from gm.render.landsource import SOURCE_NOTE
from gm.render.projection import Conic
from gm.render.shapes import shapes_file
from gm.render.shapes_check import check_borders
from gm.render.shapes_layout import Layout, place_province
from gm.render.svgpath import path_data
from gm.render.topojson import Polygon as RawPolygon

FORMAT = 1


@dataclass
class Settings:
    width: int = 1400  # picture width in pixels; the height follows from the map's extent
    margin: float = 0.03  # room around the outermost seeds, as a fraction of the larger side
    simplify: float = 0.6  # coverage simplification tolerance, pixels
    island_km2: float = 2500.0  # unseeded land smaller than this joins the nearest province
    snap_px: float = 40.0  # a seed this close to its own kind of surface is moved onto it
    reach_km: float = 220.0  # land farther than this from a province's seeds belongs to none


@dataclass
class Seed:
    province: str
    point: Point  # in the picture plane
    water: bool


@dataclass
class Built:
    width: float
    height: float
    provinces: dict[str, BaseGeometry]
    neutral_land: BaseGeometry
    land: BaseGeometry
    warnings: list[str] = field(default_factory=list)


def shapes_path(variant: str) -> Path:
    return shapes_file(variant)


def is_water(game_map: GameMap, pid: str) -> bool:
    return game_map.provinces[pid].terrain is Terrain.SEA


class _Plane:
    """Longitude/latitude -> pixels: the conic projection, then a scale and a flip."""

    def __init__(self, conic: Conic, x0: float, y1: float, scale: float):
        self.conic, self.x0, self.y1, self.scale = conic, x0, y1, scale

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = self.conic(lon, lat)
        return (x - self.x0) * self.scale, (self.y1 - y) * self.scale

    def geometry(self, rings: RawPolygon) -> BaseGeometry:
        projected = [[self(lon, lat) for lon, lat in ring] for ring in rings]
        polygon = Polygon(projected[0], projected[1:])
        return polygon if polygon.is_valid else shapely.make_valid(polygon)


def _plane(game_map: GameMap, settings: Settings) -> tuple[_Plane, float, float, float]:
    points = [pt for p in game_map.provinces.values() for pt in _lonlat_seeds(p)]
    points += [a for p in game_map.provinces.values() for a in p.coast_anchors.values()]
    if not points:
        raise ValueError(f"{game_map.name}: no province has an anchor")
    lons, lats = [p[0] for p in points], [p[1] for p in points]
    conic = Conic.for_extent(min(lons), min(lats), max(lons), max(lats))
    xy = [conic(lon, lat) for lon, lat in points]
    xs, ys = [p[0] for p in xy], [p[1] for p in xy]
    pad = settings.margin * max(max(xs) - min(xs), max(ys) - min(ys))
    x0, x1, y0, y1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    scale = settings.width / (x1 - x0)
    # one pixel in kilometres, near the centre (Earth radius 6371 km)
    return _Plane(conic, x0, y1, scale), settings.width, (y1 - y0) * scale, 6371.0 / scale


def _lonlat_seeds(province: Any) -> list[tuple[float, float]]:
    return ([province.anchor] if province.anchor else []) + list(province.outline)


def _land(plane: _Plane, polygons: list[RawPolygon], frame: Polygon, game_map: GameMap) -> BaseGeometry:
    lonlat = [pt for p in game_map.provinces.values() for pt in _lonlat_seeds(p)]
    lons, lats = [p[0] for p in lonlat], [p[1] for p in lonlat]
    # cut in longitude/latitude first: the projection misbehaves far from the map
    window = box(min(lons) - 60, max(-89.0, min(lats) - 25), max(lons) + 60, min(89.0, max(lats) + 25))
    pieces = []
    for rings in polygons:
        raw = Polygon(rings[0], rings[1:])
        if not raw.intersects(window):
            continue
        raw = raw if raw.is_valid else shapely.make_valid(raw)
        # short segments: a long straight edge in longitude/latitude is a curve on the map
        for poly in _polygons(shapely.segmentize(raw.intersection(window), 0.5)):
            projected = plane.geometry([list(poly.exterior.coords)] + [list(i.coords) for i in poly.interiors])
            if projected.intersects(frame):
                pieces.append(projected.intersection(frame))
    return shapely.make_valid(shapely.union_all(pieces))


def _polygons(geometry: BaseGeometry) -> list[Polygon]:
    if geometry.is_empty:
        return []
    if isinstance(geometry, Polygon):
        return [geometry]
    if isinstance(geometry, MultiPolygon):
        return list(geometry.geoms)
    if hasattr(geometry, "geoms"):
        return [p for g in geometry.geoms for p in _polygons(g)]
    return []


def _seeds(game_map: GameMap, plane: _Plane) -> list[Seed]:
    seeds = []
    for pid, province in game_map.provinces.items():
        for lon, lat in _lonlat_seeds(province):
            seeds.append(Seed(pid, Point(plane(lon, lat)), is_water(game_map, pid)))
    return seeds


def _divide(
    components: list[Polygon], seeds: list[Seed], snap_px: float, warnings: list[str], kind: str
) -> tuple[dict[str, list[BaseGeometry]], list[Polygon]]:
    """Split each component among the seeds inside it; return the pieces and the unseeded ones."""
    tree = shapely.STRtree(components)
    members: dict[int, list[Seed]] = {}
    for seed in seeds:
        hits = [int(i) for i in tree.query(seed.point, predicate="intersects")]
        if not hits:
            index = int(tree.nearest(seed.point))
            distance = components[index].distance(seed.point)
            if distance > snap_px:
                warnings.append(f"{seed.province}: a seed lies {distance:.0f} px from any {kind}; ignored")
                continue
            near = nearest_points(components[index], seed.point)[0]
            inside = components[index].buffer(-0.5)
            seed = Seed(seed.province, near if inside.is_empty else nearest_points(inside, near)[0],
                        seed.water)
            hits = [index]
        members.setdefault(hits[0], []).append(seed)
    pieces: dict[str, list[BaseGeometry]] = {}
    unseeded = []
    for index, component in enumerate(components):
        group = members.get(index)
        if not group:
            unseeded.append(component)
            continue
        owners = {s.province for s in group}
        if len(owners) == 1:
            pieces.setdefault(group[0].province, []).append(component)
            continue
        unique: dict[tuple[float, float], str] = {}
        for s in group:
            unique.setdefault((round(s.point.x, 3), round(s.point.y, 3)), s.province)
        points = shapely.MultiPoint(list(unique))
        cells = shapely.voronoi_polygons(points, extend_to=component.envelope.buffer(10), ordered=True)
        for cell, owner in zip(cells.geoms, unique.values(), strict=True):
            part = cell.intersection(component)
            if not part.is_empty:
                pieces.setdefault(owner, []).append(part)
    return pieces, unseeded


def _reattach(provinces: dict[str, BaseGeometry], seeds: list[Seed], water_ids: set[str]) -> None:
    """Give each part of a shape that holds none of its seeds to the neighbour of its kind it borders most.

    A Voronoi cell ignores what lies between its seed and its far edge: the Adriatic's cell
    reaches over Italy into the Tyrrhenian Sea. Such a stray part belongs with the water (or
    land) it actually touches, never across the coast: a stray of Tunis's land bordering only
    the Ionian Sea stays with Tunis rather than turning Libya into sea.
    """
    points: dict[str, list[Point]] = {}
    for seed in seeds:
        points.setdefault(seed.province, []).append(seed.point)
    for _ in range(4):
        moved = False
        for pid in list(provinces):
            parts = _polygons(provinces[pid])
            if len(parts) < 2:
                continue
            keep: list[BaseGeometry] = []
            stray: list[BaseGeometry] = []
            for part in parts:
                (keep if any(part.buffer(1.0).contains(p) for p in points.get(pid, [])) else stray).append(part)
            if not keep:
                continue
            for part in stray:
                near = part.buffer(0.6)
                lengths = {
                    other: provinces[other].boundary.intersection(near).length
                    for other in provinces
                    if other != pid and (other in water_ids) == (pid in water_ids) and provinces[other].intersects(near)
                }
                best = max(lengths, key=lengths.__getitem__, default=None)
                if best is None or lengths[best] < 1.0:
                    keep.append(part)  # an island of its own: stays
                    continue
                provinces[best] = shapely.union_all([provinces[best], part])
                moved = True
            provinces[pid] = shapely.union_all(keep)
        if not moved:
            break


def _limit_reach(
    provinces: dict[str, BaseGeometry], land_ids: list[str], seeds: list[Seed], reach_px: float, frame: Polygon
) -> list[BaseGeometry]:
    """Land beyond every province's reach, running off the picture's edge, is neutral land.

    A continent runs on past the provinces of play (Egypt below Syria, Persia beyond Armenia).
    A province reaches ``reach_px`` around its seeds' hull, or further when its neighbours are
    far away (a province drawn from its anchor alone). What lies beyond and reaches the edge of
    the picture belongs to no province; a pocket among provinces stays theirs.
    """
    land_seeds = [s for s in seeds if s.province in set(land_ids)]
    outside: dict[str, BaseGeometry] = {}
    for pid in land_ids:
        points = [s.point for s in land_seeds if s.province == pid]
        if not points:
            continue
        spacing = 0.0
        if len(points) == 1:
            others = [s.point for s in land_seeds if s.province != pid]
            spacing = min((points[0].distance(o) for o in others), default=0.0)
        limit = shapely.MultiPoint(points).convex_hull.buffer(max(reach_px, 1.25 * spacing))
        beyond = provinces[pid].difference(limit)
        if not beyond.is_empty:
            outside[pid] = beyond
    if not outside:
        return []
    edge = frame.exterior.buffer(1.0)
    region = [part for part in _polygons(shapely.union_all(list(outside.values()))) if part.intersects(edge)]
    if not region:
        return []
    neutral = shapely.union_all(region)
    for pid in outside:
        provinces[pid] = provinces[pid].difference(neutral)
    return [neutral]


def build_geometry(game_map: GameMap, land_polygons: list[RawPolygon], settings: Settings) -> tuple[Built, _Plane]:
    plane, width, height, km_per_px = _plane(game_map, settings)
    frame = box(0, 0, width, height)
    land = _land(plane, land_polygons, frame, game_map)
    water = shapely.make_valid(frame.difference(land))
    warnings: list[str] = []
    seeds = _seeds(game_map, plane)
    land_seeds = [s for s in seeds if not s.water]
    sea_seeds = [s for s in seeds if s.water]
    land_pieces, land_rest = _divide(_polygons(land), land_seeds, settings.snap_px, warnings, "land")
    sea_pieces, _ = _divide(_polygons(water), sea_seeds, settings.snap_px, warnings, "water")
    provinces = {pid: shapely.union_all(parts) for pid, parts in {**land_pieces, **sea_pieces}.items()}
    water_ids = {pid for pid in provinces if is_water(game_map, pid)}
    _reattach(provinces, seeds, water_ids)
    land_ids = [pid for pid in provinces if pid not in water_ids]
    neutral = _limit_reach(provinces, land_ids, seeds, settings.reach_km / km_per_px, frame)
    island_px = settings.island_km2 / (km_per_px**2)
    for piece in land_rest:
        if piece.area < island_px and land_ids:
            nearest = min(land_ids, key=lambda pid: provinces[pid].distance(piece))
            if provinces[nearest].distance(piece) < settings.snap_px:
                provinces[nearest] = provinces[nearest].union(piece)
                continue
        neutral.append(piece)
    for pid in game_map.provinces:
        if pid not in provinces:
            warnings.append(f"{pid}: has no shape (no anchor, or its seeds are all off the map)")
    built = Built(width, height, provinces, shapely.union_all(neutral) if neutral else Polygon(), land, warnings)
    _simplify(built, water, settings.simplify)
    return built, plane


def _simplify(built: Built, water: BaseGeometry, tolerance: float) -> None:
    """Simplify every shape at once as a coverage, so that neighbours keep one shared border."""
    names = list(built.provinces)
    geoms = [built.provinces[n] for n in names]
    covered = shapely.union_all(geoms + [built.neutral_land])
    rest = water.difference(covered)  # neutral water
    items = geoms + [built.neutral_land, rest]
    items = [shapely.set_precision(g, 0.01) if not g.is_empty else g for g in items]
    polygonal = [g if not g.is_empty else Polygon() for g in items]
    simplified = shapely.coverage_simplify([_only_polygons(g) for g in polygonal], tolerance)
    for name, geom in zip(names, simplified[: len(names)], strict=True):
        built.provinces[name] = shapely.make_valid(geom)
    built.neutral_land = shapely.make_valid(simplified[len(names)])
    land_ids = [n for n in names if not built.provinces[n].is_empty]
    built.land = shapely.union_all([built.provinces[n] for n in land_ids] + [built.neutral_land])


def _only_polygons(geometry: BaseGeometry) -> BaseGeometry:
    polys = _polygons(geometry)
    if not polys:
        return Polygon()
    return polys[0] if len(polys) == 1 else MultiPolygon(polys)


def build_shapes(
    game_map: GameMap, land_polygons: list[RawPolygon], settings: Settings | None = None
) -> tuple[dict[str, Any], list[str]]:
    """The shape file's content for one map, and what the generator has to say about it."""
    settings = settings or Settings()
    built, plane = build_geometry(game_map, land_polygons, settings)
    notes = built.warnings + check_borders(game_map, built.provinces)
    layout = Layout()
    provinces: dict[str, Any] = {}
    for pid, province in game_map.provinces.items():
        shape = built.provinces.get(pid)
        if shape is None or shape.is_empty:
            continue
        anchor = plane(*province.anchor) if province.anchor else None
        coast_anchors = {c: plane(*a) for c, a in province.coast_anchors.items()}
        places = place_province(game_map, pid, shape, anchor, coast_anchors, built.provinces, layout)
        provinces[pid] = {
            "kind": "sea" if is_water(game_map, pid) else province.terrain.value,
            "path": path_data(shape),
            **places,
        }
    sea_ids = [p for p in provinces if is_water(game_map, p)]
    return {
        "format": FORMAT,
        "variant": game_map.name,
        "source": SOURCE_NOTE + " Province shapes: Voronoi cells of the map's anchors, clipped to them.",
        "width": round(built.width),
        "height": round(built.height),
        "land": path_data(built.land),
        "neutral_land": path_data(built.neutral_land),
        "seas": sea_ids,
        "provinces": provinces,
    }, notes


def write_shapes(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
