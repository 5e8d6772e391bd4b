"""Diplomacy of the Empire: the rules text's sentences that no other test proves, each written from
the text (Diplomacy of the Empire 2.0, the designer's forum answers included) with
the places as it names them, and run through `gm adjudicate` (docs/rules/diplomacy-of-the-empire.md
traces every rule to its tests)."""

from __future__ import annotations

import pytest

from gm.orders import OrderGrammar
from tests.variants.test_diplomacy_of_the_empire import EMPIRE, adjudicate, city, state

GRAMMAR = OrderGrammar.for_variant(EMPIRE)


def at(name: str) -> str:
    """The province the text names, as the text spells it ("Caesarienis", "Africa Procons")."""
    return GRAMMAR.parse_location(name).province


HOME = {"HIS": city("Hispania", True, True)}


# -- territories and tribute --------------------------------------------------------------------------

TEN = ("Hispania", "Aquitania", "Britania", "Italia", "Neapolis", "Macedonia", "Achaia", "Asia", "Galatia", "Syria",
       "Mesopotamia", "Egyptus", "Cyrenaica", "Africa Procons", "Numidia", "Caesarienis")


def test_42_land_territories_16_of_them_worth_10_talents_the_rest_5() -> None:
    """"There are 42 land territories, 16 of which provide 10 talents of tribute ... The remainder
    provide 5 talents of tribute each"."""
    land = EMPIRE.tribute_of
    assert len(land) == 42
    assert {p for p, talents in land.items() if talents == 10} == {at(name) for name in TEN}
    assert {talents for p, talents in land.items() if p not in {at(name) for name in TEN}} == {5}


# -- the legions: prices and upkeep ------------------------------------------------------------------

@pytest.mark.parametrize(("build", "price"), [("BUILD Infantry Hispania", 10), ("BUILD Cavalry Hispania", 20),
                                              ("BUILD Catapult Hispania", 30), ("BUILD Fleet Hispania(SC)", 20)])
def test_each_legion_costs_what_the_text_says(build: str, price: int) -> None:
    """"Infantry have a base cost of 10 talents ... Catapults ... 30 ... Cavalry units ... 20 ...
    Fleets have a base cost of 20 talents"."""
    result = adjudicate("W-43A", {}, {"Hispania": [build]}, extra=state({"Hispania": 100}, HOME, control={"HIS": "Hispania"}))
    assert result["results"]["Hispania"][0]["outcome"] == "succeeds"
    assert result["extra"]["treasury"]["Hispania"] == 100 - price


def test_the_upkeep_is_ten_talents_a_unit_whatever_its_kind() -> None:
    """"units must be maintained during each build phase for 10 talents each"; the designer:
    "upkeep (wages) for all units is the same, 10 talents"."""
    units = {"Hispania": ["I LUS", "C BEA", "K NAR", "F MBA"]}
    result = adjudicate("W-43A", units, {"Hispania": ["WAIVE"]},
                        extra=state({"Hispania": 100}, HOME, control={"HIS": "Hispania"}))
    assert result["extra"]["treasury"]["Hispania"] == 100 - 4 * 10


# -- movement of cavalry and fleets ---------------------------------------------------------------------

def test_a_cavalry_is_convoyed_on_its_first_move_then_makes_its_second() -> None:
    """"The first Move order of all Cavalry and Fleet unit ... can be supported by other units.
    Cavalry may use this order to be convoyed.": Galatia's cavalry goes by sea to Aegyptus, then on
    to Cyrenaica."""
    result = adjudicate("S-43M", {"Galatia": ["C GAL", "F MRH", "F MAL"]},
                        {"Galatia": ["C GAL - EGY then CYR", "F MRH C C GAL - EGY", "F MAL C C GAL - EGY"]},
                        extra=state())
    assert result["results"]["Galatia"][0]["notes"] == ["second move done"]
    assert sorted(result["units"]["Galatia"]) == ["C CYR", "F MAL", "F MRH"]


def test_the_rules_convoy_example_two_fleets_carry_an_infantry_from_galatia_to_egyptus() -> None:
    """The text's example: "Galaita move to Egyptus", "Mare Rhodus convoy Galaita to Egyptus",
    "Mare Alexandria convoy Galaita to Egyptus"."""
    result = adjudicate("S-43M", {"Galatia": ["I GAL", "F MRH", "F MAL"]},
                        {"Galatia": ["Galaita move to Egyptus", "Mare Rhodus convoy Galaita to Egyptus",
                                     "Mare Alexandria convoy Galaita to Egyptus"]}, extra=state())
    assert all(r["outcome"] == "succeeds" for r in result["results"]["Galatia"])
    assert sorted(result["units"]["Galatia"]) == ["F MAL", "F MRH", "I EGY"]


def test_a_second_move_receives_no_support() -> None:
    """"the second move cannot receive support": a support into the second move's province
    supports nothing, and the second move is made alone."""
    result = adjudicate("S-43M", {"Numidia": ["C NUM", "I BEA"]}, {"Numidia": ["C NUM - CEA then TIN", "I BEA S C NUM - TIN"]},
                        extra=state())
    assert result["results"]["Numidia"][1]["outcome"] == "fails"
    assert result["results"]["Numidia"][0]["notes"] == ["second move done"]
    assert sorted(result["units"]["Numidia"]) == ["C TIN", "I BEA"]


def test_a_cavalry_forced_to_retreat_from_its_starting_place_retreats_one_province_and_moves_no_more() -> None:
    """"If a Cavalry or Fleet is forced to retreated from its starting location it makes a single
    move retreat order as in standard Diplomacy"."""
    moved = adjudicate("S-43M", {"Numidia": ["C NUM"], "Egyptus": ["I AFR", "I CEA"]},
                       {"Numidia": ["C NUM - CEA then TIN"], "Egyptus": ["I AFR - NUM", "I CEA S I AFR - NUM"]}, extra=state())
    assert moved["results"]["Numidia"][0]["reason"] in ("bounced", "dislodged")
    assert "second_moves" not in moved and moved["dislodged"]["Numidia"][0]["unit"] == "C NUM"
    options = moved["dislodged"]["Numidia"][0]["retreats"]
    assert all(p in EMPIRE.map.army_adjacency["NUM"] for p in options)  # one province, never along roads


# -- fortified cities --------------------------------------------------------------------------------------

def test_a_fort_helps_its_owner_on_an_illegal_order_and_never_another_claimant_standing_there() -> None:
    """"This support is applied to all orders that result in a HOLD such as support orders or
    illegal orders ... Only the provinces owner may receive support from a fortification. Other
    players do not receive this support in the fall after occupying the territory in the
    spring."."""
    extra = state(cities={"ITA": city("Italia", True, True)}, control={"ITA": "Italia"})
    attack = {"Numidia": ["I NEA - ITA", "I DAL S I NEA - ITA"]}
    illegal = adjudicate("F-43M", {"Italia": ["I ITA"], "Numidia": ["I NEA", "I DAL"]},
                         {**attack, "Italia": ["I ITA - MAC"]}, extra=extra)
    assert illegal["results"]["Italia"][0]["reason"].startswith("illegal:")
    assert illegal["results"]["Numidia"][0]["reason"] == "bounced"  # 2 against the hold of 1 + 1
    occupier = adjudicate("F-43M", {"Galatia": ["I ITA"], "Numidia": ["I NEA", "I DAL"]}, attack, extra=extra)
    assert occupier["results"]["Numidia"][0]["outcome"] == "succeeds"  # Italia's fort does not help Galatia


def test_a_fort_does_not_stop_a_move_into_its_empty_province() -> None:
    """"Fortifications do not prevent other players from moving into an empty province"."""
    result = adjudicate("S-43M", {"Numidia": ["I NEA"]}, {"Numidia": ["I NEA - ITA"]},
                        extra=state(cities={"ITA": city("Italia", True, True)}, control={"ITA": "Italia"}))
    assert result["units"]["Numidia"] == ["I ITA"]


# -- cities, roads, razing -------------------------------------------------------------------------------

def test_a_city_built_and_a_unit_built_in_it_in_the_same_build_phase() -> None:
    """"Players may even build a city and use it to build a military unit during the same build
    phase"."""
    extra = state({"Hispania": 100}, HOME, control={"HIS": "Hispania", "NAR": "Hispania"})
    result = adjudicate("W-43A", {"Hispania": ["I HIS"]}, {"Hispania": ["Build City Narbonensis", "Build Infantry Narbonensis"]},
                        extra=extra)
    assert [r["outcome"] for r in result["results"]["Hispania"]] == ["succeeds", "succeeds"]
    assert sorted(result["units"]["Hispania"]) == ["I HIS", "I NAR"]
    assert result["extra"]["treasury"]["Hispania"] == 100 - 10 - 30 - 10
    assert ["HIS", "NAR"] in result["extra"]["roads"]


def test_razing_gains_nothing_and_takes_a_fortified_city_whole() -> None:
    """"unlike in C.o.t.E., no money is gained from razing a city" and "Fortified cities can only be
    razed in their entirety"."""
    extra = state({"Hispania": 50}, {**HOME, "NAR": city("Hispania", True)}, roads=[["HIS", "NAR"]],
                  control={"HIS": "Hispania", "NAR": "Hispania"})
    result = adjudicate("W-43A", {"Hispania": ["I LUS"]}, {"Hispania": ["Raze Narbonensis"]}, extra=extra)
    assert "NAR" not in result["extra"]["cities"] and result["extra"]["roads"] == []
    assert result["extra"]["treasury"]["Hispania"] == 50 - 10  # the upkeep only


def test_a_captured_capital_is_a_fortified_city_of_the_taker_and_its_roads_stay() -> None:
    """The designer: "If you capture an enemy capital it becomes a regular fortified city and will
    connect by roads to any of your adjacent cities (preexisting roads to enemy cities also remain
    intact)"; the text: "Roads can only be removed by razing cities"."""
    extra = state(cities={"ITA": city("Italia", True, True), "DAL": city("Italia"), "NAR": city("Hispania")},
                  roads=[["DAL", "ITA"]], control={"ITA": "Italia", "DAL": "Italia", "NAR": "Hispania"})
    result = adjudicate("F-43M", {"Hispania": ["I NEA"]}, {"Hispania": ["I NEA - ITA"]}, extra=extra)
    after = result["extra"]
    assert after["cities"]["ITA"] == city("Hispania", True, True) and after["control"]["ITA"] == "Hispania"
    assert after["roads"] == [["DAL", "ITA"], ["ITA", "NAR"]]


# -- road rules: supports ----------------------------------------------------------------------------------

# Hispania's cities and roads from Hispania through Aquitania to Lugdunensis.
ROAD_NORTH = state(cities={"HIS": city("Hispania", True, True), "AQU": city("Hispania"), "LUG": city("Hispania")},
                   roads=[["AQU", "HIS"], ["AQU", "LUG"]])


def test_a_road_unit_trying_to_enter_its_destination_cuts_the_support_given_there() -> None:
    """Road rules: "Support works the same as in standard diplomacy." Hispania's infantry moves
    along the road through Aquitania to Lugdunensis and bounces there off Italia's infantry; that
    arrival is an attack on Lugdunensis from Aquitania, so the support Italia gives from there to
    its attack on Belgica is cut, and Macedonia's infantry holds Belgica."""
    result = adjudicate("S-43M", {"Hispania": ["I HIS"], "Italia": ["I LUG", "I GER"], "Macedonia": ["I BEL"]},
                        {"Hispania": ["HISPANIA move to Aqu, LUGDUNENSIS"],
                         "Italia": ["I LUG S I GER - BEL", "I GER - BEL"]}, extra=ROAD_NORTH)
    support = result["results"]["Italia"][0]
    assert (support["outcome"], support["reason"]) == ("fails", "cut")
    assert support["notes"] == ["cut by I HIS (Hispania) trying to enter LUG from AQU along its path"]
    assert result["results"]["Italia"][1]["reason"] == "bounced"
    assert result["results"]["Hispania"][0]["notes"] == ["step 2 to LUG bounced; it stops in AQU"]
    assert result["dislodged"] == {} and result["units"]["Macedonia"] == ["I BEL"]


def test_a_road_unit_stopped_before_its_destination_cuts_nothing_there() -> None:
    """Road rules: a unit standing on the route stops the road unit in the province before it
    ("The road travelling unit is stopped in the province before..."): held up in Hispania by
    Italia's infantry in Aquitania, it never tries Lugdunensis, and the support given there
    stands: Belgica falls."""
    result = adjudicate("S-43M", {"Hispania": ["I HIS"], "Italia": ["I LUG", "I GER", "I AQU"], "Macedonia": ["I BEL"]},
                        {"Hispania": ["HISPANIA move to Aqu, LUGDUNENSIS"],
                         "Italia": ["I LUG S I GER - BEL", "I GER - BEL"]}, extra=ROAD_NORTH)
    assert [r["outcome"] for r in result["results"]["Italia"]] == ["succeeds", "succeeds"]
    assert result["dislodged"]["Macedonia"][0]["unit"] == "I BEL"


def test_a_cut_that_would_stop_the_road_unit_making_it_is_not_made() -> None:
    """Road rules, a ruling: Italia's infantry in Lugdunensis supports Macedonia's out of
    Aquitania into Narbonensis. Moving out, it leaves Aquitania to Hispania's road unit, which
    then tries Lugdunensis: were that to cut the support, Macedonia's infantry would bounce and
    stay in Aquitania, and the road unit would never get there to cut it. The cut is not made:
    Narbonensis falls, and the road unit stops in Aquitania."""
    result = adjudicate("S-43M", {"Hispania": ["I HIS"], "Macedonia": ["I AQU"], "Numidia": ["I NAR"], "Italia": ["I LUG"]},
                        {"Hispania": ["I HIS - AQU - LUG"], "Macedonia": ["I AQU - NAR"], "Italia": ["I LUG S I AQU - NAR"]},
                        extra=ROAD_NORTH)
    assert result["results"]["Italia"][0]["outcome"] == "succeeds"
    assert result["results"]["Macedonia"][0]["outcome"] == "succeeds"
    assert result["dislodged"]["Numidia"][0]["unit"] == "I NAR"
    assert result["units"]["Hispania"] == ["I AQU"]


# -- inflation ----------------------------------------------------------------------------------------------

def test_inflation_never_goes_back() -> None:
    """"Once inflation occurs it cannot be reversed, even if every player's individual tribute drops
    below the inflation marks"."""
    result = adjudicate("F-42M", {"Hispania": ["I HIS"]}, extra={**state(control={"HIS": "Hispania"}), "inflation": 2})
    assert result["extra"]["tribute"]["Hispania"] < 105 and result["extra"]["inflation"] == 2


# -- straits ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("one", "other"), [("Thracia", "Asia"), ("Beatica", "Tingitana"), ("Neapolis", "Sicily"),
                                            ("Belgica", "Britannia")])
def test_land_units_cross_each_strait_without_a_fleet(one: str, other: str) -> None:
    """"Land based units (Infantry, Cavalry and Catapults) can make these crossings without the aid
    of Fleets" (the designer's four: Thracia-Asia, Beatica-Tingitana, Neapolis-Sicilia,
    Belgica-Britannia)."""
    a, b = at(one), at(other)
    for kind in ("I", "C", "K"):
        there = adjudicate("S-43M", {"Italia": [f"{kind} {a}"]}, {"Italia": [f"{kind} {a} - {b}"]}, extra=state())
        back = adjudicate("S-43M", {"Italia": [f"{kind} {b}"]}, {"Italia": [f"{kind} {b} - {a}"]}, extra=state())
        assert (there["units"]["Italia"], back["units"]["Italia"]) == ([f"{kind} {b}"], [f"{kind} {a}"]), kind


def test_fleets_cross_a_strait_in_one_move_and_a_fleet_beside_it_supports_but_never_blocks() -> None:
    """"Fleets may also make these crossings as a single movement. Fleets in the surrounding Sea
    provinces may support movement made over these crossings ... The mere presence of Fleets in the
    sea zones containing the crossings does not 'block' the movement"."""
    fleet = adjudicate("S-43M", {"Italia": ["F NEA"]}, {"Italia": ["F NEA - SIC"]}, extra=state())
    assert fleet["units"]["Italia"] == ["F SIC"]
    helped = adjudicate("S-43M", {"Italia": ["I NEA", "F MTY"], "Numidia": ["I SIC", "F MEP"]},
                        {"Italia": ["I NEA - SIC", "F MTY S I NEA - SIC"]}, extra=state())
    assert helped["results"]["Italia"][0]["outcome"] == "succeeds"  # Numidia's fleet beside blocks nothing
