"""Rise of Rome II: the rules text's own facts and sentences that no other test proves, each
written from the text (Rise of Rome II, Stephen Agar) with the places as it names them, and
run through `gm adjudicate` (docs/rules/rise-of-rome-ii.md traces every rule to its tests)."""

from __future__ import annotations

import pytest

from gm.maps.model import normalise_name
from tests.variants.test_rise_of_rome_ii import CATALOG, adjudicate, outcome

ROR = CATALOG.get("rise-of-rome-ii")
NAMES = {normalise_name(p.name): p.id for p in ROR.map.provinces.values()}


def at(name: str) -> str:
    """The province the text names."""
    return NAMES[normalise_name(name)]


# -- 1.1, 2, 10: the start ----------------------------------------------------------------------

PLACEMENTS = {  # 1.1, as the text lists them (the first three powers' names are lost in it)
    "Carthage": ["Fleet Carthage", "Army New Carthage", "Army Thapsus"],
    "Rome": ["Army Umbria", "Fleet Campania", "Army Rome"],
    "Macedonia": ["Army Lysimacheia", "Fleet Cassandreia", "Army Pella"],
    "Egypt": ["Army Alexandria", "Fleet Cyprus", "Army Memphis"],
    "Persia": ["Army Antioch", "Army Mesopotamia", "Fleet Phrygia"],
    "Greek States": ["Fleet Achea", "Fleet Aetolia", "Army Boeotia"],
    "Barbarians": ["Army Aquitania", "Army Celtiberia", "Army Galatia", "Army Illyria", "Army Moesia"],
}
NEUTRALS = ("Coele Syria", "Crete", "Cyrene", "Epirus", "Hippo Regius", "Liguria", "Massilia", "Pergammon",
            "Pontus", "Rhodes", "Saguntum", "Sparta", "Syracuse", "Thessaly")


def test_the_seven_players_start_where_rule_1_1_places_them() -> None:
    start = ROR.initial_position()
    placed = {power: sorted(f"{u.type.letter} {u.location.province}" for u in start.units if u.power == power)
              for power in PLACEMENTS}
    assert placed == {power: sorted(f"{kind[0]} {at(place.split(' ', 1)[1])}" for kind, place in
                                    ((text.split(" ", 1)[0], text) for text in units))
                      for power, units in PLACEMENTS.items()}
    assert len(start.units) == 23


def test_the_fourteen_neutral_centres_of_rule_2_and_thirty_seven_in_all() -> None:
    start = ROR.initial_position()
    neutral = {at(name) for name in NEUTRALS}
    assert neutral <= ROR.map.supply_centres and not neutral & set(start.centres)
    assert ROR.map.supply_centres - neutral == set(start.centres)  # every other centre is a home centre
    assert len(ROR.map.supply_centres) == 37  # 10: "Initially there are 37 supply centres"


# -- 3.2: the leaders' names ----------------------------------------------------------------------

@pytest.mark.parametrize(("power", "name", "home"), [
    ("Carthage", "Hannibal", "CAR"), ("Egypt", "Ptolemy IV", "ALE"), ("Greek States", "Philopoemen", "ACH"),
    ("Macedonia", "Philip V", "PEL"), ("Persia", "Antiochus III", "ANT"), ("Rome", "Publius Scipio", "ROM"),
])
def test_each_civilised_power_has_the_leader_rule_3_2_names(power: str, name: str, home: str) -> None:
    result = adjudicate("S-219M", {power: [f"L {home}"]}, {power: [f"{name} H"]})
    assert result["results"][power] == [{"order": f"L {home} H", "unit": f"L {home}", "outcome": "succeeds"}]
    assert ROR.leaders[power] == name
    assert "Barbarians" not in ROR.leaders  # 3.1: the civilised players only


# -- 3.4: a leader shares a space with a unit of its own: in a retreat too ----------------------------

# Sicily's every neighbour but Campania held by Carthage, which takes Sicily from Syracuse.
SICILY_HEMMED_IN = {"Carthage": ["A SYR", "F AFR", "F IBE", "F ION", "F TYR"]}
SICILY_TAKEN = {"Carthage": ["A Syracuse - Sicily", "F African Sea S A Syracuse - Sicily"]}


def test_a_dislodged_leader_retreats_beside_its_own_army() -> None:
    """3.4 "Leader Units may share a space with a unit of their own nationality": Scipio, beaten
    in Sicily, retreats to Campania, where Rome's army stands (the only space left him), and
    the two then share it; his name is enough in the retreat order (3.2)."""
    beaten = adjudicate("F-219M", {"Rome": ["L SIC", "A CAM"], **SICILY_HEMMED_IN}, SICILY_TAKEN)
    assert beaten["dislodged"] == {"Rome": [{"unit": "L SIC", "attacker_from": "SYR", "retreats": ["CAM"]}]}
    retreat = adjudicate("F-219R", beaten["units"], {"Rome": ["Scipio R Campania"]}, dislodged=beaten["dislodged"],
                         centers=beaten["centers"], extra=beaten["extra"])
    assert outcome(retreat, "Rome", "L SIC R CAM")["outcome"] == "succeeds"
    assert retreat["units"]["Rome"] == ["A CAM", "L CAM"]


def test_a_dislodged_army_retreats_beside_its_own_leader_standing_alone() -> None:
    """3.4: the same sharing, the other way round: Rome's army beaten in Sicily retreats to
    Campania, where Scipio stands alone; with an army beside him there, it could not."""
    beaten = adjudicate("F-219M", {"Rome": ["A SIC", "L CAM"], **SICILY_HEMMED_IN}, SICILY_TAKEN)
    assert beaten["dislodged"]["Rome"] == [{"unit": "A SIC", "attacker_from": "SYR", "retreats": ["CAM"]}]
    full = adjudicate("F-219M", {"Rome": ["A SIC", "L CAM", "F CAM"], **SICILY_HEMMED_IN}, SICILY_TAKEN)
    assert full["dislodged"]["Rome"] == [{"unit": "A SIC", "attacker_from": "SYR", "retreats": []}]


@pytest.mark.parametrize("order", ["Scipio R Tyrrhenian Sea", "Publius Scipio - TYR", "L SIC R TYR"])
def test_a_leader_is_named_by_its_name_in_a_retreat_order(order: str) -> None:
    """3.2: the leaders' names, wherever a unit is written; a retreat order too."""
    result = adjudicate("F-219R", {"Carthage": ["A SIC"]}, {"Rome": [order]},
                        dislodged={"Rome": [{"unit": "L SIC", "attacker_from": "SYR", "retreats": ["TYR"]}]})
    assert result["results"]["Rome"] == [{"order": "L SIC R TYR", "unit": "L SIC", "outcome": "succeeds"}]
    assert result["units"]["Rome"] == ["L TYR"]


def test_a_leader_and_its_army_retreating_into_one_space_share_it_where_two_armies_clash() -> None:
    """3.4: a leader and a unit of its own may share a space, so retreating into the same one
    they both get there; two armies retreating there are both destroyed, as usual."""
    dislodged = {"Rome": [{"unit": "L SIC", "attacker_from": "SYR", "retreats": ["CAM"]},
                          {"unit": "A SIC", "attacker_from": "SYR", "retreats": ["CAM"]}]}
    shared = adjudicate("F-219R", {"Carthage": ["A SIC"]}, {"Rome": ["L SIC R CAM", "A SIC R CAM"]},
                        dislodged=dislodged)
    assert shared["units"]["Rome"] == ["A CAM", "L CAM"]
    clash = adjudicate("F-219R", {"Carthage": ["A SIC", "A APU"]}, {"Rome": ["A SIC R CAM", "A APU R CAM"]},
                       dislodged={"Rome": [{"unit": "A SIC", "attacker_from": "SYR", "retreats": ["CAM"]},
                                           {"unit": "A APU", "attacker_from": "ROM", "retreats": ["CAM"]}]})
    assert [r["reason"] for r in clash["results"]["Rome"]] == ["bounced", "bounced"]
    assert "Rome" not in clash["units"]


def test_a_leader_and_its_own_army_moving_into_one_space_share_it_where_two_armies_stand_off() -> None:
    """3.4: Scipio from Umbria and Rome's army from Rome both enter Etruria: a leader and a unit
    of its own may share a space, so both get there; two Roman armies would stand off."""
    shared = adjudicate("S-219M", {"Rome": ["L UMB", "A ROM"]}, {"Rome": ["Scipio - Etruria", "A Rome - Etruria"]})
    assert shared["units"]["Rome"] == ["A ETU", "L ETU"]
    standoff = adjudicate("S-219M", {"Rome": ["A UMB", "A ROM"]}, {"Rome": ["A UMB - ETU", "A ROM - ETU"]})
    assert [r["reason"] for r in standoff["results"]["Rome"]] == ["bounced", "bounced"]


# -- 4: the Barbarians ----------------------------------------------------------------------------

def test_a_civilised_fleet_may_convoy_a_barbarian_army() -> None:
    """4.1 "Barbarian armies can be convoyed by civilised players"."""
    result = adjudicate("S-219M", {"Barbarians": ["A ILL"], "Rome": ["F ADR"]},
                        {"Barbarians": ["A Illyria - Apulia"], "Rome": ["F ADR C A ILL - APU"]})
    assert result["units"]["Barbarians"] == ["A APU"]


def test_the_barbarian_build_areas_are_no_supply_centres() -> None:
    """4.2 "These Barbarian build areas have no economic value in themselves"."""
    areas = {at(name) for name in ("Gaul", "Germania", "Dacia", "Caucasus")}
    assert areas == ROR.build_areas and not areas & ROR.map.supply_centres
    held = adjudicate("F-219M", {"Barbarians": ["A GAU", "A GER"]}, centers={})
    assert held["centers"] == {}


def test_the_barbarians_come_back_by_a_rebellion_after_being_eliminated() -> None:
    """5.1 "it is possible for the Barbarian player to re-enter the game even after he has been
    eliminated"."""
    result = adjudicate("F-219M", {"Rome": ["A ROM"]}, centers={"Rome": ["ROM", "AQU"]}, extra={"rebellion_after": 1})
    assert result["units"]["Barbarians"] == ["A AQU"] and result["centers"]["Barbarians"] == ["AQU"]


# -- 6.2: a double unit is one unit -----------------------------------------------------------------

def test_a_double_unit_takes_one_order_it_cannot_split_into_two_actions() -> None:
    """6.2 "cannot sub-divide into two units nor split their strength into two separate actions"."""
    result = adjudicate("S-219M", {"Rome": ["2A ROM", "A APU"]}, {"Rome": ["2A ROM - UMB", "2A ROM S A APU"]},
                        extra={"doubles": {"ROM": 2}})
    assert outcome(result, "Rome", "2A ROM - UMB")["reason"] == "superseded"
    assert outcome(result, "Rome", "2A ROM S A APU")["outcome"] == "succeeds"
    assert result["units"]["Rome"] == ["2A ROM", "A APU"]


# -- 7.1, 7.2: land bridges -------------------------------------------------------------------------

BRIDGES = (("New Carthage", "Mauretania"), ("Massilia", "Sardinia"), ("Liguria", "Sardinia"),
           ("Hippo Regius", "Sardinia"), ("Zama", "Syracuse"), ("Sparta", "Crete"), ("Rhodes", "Crete"),
           ("Crete", "Cyrene"), ("Crete", "Libya"), ("Lysimacheia", "Pergammon"), ("Thrace", "Bithynia"),
           ("Thrace", "Pergammon"), ("Memphis", "Arabia"))


@pytest.mark.parametrize(("one", "other"), BRIDGES)
def test_an_army_crosses_each_land_bridge_of_rule_7_1_both_ways(one: str, other: str) -> None:
    """7.1, 7.2 "a direct connection which allows Armies ... to move directly"."""
    a, b = at(one), at(other)
    there = adjudicate("S-219M", {"Rome": [f"A {a}"]}, {"Rome": [f"A {a} - {b}"]})
    back = adjudicate("S-219M", {"Rome": [f"A {b}"]}, {"Rome": [f"A {b} - {a}"]})
    assert (there["units"]["Rome"], back["units"]["Rome"]) == ([f"A {b}"], [f"A {a}"])


def test_the_map_has_no_land_bridge_beyond_rule_7_1() -> None:
    assert {frozenset(b.ends) for b in ROR.bridges} == {frozenset((at(x), at(y))) for x, y in BRIDGES}


def test_a_fleet_does_not_cross_a_land_bridge() -> None:
    """7.2 "(but not Fleets)"."""
    result = adjudicate("S-219M", {"Rome": ["F SYR"]}, {"Rome": ["F Syracuse - Zama"]})
    assert result["results"]["Rome"][0]["reason"].startswith("illegal:")
    assert result["units"]["Rome"] == ["F SYR"]


# -- 8: map oddities ----------------------------------------------------------------------------------

def test_fleets_move_through_achea_which_has_one_coast_and_no_convoy() -> None:
    """8.1 "Fleets may move through Achea and therefore it only has one coast. A Fleet in Achea may
    not convoy."."""
    into = adjudicate("S-219M", {"Greek States": ["F GOC"]}, {"Greek States": ["F Gulf of Corinth - Achea"]})
    out = adjudicate("S-219M", {"Greek States": ["F ACH"]}, {"Greek States": ["F Achea - Aegean Sea"]})
    assert (into["units"]["Greek States"], out["units"]["Greek States"]) == (["F ACH"], ["F AEG"])
    assert ROR.map.provinces["ACH"].coasts == ()
    convoy = adjudicate("S-219M", {"Greek States": ["F ACH", "A BOE"]}, {"Greek States": ["F ACH C A BOE - SPA"]})
    assert convoy["results"]["Greek States"][0]["reason"] == "illegal: a fleet in Achea cannot convoy"


def test_fleets_move_through_and_convoy_through_sardinia_and_the_balearic_islands() -> None:
    """8.2: Sardinia carries an army from Massilia to Rome; fleets sail through Sardinia and the
    Balearic Islands. (Rhodes: the rules' own example, in test_rise_of_rome_ii.py.)"""
    convoy = adjudicate("S-219M", {"Rome": ["A MAS", "F GOL", "F SAR", "F TYR"]},
                        {"Rome": ["A MAS - ROM", "F GOL C A MAS - ROM", "F SAR C A MAS - ROM", "F TYR C A MAS - ROM"]})
    assert all(r["outcome"] == "succeeds" for r in convoy["results"]["Rome"]) and "A ROM" in convoy["units"]["Rome"]
    for here, there in (("GOL", "SAR"), ("SAR", "TYR"), ("GOL", "BAL"), ("BAL", "IBE")):
        sailed = adjudicate("S-219M", {"Rome": [f"F {here}"]}, {"Rome": [f"F {here} - {there}"]})
        assert sailed["units"]["Rome"] == [f"F {there}"], (here, there)


def test_armies_and_fleets_move_between_sicily_and_campania() -> None:
    """8.3 "Armies and Fleets may move directly between Sicily and Campania (and vice versa)"."""
    for unit in ("A", "F"):
        there = adjudicate("S-219M", {"Rome": [f"{unit} SIC"]}, {"Rome": [f"{unit} Sicily - Campania"]})
        back = adjudicate("S-219M", {"Rome": [f"{unit} CAM"]}, {"Rome": [f"{unit} Campania - Sicily"]})
        assert (there["units"]["Rome"], back["units"]["Rome"]) == ([f"{unit} CAM"], [f"{unit} SIC"])


def test_boeotia_has_two_coasts() -> None:
    """8.4 "Boeotia has two coasts (ec and wc)"."""
    assert ROR.map.provinces["BOE"].coasts == ("EC", "WC")
    result = adjudicate("S-219M", {"Greek States": ["F BOE/EC", "F AET"]},
                        {"Greek States": ["F BOE/EC - AEG", "F AET - BOE/WC"]})
    assert result["units"]["Greek States"] == ["F AEG", "F BOE/WC"]
