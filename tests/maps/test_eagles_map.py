"""The Eagles board (Ed Greenwood; docs/rules/eagles.md) against what its rules say.

The board itself is a reconstruction (no map survives): these tests pin every fact the rules state
(the centres of the generals, the allied centres, the extra centres for more than ten players,
Roma and the three other central cities), the data the rule module will read (barbarian and
desert areas, the draw lists, the powers), the real places of the centres, and the geography we
chose, so that none of it can drift.
"""

from __future__ import annotations

import math
from functools import cache

import pytest

from gm.domain.geography import Location, Terrain
from gm.maps.loader import load_map, map_path
from gm.maps.model import GameMap

from .helpers import Spellings, reachable


@cache
def board() -> GameMap:
    return load_map(map_path("eagles"))


@cache
def spellings() -> Spellings:
    return Spellings(board())


def find(spelling: str) -> str:
    """The id a player's spelling names (id, full name or alias, case and punctuation ignored)."""
    return spellings()(spelling)


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Degrees of latitude, longitude shrunk by the cosine of the latitude: enough at this scale."""
    (x1, y1), (x2, y2) = a, b
    return math.hypot((x1 - x2) * math.cos(math.radians((y1 + y2) / 2)), y1 - y2)


# The centres in the rules' own spelling and order, with the real city (longitude, latitude).
GENERAL_CENTRES = {  # "roll a D12, or pick names from a hat"
    "Alexandria": (29.92, 31.20),
    "Antiochia": (36.16, 36.20),
    "Byzantium": (28.98, 41.01),
    "Caesaraugusta": (-0.88, 41.65),
    "Caesarea": (34.89, 32.50),  # read as Caesarea Maritima
    "Carthago Nova": (-0.98, 37.60),
    "Dyrrhachium": (19.45, 41.32),
    "Ephesus": (27.34, 37.94),
    "Leptis Magna": (14.29, 32.64),
    "Londoninium": (-0.12, 51.51),
    "Lutetia": (2.35, 48.86),
    "Mediolanum": (9.19, 45.46),
}
ALLIED_CENTRES = {  # "rolling a D20 or drawing names from a hat"
    "Apulum": (23.57, 46.07),
    "Aquilicia": (13.37, 45.77),
    "Burdigala": (-0.58, 44.84),
    "Carthago": (10.32, 36.85),
    "Colonia Agripa": (6.96, 50.94),
    "Corinthus": (22.88, 37.91),
    "Eburacum": (-1.08, 53.96),
    "Lugdunum": (4.83, 45.76),
    "Moguntiacum": (8.27, 50.00),
    "Memphis": (31.25, 29.85),
    "Nicomedia": (29.92, 40.77),
    "Nisibis": (41.22, 37.07),
    "Olisipo": (-9.14, 38.72),
    "Palmyra": (38.27, 34.55),
    "Petra": (35.44, 30.33),
    "Sinope": (35.15, 42.03),
    "Sirmium": (19.61, 44.97),
    "Tarsus": (34.90, 36.92),
    "Thamugadi": (6.47, 35.48),
    "Tingis": (-5.81, 35.78),
}
EXTRA_CENTRES = {  # "If more than ten players are taking part, add the following centers"
    "Bulla Regia": (8.75, 36.56),
    "Durocortorum": (4.03, 49.26),
    "Hispalis": (-5.99, 37.39),
    "Massilia": (5.37, 43.30),
}
CENTRAL_CITIES = {  # Reinforcements: builds allowed there when captured
    "Roma": (12.50, 41.90),
    "Herculanum": (14.35, 40.81),
    "Pompeii": (14.49, 40.75),
    "Brundisium": (17.94, 40.64),
}
ALL_CENTRES = GENERAL_CENTRES | ALLIED_CENTRES | EXTRA_CENTRES | CENTRAL_CITIES


def ids(names) -> list[str]:
    return [find(n) for n in names]


# -- the centres ------------------------------------------------------------------------------


def test_the_rules_name_forty_distinct_centres_and_the_board_has_exactly_those():
    assert (len(GENERAL_CENTRES), len(ALLIED_CENTRES), len(EXTRA_CENTRES), len(CENTRAL_CITIES)) == (12, 20, 4, 4)
    assert len(set(ids(ALL_CENTRES))) == 40
    assert board().supply_centres == frozenset(ids(ALL_CENTRES))


@pytest.mark.parametrize("spelling", sorted(ALL_CENTRES))
def test_each_centre_in_the_rules_spelling_is_a_supply_centre_at_its_real_place(spelling):
    pid = find(spelling)
    province = board().provinces[pid]
    assert province.supply_centre
    assert province.terrain in (Terrain.LAND, Terrain.COAST)
    real = ALL_CENTRES[spelling]
    assert distance(province.anchor, real) < 1.0
    # the real city lies nearer to its own province's anchor than to any other land anchor
    nearest = min(
        (p for p in board().provinces.values() if p.terrain is not Terrain.SEA),
        key=lambda p: distance(p.anchor, real),
    )
    assert nearest.id == pid


@pytest.mark.parametrize(
    ("spelling", "full_name"),
    [
        ("Londoninium", "Londinium"),
        ("Londinium", "Londinium"),
        ("London", "Londinium"),
        ("Eburacum", "Eboracum"),
        ("York", "Eboracum"),
        ("Colonia Agripa", "Colonia Agrippina"),
        ("Cologne", "Colonia Agrippina"),
        ("Aquilicia", "Aquileia"),
        ("Herculanum", "Herculaneum"),
        ("Caesarea", "Caesarea Maritima"),
        ("Antioch", "Antiochia"),
        ("Lutetia", "Lutetia"),
        ("Paris", "Lutetia"),
        ("Milan", "Mediolanum"),
        ("Mainz", "Moguntiacum"),
        ("Lyon", "Lugdunum"),
        ("Bordeaux", "Burdigala"),
        ("Reims", "Durocortorum"),
        ("Marseille", "Massilia"),
        ("Lisbon", "Olisipo"),
        ("Seville", "Hispalis"),
        ("Cartagena", "Carthago Nova"),
        ("Zaragoza", "Caesaraugusta"),
        ("Tangier", "Tingis"),
        ("Timgad", "Thamugadi"),
        ("Carthage", "Carthago"),
        ("Corinth", "Corinthus"),
        ("Durres", "Dyrrhachium"),
        ("Istanbul", "Byzantium"),
        ("Izmit", "Nicomedia"),
        ("Sinop", "Sinope"),
        ("Rome", "Roma"),
        ("Brindisi", "Brundisium"),
        ("Alba Iulia", "Apulum"),
    ],
)
def test_rules_spellings_and_modern_names_are_accepted(spelling, full_name):
    assert board().provinces[find(spelling)].name == full_name


def test_inland_and_coastal_centres():
    # a player may ask for a fleet instead of an army only in a coastal original centre
    inland = {
        "Caesaraugusta", "Lutetia", "Mediolanum", "Apulum", "Colonia Agripa", "Lugdunum",
        "Moguntiacum", "Memphis", "Nisibis", "Palmyra", "Petra", "Sirmium", "Thamugadi",
        "Bulla Regia", "Durocortorum",
    }
    for spelling in ALL_CENTRES:
        terrain = board().provinces[find(spelling)].terrain
        assert terrain is (Terrain.LAND if spelling in inland else Terrain.COAST), spelling


# -- the rules data ---------------------------------------------------------------------------


def test_draw_lists_keep_the_rules_order():
    rules = board().rules
    assert rules["general_centres"] == ids(GENERAL_CENTRES)
    assert rules["allied_centres"] == ids(ALLIED_CENTRES)
    assert rules["extra_allied_centres_over_ten_players"] == ids(EXTRA_CENTRES)
    assert rules["extra_allied_centres_min_players"] == 11
    assert rules["allied_centres_per_player"] == 2
    assert rules["special_build_centres"] == ids(CENTRAL_CITIES)


def test_the_draw_lists_do_not_overlap():
    rules = board().rules
    lists = [rules["general_centres"], rules["allied_centres"],
             rules["extra_allied_centres_over_ten_players"], rules["special_build_centres"]]
    flat = [c for lst in lists for c in lst]
    assert len(flat) == len(set(flat)) == 40


def test_roma_exceptions():
    rules = board().rules
    rom = find("Roma")
    assert rom not in rules["general_centres"]  # "no general may begin play in Roma itself"
    assert rules["no_general_start"] == [rom]
    assert rules["no_defending_army"] == [rom]  # "except Roma (which has none)"
    assert rules["removed_first"] == [rom]  # a force in Roma must be removed first
    assert rom in rules["special_build_centres"]


def test_players_and_first_move():
    rules = board().rules
    assert rules["players"] == {"min": 2, "max": 12, "recommended": [4, 6]}
    assert rules["first_move"] == {"season": "spring", "year": 118}
    # twelve generals at most, and two allied centres each: 20 suffice for ten, 24 for twelve
    assert len(rules["general_centres"]) == rules["players"]["max"]
    assert 2 * 10 == len(rules["allied_centres"])
    assert 2 * 12 == len(rules["allied_centres"]) + len(rules["extra_allied_centres_over_ten_players"])


# -- the powers -------------------------------------------------------------------------------


def test_twelve_powers_named_after_the_general_centres_with_nothing_fixed():
    game_map = board()
    assert len(game_map.powers) == 12
    by_power = game_map.rules["general_centre_of_power"]
    assert set(by_power) == set(game_map.powers)
    assert sorted(by_power.values()) == sorted(game_map.rules["general_centres"])
    for name, power in game_map.powers.items():
        assert power.home == () and power.owns == () and power.units == (), name
        assert find(name) == by_power[name]
    assert game_map.power_named("Londoninium").name == "Londinium"


# -- seas -------------------------------------------------------------------------------------

SEAS = [
    "Oceanus Atlanticus", "Sinus Aquitanicus", "Oceanus Britannicus", "Oceanus Hibernicus",
    "Oceanus Germanicus", "Fretum Gaditanum", "Mare Balearicum", "Sinus Gallicus",
    "Mare Ligusticum", "Mare Sardoum", "Mare Tyrrhenum", "Mare Internum", "Mare Adriaticum",
    "Mare Ionium", "Syrtis Minor", "Syrtis Maior", "Mare Libycum", "Mare Creticum",
    "Mare Aegaeum", "Mare Aegyptium", "Mare Cilicium", "Mare Syriacum", "Propontis",
    "Pontus Euxinus", "Palus Maeotis",
]


def test_the_sea_areas():
    game_map = board()
    seas = {p.id for p in game_map.provinces.values() if p.terrain is Terrain.SEA}
    assert seas == set(ids(SEAS))
    for sid in seas:
        assert game_map.provinces[sid].convoys
        assert not game_map.provinces[sid].extra.get("barbarian")


def test_the_seas_form_one_water():
    game_map = board()
    seas = set(ids(SEAS))
    assert reachable(game_map.fleet_province_adjacency, next(iter(seas)), within=seas) == seas


def test_every_coastal_province_is_a_port_on_some_sea():
    # storms strike fleets not in port; fleets at sea attack fleets in port from the adjacent sea
    game_map = board()
    for p in game_map.provinces.values():
        if p.terrain is Terrain.COAST:
            assert not p.coasts, p.id  # one coast everywhere
            seas = {loc.province for loc in game_map.fleet_adjacency[Location(p.id)]
                    if game_map.provinces[loc.province].terrain is Terrain.SEA}
            assert seas, p.id


@pytest.mark.parametrize(
    ("port", "seas"),
    [
        ("Londinium", {"Oceanus Britannicus", "Oceanus Germanicus"}),
        ("Byzantium", {"Propontis", "Pontus Euxinus"}),
        ("Nicomedia", {"Propontis", "Pontus Euxinus"}),
        ("Carthago", {"Mare Internum", "Mare Sardoum"}),
        ("Roma", {"Mare Tyrrhenum"}),
        ("Herculanum", {"Mare Tyrrhenum"}),
        ("Pompeii", {"Mare Tyrrhenum"}),
        ("Brundisium", {"Mare Adriaticum", "Mare Ionium"}),
        ("Aquileia", {"Mare Adriaticum"}),
        ("Dyrrhachium", {"Mare Adriaticum", "Mare Ionium"}),
        ("Corinthus", {"Mare Ionium", "Mare Aegaeum", "Mare Creticum"}),
        ("Ephesus", {"Mare Aegaeum", "Mare Creticum"}),
        ("Alexandria", {"Mare Aegyptium"}),
        ("Sinope", {"Pontus Euxinus"}),
        ("Tingis", {"Oceanus Atlanticus", "Fretum Gaditanum"}),
        ("Olisipo", {"Oceanus Atlanticus"}),
        ("Massilia", {"Sinus Gallicus", "Mare Ligusticum"}),
        ("Leptis Magna", {"Syrtis Minor", "Syrtis Maior"}),
    ],
)
def test_ports_and_their_seas(port, seas):
    game_map = board()
    near = {loc.province for loc in game_map.fleet_adjacency[Location(find(port))]
            if game_map.provinces[loc.province].terrain is Terrain.SEA}
    assert near == set(ids(seas))


# -- barbarian lands --------------------------------------------------------------------------

BARBARIAN = [
    "Caledonia", "Hibernia", "Germania", "Suebia", "Marcomannia", "Iazyges", "Dacia Libera",
    "Sarmatia", "Taurica", "Caucasus", "Parthia", "Arabia Deserta", "Aethiopia",
    "Libya Deserta", "Phazania", "Gaetulia", "Atlas",
]
DESERT = ["Arabia Deserta", "Aethiopia", "Libya Deserta", "Phazania", "Gaetulia"]


def test_barbarian_and_desert_areas():
    game_map = board()
    barbarian = {p.id for p in game_map.provinces.values() if p.extra.get("barbarian")}
    desert = {p.id for p in game_map.provinces.values() if p.extra.get("desert")}
    assert barbarian == set(ids(BARBARIAN))
    assert desert == set(ids(DESERT))
    assert desert <= barbarian  # the desert result is read only in barbarian lands
    for pid in barbarian:
        assert game_map.provinces[pid].extra["barbarian"] is True


def test_barbarian_lands_by_the_names_players_use():
    for spelling in ["Caledonia", "Scotland", "Germania", "Sarmatia", "Arabia", "Sahara", "Parthia", "Ireland"]:
        assert board().provinces[find(spelling)].extra.get("barbarian"), spelling
    for spelling in ["Sahara", "Arabia", "Nubia", "Fezzan", "Libyan Desert"]:
        assert board().provinces[find(spelling)].extra.get("desert"), spelling
    # inside the Empire in A.D. 117
    for spelling in ["Dacia", "Drobeta", "Armenia", "Mesopotamia", "Arabia Petraea", "Brigantia"]:
        assert not board().provinces[find(spelling)].extra.get("barbarian"), spelling


def test_no_centre_lies_in_barbarian_land_and_every_barbarian_land_borders_the_empire():
    game_map = board()
    for pid in game_map.supply_centres:
        assert not game_map.provinces[pid].extra.get("barbarian"), pid
    for pid in ids(BARBARIAN):
        near = game_map.neighbours[pid]
        assert any(not game_map.provinces[n].extra.get("barbarian") for n in near), pid


# -- geography we chose -----------------------------------------------------------------------


def army_components() -> list[set[str]]:
    game_map = board()
    left = {p.id for p in game_map.provinces.values() if p.terrain is not Terrain.SEA}
    parts = []
    while left:
        part = reachable(game_map.army_adjacency, left.pop(), within=left)
        left -= part
        parts.append(part)
    return parts


def test_what_armies_reach_only_by_sea():
    parts = sorted(army_components(), key=len)
    islands = [part for part in parts if len(part) < 20]
    assert sorted(sorted(part) for part in islands) == sorted(
        [sorted(ids(["Sardinia"])), sorted(ids(["Corsica"])), sorted(ids(["Baleares"])),
         sorted(ids(["Creta"])), sorted(ids(["Cyprus"])), sorted(ids(["Hibernia"])),
         sorted(ids(["Caledonia", "Brigantia", "Eboracum", "Deva", "Lindum", "Siluria",
                     "Dumnonia", "Londinium"]))]
    )
    assert len(parts) == len(islands) + 1  # everything else is one land, Sicily included


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Roma", "Herculanum"), ("Herculanum", "Pompeii"), ("Roma", "Etruria"),
        ("Byzantium", "Nicomedia"),  # the Bosporus
        ("Thracia", "Mysia"),  # the Hellespont
        ("Sicilia", "Bruttium"),  # the Strait of Messina
        ("Mediolanum", "Aquileia"), ("Sirmium", "Moesia Superior"), ("Drobeta", "Moesia Superior"),
        ("Apulum", "Drobeta"), ("Antiochia", "Palmyra"), ("Nisibis", "Palmyra"), ("Petra", "Damascus"),
        ("Pelusium", "Memphis"), ("Alexandria", "Memphis"), ("Lutetia", "Durocortorum"),
        ("Colonia Agrippina", "Moguntiacum"), ("Caesaraugusta", "Tarraco"), ("Tingis", "Atlas"),
    ],
)
def test_armies_cross(a, b):
    assert find(b) in board().army_adjacency[find(a)]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Tingis", "Hispalis"),  # the Strait of Gibraltar is a sea area
        ("Londinium", "Gesoriacum"),  # the Channel
        ("Sardinia", "Corsica"),
        ("Roma", "Pompeii"),
        ("Roma", "Brundisium"),
        ("Alexandria", "Petra"),
    ],
)
def test_armies_do_not_cross(a, b):
    assert find(b) not in board().army_adjacency[find(a)]


@pytest.mark.parametrize(
    ("a", "b", "fleets"),
    [
        ("Roma", "Herculanum", True),
        ("Etruria", "Picenum", False),  # both coastal, on different seas
        ("Byzantium", "Nicomedia", True),
        ("Sicilia", "Bruttium", True),
        ("Tingis", "Mauretania Caesariensis", True),
        ("Burdigala", "Narbo", False),
    ],
)
def test_fleets_along_coasts(a, b, fleets):
    assert (Location(find(b)) in board().fleet_adjacency[Location(find(a))]) is fleets


def test_anchors_lie_on_the_roman_world():
    for p in board().provinces.values():
        lon, lat = p.anchor
        assert -13.0 <= lon <= 50.0 and 15.0 <= lat <= 60.0, p.id
