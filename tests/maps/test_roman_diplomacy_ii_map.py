"""The Roman Diplomacy II board (maps/roman-diplomacy-ii.yaml) against its rules text.

Rules: Roman Diplomacy (Pete Calcraft; board II with Andrew Poole), rulings in
docs/rules/roman-diplomacy.md, and what is known of the Diadochi V board. The Diadochi V / Imperator / Triumvirate board
is lost, so maps/roman-diplomacy-ii.yaml is a reconstruction; these tests pin what the rules
state (24-centre victory on a board large enough for it, 240 B.C., every province passable,
multiple centres single, special build centres, starting centres on the Mediterranean or Black
Sea) and the choices the map's `source:` text records, so the board cannot drift from either.
"""

from __future__ import annotations


import pytest

from gm.domain.geography import Location, Terrain
from gm.maps.loader import load_map, map_path

from .helpers import Spellings, reachable

# Diadochi V rule 2, as spelled there: the home centres of the five powers, fleets first.
DIADOCHI_V = {
    "Carthage": {"fleets": ["Carthage"], "armies": ["Hadrumetum", "New Carthage", "Gades"]},
    "Egypt": {"fleets": ["Alexandria", "Cyprus"], "armies": ["Ptolemais"]},
    "Macedonia": {"fleets": ["Korinth"], "armies": ["Larissa", "Pella"]},
    "Rome": {"fleets": ["Neapolis", "Rome"], "armies": ["Brudisium", "Ravenna"]},
    "Syria": {"fleets": ["Antioch"], "armies": ["Arbela", "Seleukia"]},
}
REBEL_PRONE_NEUTRALS = ["Armenia", "Belgica", "Illyria", "Scythia"]  # Diadochi V rule 6
IMPASSABLE_IN_DIADOCHI = ["Britain", "Dacia"]  # passable in Roman Diplomacy II
SPECIAL_BUILD_CENTRES = {"Ath": "ATH", "Jar": "JER", "Sid": "SID"}  # our reading of Diadochi V rule 5

OTHER_CENTRES = {  # the 29 neutral centres of our choosing
    "SAG", "CEL", "LUS", "BAL", "MAS", "BOS", "SAR", "SYC", "LIL", "MAU", "NUM", "LEP", "CYR",
    "MEM", "THB", "DAM", "PGM", "EPH", "TRS", "GAL", "BIT", "PON", "CAP", "EPI", "SPA", "THR",
    "BYZ", "CRE", "RHO",
}
INNER_SEAS = {
    "FRE", "IBE", "GLC", "LGS", "SDO", "TYS", "AFR", "ADR", "ION", "LIB", "AEG", "CRT", "PRO",
    "PMP", "SYS", "AEY", "EUW", "EUE", "MAE",
}
OUTER_SEAS = {"OCC", "ATL", "CNT", "OBR", "NTH", "IRI"}
NOT_SITES = {"CEL", "LUS", "BEL", "MEM", "THB", "DAM", "ARB", "SEL", "GAL", "CAP", "ARM"}
MAP_EDGE = {
    "OCC", "ATL", "HIB", "IRI", "BRI", "NTH", "GER", "VIS", "BAS", "SRM", "CAU", "ATR", "ARB",
    "SEL", "ARA", "NAB", "THB", "MRM", "SYT", "GAR", "GAE", "MAU",
}
FRAME = {"west": -11.0, "east": 46.5, "south": 24.0, "north": 54.0}
PASSAGE_LINKS = {
    ("GAD", "MAU"), ("BTT", "SYC"), ("COR", "SAR"), ("AET", "ACH"), ("THR", "PGM"), ("BYZ", "BIT"),
}
ISLANDS = {"BAL", "BRI", "CRE", "CYP", "HIB", "RHO", "COR", "SAR"}  # no land border to the mainland


@pytest.fixture(scope="module")
def board():
    return load_map(map_path("roman-diplomacy-ii"))


@pytest.fixture(scope="module")
def named(board):
    return Spellings(board)


def test_counts_and_no_fixed_powers(board):
    assert dict(board.powers) == {}  # any number of players found empires during play
    terrains = [p.terrain for p in board.provinces.values()]
    assert len(board.provinces) == 134
    assert terrains.count(Terrain.SEA) == 25
    assert terrains.count(Terrain.COAST) == 76
    assert terrains.count(Terrain.LAND) == 33
    # "All provinces on the map are passable".
    assert Terrain.IMPASSABLE not in terrains


def test_enough_centres_for_a_24_centre_victory(board):
    assert board.rules["victory_centres"] == 24
    assert len(board.supply_centres) == 50 >= 47


def test_calendar(board):
    # "the game starts in Spring 240 B.C. (therefore the years number backwards)"
    assert dict(board.rules["first_move"]) == {"season": "spring", "year": -240}


def test_diadochi_v_home_centres(board, named):
    homes = {}
    for power, units in DIADOCHI_V.items():
        for kind, places in units.items():
            for place in places:
                pid = named(place)
                prov = board.provinces[pid]
                assert prov.supply_centre, place
                assert prov.extra.get("diadochi_home") == power, place
                if kind == "fleets":
                    assert prov.terrain is Terrain.COAST, place
                homes[pid] = power
    assert len(homes) == 17
    marked = {p.id: p.extra["diadochi_home"] for p in board.provinces.values() if "diadochi_home" in p.extra}
    assert marked == homes
    # Our readings of two names the rules leave open.
    assert named("Ptolemais") == "PTO" and board.provinces["PTO"].terrain is Terrain.COAST
    assert named("Seleukia") == "SEL" and board.provinces["SEL"].terrain is Terrain.LAND


def test_multiple_centres_are_single(board, named):
    # "All multiple supply centers are treated as if single": centres carry no value field.
    assert named("Rome") in board.supply_centres
    for prov in board.provinces.values():
        assert set(prov.extra) <= {
            "imperial_city_site", "inner_sea", "map_edge", "special_build_centre", "diadochi_home",
        }


def test_centres(board, named):
    homes = {named(p) for units in DIADOCHI_V.values() for places in units.values() for p in places}
    rebels = {named(p) for p in REBEL_PRONE_NEUTRALS}
    assert rebels <= board.supply_centres
    assert not OTHER_CENTRES & (homes | rebels)
    assert board.supply_centres == homes | rebels | OTHER_CENTRES
    assert all(board.provinces[c].holds_armies for c in board.supply_centres)  # garrison armies


def test_special_build_centres(board, named):
    special = {p.id for p in board.provinces.values() if p.extra.get("special_build_centre")}
    assert special == set(SPECIAL_BUILD_CENTRES.values())
    for abbreviation, pid in SPECIAL_BUILD_CENTRES.items():
        assert named(abbreviation) == pid
        assert not board.provinces[pid].supply_centre  # "not supply centres" (Diadochi V rule 5)
        assert board.provinces[pid].holds_armies
    assert board.provinces["ATH"].name == "Athens"
    assert board.provinces["JER"].name == "Jerusalem"
    assert board.provinces["SID"].name == "Sidon"


def test_britain_and_dacia_are_passable(board, named):
    britain, dacia = named("Britain"), named("Dacia")
    assert board.provinces[britain].terrain is Terrain.COAST
    assert board.fleet_adjacency[Location(britain)] == {Location(s) for s in ("OBR", "NTH", "IRI", "OCC")}
    assert board.provinces[dacia].terrain is Terrain.LAND
    assert board.army_adjacency[dacia] == {"PAN", "BAS", "GET", "DAR"}


def test_inner_seas(board):
    seas = {p.id for p in board.provinces.values() if p.terrain is Terrain.SEA}
    assert seas == INNER_SEAS | OUTER_SEAS and not INNER_SEAS & OUTER_SEAS
    inner = {p.id for p in board.provinces.values() if p.extra.get("inner_sea")}
    assert inner == INNER_SEAS


def test_imperial_city_sites(board):
    # "The starting supply centers must be on the coasts of the Mediterranean or Black Sea."
    sites = {p.id for p in board.provinces.values() if p.extra.get("imperial_city_site")}
    assert len(sites) == 39
    assert sites | NOT_SITES == set(board.supply_centres) and not sites & NOT_SITES
    for prov in board.provinces.values():
        assert ("imperial_city_site" in prov.extra) == prov.supply_centre, prov.id
    for pid in board.supply_centres:
        touches_inner = bool(board.fleet_province_adjacency.get(pid, frozenset()) & INNER_SEAS)
        assert (pid in sites) == touches_inner, pid
    # Every Diadochi V home centre but the two Mesopotamian ones could be an Imperial City.
    assert {p.id for p in board.provinces.values() if "diadochi_home" in p.extra} - sites == {"ARB", "SEL"}
    assert "GAD" in sites  # its coast reaches the Fretum Herculeum


def test_map_edge_and_anchors(board):
    assert {p.id for p in board.provinces.values() if p.extra.get("map_edge")} == MAP_EDGE
    # Barbarians spread from the edge (rule 7) into these land provinces.
    assert {p for p in MAP_EDGE if board.provinces[p].holds_armies} == MAP_EDGE - {"OCC", "ATL", "IRI", "NTH"}
    seen = set()
    for prov in board.provinces.values():
        lon, lat = prov.anchor
        assert FRAME["west"] < lon < FRAME["east"] and FRAME["south"] < lat < FRAME["north"], prov.id
        assert prov.anchor not in seen, prov.id
        seen.add(prov.anchor)


def test_passage_links(board):
    links = {tuple(link["between"]) for link in board.rules["passage_links"]}
    assert links == PASSAGE_LINKS
    for a, b in links:
        assert b in board.army_adjacency[a] and a in board.army_adjacency[b]
        assert Location(b) in board.fleet_adjacency[Location(a)]


def test_no_province_is_a_canal(board):
    # The seas a coastal province touches are always joined by sea borders among themselves, so
    # no fleet shortcut passes through land (Korinth: Diolkos; the Ionian and Cretan seas meet).
    sea_adj = {
        loc.province: {n.province for n in near if board.provinces[n.province].terrain is Terrain.SEA}
        for loc, near in board.fleet_adjacency.items()
        if board.provinces[loc.province].terrain is Terrain.SEA
    }
    for prov in board.provinces.values():
        if prov.terrain is not Terrain.COAST:
            continue
        seas = {n.province for n in board.fleet_adjacency[Location(prov.id)] if n.province in sea_adj}
        start = next(iter(seas))
        reached, todo = {start}, [start]
        while todo:
            for nxt in sea_adj[todo.pop()] & seas:
                if nxt not in reached:
                    reached.add(nxt)
                    todo.append(nxt)
        assert reached == seas, prov.id
    assert board.fleet_province_adjacency["KOR"] >= {"ION", "CRT"}
    # The Palus Maeotis is reached only through the Cimmerian Bosporus.
    assert board.fleet_province_adjacency["MAE"] == {"EUE", "BOS", "SRM"}
    assert "MAE" not in board.fleet_province_adjacency["SCY"]


def test_connected(board):
    assert reachable(board.neighbours, "ROM") == set(board.provinces)
    land = {p.id for p in board.provinces.values() if p.holds_armies}
    assert land - reachable(board.army_adjacency, "ROM") == ISLANDS
    assert reachable(board.army_adjacency, "COR") == {"COR", "SAR"}
    fleet_provinces = set(board.fleet_province_adjacency)
    assert reachable(board.fleet_province_adjacency, "TYS") == fleet_provinces


def test_barbarians_at_the_start(board):
    # Rule 1: every land province that is not a centre starts barbarian-occupied.
    barbarian = {p.id for p in board.provinces.values() if p.holds_armies and not p.supply_centre}
    assert len(barbarian) == 59
    assert {"BRI", "DAC", "GER", "SRM", "GAE", "ATH", "JER", "SID"} <= barbarian


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Rome", "Neapolis"), ("Carthage", "Hadrumetum"), ("Gades", "New Carthage"),
        ("Alexandria", "Pelusium"), ("Antioch", "Tarsus"), ("Arbela", "Seleukia"), ("Pella", "Larissa"),
        ("Korinth", "Athens"), ("Byzantium", "Thrace"), ("Jerusalem", "Ptolemais"), ("Sidon", "Ptolemais"),
    ],
)
def test_real_geography_neighbours(board, named, a, b):
    assert named(b) in board.neighbours[named(a)]


@pytest.mark.parametrize(
    ("a", "b"),
    [("Rome", "Carthage"), ("Crete", "Sparta"), ("Cyprus", "Antioch"), ("Syracuse", "Carthage")],
)
def test_no_army_border_across_open_sea(board, named, a, b):
    assert named(b) not in board.army_adjacency.get(named(a), frozenset())
