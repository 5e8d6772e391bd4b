"""The shape generator, on a tiny made-up world: two land provinces on an island, a sea around."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gm.maps.loader import load_map
from gm.render.topojson import polygons, unwrap

import shapely  # noqa: E402,F401  (in the test extra: this test must run)

from gm.render.shapes_build import Settings, build_shapes  # noqa: E402

ISLAND_MAP = """\
title: Island
powers:
  Red: {adjective: Red, colour: "#ff0000", home: [WST], units: [A WST]}
provinces:
  WST: {name: West, terrain: coast, centre: true, anchor: [-1.5, 0], outline: [[-1.8, 1.2]],
        army: [EST], fleet: [EST, SEA]}
  EST: {name: East, terrain: coast, anchor: [1.5, 0], army: [WST], fleet: [WST, SEA]}
  SEA: {name: Round Sea, terrain: sea, anchor: [0, 3.2], outline: [[0, -3.2], [-4, 0], [4, 0]],
        fleet: [WST, EST]}
"""


def topology() -> dict:
    # one square island from -3 to 3 in both directions, as plain (unquantized) TopoJSON
    return {
        "type": "Topology",
        "arcs": [[[-3, -3], [3, -3], [3, 3], [-3, 3], [-3, -3]]],
        "objects": {"land": {"type": "GeometryCollection",
                             "geometries": [{"type": "Polygon", "arcs": [[0]]}]}},
    }


def test_shapes_of_a_tiny_map(tmp_path: Path) -> None:
    path = tmp_path / "island.yaml"
    path.write_text(ISLAND_MAP)
    game_map = load_map(path)
    data, notes = build_shapes(game_map, polygons(topology(), "land"), Settings(width=400, margin=0.1))
    assert set(data["provinces"]) == {"WST", "EST", "SEA"}
    assert data["width"] == 400
    west = data["provinces"]["WST"]
    assert west["kind"] == "coast" and "centre" in west
    assert west["unit"][0] < data["provinces"]["EST"]["unit"][0]  # west is left of east
    assert notes == []  # borders agree with the adjacencies
    json.dumps(data)  # plain JSON


def test_unwrap_keeps_rings_across_the_antimeridian_whole() -> None:
    ring = [(170.0, 60.0), (179.0, 60.0), (-179.0, 61.0), (-175.0, 62.0), (170.0, 60.0)]
    assert unwrap(ring) == [(170.0, 60.0), (179.0, 60.0), (181.0, 61.0), (185.0, 62.0), (170.0, 60.0)]
    # a ring around the south pole (Antarctica) has no planar form
    assert unwrap([(0.0, -80.0), (120.0, -80.0), (-120.0, -80.0), (-1.0, -80.0)]) is None


def test_a_stray_part_of_land_never_turns_into_sea() -> None:
    from shapely.geometry import Point, box

    from gm.render.shapes_build import Seed, _reattach

    # LND's Voronoi cell left a part of it (x 20..30) beyond NBR, bordering the sea along
    # its whole bottom edge and NBR only along its short left edge
    provinces = {
        "LND": shapely.union_all([box(0, 10, 10, 20), box(20, 10, 30, 12)]),
        "NBR": box(10, 10, 20, 20),
        "SEA": box(0, 0, 30, 10),
    }
    seeds = [Seed("LND", Point(5, 15), False), Seed("NBR", Point(15, 15), False), Seed("SEA", Point(15, 5), True)]
    _reattach(provinces, seeds, {"SEA"})
    assert provinces["SEA"].area == 300  # the sea borders the stray most, but takes none of it
    assert provinces["NBR"].area == 120  # the land neighbour does
    assert provinces["LND"].area == 100


def test_a_stray_part_with_no_neighbour_of_its_kind_stays() -> None:
    from shapely.geometry import Point, box

    from gm.render.shapes_build import Seed, _reattach

    provinces = {"LND": shapely.union_all([box(0, 10, 10, 20), box(20, 10, 30, 12)]), "SEA": box(0, 0, 30, 10)}
    seeds = [Seed("LND", Point(5, 15), False), Seed("SEA", Point(15, 5), True)]
    _reattach(provinces, seeds, {"SEA"})
    assert provinces["LND"].area == 120 and provinces["SEA"].area == 300
