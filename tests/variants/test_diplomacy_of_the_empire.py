"""Diplomacy of the Empire through `gm adjudicate`: each ruling (docs/rules/diplomacy-of-the-empire.md)
and the rules text's own examples (the Hispania–Macedonia road move and its head-on bounce, the
Numidia cavalry's second moves, "Build Fleet Hispania(SC)")."""

from __future__ import annotations

from typing import Any

import pytest

from gm.adjudicator.phaselog import PhaseLog
from gm.interchange import adjudicate_json
from gm.orders import OrderGrammar, parse_line
from gm.reports.words import words_of
from gm.store.codec import decode_position
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

CATALOG = VariantCatalog()
EMPIRE = CATALOG.get("diplomacy-of-the-empire")
CLAIMANTS = ("Egyptus", "Galatia", "Hispania", "Italia", "Macedonia", "Mesopotamia", "Numidia")


def adjudicate(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]] | None = None,
               **more: Any) -> dict[str, Any]:
    document = {"variant": "diplomacy-of-the-empire", "phase": phase, "units": units, "orders": orders or {}, **more}
    return adjudicate_json(document, CATALOG)


def city(owner: str, fort: bool = False, capital: bool = False) -> dict[str, Any]:
    return {"owner": owner, "fort": fort, "capital": capital}


def state(treasury: dict[str, int] | None = None, cities: dict[str, dict[str, Any]] | None = None,
          roads: list[list[str]] | None = None, control: dict[str, str] | None = None, **more: Any) -> dict[str, Any]:
    """An ``extra``: every claimant with a treasury (0 unless given), and what else is given."""
    return {"treasury": {p: 0 for p in CLAIMANTS} | (treasury or {}), "cities": cities or {}, "roads": roads or [],
            "control": control or {}, "inflation": 1, **more}


def outcome(result: dict[str, Any], power: str, order: str) -> dict[str, Any]:
    found = [r for r in result["results"][power] if r["order"] == order]
    assert found, result["results"][power]
    return found[-1]


# The road of rule 8's example, Hispania to Macedonia through Narbonensis, Italia and Dalmatia.
ROAD = [["DAL", "ITA"], ["DAL", "MAC"], ["HIS", "NAR"], ["ITA", "NAR"]]
ROAD_CITIES = {"HIS": city("Hispania", True, True), "NAR": city("Hispania"), "ITA": city("Italia", True, True),
               "DAL": city("Macedonia"), "MAC": city("Macedonia", True, True)}


# -- 1. the start ------------------------------------------------------------------------------

def test_seven_claimants_start_with_an_infantry_and_a_fortified_capital_and_no_talents() -> None:
    start = EMPIRE.initial_position()
    assert str(start.phase) == "S-43M" and EMPIRE.title(start.phase) == "Spring 43 B.C. movement"
    assert sorted(str(u) + " " + u.power for u in start.units) == sorted(
        f"I {home} {power}" for power, home in EMPIRE.homes.items())
    extra = start.extra
    assert extra["treasury"] == {p: 0 for p in CLAIMANTS}
    assert extra["cities"] == {home: city(power, True, True) for power, home in EMPIRE.homes.items()}
    assert extra["control"] == {home: power for power, home in EMPIRE.homes.items()} and extra["roads"] == []
    assert setup_of(EMPIRE).player_counts() == (6, 7)


def test_with_six_players_macedonia_is_left_out_and_syria_gives_five() -> None:
    log = PhaseLog(None)  # no dice are drawn
    powers = setup_of(EMPIRE).powers_in_play(6, log)
    assert "Macedonia" not in powers and len(powers) == 6
    six = setup_of(EMPIRE).opening(powers, log)
    assert six.extra["six_players"] and "MAC" not in six.extra["cities"]
    fall = {"Mesopotamia": ["I SYR"]}
    for extra, syria in ((state(), 10), (state(six_players=True), 5)):
        result = adjudicate("F-43M", fall, extra=extra | {"control": {"MES": "Mesopotamia"},
                                                          "cities": {"MES": city("Mesopotamia", True, True)}})
        assert result["extra"]["tribute"]["Mesopotamia"] == 10 + 5 + syria


# -- 2. units ------------------------------------------------------------------------------------

def test_a_catapult_weighs_one_and_a_half_in_attack_and_in_hold() -> None:
    attack = adjudicate("S-43M", {"Italia": ["K RAE"], "Hispania": ["I NAR"]}, {"Italia": ["K RAE - NAR"]},
                        extra=state())
    assert outcome(attack, "Italia", "K RAE - NAR")["outcome"] == "succeeds"
    hold = adjudicate("S-43M", {"Italia": ["K NAR"], "Hispania": ["I HIS", "I AQU"]},
                      {"Hispania": ["I HIS - NAR", "I AQU S I HIS - NAR"]}, extra=state())
    assert outcome(hold, "Hispania", "I HIS - NAR")["outcome"] == "succeeds"  # 2 against 1½
    held = adjudicate("S-43M", {"Italia": ["K NAR"], "Hispania": ["C HIS"]}, {"Hispania": ["C HIS - NAR"]},
                      extra=state())
    assert outcome(held, "Hispania", "C HIS - NAR")["outcome"] == "fails"


def test_a_catapult_that_retreats_becomes_an_infantry() -> None:
    moved = adjudicate("S-43M", {"Italia": ["K NAR"], "Hispania": ["I HIS", "I AQU", "I GER"]},
                       {"Hispania": ["I HIS - NAR", "I AQU S I HIS - NAR", "I GER S I HIS - NAR"]}, extra=state())
    assert moved["dislodged"]["Italia"][0]["unit"] == "K NAR"
    retreat = adjudicate("S-43R", moved["units"], {"Italia": ["K NAR R ITA"]}, dislodged=moved["dislodged"],
                         extra=moved["extra"])
    assert retreat["units"]["Italia"] == ["I ITA"]


# -- 3. second moves -------------------------------------------------------------------------------

def test_the_numidia_cavalry_makes_its_second_move_with_the_retreats() -> None:
    result = adjudicate("S-43M", {"Numidia": ["C NUM"]}, {"Numidia": ["Numidia move to Ceasarienis then move to Tingitana"]},
                        extra=state())
    assert outcome(result, "Numidia", "C NUM - CEA then TIN")["notes"] == ["second move done"]
    assert result["units"]["Numidia"] == ["C TIN"]


def test_a_second_move_bounces_with_a_retreat_which_is_destroyed() -> None:
    units = {"Numidia": ["C AFR"], "Hispania": ["I BEA", "F MHI"], "Italia": ["I TIN"]}
    moved = adjudicate("S-43M", units, {"Numidia": ["C AFR - NUM then CEA"],
                                        "Hispania": ["I BEA - TIN", "F MHI S I BEA - TIN"]}, extra=state())
    assert moved["next_phase"] == "S-43R"
    assert moved["second_moves"] == {"Numidia": [{"unit": "C NUM", "then": ["CEA"]}]}
    assert moved["dislodged"]["Italia"][0]["retreats"] == ["CEA"]
    retreat = adjudicate("S-43R", moved["units"], {"Italia": ["I TIN R CEA"]}, dislodged=moved["dislodged"],
                         second_moves=moved["second_moves"], extra=moved["extra"])
    assert "Italia" not in retreat["units"] and retreat["units"]["Numidia"] == ["C NUM"]


def test_only_cavalry_and_fleets_make_a_second_move() -> None:
    result = adjudicate("S-43M", {"Numidia": ["I NUM"]}, {"Numidia": ["I NUM - CEA then TIN"]}, extra=state())
    (only,) = result["results"]["Numidia"]
    assert only["outcome"] == "fails" and "second move" in only["reason"]


# -- 6, 8. roads ---------------------------------------------------------------------------------

def test_the_road_from_hispania_to_macedonia_in_one_move() -> None:
    extra = state(cities=ROAD_CITIES, roads=ROAD)
    result = adjudicate("S-43M", {"Hispania": ["I HIS"]}, {"Hispania": ["HISPANIA move to Nar, Ita, Dal, MACIDONIA"]},
                        extra=extra)
    assert outcome(result, "Hispania", "I HIS - NAR - ITA - DAL - MAC")["outcome"] == "succeeds"
    assert result["units"]["Hispania"] == ["I MAC"]


def test_two_units_on_one_road_head_on_bounce_at_the_border_of_italia_and_narbonensis() -> None:
    extra = state(cities=ROAD_CITIES, roads=ROAD)
    result = adjudicate("S-43M", {"Hispania": ["I HIS"], "Macedonia": ["I MAC"]},
                        {"Hispania": ["I HIS - NAR - ITA - DAL - MAC"], "Macedonia": ["I MAC - DAL - ITA - NAR - HIS"]},
                        extra=extra)
    assert result["units"] == {"Hispania": ["I NAR"], "Macedonia": ["I DAL"]}


def test_a_road_move_needs_a_city_to_start_from_and_a_road_at_every_step() -> None:
    extra = state(cities=ROAD_CITIES, roads=ROAD)
    no_road = adjudicate("S-43M", {"Hispania": ["I HIS"]}, {"Hispania": ["I HIS - AQU - LUG"]}, extra=extra)
    assert outcome(no_road, "Hispania", "I HIS - AQU - LUG")["reason"] == "illegal: no road from Hispania to Aquitania"
    no_city = adjudicate("S-43M", {"Hispania": ["I AQU"]}, {"Hispania": ["I AQU - HIS - NAR"]}, extra=extra)
    assert "only a unit in a city moves along roads" in outcome(no_city, "Hispania", "I AQU - HIS - NAR")["reason"]


def test_a_unit_on_a_road_may_be_supported_into_any_province_of_its_route() -> None:
    extra = state(cities=ROAD_CITIES | {"ITA": city("Italia")}, roads=ROAD)  # no fort to add to Italia's hold
    units = {"Hispania": ["I HIS", "I RAE"], "Italia": ["I ITA"]}
    orders = {"Hispania": ["I HIS - NAR - ITA", "I RAE S I HIS - ITA"]}
    result = adjudicate("S-43M", units, orders, extra=extra)
    assert outcome(result, "Hispania", "I RAE S I HIS - ITA")["outcome"] == "succeeds"
    assert result["units"]["Hispania"] == ["I ITA", "I RAE"]
    held = adjudicate("S-43M", units, orders | {"Italia": ["I ITA H"]}, extra=extra)
    assert outcome(held, "Italia", "I ITA H")["reason"] == "dislodged"  # by the road move's second step


# Hispania's cities and roads from Hispania through Aquitania and Lugdunensis to Belgica.
WEST = {"HIS": city("Hispania", True, True), "AQU": city("Hispania"), "LUG": city("Hispania"),
        "BEL": city("Hispania"), "NAR": city("Hispania")}
WEST_ROADS = [["AQU", "HIS"], ["AQU", "LUG"], ["AQU", "NAR"], ["BEL", "LUG"], ["HIS", "NAR"], ["LUG", "NAR"]]


def test_a_plain_move_into_a_province_of_a_road_route_bounces_with_the_road_unit() -> None:
    """8 "If another unit moves from an adjacent province into a province on your road route,
    then the two units bounce": Italia stays in Germania, Hispania stops in
    Aquitania, the province before; Lugdunensis is left empty by the standoff."""
    extra = state(cities=WEST, roads=WEST_ROADS)
    result = adjudicate("S-43M", {"Hispania": ["I HIS"], "Italia": ["I GER"]},
                        {"Hispania": ["I HIS - AQU - LUG - BEL"], "Italia": ["I GER - LUG"]}, extra=extra)
    assert outcome(result, "Italia", "I GER - LUG")["reason"] == "bounced"
    road = outcome(result, "Hispania", "I HIS - AQU - LUG - BEL")
    assert road["reason"] == "bounced" and road["notes"] == ["step 2 to LUG bounced; it stops in AQU"]
    assert result["units"] == {"Hispania": ["I AQU"], "Italia": ["I GER"]}


def test_a_road_unit_supported_into_the_contested_province_goes_on_and_the_plain_move_fails() -> None:
    """8: with Narbonensis supporting Hispania into Lugdunensis, Italia's move
    fails and it stays in Germania (never dislodged from a province it never entered), and the
    road unit goes through Lugdunensis on to Belgica."""
    extra = state(cities=WEST, roads=WEST_ROADS)
    result = adjudicate("S-43M", {"Hispania": ["I HIS", "I NAR"], "Italia": ["I GER"]},
                        {"Hispania": ["I HIS - AQU - LUG - BEL", "I NAR S I HIS - LUG"], "Italia": ["I GER - LUG"]},
                        extra=extra)
    assert outcome(result, "Italia", "I GER - LUG")["reason"] == "bounced"
    assert outcome(result, "Hispania", "I HIS - AQU - LUG - BEL")["outcome"] == "succeeds"
    assert result["units"] == {"Hispania": ["I BEL", "I NAR"], "Italia": ["I GER"]} and result["dislodged"] == {}
    stronger = adjudicate("S-43M", {"Hispania": ["I HIS"], "Italia": ["I GER", "I NAR"]},
                          {"Hispania": ["I HIS - AQU - LUG - BEL"], "Italia": ["I GER - LUG", "I NAR S I GER - LUG"]},
                          extra=extra)
    assert stronger["units"] == {"Hispania": ["I AQU"], "Italia": ["I LUG", "I NAR"]}  # Italia wins the meeting


def test_roads_build_themselves_between_adjacent_cities_of_one_owner_never_over_a_strait() -> None:
    extra = state(treasury={"Italia": 100}, cities={"ITA": city("Italia", True, True)},
                  control={"ITA": "Italia", "NEA": "Italia", "SIC": "Italia"})
    result = adjudicate("W-43A", {"Italia": ["I ITA"]}, {"Italia": ["BUILD CITY Neapolis", "BUILD CITY Sicilia"]},
                        extra=extra)
    assert result["extra"]["roads"] == [["ITA", "NEA"]]  # Neapolis–Sicilia is a strait


# -- 4, 5. control, tribute, inflation -------------------------------------------------------------

def test_blank_land_is_taken_in_spring_another_claimants_only_in_the_fall() -> None:
    extra = state(control={"NAR": "Italia"})
    spring = adjudicate("S-43M", {"Hispania": ["I HIS", "I AQU"]}, {"Hispania": ["I HIS - LUS", "I AQU - NAR"]},
                        extra=extra)
    assert spring["extra"]["control"] == {"LUS": "Hispania", "NAR": "Italia"}
    fall = adjudicate("F-43M", spring["units"], extra=spring["extra"])
    assert fall["extra"]["control"] == {"LUS": "Hispania", "NAR": "Hispania"}


def test_tribute_after_the_fall_is_each_territory_and_five_a_city() -> None:
    extra = state(treasury={"Hispania": 5}, cities={"HIS": city("Hispania", True, True), "NAR": city("Hispania")},
                  control={"HIS": "Hispania", "NAR": "Hispania", "LUS": "Hispania"})
    result = adjudicate("F-43M", {"Hispania": ["I HIS"]}, extra=extra)
    assert result["extra"]["tribute"]["Hispania"] == 10 + 5 + 5 + 5 + 5
    assert result["extra"]["treasury"]["Hispania"] == 5 + 30
    assert "Hispania collects 30 talents of tribute (treasury 35 talents)" in result["announcements"]
    assert result["next_phase"] == "W-43A"


@pytest.mark.parametrize(("tribute", "options", "stage"), [
    (100, {}, 1), (105, {}, 2), (205, {}, 3), (100, {"inflation_double_at": 100}, 2),
])
def test_inflation_follows_the_first_claimant_to_collect_the_marks(tribute: int, options: dict[str, int],
                                                                    stage: int) -> None:
    rich: list[str] = []
    for province, value in sorted(EMPIRE.tribute_of.items(), key=lambda item: (-item[1], item[0])):
        if sum(EMPIRE.tribute_of[p] for p in rich) + value <= tribute:
            rich.append(province)
    extra = state(control={p: "Hispania" for p in rich}, **options)
    result = adjudicate("F-43M", {"Hispania": [f"I {rich[0]}"]}, extra=extra)
    assert result["extra"]["tribute"]["Hispania"] == tribute
    assert result["extra"]["inflation"] == stage


def test_a_claimant_whose_home_is_taken_loses_its_treasury_and_unoccupied_tribute_to_the_taker() -> None:
    extra = state(treasury={"Hispania": 40}, cities={"HIS": city("Hispania", True, True)},
                  control={"HIS": "Hispania", "LUS": "Hispania", "BEA": "Hispania"})
    units = {"Hispania": ["I BEA"], "Italia": ["I NAR", "I AQU"]}
    result = adjudicate("F-43M", units, {"Italia": ["I NAR - HIS", "I AQU S I NAR - HIS"]}, extra=extra)
    after = result["extra"]
    assert after["control"]["HIS"] == "Italia" and after["cities"]["HIS"] == city("Italia", True, True)
    assert after["tribute"]["Hispania"] == 5  # only Baetica, where its unit stands
    assert after["treasury"]["Hispania"] == 5
    # Hispania and Aquitania, the city, then once: Hispania's treasury and Lusitania's tribute
    assert after["tribute"]["Italia"] == 10 + 10 + 5 and after["treasury"]["Italia"] == 25 + 40 + 5
    assert any("Italia takes Hispania, Hispania's home" in line for line in result["announcements"])


def test_the_taker_of_a_home_has_the_cities_tribute_in_the_losers_tribute() -> None:
    """Home provinces: "all that years' incoming tribute from all that players provinces not
    occupied by one of his legions", a city's 5 talents included: Numidia collects
    Numidia and Aegyptus with their cities (30), and takes Egyptus's 20 talents with the tribute
    of Cyrenaica and its city (15) and Palaestina (5): 70."""
    extra = state(treasury={"Egyptus": 20}, cities={"EGY": city("Egyptus", True, True), "CYR": city("Egyptus"),
                                                    "NUM": city("Numidia", True, True)},
                  control={"EGY": "Egyptus", "CYR": "Egyptus", "PAL": "Egyptus", "ARA": "Egyptus", "NUM": "Numidia"})
    result = adjudicate("F-42M", {"Numidia": ["I CYR"], "Egyptus": ["I ARA"]}, {"Numidia": ["I CYR - EGY"]},
                        extra=extra)
    assert result["extra"]["tribute"]["Numidia"] == 30
    assert result["extra"]["treasury"]["Numidia"] == 70
    assert "Numidia takes Aegyptus, Egyptus's home, and with it 40 talents of its treasury and tribute" \
        in result["announcements"]


# -- 2, 6, 7. the build phase --------------------------------------------------------------------

def test_builds_cost_talents_and_upkeep_is_paid_for_the_units_kept() -> None:
    extra = state(treasury={"Hispania": 60}, cities={"HIS": city("Hispania", True, True)}, control={"HIS": "Hispania"})
    result = adjudicate("W-43A", {"Hispania": ["I LUS"]}, {"Hispania": ["Build Fleet Hispania(SC)"]}, extra=extra)
    assert outcome(result, "Hispania", "BUILD F HIS/SC")["outcome"] == "succeeds"
    assert result["extra"]["treasury"]["Hispania"] == 60 - 10 - 20
    assert result["units"]["Hispania"] == ["F HIS/SC", "I LUS"]


def test_builds_costing_more_than_the_treasury_all_fail() -> None:
    extra = state(treasury={"Hispania": 50}, cities={"HIS": city("Hispania", True, True)},
                  control={"HIS": "Hispania", "LUS": "Hispania"})
    result = adjudicate("W-43A", {"Hispania": ["I BEA"]}, {"Hispania": ["BUILD K HIS", "BUILD CITY Lusitania"]},
                        extra=extra)
    reasons = {r["order"]: r.get("reason") for r in result["results"]["Hispania"]}
    assert reasons["BUILD K HIS"] == reasons["BUILD CITY LUS"] == (
        "prevented: Hispania's builds cost 60 talents and it has 40 talents: every build fails")
    assert result["extra"]["treasury"]["Hispania"] == 40 and result["units"]["Hispania"] == ["I BEA"]


def test_a_claimant_builds_or_disbands_never_both() -> None:
    extra = state(treasury={"Hispania": 100}, cities={"HIS": city("Hispania", True, True)}, control={"HIS": "Hispania"})
    result = adjudicate("W-43A", {"Hispania": ["I LUS", "I BEA"]}, {"Hispania": ["DESTROY Lusitania", "BUILD C HIS"]},
                        extra=extra)
    assert outcome(result, "Hispania", "BUILD C HIS")["reason"].endswith("disbands this build phase, so it may not also build")
    assert result["units"]["Hispania"] == ["I BEA"] and result["extra"]["treasury"]["Hispania"] == 90


def test_a_claimant_that_cannot_pay_its_upkeep_must_disband() -> None:
    extra = state(treasury={"Hispania": 15}, control={"HIS": "Hispania"})
    result = adjudicate("W-43A", {"Hispania": ["I HIS", "I LUS", "I BEA"]}, extra=extra)
    assert len(result["units"]["Hispania"]) == 1  # 15 talents keep one unit
    assert result["extra"]["treasury"]["Hispania"] == 5


def test_units_are_built_only_at_cities_joined_by_roads_to_the_capital() -> None:
    cities = {"HIS": city("Hispania", True, True), "NAR": city("Hispania"), "CEA": city("Hispania")}
    extra = state(treasury={"Hispania": 100}, cities=cities, roads=[["HIS", "NAR"]],
                  control={"HIS": "Hispania", "NAR": "Hispania", "CEA": "Hispania", "AQU": "Hispania"})
    built = adjudicate("W-43A", {}, {"Hispania": ["BUILD I NAR", "BUILD I CEA"]}, extra=extra)
    assert outcome(built, "Hispania", "BUILD I NAR")["outcome"] == "succeeds"
    assert outcome(built, "Hispania", "BUILD I CEA")["outcome"] == "fails"
    same_phase = adjudicate("W-43A", {}, {"Hispania": ["BUILD CITY Aquitania", "BUILD I AQU"]}, extra=extra)
    assert [r["outcome"] for r in same_phase["results"]["Hispania"]] == ["succeeds", "succeeds"]
    assert ["AQU", "HIS"] in same_phase["extra"]["roads"] and same_phase["units"]["Hispania"] == ["I AQU"]
    without_city = adjudicate("W-43A", {}, {"Hispania": ["BUILD I AQU"]}, extra=extra)
    assert outcome(without_city, "Hispania", "BUILD I AQU")["reason"] == (
        "prevented: no city joined by roads to Hispania's capital in Aquitania")
    assert without_city["extra"]["treasury"]["Hispania"] == 100


def test_a_fort_costs_fifty_new_or_twenty_on_a_city_and_adds_one_to_its_owners_hold() -> None:
    extra = state(treasury={"Hispania": 100}, cities={"HIS": city("Hispania", True, True), "NAR": city("Hispania")},
                  control={"HIS": "Hispania", "NAR": "Hispania", "LUS": "Hispania"})
    result = adjudicate("W-43A", {}, {"Hispania": ["BUILD FORT Narbonensis", "BUILD FORT Lusitania"]}, extra=extra)
    assert result["extra"]["treasury"]["Hispania"] == 100 - 20 - 50
    assert result["extra"]["cities"]["LUS"] == city("Hispania", fort=True)
    held = adjudicate("S-42M", {"Hispania": ["I NAR"], "Italia": ["I ITA", "I RAE"]},
                      {"Italia": ["I ITA - NAR", "I RAE S I ITA - NAR"]}, extra=result["extra"])
    assert outcome(held, "Italia", "I ITA - NAR")["outcome"] == "fails"  # 2 against 1 + 1


def test_a_fort_helps_only_a_unit_that_does_not_move() -> None:
    extra = state(cities={"NAR": city("Hispania", fort=True)}, control={"NAR": "Hispania"})
    result = adjudicate("S-43M", {"Hispania": ["I NAR", "I HIS"]}, {"Hispania": ["I NAR - AQU", "I HIS S I NAR - AQU"]},
                        extra=extra)
    assert "notes" not in outcome(result, "Hispania", "I NAR - AQU")
    held = adjudicate("S-43M", {"Hispania": ["I NAR"]}, {"Hispania": ["I NAR H"]}, extra=extra)
    assert held["results"]["Hispania"][0]["notes"] == ["fortified city: +1 while it holds"]


def test_a_razed_city_takes_its_roads_with_it() -> None:
    extra = state(treasury={"Hispania": 30}, cities=ROAD_CITIES | {"NAR": city("Hispania")}, roads=ROAD,
                  control={"HIS": "Hispania", "NAR": "Hispania"})
    result = adjudicate("W-43A", {}, {"Hispania": ["RAZE Narbonensis"]}, extra=extra)
    assert "NAR" not in result["extra"]["cities"]
    assert result["extra"]["roads"] == [["DAL", "ITA"], ["DAL", "MAC"]]
    assert result["extra"]["treasury"]["Hispania"] == 30  # no money back


def test_without_its_home_a_claimant_cannot_build_and_keeps_no_treasury() -> None:
    extra = state(treasury={"Hispania": 50}, cities={"HIS": city("Italia", True, True), "LUS": city("Hispania")},
                  control={"HIS": "Italia", "LUS": "Hispania"})
    result = adjudicate("W-43A", {"Hispania": ["I BEA"]}, {"Hispania": ["BUILD I LUS"]}, extra=extra)
    assert outcome(result, "Hispania", "BUILD I LUS")["outcome"] == "fails"
    assert result["extra"]["treasury"]["Hispania"] == 0  # 40 left after upkeep, lost


# -- 10. PAY ----------------------------------------------------------------------------------------

def test_pay_moves_talents_in_any_phase_never_more_than_the_payer_has() -> None:
    extra = state(treasury={"Hispania": 40}, control={"EGY": "Egyptus"})
    result = adjudicate("S-43M", {}, {"Hispania": ["PAY 35 Egyptus", "PAY 10 Egyptus"]}, extra=extra)
    assert result["extra"]["treasury"]["Hispania"] == 5 and result["extra"]["treasury"]["Egyptus"] == 35
    assert outcome(result, "Hispania", "PAY 10 Egyptus")["reason"] == "prevented: Hispania has only 5 talents left"


def test_a_payment_to_a_home_taken_in_the_fall_is_intercepted() -> None:
    extra = state(treasury={"Hispania": 40}, control={"EGY": "Egyptus"})
    units = {"Egyptus": ["I ARA"], "Galatia": ["I PAL", "I CYR"]}
    result = adjudicate("F-43M", units, {"Hispania": ["PAY 35 Egyptus"], "Galatia": ["I PAL - EGY", "I CYR S I PAL - EGY"]},
                        extra=extra)
    assert "intercepted by Galatia, who holds Aegyptus" in outcome(result, "Hispania", "PAY 35 Egyptus")["notes"]
    assert result["extra"]["treasury"]["Egyptus"] == 5  # only Arabia's tribute, where its unit stands
    assert result["extra"]["treasury"]["Galatia"] == 35 + 10 + 10  # and the tribute of Aegyptus and Cyrenaica


# -- 9. straits -----------------------------------------------------------------------------------

def test_no_retreat_across_a_strait() -> None:
    moved = adjudicate("S-43M", {"Italia": ["I SIC"], "Numidia": ["I NEA", "F MTY"]},
                       {"Numidia": ["I NEA - SIC", "F MTY S I NEA - SIC"]}, extra=state())
    assert outcome(moved, "Numidia", "I NEA - SIC")["outcome"] == "succeeds"  # over the strait, no convoy
    assert "Italia" not in moved["units"]  # Sicilia's only way out is the strait: destroyed at once


# -- 11. victory ------------------------------------------------------------------------------------

def test_the_last_claimant_standing_wins() -> None:
    extra = state(control={"ITA": "Italia", "HIS": "Italia", "EGY": "Italia", "GAL": "Italia", "MAC": "Italia",
                           "MES": "Italia", "NUM": "Italia"})
    assert adjudicate("S-43M", {"Italia": ["I ITA"]}, extra=extra)["winner"] == "Italia"
    assert adjudicate("S-43M", {"Italia": ["I ITA"], "Numidia": ["I CEA"]}, extra=extra)["winner"] is None


# -- what the mails show: accounts, prices, what orders cost ---------------------------------------

def test_before_a_build_phase_the_results_show_every_claimants_accounts_and_the_prices() -> None:
    extra = state(treasury={"Hispania": 5}, control={"HIS": "Hispania", "LUS": "Hispania"},
                  cities={"HIS": city("Hispania", True, True)})
    fall = adjudicate("F-43M", {"Hispania": ["I HIS", "I LUS"]}, extra=extra)
    position = EMPIRE.calendar.parse(fall["next_phase"])
    board = decode_position(EMPIRE, {"phase": str(position), "units": fall["units"], "centres": {},
                                      "extra": fall["extra"]})
    (accounts, prices) = words_of(EMPIRE).state_report(board)
    assert accounts[0] == "Accounts for the build phase"
    assert "Hispania: 25 talents (tribute 20), upkeep 20 for 2 units, 5 to spend" in accounts[1]
    assert prices == ("Prices in talents", ["Infantry 10, Cavalry 20, Catapult 30, Fleet 20; city 30, fort 50 with a "
                                            "new city or 20 on a city; upkeep 10 a unit"])
    assert words_of(EMPIRE).shown_adjustments(board) == []  # builds are bounded by money, shown in the accounts


def test_the_reply_to_build_orders_says_what_they_cost() -> None:
    board = decode_position(EMPIRE, {"phase": "W-43A", "units": {"Hispania": ["I LUS"]}, "centres": {},
                                     "extra": state(treasury={"Hispania": 45}, control={"HIS": "Hispania", "LUS": "Hispania"},
                                                    cities={"HIS": city("Hispania", True, True)})})
    grammar = OrderGrammar.for_variant(EMPIRE)
    orders = [parse_line(line, grammar).order for line in ("BUILD C HIS", "BUILD CITY Lusitania")]
    assert words_of(EMPIRE).orders_note(board, "Hispania", orders[:1]) == [
        "Your builds cost 20 talents of the 35 talents you have after upkeep."]
    assert words_of(EMPIRE).orders_note(board, "Hispania", orders) == [
        "Your builds cost 50 talents of the 35 talents you have after upkeep: more than you have, so every build "
        "would fail."]


def test_a_draw_includes_two_or_three_claimants() -> None:
    assert EMPIRE.draw_problem(["Italia", "Numidia"]) is None
    assert EMPIRE.draw_problem(["Italia", "Numidia", "Egyptus"]) is None
    assert EMPIRE.draw_problem(["Italia", "Numidia", "Egyptus", "Galatia"]) == (
        "a draw includes two or three claimants, and 4 are still in the game")


def test_a_claimant_whose_last_unit_is_retreating_is_still_in_the_game() -> None:
    extra = state(control={home: "Italia" for home in ("ITA", "HIS", "EGY", "GAL", "MAC", "MES")} | {"NUM": "Italia"})
    units = {"Italia": ["I AFR", "F MSA", "I ITA"], "Numidia": ["I NUM"]}
    result = adjudicate("S-43M", units, {"Italia": ["I AFR - NUM", "F MSA S I AFR - NUM"]}, extra=extra)
    assert result["dislodged"]["Numidia"][0]["retreats"] == ["CEA"] and result["winner"] is None
