"""The marks of small neighbouring provinces kept apart: where a province's unit spot, coast
spots or supply-centre mark (as the shape file places them) would touch another province's,
the later one moves to the nearest spot inside its own province that is clear of them all.

The shape file places each province's marks clear of one another, but only within the province:
two tiny provinces side by side (Herculaneum and Pompeii) may have their units stand on top of
each other. This runs once per map and process.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from gm.render import style
from gm.render.labels import Box, Taken, offsets
from gm.render.room import room_of
from gm.render.shapes import MapShapes, ProvinceShape, load_shapes

Point = tuple[float, float]

GAP = 1.5  # between two marks
STEP, REACH = 2.0, 40.0  # the search for a clear spot: its grid, and how far a mark may move


def _unit_box(shape: ProvinceShape, spot: Point, wide: bool) -> Box:
    half_w = style.UNIT_RADIUS * (style.SHAPE_HALF_WIDTH["fleet"] if wide else 1.0) + GAP
    half_h = style.UNIT_RADIUS + GAP
    return spot[0] - half_w, spot[1] - half_h, spot[0] + half_w, spot[1] + half_h


def _centre_box(spot: Point) -> Box:
    k = style.CENTRE_RADIUS + GAP
    return spot[0] - k, spot[1] - k, spot[0] + k, spot[1] + k


@lru_cache(maxsize=16)
def spaced_shapes(variant: str) -> MapShapes:
    """The map's shapes with every province's marks clear of its neighbours' marks."""
    shapes = load_shapes(variant)
    taken = Taken()
    provinces = {}
    for pid, shape in shapes.provinces.items():
        wide = False  # an army's room: a fleet's wings may touch a neighbour's mark
        room = shape.path  # read only where a mark must move
        unit = _settle(taken, room, shape.unit, _unit_box(shape, (0.0, 0.0), wide))
        coasts = {c: _settle(taken, room, p, _unit_box(shape, (0.0, 0.0), True)) for c, p in shape.coasts.items()}
        centre = _settle(taken, room, shape.centre, _centre_box((0.0, 0.0))) if shape.centre else None
        provinces[pid] = replace(shape, unit=unit, coasts=coasts, centre=centre)
    return replace(shapes, provinces=provinces)


def _settle(taken: Taken, path: str, spot: Point, around: Box) -> Point:
    """``spot``, or the nearest point where the box ``around`` it (given around the origin) is
    clear of what is taken and wholly inside the room (else, failing that, with its middle
    inside); then taken."""
    def at(point: Point) -> Box:
        return point[0] + around[0], point[1] + around[1], point[0] + around[2], point[1] + around[3]

    room = room_of(path) if taken.hits(at(spot)) else None
    if room is not None:
        partly = None
        for dx, dy in offsets(STEP, REACH).values():
            point = (round(spot[0] + dx, 1), round(spot[1] + dy, 1))
            box = at(point)
            if taken.hits(box):
                continue
            if room.holds(box):
                spot = point
                break
            if partly is None and room.contains(*point):
                partly = point
        else:
            spot = partly or spot
    taken.add(at(spot))
    return spot
