"""Every map in maps/ has a shape file that draws every one of its provinces."""

from __future__ import annotations

import re

import pytest

from gm.domain.geography import Terrain
from gm.maps.loader import available_maps, load_map, map_path
from gm.render.shapes import load_shapes, shapes_file

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@pytest.mark.parametrize("name", available_maps())
def test_every_province_has_a_shape(name: str) -> None:
    assert shapes_file(name).is_file(), f"no shapes for {name}: run gm maps shapes {name} and commit the file"
    game_map = load_map(map_path(name))
    shapes = load_shapes(name)
    missing = sorted(set(game_map.provinces) - set(shapes.provinces))
    assert not missing, f"{name}: no shape for {missing}: run gm maps shapes {name}"
    extra = sorted(set(shapes.provinces) - set(game_map.provinces))
    assert not extra, f"{name}: shapes of provinces the map no longer has {extra}: run gm maps shapes {name}"
    for pid, province in game_map.provinces.items():
        shape = shapes.provinces[pid]
        assert shape.path.startswith("M") and shape.path.endswith("Z"), pid
        assert (shape.kind == "sea") == (province.terrain is Terrain.SEA), pid
        numbers = [float(n) for n in _NUMBER.findall(shape.path)]
        xs, ys = numbers[0::2], numbers[1::2]
        assert min(xs) >= -1 and max(xs) <= shapes.width + 1 and min(ys) >= -1 and max(ys) <= shapes.height + 1
        for point, slack in ((shape.unit, 1), (shape.label, 30), *((p, 1) for p in shape.coasts.values())):
            assert 0 <= point[0] <= shapes.width and 0 <= point[1] <= shapes.height, pid
            # a unit stands within the shape's bounding box; a label may sit beside a small island
            assert min(xs) - slack <= point[0] <= max(xs) + slack, pid
            assert min(ys) - slack <= point[1] <= max(ys) + slack, pid
        assert set(shape.coasts) == set(province.coasts), pid
        if province.supply_centre:
            assert shape.centre is not None, f"{pid} is a supply centre without a place for its mark"


@pytest.mark.parametrize("name", available_maps())
def test_units_and_marks_do_not_share_a_spot(name: str) -> None:
    shapes = load_shapes(name)
    spots = [(pid, s.unit) for pid, s in shapes.provinces.items()]
    spots += [(f"{pid}/{c}", p) for pid, s in shapes.provinces.items() for c, p in s.coasts.items()]
    for i, (a, p) in enumerate(spots):
        for b, q in spots[i + 1:]:
            if a.split("/")[0] != b.split("/")[0]:
                assert (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= 8**2, f"{name}: units in {a} and {b} overlap"
