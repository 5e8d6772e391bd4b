"""Offline: do the drawn shapes tell the same story as the map's adjacencies?

Two provinces that are neighbours in the map file should share a border in the picture, and
two that share a border should be neighbours; an inland province should not reach the sea.
The generator prints what disagrees, so whoever tunes a map's ``outline`` seeds knows where.
"""

from __future__ import annotations

import shapely
from shapely.geometry.base import BaseGeometry

from gm.domain.geography import Terrain
from gm.maps.model import GameMap

MIN_BORDER_PX = 3.0  # a shorter common edge is a corner, not a border


def borders(shapes: dict[str, BaseGeometry]) -> dict[frozenset[str], float]:
    """Length of the common border of each pair of shapes that touch."""
    names = list(shapes)
    geoms = [shapes[n] for n in names]
    tree = shapely.STRtree(geoms)
    result: dict[frozenset[str], float] = {}
    for i, geom in enumerate(geoms):
        near = geom.buffer(0.6)
        for j in tree.query(near, predicate="intersects"):
            j = int(j)
            if j <= i:
                continue
            length = geoms[j].boundary.intersection(near).length
            if length > 0:
                result[frozenset((names[i], names[j]))] = length
    return result


def check_borders(game_map: GameMap, shapes: dict[str, BaseGeometry]) -> list[str]:
    """Disagreements between the shapes and the adjacencies, one line each."""
    shared = {pair for pair, length in borders(shapes).items() if length >= MIN_BORDER_PX}
    playable = {pid for pid, p in game_map.provinces.items() if p.terrain is not Terrain.IMPASSABLE}
    problems = []
    seas = {pid for pid, p in game_map.provinces.items() if p.terrain is Terrain.SEA}
    wanted = {frozenset((a, b)) for a, near in game_map.army_adjacency.items() for b in near}
    wanted |= {frozenset((a, b)) for a, near in game_map.fleet_province_adjacency.items() for b in near
               if a in seas or b in seas}
    allowed = {frozenset((a, b)) for a in playable for b in game_map.neighbours[a]}
    for pair in sorted(wanted - shared, key=sorted):
        a, b = sorted(pair)
        problems.append(f"{a}-{b}: neighbours in the map, but their shapes share no border")
    for pair in sorted(shared - allowed, key=sorted):
        if pair <= playable:
            a, b = sorted(pair)
            inland = [p for p in (a, b) if game_map.provinces[p].terrain is Terrain.LAND]
            if inland and pair & seas:
                problems.append(f"{a}-{b}: the inland province {inland[0]} reaches the sea")
            else:
                problems.append(f"{a}-{b}: shapes share a border, but they are not neighbours in the map")
    return problems
