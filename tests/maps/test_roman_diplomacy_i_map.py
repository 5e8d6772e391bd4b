"""The Roman Diplomacy I board (maps/roman-diplomacy-i.yaml) against its rules text.

Rules: Roman Diplomacy (Pete Calcraft); rulings: docs/rules/roman-diplomacy.md. The board is
the standard one "without the Kiel Canal" (it "does not exist in that era"): Kiel has a Baltic and
a North Sea coast. All centres start neutral (no fixed powers); a player founds an empire on a
Mediterranean or Black Sea coastal centre (rule 2); barbarians spread from the map edge (rule 7).
"""

from __future__ import annotations

import pytest

from gm.domain.geography import Location, Terrain
from gm.maps.loader import load_map, map_path

KIE_EC, KIE_WC, KIE = Location("KIE", "EC"), Location("KIE", "WC"), Location("KIE")

# Our reading of rule 2: centres with a coast on one of these seas.
INNER_SEAS = {"ADR", "AEG", "EAS", "ION", "LYO", "TYS", "WES", "BLA"}
IMPERIAL_CITY_SITES = {
    "ANK", "BUL", "CON", "GRE", "MAR", "NAP", "ROM", "RUM", "SEV", "SMY", "SPA", "TRI", "TUN", "VEN",
}
NOT_SITES = {  # coastal centres on other seas only, and inland centres
    "BEL", "BER", "BRE", "DEN", "EDI", "HOL", "KIE", "LON", "LVP", "NWY", "POR", "STP", "SWE",
    "BUD", "MOS", "MUN", "PAR", "SER", "VIE", "WAR",
}
MAP_EDGE = {"STP", "MOS", "SEV", "ARM", "SYR", "NAF", "TUN", "ION", "EAS", "MAO", "NAO", "NWG", "BAR"}


@pytest.fixture(scope="module")
def board():
    return load_map(map_path("roman-diplomacy-i"))


@pytest.fixture(scope="module")
def standard():
    return load_map(map_path("standard"))


def test_no_fixed_powers_every_centre_neutral(board):
    # Rule 1: "all supply centers are neutral"; rule 2: any number of players join during play.
    assert dict(board.powers) == {}


def test_the_standard_board(board, standard):
    assert set(board.provinces) == set(standard.provinces)
    assert len(board.provinces) == 76  # 75 provinces of play and impassable Switzerland
    assert board.supply_centres == standard.supply_centres
    assert len(board.supply_centres) == 34
    for pid, prov in board.provinces.items():
        std = standard.provinces[pid]
        assert (prov.name, prov.terrain, prov.aliases, prov.anchor) == (std.name, std.terrain, std.aliases, std.anchor)
    assert board.provinces["SWI"].terrain is Terrain.IMPASSABLE
    assert dict(board.army_adjacency) == dict(standard.army_adjacency)


def test_fleet_borders_are_the_standard_ones_except_kiel(board, standard):
    def without_kiel(adjacency):
        return {
            loc: {n for n in near if n.province != "KIE"}
            for loc, near in adjacency.items()
            if loc.province != "KIE"
        }

    assert without_kiel(board.fleet_adjacency) == without_kiel(standard.fleet_adjacency)


def test_kiel_has_two_coasts_and_no_canal(board):
    kiel = board.provinces["KIE"]
    assert kiel.supply_centre and kiel.coasts == ("EC", "WC")
    assert board.fleet_adjacency[KIE_EC] == {Location("BAL"), Location("BER"), Location("DEN")}
    assert board.fleet_adjacency[KIE_WC] == {Location("HEL"), Location("HOL"), Location("DEN")}
    assert KIE not in board.fleet_adjacency
    # No Kiel coast touches both the Baltic side and the Helgoland side.
    baltic_side, north_sea_side = {"BAL", "BER"}, {"HEL", "HOL"}
    for coast in (KIE_EC, KIE_WC):
        near = {n.province for n in board.fleet_adjacency[coast]}
        assert not (near & baltic_side and near & north_sea_side)
    # The neighbours reach the coast on their own side only.
    assert board.fleet_targets(Location("BAL"), "KIE") == (KIE_EC,)
    assert board.fleet_targets(Location("BER"), "KIE") == (KIE_EC,)
    assert board.fleet_targets(Location("HEL"), "KIE") == (KIE_WC,)
    assert board.fleet_targets(Location("HOL"), "KIE") == (KIE_WC,)
    assert board.fleet_targets(Location("DEN"), "KIE") == (KIE_EC, KIE_WC)
    # Armies cross Kiel as before.
    assert board.army_adjacency["KIE"] == {"BER", "DEN", "HOL", "MUN", "RUH"}


def _fleet_reach(game_map, start, avoiding):
    seen, todo = {start}, [start]
    while todo:
        for nxt in game_map.fleet_adjacency[todo.pop()]:
            if nxt.province not in avoiding and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_no_fleet_passes_baltic_to_helgoland_through_kiel(board, standard):
    # Leaving out Denmark and Sweden (the other ways between the Baltic and the North Sea), no
    # fleet path joins the Baltic and the Helgoland Bight: on the standard board Kiel does.
    avoiding = {"DEN", "SWE"}
    reach = _fleet_reach(board, Location("BAL"), avoiding)
    assert Location("HEL") not in reach
    assert KIE_EC in reach and KIE_WC not in reach
    assert Location("HEL") in _fleet_reach(standard, Location("BAL"), avoiding)
    # Through Denmark the way stays open: BAL - DEN - HEL.
    assert Location("DEN") in board.fleet_adjacency[Location("BAL")]
    assert Location("HEL") in board.fleet_adjacency[Location("DEN")]


def test_declared_fields(board):
    fields = {"imperial_city_site", "inner_sea", "map_edge"}
    for prov in board.provinces.values():
        assert set(prov.extra) <= fields
        assert ("imperial_city_site" in prov.extra) == prov.supply_centre, prov.id
        if "inner_sea" in prov.extra:
            assert prov.terrain is Terrain.SEA


def test_inner_seas(board):
    assert {p.id for p in board.provinces.values() if p.extra.get("inner_sea")} == INNER_SEAS


def test_imperial_city_sites(board):
    # Rule 2: "any neutral Mediterranean or Black Sea coastal supply center".
    sites = {p.id for p in board.provinces.values() if p.extra.get("imperial_city_site")}
    assert sites == IMPERIAL_CITY_SITES
    assert sites | NOT_SITES == set(board.supply_centres) and not sites & NOT_SITES
    assert "POR" not in sites  # Portugal is on the Mid-Atlantic only
    for pid in board.supply_centres:
        touches_inner = bool(board.fleet_province_adjacency.get(pid, frozenset()) & INNER_SEAS)
        assert (pid in sites) == touches_inner, pid


def test_map_edge(board):
    assert {p.id for p in board.provinces.values() if p.extra.get("map_edge")} == MAP_EDGE
    # The barbarian rule (7) concerns land provinces: those at the edge.
    edge_land = {p for p in MAP_EDGE if board.provinces[p].holds_armies}
    assert edge_land == {"STP", "MOS", "SEV", "ARM", "SYR", "NAF", "TUN"}


def test_garrisons_and_barbarians_at_the_start(board):
    # Rule 1: a garrison army in every centre; barbarians in every other land province.
    assert all(board.provinces[c].holds_armies for c in board.supply_centres)
    barbarian = {
        p.id for p in board.provinces.values() if p.holds_armies and not p.supply_centre
    }
    assert len(barbarian) == 22
    assert {"BUR", "RUH", "UKR", "SYR", "NAF", "ALB", "ARM"} <= barbarian


def test_rules_data(board):
    assert board.rules["victory_centres"] == 15  # rule 10
    assert dict(board.rules["first_move"]) == {"season": "spring", "year": 100}
