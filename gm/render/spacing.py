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
from gm.render.shapes import MapShapes, load_shapes

Point = tuple[float, float]

GAP = 1.5  # between two marks
STEP, REACH = 2.0, 40.0  # the search for a clear spot: its grid, and how far a mark may move


# The room of each mark around its spot: an army's (a fleet's wings may touch a neighbour's
# mark), and a supply centre's.
UNIT = (-style.UNIT_RADIUS - GAP, -style.UNIT_RADIUS - GAP, style.UNIT_RADIUS + GAP, style.UNIT_RADIUS + GAP)
CENTRE = (-style.CENTRE_RADIUS - GAP, -style.CENTRE_RADIUS - GAP, style.CENTRE_RADIUS + GAP, style.CENTRE_RADIUS + GAP)


@lru_cache(maxsize=16)
def spaced_shapes(variant: str) -> MapShapes:
    """The map's shapes with every province's marks clear of its neighbours' marks."""
    shapes = load_shapes(variant)
    others = Taken()  # the marks of the provinces settled so far
    provinces = {}
    for pid, shape in shapes.provinces.items():
        own = Taken()  # this province's marks: the shape file placed them apart already
        unit = _settle(others, own, shape.path, shape.unit, UNIT)
        coasts = {c: _settle(others, own, shape.path, p, UNIT) for c, p in shape.coasts.items()}
        centre = _settle(others, own, shape.path, shape.centre, CENTRE) if shape.centre else None
        for box in _boxes(own):
            others.add(box)
        provinces[pid] = replace(shape, unit=unit, coasts=coasts, centre=centre)
    return replace(shapes, provinces=provinces)


def _boxes(taken: Taken) -> set[Box]:
    return {box for boxes in taken.cells.values() for box in boxes}


def _settle(others: Taken, own: Taken, path: str, spot: Point, around: Box) -> Point:
    """``spot``, unless it touches another province's mark: then the nearest point where the box
    ``around`` it (given around the origin) is clear of every mark settled and wholly inside the
    province (else, failing that, with its middle inside). The mark is then the province's own."""
    def at(point: Point) -> Box:
        return point[0] + around[0], point[1] + around[1], point[0] + around[2], point[1] + around[3]

    room = room_of(path) if others.hits(at(spot)) else None
    if room is not None:
        partly = None
        for dx, dy in offsets(STEP, REACH).values():
            point = (round(spot[0] + dx, 1), round(spot[1] + dy, 1))
            box = at(point)
            if others.hits(box) or own.hits(box):
                continue
            if room.holds(box):
                spot = point
                break
            if partly is None and room.contains(*point):
                partly = point
        else:
            spot = partly or spot
    own.add(at(spot))
    return spot
