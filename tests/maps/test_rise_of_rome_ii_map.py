"""The Rise of Rome II board (maps/rise-of-rome-ii.yaml) against its rules text.

The board is a reconstruction (no machine-readable map exists), so these tests pin every fact
the rules text (Rise of Rome II, Stephen Agar) states about it: the seven powers and their
starting units (1.1), the neutral centres (2), the leaders (3.2), the Barbarian build areas
(4.2), the 37 centres (10), the 13 land bridges with the seas they cross (7.1, 7.3), the map
oddities (8.1-8.4), the calendar (9), the rules' worked examples, and the designer's notes.
Names are written as the rules spell them and looked up through the map's names and aliases.
"""

from __future__ import annotations


import pytest

from gm.domain.geography import Location, Terrain
from gm.maps.loader import load_map, map_path

from .helpers import Spellings, reachable

# Rule 1.1 (the first three lines carry no power name in the rules text: Carthage, Rome, Macedonia).
STARTING_UNITS = {
    "Carthage": ["Fleet Carthage", "Army New Carthage", "Army Thapsus"],
    "Rome": ["Army Umbria", "Fleet Campania", "Army Rome"],
    "Macedonia": ["Army Lysimacheia", "Fleet Cassandreia", "Army Pella"],
    "Ptolemaic Egypt": ["Army Alexandria", "Fleet Cyprus", "Army Memphis"],
    "Seleucid Persia": ["Army Antioch", "Army Mesopotamia", "Fleet Phrygia"],
    "The Greek States": ["Fleet Achea", "Fleet Aetolia", "Army Boeotia"],
    "The Barbarians": ["Army Aquitania", "Army Celtiberia", "Army Galatia", "Army Illyria", "Army Moesia"],
}

# Rule 2.
NEUTRAL_CENTRES = [
    "Coele Syria", "Crete", "Cyrene", "Epirus", "Hippo Regius", "Liguria", "Massilia",
    "Pergammon", "Pontus", "Rhodes", "Saguntum", "Sparta", "Syracuse", "Thessaly",
]

# Rule 3.2, by the power names the rules use there.
LEADERS = {
    "Carthage": "Hannibal",
    "Egyptians": "Ptolemy IV",
    "Greeks": "Philopoemen",
    "Macedonia": "Philip V",
    "Persians": "Antiochus III",
    "Rome": "Publius Scipio",
}

# Rule 4.2.
BUILD_AREAS = ["Gaul", "Germania", "Dacia", "Caucasus"]

# Rule 7.1, in the rules' order.
LAND_BRIDGES = [
    ("New Carthage", "Mauretania"),
    ("Massilia", "Sardinia"),
    ("Liguria", "Sardinia"),
    ("Hippo Regius", "Sardinia"),
    ("Zama", "Syracuse"),
    ("Sparta", "Crete"),
    ("Rhodes", "Crete"),
    ("Crete", "Cyrene"),
    ("Crete", "Libya"),
    ("Lysimacheia", "Pergammon"),
    ("Thrace", "Bithynia"),
    ("Thrace", "Pergammon"),
    ("Memphis", "Arabia"),
]

# Every place the rules text names on the board (with the Rise of Rome I spaces we kept).
NAMED_PLACES = sorted(
    {u.split(" ", 1)[1] for units in STARTING_UNITS.values() for u in units}
    | set(NEUTRAL_CENTRES) | set(BUILD_AREAS) | {p for pair in LAND_BRIDGES for p in pair}
    | {"African Sea", "Iberian Sea", "Ionian Sea", "Adriatic", "Sicily", "Balearic Islands",
       "Corsica", "Straits of Messana", "Hellespont", "Numidia", "Campania",
       "Emporia", "Gades", "Apollonia", "Apulia", "Etruria", "Ptolemais", "Raphia", "Philippi",
       "Armenia"}
)


@pytest.fixture(scope="module")
def board():
    return load_map(map_path("rise-of-rome-ii"))


@pytest.fixture(scope="module")
def spelled(board):
    return Spellings(board)


def power(board, name: str):
    found = board.power_named(name)
    assert found is not None, f"the rules' power {name!r} is not on the map"
    return found


def fleet_near(board, province: str) -> set[str]:
    return set(board.fleet_province_adjacency.get(province, ()))


def is_sea(board, province: str) -> bool:
    return board.provinces[province].terrain is Terrain.SEA


# -- 1. Players --------------------------------------------------------------------------------

def test_seven_powers(board):
    assert len(board.powers) == 7
    assert {power(board, name).name for name in STARTING_UNITS} == set(board.powers)


@pytest.mark.parametrize("name", sorted(STARTING_UNITS))
def test_starting_units_are_those_of_rule_1_1(board, spelled, name):
    expected = set()
    for text in STARTING_UNITS[name]:
        kind, place = text.split(" ", 1)
        expected.add((kind[0], Location(spelled(place))))
    actual = {(u.letter, u.location) for u in power(board, name).units}
    assert actual == expected


@pytest.mark.parametrize("name", sorted(STARTING_UNITS))
def test_each_power_starts_on_its_home_centres(board, name):
    p = power(board, name)
    assert set(p.home) == {u.location.province for u in p.units}
    assert len(p.home) == len(p.units) == len(set(p.home))
    assert not p.owns
    assert all(board.provinces[h].supply_centre for h in p.home)


def test_the_rules_power_names_of_3_2_are_known(board):
    for name in LEADERS:
        power(board, name)


# -- 2 and 10. Supply centres ------------------------------------------------------------------

def test_neutral_centres_are_those_of_rule_2(board, spelled):
    homes = {h for p in board.powers.values() for h in p.home}
    neutral = {spelled(n) for n in NEUTRAL_CENTRES}
    assert len(neutral) == 14
    assert board.supply_centres - homes == neutral


def test_thirty_seven_centres_on_the_board(board):
    homes = [h for p in board.powers.values() for h in p.home]
    assert len(board.supply_centres) == 37
    assert len(homes) == 23 == len(set(homes))


def test_sicily_and_syracuse_are_separate_and_only_syracuse_is_a_centre(board, spelled):
    sicily, syracuse = spelled("Sicily"), spelled("Syracuse")
    assert sicily != syracuse
    assert board.provinces[syracuse].supply_centre
    assert not board.provinces[sicily].supply_centre
    assert syracuse in board.army_adjacency[sicily]


# -- 3. Leaders --------------------------------------------------------------------------------

def test_leaders_of_rule_3_2(board):
    leaders = board.rules["leaders"]
    expected = {power(board, p).name: leader for p, leader in LEADERS.items()}
    assert dict(leaders) == expected
    barbarians = power(board, "The Barbarians").name
    assert set(leaders) == set(board.powers) - {barbarians}, "every civilised power has a leader"


def test_leaders_are_not_units_or_places(board, spelled):
    for leader in board.rules["leaders"].values():
        assert leader not in spelled
    for leader, aliases in board.rules["leader_aliases"].items():
        assert leader in board.rules["leaders"].values()
        for alias in aliases:
            assert alias not in spelled


def test_first_home_centre_is_where_an_unplaced_leader_starts(board, spelled):
    expected = {"Carthage": "Carthage", "Rome": "Rome", "Macedonia": "Pella",
                "Egyptians": "Alexandria", "Persians": "Antioch", "Greeks": "Achea"}
    for name, place in expected.items():
        assert power(board, name).home[0] == spelled(place)


# -- 4 and 5. The Barbarians -------------------------------------------------------------------

def test_barbarian_power_is_named(board):
    assert board.rules["barbarian_power"] == power(board, "The Barbarians").name


def test_barbarians_start_with_five_armies_in_five_home_centres(board):
    barbarians = power(board, "The Barbarians")
    assert len(barbarians.home) == 5
    assert [u.letter for u in barbarians.units] == ["A"] * 5


def test_build_areas_of_rule_4_2(board, spelled):
    areas = {spelled(n) for n in BUILD_AREAS}
    flagged = {p.id for p in board.provinces.values() if p.extra.get("barbarian_build_area")}
    assert flagged == areas
    homes = {h for p in board.powers.values() for h in p.home}
    for a in areas:
        prov = board.provinces[a]
        assert not prov.supply_centre, f"{prov.name} has no economic value"
        assert a not in homes
        assert prov.terrain is Terrain.LAND, "no fleet may stand in a build area"
        assert board.army_adjacency[a], f"Barbarian armies built in {prov.name} must be able to leave"


def test_build_areas_lie_in_the_north(board, spelled):
    for name in BUILD_AREAS:
        lon, lat = board.provinces[spelled(name)].anchor
        for c in board.supply_centres:
            c_lon, c_lat = board.provinces[c].anchor
            if abs(c_lon - lon) <= 10:
                assert c_lat < lat, f"{name} lies north of {board.provinces[c].name}"


def test_barbarian_homes_reach_a_build_area_by_land(board, spelled):
    areas = {spelled(n) for n in BUILD_AREAS}
    for home in power(board, "The Barbarians").home:
        assert reachable(board.army_adjacency, home) & areas


# -- 7. Land bridges ---------------------------------------------------------------------------

def test_thirteen_land_bridges_of_rule_7_1(board, spelled):
    recorded = [frozenset(b["between"]) for b in board.rules["land_bridges"]]
    expected = [frozenset({spelled(a), spelled(b)}) for a, b in LAND_BRIDGES]
    assert len(recorded) == 13 == len(set(recorded))
    assert recorded == expected


@pytest.mark.parametrize("bridge", range(13))
def test_land_bridge_is_an_army_border_only_over_a_sea_touching_both_ends(board, bridge):
    spec = board.rules["land_bridges"][bridge]
    a, b = spec["between"]
    sea = spec["crosses"]
    assert b in board.army_adjacency[a] and a in board.army_adjacency[b]
    assert b not in fleet_near(board, a), "fleets never use land bridges"
    assert is_sea(board, sea)
    assert sea in fleet_near(board, a) and sea in fleet_near(board, b)


def test_islands_have_army_borders_only_over_bridges(board, spelled):
    bridges = {frozenset(b["between"]) for b in board.rules["land_bridges"]}
    allowed = bridges | {frozenset({spelled("Sicily"), spelled("Campania")}),  # rule 8.3
                         frozenset({spelled("Sicily"), spelled("Syracuse")})}   # one island
    for island in ("Sardinia", "Balearic Islands", "Rhodes", "Crete", "Cyprus", "Sicily", "Syracuse"):
        i = spelled(island)
        for other in board.army_adjacency[i]:
            assert frozenset({i, other}) in allowed, f"{island}-{board.provinces[other].name}"


def test_rule_7_3_example(board, spelled):
    african, iberian = spelled("African Sea"), spelled("Iberian Sea")
    sicily, syracuse, zama = spelled("Sicily"), spelled("Syracuse"), spelled("Zama")
    # F(AFRICAN SEA)-Syracuse stops A(Syracuse)-Zama: the bridge crosses the African Sea.
    assert syracuse in fleet_near(board, african)
    bridge = next(b for b in board.rules["land_bridges"] if set(b["between"]) == {syracuse, zama})
    assert bridge["crosses"] == african
    # F(AFRICAN SEA) S F(IBERIAN SEA)-Sicily.
    assert sicily in fleet_near(board, african)
    assert sicily in fleet_near(board, iberian)


# -- 8. Map oddities ---------------------------------------------------------------------------

def test_achea_passes_fleets_with_one_coast_and_never_convoys(board, spelled):
    achea = board.provinces[spelled("Achea")]
    assert achea.terrain is Terrain.COAST
    assert achea.coasts == ()
    assert achea.convoys is False
    # Through the Isthmus: from the Gulf of Corinth and the Ionian Sea to the Aegean.
    near = fleet_near(board, achea.id)
    assert {spelled("Gulf of Corinth"), spelled("Ionian Sea"), spelled("Aegean Sea")} <= near


@pytest.mark.parametrize("island", ["Rhodes", "Sardinia", "Balearic Islands"])
def test_passable_islands_convoy(board, spelled, island):
    prov = board.provinces[spelled(island)]
    assert prov.terrain is Terrain.COAST and prov.coasts == ()
    assert prov.convoys is True
    assert sum(is_sea(board, n) for n in fleet_near(board, prov.id)) >= 2, "fleets move through it"


def test_sardinia_includes_corsica(board, spelled):
    assert spelled("Corsica") == spelled("Sardinia")


def test_rule_8_2_example(board, spelled):
    rhodes, phrygia, pergammon = spelled("Rhodes"), spelled("Phrygia"), spelled("Pergammon")
    # F(Rhodes) C A(Phrygia)-Pergammon; A(Pergammon)-Phrygia: one convoying fleet in Rhodes,
    # which borders both by water.
    assert board.provinces[rhodes].convoys
    assert {phrygia, pergammon} <= fleet_near(board, rhodes)
    assert phrygia in board.army_adjacency[pergammon]


def test_ionian_sea_round_the_toe_of_italy(board, spelled):
    ionian = spelled("Ionian Sea")
    assert {spelled(n) for n in ("Adriatic", "Apulia", "Campania", "Sicily", "Syracuse",
                                      "Tyrrhenian Sea")} <= fleet_near(board, ionian)
    assert spelled("Straits of Messana") == ionian


def test_sicily_and_campania_adjacent(board, spelled):
    sicily, campania = spelled("Sicily"), spelled("Campania")
    assert campania in board.army_adjacency[sicily]
    assert campania in fleet_near(board, sicily) and sicily in fleet_near(board, campania)


def test_boeotia_has_east_and_west_coasts(board, spelled):
    boeotia = board.provinces[spelled("Boeotia")]
    assert set(boeotia.coasts) == {"EC", "WC"}
    east = {loc.province for loc in board.fleet_adjacency[Location(boeotia.id, "EC")]}
    west = {loc.province for loc in board.fleet_adjacency[Location(boeotia.id, "WC")]}
    assert spelled("Aegean Sea") in east and spelled("Gulf of Corinth") in west
    assert not (east & west) - {spelled("Achea")}


def test_phrygia_has_one_coast(board, spelled):
    assert board.provinces[spelled("Phrygia")].coasts == ()


# -- 5.2, 9 and the designer's notes -----------------------------------------------------------

def test_epirus_can_build_fleets_facing_italy(board, spelled):
    epirus, ionian = spelled("Epirus"), spelled("Ionian Sea")
    assert board.provinces[epirus].terrain is Terrain.COAST
    assert ionian in fleet_near(board, epirus)
    assert {spelled("Apulia"), spelled("Campania")} <= fleet_near(board, ionian)


def test_first_move_spring_220_bc(board):
    assert dict(board.rules["first_move"]) == {"season": "spring", "year": -220}


def test_barbarian_route_over_the_straits_avoids_macedonian_homes(board, spelled):
    thrace, bithynia, moesia = spelled("Thrace"), spelled("Bithynia"), spelled("Moesia")
    homes = {h for p in board.powers.values() for h in p.home}
    assert thrace not in homes and bithynia not in homes
    assert thrace in board.army_adjacency[moesia]
    assert bithynia in board.army_adjacency[thrace]
    assert spelled("Galatia") in board.army_adjacency[bithynia]


def test_bridges_link_sparta_crete_cyrene_rhodes(board, spelled):
    crete = spelled("Crete")
    for other in ("Sparta", "Cyrene", "Rhodes"):
        assert spelled(other) in board.army_adjacency[crete]


def test_board_weighted_to_the_east(board):
    east = [c for c in board.supply_centres if board.provinces[c].anchor[0] > 15]
    assert len(east) > len(board.supply_centres) / 2


# -- The board as a whole ----------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMED_PLACES)
def test_every_place_the_rules_name_is_on_the_board(spelled, name):
    spelled(name)


def test_every_coastal_province_touches_a_sea(board):
    for p in board.provinces.values():
        if p.terrain is Terrain.COAST:
            assert any(is_sea(board, n) for n in fleet_near(board, p.id)), p.name
        if p.terrain is Terrain.SEA:
            assert len(fleet_near(board, p.id)) >= 2, p.name


def test_every_province_has_an_anchor_in_the_mediterranean_world(board):
    for p in board.provinces.values():
        lon, lat = p.anchor
        assert -15 <= lon <= 50 and 24 <= lat <= 52, p.name
    for loc in (Location(pid, c) for pid, p in board.provinces.items() for c in p.coasts):
        assert loc.coast in board.provinces[loc.province].coast_anchors


def test_land_is_connected(board, spelled):
    seen = reachable(board.army_adjacency, spelled("Rome"))
    unreached = {p.id for p in board.provinces.values() if p.terrain is not Terrain.SEA} - seen
    assert unreached == {spelled("Balearic Islands"), spelled("Cyprus")}
