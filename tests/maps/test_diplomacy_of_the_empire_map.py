"""The Diplomacy of the Empire board (maps/diplomacy-of-the-empire.yaml) against its rules text.

Every fact the rules (v2.0, Jarvie 2009) state about the board is asserted here, so the map can
never drift from them: the 42 land territories and 18 seas, the tribute of each, the seven
claimants with their home, Infantry and fortified capital, the six-player option, the three
two-coast territories, the four straits, the spellings the rules use, and the worked examples.
"""

from __future__ import annotations


import pytest

from gm.domain.geography import Location, Terrain
from gm.maps.loader import load_map, map_path

from .helpers import Spellings, reachable


@pytest.fixture(scope="module")
def board():
    return load_map(map_path("diplomacy-of-the-empire"))


@pytest.fixture(scope="module")
def spelled(board):
    return Spellings(board)


# -- what the rules name ---------------------------------------------------------------------

# The rules' abbreviation table (truncated in the only copy after DACIA), exactly as spelled.
RULES_TABLE_LAND = {
    "ACHAIA": "ACH", "AFRICA PROCNOS": "AFR", "AQUITANIA": "AQU", "ARABIA PETRRA": "ARA",
    "ARMENIA": "ARM", "ASIA": "ASI", "BALEARES": "BAL", "BEATICA": "BEA", "BELGICA": "BEL",
    "BRITANNIA": "BRI", "CAPPADOCIA": "CAP", "CEASARIENIS": "CEA", "CILICIA": "CIL",
    "CORSICA": "COR", "CRETA": "CRE", "CYPRUS": "CYP", "CYRENAICA": "CYR", "DACIA": "DAC",
}
RULES_TABLE_SEAS = {
    "Mare Adriaticum": "mAd", "Mare Aegeum": "mAe", "Mare Alexandria": "mAl", "Mare Amisus": "mAm",
    "Mare Baliaricum": "mBa", "Mare Cantabricum": "mCa", "Mare Epirus": "mEp", "Mare Hispalis": "mHi",
    "Mare Libycum": "mLi", "Mare Narbo": "mNa", "Mare Numidia": "mNu", "Mare Pelusium": "mPe",
    "Mare Pontus Euxinus": "mPo", "Mare Rhodus": "mRh", "Mare Sabrata": "mSa",
    "Mare Tyrrhenum": "mTy", "Oceanus Atlanticus": "oAt", "Oceanus Britannicus": "oBr",
}
# "16 of which provide 10 talents of tribute", spelled as the rules spell them.
TEN_TALENTS = [
    "Hispania", "Aquitania", "Britania", "Italia", "Neapolis", "Macedonia", "Achaia", "Asia",
    "Galatia", "Syria", "Mesopotamia", "Egyptus", "Cyrenaica", "Africa Procons", "Numidia",
    "Caesarienis",
]
# Other spellings the rules use in the text and in the example orders.
RULES_SPELLINGS = {
    "Britania": "BRI", "Neapolis": "NEA", "NEOPOLUS": "NEA", "Neopolis": "NEA", "SICILY": "SIC",
    "Sicilia": "SIC", "Egyptus": "EGY", "Africa Procons": "AFR", "Caesarienis": "CEA",
    "Ceasarienis": "CEA", "Tingitana": "TIN", "Tingitania": "TIN", "Beatica": "BEA",
    "Thracia": "THR", "Rhetia": "RAE", "Galaita": "GAL", "MACIDONIA": "MAC", "Judia": "PAL",
    "Hispania": "HIS", "Italia": "ITA", "Nar": "NAR", "Ita": "ITA", "Dal": "DAL", "Cea": "CEA",
    "Num": "NUM", "Mesopotamia": "MES", "Numidia": "NUM", "Galatia": "GAL", "Asia": "ASI",
}
# The correct Latin (or usual) spellings beside them.
LATIN_SPELLINGS = {
    "Aegyptus": "EGY", "Baetica": "BEA", "Caesariensis": "CEA", "Mauretania Caesariensis": "CEA",
    "Africa Proconsularis": "AFR", "Arabia Petraea": "ARA", "Raetia": "RAE", "Lugdunensis": "LUG",
    "Mauretania Tingitana": "TIN", "Pontus et Bithynia": "PON", "Mare Aegaeum": "MAE",
    "Mare Balearicum": "MBA", "Iudaea": "PAL", "Palaestina": "PAL",
}
# The land territories the table does not reach, by their board names.
OTHER_LAND = [
    "Dalmatia", "Egyptus", "Galatia", "Germania", "Hispania", "Italia", "Lugudunensis",
    "Lusitania", "Macedonia", "Mesopotamia", "Moesia", "Narbonensis", "Neopolis", "Noricum",
    "Numidia", "Palestina", "Pannonia", "Pontus et Bithynia", "Rhea", "Sardinia", "Sicilia",
    "Syria", "Thracia", "Tingitana",
]
HOMES = {
    "Hispania": "HIS", "Italia": "ITA", "Macedonia": "MAC", "Galatia": "GAL",
    "Mesopotamia": "MES", "Egyptus": "EGY", "Numidia": "NUM",
}
STRAITS = [("THR", "ASI"), ("BEA", "TIN"), ("NEA", "SIC"), ("BEL", "BRI")]
ISLANDS = ["BAL", "BRI", "COR", "CRE", "CYP", "SAR", "SIC"]
INLAND = ["ARA", "DAC", "MES", "NOR", "PAN", "RAE"]

# The land borders of the board (straits excluded), pinned so the graph cannot drift.
LAND_BORDERS = """
ACH-MAC AFR-CYR AFR-NUM AQU-HIS AQU-LUG AQU-NAR ARA-EGY ARA-PAL ARA-SYR ARM-CAP ARM-MES ARM-SYR
ASI-GAL ASI-PON BEA-HIS BEA-LUS BEL-GER BEL-LUG CAP-CIL CAP-GAL CAP-PON CAP-SYR CEA-NUM CEA-TIN
CIL-GAL CIL-SYR CYR-EGY DAC-MOE DAC-PAN DAL-ITA DAL-MAC DAL-MOE DAL-PAN EGY-PAL GAL-PON GER-LUG
GER-NAR GER-RAE HIS-LUS HIS-NAR ITA-NAR ITA-NEA ITA-NOR ITA-PAN ITA-RAE LUG-NAR MAC-MOE MAC-THR
MES-SYR MOE-PAN MOE-THR NAR-RAE NOR-PAN NOR-RAE PAL-SYR
""".split()


def land(board):
    return [p for p in board.provinces.values() if p.terrain in (Terrain.LAND, Terrain.COAST)]


def seas(board):
    return [p for p in board.provinces.values() if p.terrain is Terrain.SEA]


# -- counts, names, tribute ------------------------------------------------------------------


def test_42_land_territories_and_18_seas(board):
    assert len(land(board)) == 42
    assert len(seas(board)) == 18
    assert len(board.provinces) == 60  # nothing impassable


def test_every_name_in_the_rules_table_is_a_province(board, spelled):
    for name, ident in RULES_TABLE_LAND.items():
        assert spelled(name) == ident
        assert board.provinces[ident].terrain is not Terrain.SEA
    for name, abbreviation in RULES_TABLE_SEAS.items():
        ident = spelled(name)
        assert spelled(abbreviation) == ident  # the rules' abbreviation is our id
        assert board.provinces[ident].terrain is Terrain.SEA
    named = set(RULES_TABLE_LAND.values()) | {spelled(n) for n in OTHER_LAND}
    assert named == {p.id for p in land(board)}
    assert {spelled(n) for n in RULES_TABLE_SEAS} == {p.id for p in seas(board)}


@pytest.mark.parametrize("spelling,ident", sorted({**RULES_SPELLINGS, **LATIN_SPELLINGS}.items()))
def test_rules_and_latin_spellings_are_accepted(spelled, spelling, ident):
    assert spelled(spelling) == ident


def test_tribute_is_a_declared_int_field_on_land_only(board):
    for p in land(board):
        assert isinstance(p.extra.get("tribute"), int) and not isinstance(p.extra["tribute"], bool), p.id
    for p in seas(board):
        assert "tribute" not in p.extra, p.id


def test_the_sixteen_ten_talent_territories_and_five_elsewhere(board, spelled):
    ten = {spelled(n) for n in TEN_TALENTS}
    assert len(ten) == 16
    assert {p.id for p in land(board) if p.extra["tribute"] == 10} == ten
    assert {p.extra["tribute"] for p in land(board) if p.id not in ten} == {5}
    # The draft graph had these two swapped; the rules decide.
    assert board.provinces["AQU"].extra["tribute"] == 10
    assert board.provinces["NAR"].extra["tribute"] == 5


# -- claimants, start, no supply centres -----------------------------------------------------


def test_seven_claimants_each_with_one_infantry_in_its_home(board):
    assert set(board.powers) == set(HOMES)
    for power, home in HOMES.items():
        defn = board.powers[power]
        assert defn.home == (home,)
        assert defn.owns == ()
        assert [(u.letter, u.location) for u in defn.units] == [("A", Location(home))]
    assert board.rules["starting_unit_type"] == "Infantry"


def test_each_claimant_starts_with_a_fortified_capital_in_its_home(board):
    assert dict(board.rules["starting_cities"]) == HOMES
    assert board.rules["starting_cities_fortified"] is True


def test_rules_spellings_of_the_claimants(board):
    assert board.power_named("Galaita").name == "Galatia"
    assert board.power_named("Macidonia").name == "Macedonia"
    assert board.power_named("Aegyptus").name == "Egyptus"


def test_no_supply_centres_but_the_homes_the_loader_requires(board):
    assert board.rules["supply_centres"] == "none"
    assert {p.id for p in board.provinces.values() if p.supply_centre} == set(HOMES.values())
    assert board.supply_centres == frozenset()  # the homes are marked only for the loader


def test_six_player_option(board):
    six = board.rules["six_players"]
    assert list(six["without"]) == ["Macedonia"]
    assert dict(six["tribute"]) == {"SYR": 5}
    assert board.provinces["SYR"].extra["tribute"] == 10  # seven players


# -- coasts ----------------------------------------------------------------------------------

TWO_COASTS = {
    "HIS": {"NC": {"MCA", "AQU", "LUS"}, "SC": {"MBA", "MNA", "NAR", "BEA"}},
    "ITA": {"EC": {"MAD", "DAL", "NEA"}, "WC": {"MNA", "MTY", "NAR", "NEA"}},
    "MAC": {"EC": {"MAE", "THR", "ACH"}, "WC": {"MEP", "DAL", "ACH"}},
}


def test_hispania_italia_macedonia_have_two_coasts(board):
    assert {p.id for p in board.provinces.values() if p.coasts} == set(TWO_COASTS)
    for ident, coasts in TWO_COASTS.items():
        prov = board.provinces[ident]
        assert set(prov.coasts) == set(coasts)
        assert set(prov.coast_anchors) == set(coasts)
        for coast, near in coasts.items():
            got = {loc.province for loc in board.fleet_adjacency[Location(ident, coast)]}
            assert got == near, f"{ident}/{coast}"
    # "Build Fleet Hispania(SC)"
    assert "SC" in board.provinces["HIS"].coasts


def test_terrain(board):
    assert {p.id for p in board.provinces.values() if p.terrain is Terrain.LAND} == set(INLAND)
    for ident in INLAND:
        assert not board.fleet_province_adjacency.get(ident)


# -- straits ---------------------------------------------------------------------------------


def test_the_four_straits_are_rules_data(board):
    listed = [tuple(s["between"]) for s in board.rules["straits"]]
    assert listed == STRAITS
    for strait in board.rules["straits"]:
        a, b = strait["between"]
        assert strait["seas"], strait
        for sea in strait["seas"]:
            assert board.provinces[sea].terrain is Terrain.SEA
            # the fleets that may support a crossing: seas touching both ends
            assert sea in board.fleet_province_adjacency[a] and sea in board.fleet_province_adjacency[b]


@pytest.mark.parametrize("a,b", STRAITS)
def test_land_units_and_fleets_cross_a_strait_in_one_move(board, a, b):
    assert b in board.army_adjacency[a] and a in board.army_adjacency[b]
    assert Location(b) in board.fleet_adjacency[Location(a)]
    assert Location(a) in board.fleet_adjacency[Location(b)]


def test_islands_reach_land_only_by_strait(board):
    strait_ends = {x for pair in STRAITS for x in pair}
    for ident in ISLANDS:
        near = board.army_adjacency.get(ident, frozenset())
        if ident in strait_ends:
            assert len(near) == 1
        else:
            assert near == frozenset()


# -- the board graph -------------------------------------------------------------------------


def road_graph(board):
    """Borders a road may follow: land borders, never a strait (rules: no road to Sicily)."""
    straits = {frozenset(p) for p in STRAITS}
    return {k: {n for n in v if frozenset((k, n)) not in straits} for k, v in board.army_adjacency.items()}


def test_land_borders_are_pinned(board):
    got = {"-".join(sorted((k, n))) for k, v in road_graph(board).items() for n in v}
    assert got == set(LAND_BORDERS)


def test_fleet_borders_between_land_need_a_shared_sea(board):
    for loc, near in board.fleet_adjacency.items():
        if board.provinces[loc.province].terrain is Terrain.SEA:
            continue
        for other in near:
            if board.provinces[other.province].terrain is Terrain.SEA:
                continue
            assert other.province in board.army_adjacency[loc.province], (loc, other)
            if frozenset((loc.province, other.province)) in {frozenset(s) for s in STRAITS}:
                continue
            shared = {s.province for s in near} & {s.province for s in board.fleet_adjacency[other]}
            assert any(board.provinces[s].terrain is Terrain.SEA for s in shared), (loc, other)
    # Belgica lies between their shores: armies only.
    assert "GER" in board.army_adjacency["LUG"]
    assert "GER" not in board.fleet_province_adjacency["LUG"]


def test_mesopotamia_reaches_only_armenia_and_syria(board):
    assert board.army_adjacency["MES"] == {"ARM", "SYR"}


# -- the rules' examples ---------------------------------------------------------------------


def test_example_moves(board, spelled):
    def army_path(*names):
        ids = [spelled(n) for n in names]
        for a, b in zip(ids, ids[1:]):
            assert b in board.army_adjacency[a], (a, b)

    army_path("Numidia", "Ceasarienis", "Tingitana")  # a cavalry two-stage move
    army_path("Italia", "Rhetia")
    army_path("Thracia", "Asia")
    army_path("HISPANIA", "Nar", "Ita", "Dal", "MACIDONIA")  # along roads
    army_path("Beatica", "Tingitana", "Cea", "Num", "Africa Procons")
    army_path("Africa Procons", "Num", "Cea", "Tingitana", "Beatica")


def test_example_convoy_galatia_to_egyptus(board, spelled):
    path = [spelled(n) for n in ("Galaita", "Mare Rhodus", "Mare Alexandria", "Egyptus")]
    for a, b in zip(path, path[1:]):
        assert Location(b) in board.fleet_adjacency[Location(a)], (a, b)
    assert all(board.provinces[s].convoys for s in path[1:3])


def test_example_builds_name_land_or_island_territories(board, spelled):
    for name in ("Italia", "Numidia", "Egyptus", "Neapolis", "Asia", "SICILIA", "Galatia", "JUDIA"):
        assert board.provinces[spelled(name)].terrain in (Terrain.LAND, Terrain.COAST)


def test_roads_cannot_cross_water_or_straits(board):
    roads = road_graph(board)
    assert roads["SIC"] == set()  # "no roads can go to Sicily"
    assert "NUM" not in reachable(roads, "HIS")  # Hispania can never build at Numidia
    # ...but Egyptus could, with cities in Cyrenaica and Africa Procons
    assert "CYR" in roads["EGY"] and "AFR" in roads["CYR"] and "NUM" in roads["AFR"]


# -- anchors ---------------------------------------------------------------------------------


def test_every_province_has_an_anchor_on_the_roman_world(board):
    for p in board.provinces.values():
        assert p.anchor is not None, p.id
        lon, lat = p.anchor
        assert -12 <= lon <= 46 and 28 <= lat <= 56, p.id
