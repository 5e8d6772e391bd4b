"""Roman Diplomacy I and II through `gm adjudicate`: each rule and ruling of docs/rules/roman-diplomacy.md."""

from __future__ import annotations

from typing import Any

import pytest

from gm.adjudicator.phaselog import PhaseLog
from gm.domain.units import Unit
from gm.interchange import InterchangeError, adjudicate_json, read_request
from gm.store.codec import encode_position
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

CATALOG = VariantCatalog()
RD = CATALOG.get("roman-diplomacy-i")
ALL_BARBARIAN = sorted(RD.initial_position().extra["barbarians"])


def adjudicate(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]] | None = None,
               variant: str = "roman-diplomacy-i", **more: Any) -> dict[str, Any]:
    document = {"variant": variant, "phase": phase, "units": units, "orders": orders or {}, **more}
    return adjudicate_json(document, CATALOG)


def garrisoned(units: dict[str, list[str]], centers: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """The board as a game has it: a neutral garrison in every centre nobody owns or stands in."""
    taken = {u.split()[1][:3] for listed in units.values() for u in listed}
    taken |= {c for owned in (centers or {}).values() for c in owned}
    free = sorted(c for c in RD.map.supply_centres if c not in taken)
    return {**units, "Neutral": sorted(units.get("Neutral", []) + [f"G {c}" for c in free])}


def neutral_in(result: dict[str, Any], *provinces: str) -> list[str]:
    """Which of these provinces hold a neutral garrison after the phase."""
    held = {u.split()[1] for u in result["units"].get("Neutral", [])}
    return [p for p in provinces if p in held]


def outcome(result: dict[str, Any], power: str, order: str) -> dict[str, Any]:
    found = [r for r in result["results"][power] if r["order"] == order]
    assert len(found) == 1, result["results"][power]
    return found[0]


def no_barbarians(*keep: str) -> dict[str, Any]:
    """An ``extra`` with barbarians only where asked (most tests leave them out of the way)."""
    return {"barbarians": sorted(keep)} if keep else {}


# -- the start (1) and joining (2) --------------------------------------------------------------

@pytest.mark.parametrize(("name", "first", "title", "victory", "centres"), [
    ("roman-diplomacy-i", "W99A", "Winter A.D. 99 adjustments", 15, 34),
    ("roman-diplomacy-ii", "W-241A", "Winter 241 B.C. adjustments", 24, 50),
])
def test_every_centre_starts_neutral_with_a_garrison_and_the_rest_barbarian(
        name: str, first: str, title: str, victory: int, centres: int) -> None:
    variant = CATALOG.get(name)
    start = variant.initial_position()
    assert str(start.phase) == first and variant.title(start.phase) == title
    assert len(start.units) == centres and all(u.power == "Neutral" and u.type.letter == "G" for u in start.units)
    assert start.centres == {} and variant.victory_threshold(start) == victory
    land = {p.id for p in variant.map.provinces.values() if p.holds_armies}
    assert set(start.extra["barbarians"]) == land - variant.map.supply_centres


def test_an_empire_waiting_comes_in_at_the_adjustment_phase_with_one_build_at_once() -> None:
    result = adjudicate("F100M", {"Neutral": ["G ROM", "G NAP"]}, extra={"joining": {"Latium": "ROM"}})
    assert result["next_phase"] == "W100A"
    assert result["units"]["Latium"] == ["G ROM"] and result["centers"] == {"Latium": ["ROM"]}
    assert result["extra"]["empires"] == {"Latium": "ROM"} and "joining" not in result["extra"]
    assert result["announcements"] == ["Latium joins the game with its Imperial City in Rome"]
    built = adjudicate("W100A", result["units"], {"Latium": ["BUILD A ROM"]}, centers=result["centers"],
                       extra=result["extra"])
    assert built["units"]["Latium"] == ["A ROM", "G ROM"]


def test_an_empire_asked_for_through_the_interchange_must_choose_an_imperial_city_site_too() -> None:
    """2 in `gm adjudicate`: Portugal is on the Atlantic, so no empire is founded
    there, whatever extra.joining says; Rome is."""
    result = adjudicate("F100M", garrisoned({}), extra={"joining": {"Lusitania": "POR", "Latium": "ROM"}})
    assert result["extra"]["empires"] == {"Latium": "ROM"} and "Lusitania" not in result["units"]
    assert result["centers"] == {"Latium": ["ROM"]} and "POR" in {u.split()[1] for u in result["units"]["Neutral"]}
    assert result["announcements"] == [
        "Lusitania cannot found its Imperial City in Portugal: it must be a neutral supply centre on the "
        "Mediterranean or the Black Sea",
        "Latium joins the game with its Imperial City in Rome"]


def test_a_player_names_a_neutral_mediterranean_or_black_sea_centre() -> None:
    start = RD.initial_position()
    assert setup_of(RD).joining_request("Rome as Latium", start) == ("Latium", "ROM")
    assert setup_of(RD).joining_request("Constantinople Byzantine Empire", start) == ("Byzantine Empire", "CON")
    assert setup_of(RD).joining_request("Naples", start) == ("Empire of Naples", "NAP")
    with pytest.raises(ValueError, match="Portugal is no Imperial City site"):
        setup_of(RD).joining_request("Portugal", start)
    waiting = setup_of(RD).with_joining(start, "Latium", "ROM")
    with pytest.raises(ValueError, match="Rome is no longer neutral or already asked for"):
        setup_of(RD).joining_request("Rome as Romans", waiting)  # first come, first served
    with pytest.raises(ValueError, match="the name 'Latium' is taken"):
        setup_of(RD).joining_request("Naples as Latium", waiting)


# -- Imperial Cities and garrisons (3) -------------------------------------------------------------

def test_a_garrison_beside_a_friendly_army_must_be_beaten_with_it() -> None:
    units = {"Latium": ["G ROM", "A ROM"], "Etruria": ["A TUS", "A VEN", "A APU"]}
    orders = {"Etruria": ["A TUS - ROM", "A VEN S A TUS - ROM"]}
    extra = {"empires": {"Latium": "ROM"}}
    assert outcome(adjudicate("S100M", units, orders, extra=extra), "Etruria", "A TUS - ROM")["reason"] == "bounced"
    beaten = adjudicate("S100M", units, {"Etruria": orders["Etruria"] + ["A APU S A TUS - ROM"]}, extra=extra)
    assert {d["unit"]: d["retreats"] for d in beaten["dislodged"]["Latium"]} == {"A ROM": ["NAP"], "G ROM": []}


def test_a_neutral_garrison_must_be_taken_with_support() -> None:
    alone = adjudicate("S100M", {"Neutral": ["G NAP"], "Latium": ["A ROM", "A APU"]}, {"Latium": ["A ROM - NAP"]})
    assert outcome(alone, "Latium", "A ROM - NAP")["reason"] == "bounced"
    helped = adjudicate("S100M", {"Neutral": ["G NAP"], "Latium": ["A ROM", "A APU"]},
                        {"Latium": ["A ROM - NAP", "A APU S A ROM - NAP"]})
    assert helped["dislodged"] == {"Neutral": [{"unit": "G NAP", "attacker_from": "ROM", "retreats": []}]}


def test_an_imperial_city_garrison_supports_like_an_army_and_needs_no_supply_centre() -> None:
    result = adjudicate("S100M", {"Latium": ["G ROM", "A NAP"], "Apulia": ["A APU"]},
                        {"Latium": ["G ROM S A NAP - APU", "A NAP - APU"]}, extra={"empires": {"Latium": "ROM"}})
    assert outcome(result, "Latium", "A NAP - APU")["outcome"] == "succeeds"
    start = RD.initial_position()
    units = [u if str(u) != "G ROM" else Unit("Latium", u.type, u.location) for u in start.units if str(u) != "G NAP"]
    adjust = RD.adjustments(start.replace(units=tuple(units), centres={"ROM": "Latium", "NAP": "Latium"},
                                          extra={**start.extra, "empires": {"Latium": "ROM"}}))
    assert [(a.power, a.count) for a in adjust] == [("Latium", 2)]  # its garrison needs no centre


def test_builds_only_in_the_imperial_city_vacant_but_for_its_garrison() -> None:
    extra = {"empires": {"Latium": "ROM"}}
    centres = {"Latium": ["ROM", "NAP"]}
    result = adjudicate("W100A", {"Latium": ["G ROM"]}, {"Latium": ["BUILD A NAP", "BUILD F ROM"]},
                        centers=centres, extra=extra)
    assert result["results"]["Latium"][0]["reason"].startswith("illegal: Naples is not a free supply centre")
    assert outcome(result, "Latium", "BUILD F ROM")["outcome"] == "succeeds"
    held = adjudicate("W100A", {"Latium": ["G ROM", "A ROM"]}, {"Latium": ["BUILD F ROM"]},
                      centers={"Latium": ["ROM", "NAP", "VEN"]}, extra=extra)
    assert held["results"]["Latium"][0]["reason"].startswith("illegal: Rome is not a free supply centre")


def test_a_federation_partners_army_may_stand_beside_a_garrison_as_a_friendly_unit() -> None:
    """3 with 5: a federation is "a single empire", so Latium's garrison in Rome is
    friendly to Gallia's army, which moves in beside it; the two then hold together."""
    extra = {"federations": [["Gallia", "Latium"]], "empires": {"Latium": "ROM", "Gallia": "MAR"}}
    result = adjudicate("S100M", {"Latium": ["G ROM"], "Gallia": ["A TUS"]}, {"Gallia": ["A TUS - ROM"]}, extra=extra)
    assert outcome(result, "Gallia", "A TUS - ROM")["outcome"] == "succeeds"
    assert (result["units"]["Gallia"], result["units"]["Latium"]) == (["A ROM"], ["G ROM"])
    held = adjudicate("F100M", {"Gallia": ["A ROM"], "Latium": ["G ROM"], "Samnium": ["A NAP", "A APU"]},
                      {"Samnium": ["A NAP - ROM", "A APU S A NAP - ROM"]}, extra=extra)
    assert outcome(held, "Samnium", "A NAP - ROM")["reason"] == "bounced"  # 2 against the army and the garrison
    with pytest.raises(InterchangeError, match="may not stand together"):
        adjudicate("S100M", {"Latium": ["G ROM"], "Gallia": ["A ROM"]}, extra={"empires": extra["empires"]})


# -- fleets' steps (4) -----------------------------------------------------------------------

def test_a_fleet_takes_several_steps_when_its_empires_other_fleets_stand() -> None:
    result = adjudicate("S100M", {"Latium": ["F TYS", "F ION"]}, {"Latium": ["F Tyrrhenian Sea - Gulf of Lyon - Spain"]})
    assert outcome(result, "Latium", "F TYS - LYO - SPA/SC")["outcome"] == "succeeds"
    assert result["units"]["Latium"] == ["F ION", "F SPA/SC"]


def test_a_step_too_many_is_refused() -> None:
    alone = adjudicate("S100M", {"Latium": ["F TYS"]}, {"Latium": ["F TYS - LYO - SPA/SC"]})
    assert outcome(alone, "Latium", "F TYS - LYO - SPA/SC")["reason"] == (
        "illegal: a step too many: Latium has 1 fleet step (one a fleet) and its fleets' orders take 2")
    busy = adjudicate("S100M", {"Latium": ["F TYS", "F ION"]}, {"Latium": ["F TYS - LYO - SPA/SC", "F ION - AEG"]})
    assert outcome(busy, "Latium", "F TYS - LYO - SPA/SC")["reason"].startswith("illegal: a step too many")
    assert outcome(busy, "Latium", "F ION - AEG")["outcome"] == "succeeds"


def test_a_failed_step_ends_the_journey_where_the_fleet_stands() -> None:
    result = adjudicate("S100M", {"Latium": ["F TYS", "F ION"], "Iberia": ["A SPA"]},
                        {"Latium": ["F TYS - LYO - SPA/SC"]})
    journey = outcome(result, "Latium", "F TYS - LYO - SPA/SC")
    assert journey["reason"] == "bounced" and journey["notes"] == ["step 2 to SPA/SC bounced; it stops in LYO"]


def test_an_armys_chain_is_a_convoy_path_as_usual() -> None:
    result = adjudicate("S100M", {"Latium": ["A ROM"]}, {"Latium": ["A ROM - TUS - PIE"]})
    assert result["results"]["Latium"][0]["reason"].startswith("illegal")


# -- federations (5, 6) -------------------------------------------------------------------------

def test_two_empires_asking_each_other_federate() -> None:
    one = adjudicate("S100M", {"Latium": ["A ROM"], "Gallia": ["A MAR"]}, {"Latium": ["FEDERATE Gallia"]})
    assert one["extra"] == {"asked": {"Latium": ["Gallia"]}, "barbarians": one["extra"]["barbarians"]}
    two = adjudicate("F100M", {"Latium": ["A ROM"], "Gallia": ["A MAR"]}, {"Gallia": ["FEDERATE Latium"]},
                     extra=one["extra"])
    assert two["extra"]["federations"] == [["Gallia", "Latium"]] and "asked" not in two["extra"]
    assert "Gallia and Latium federate: one empire in battle and for victory" in two["announcements"]


def test_an_empire_is_named_in_any_case_and_an_unknown_one_is_refused() -> None:
    board = {"Latium": ["A ROM"], "Gallia": ["A MAR"]}
    one = adjudicate("S100M", board, {"Latium": ["federate gallia", "FEDERATE Latium", "FEDERATE Dacia"]})
    assert one["extra"]["asked"] == {"Latium": ["Gallia"]}
    assert outcome(one, "Latium", "FEDERATE Latium")["reason"] == "illegal: an empire cannot federate with itself"
    assert outcome(one, "Latium", "FEDERATE Dacia")["reason"] == "illegal: there is no empire 'Dacia' in the game"
    gift = adjudicate("S100M", board, {"Latium": ["GIVE A ROM TO Gallia"]})
    assert outcome(gift, "Latium", "GIVE A ROM TO Gallia")["reason"] == \
        "illegal: Latium gives only to an empire of its own federation"


def test_federated_empires_neither_support_against_nor_capture_from_each_other() -> None:
    extra = {"federations": [["Gallia", "Latium"]]}
    result = adjudicate("F100M", {"Latium": ["A ROM", "A VEN"], "Gallia": ["A TUS"], "Samnium": ["A APU"]},
                        {"Samnium": ["A APU - ROM"], "Gallia": ["A TUS S A APU - ROM"], "Latium": ["A VEN - TUS"]},
                        extra=extra)
    assert outcome(result, "Samnium", "A APU - ROM")["reason"] == "bounced"
    # the support counts for nothing, and its result says so
    assert outcome(result, "Gallia", "A TUS S A APU - ROM")["reason"] == (
        "void: A ROM is Latium's, of Gallia's own federation: no support against it counts")
    kept = adjudicate("F100M", {"Gallia": ["A ROM"]}, centers={"Latium": ["ROM"]}, extra=extra)
    assert kept["centers"] == {"Latium": ["ROM"]}


def test_a_federation_partners_fleet_captures_its_empty_centre() -> None:
    """5 "Supply centers cannot be captured by armies belonging to the same empire": the rule
    names armies; Gallia's fleet in Latium's empty Naples takes it."""
    extra = {"federations": [["Gallia", "Latium"]]}
    result = adjudicate("F100M", {"Gallia": ["F TYS"], "Latium": ["A ROM"]}, {"Gallia": ["F TYS - NAP"]},
                        centers={"Latium": ["ROM", "NAP"]}, extra=extra)
    assert result["centers"] == {"Gallia": ["NAP"], "Latium": ["ROM"]}


def test_defederating_takes_effect_at_the_end_of_the_phase() -> None:
    result = adjudicate("S100M", {"Latium": ["A ROM"], "Gallia": ["A MAR"]}, {"Gallia": ["DEFEDERATE"]},
                        extra={"federations": [["Gallia", "Latium"]]})
    assert "federations" not in result["extra"] and result["announcements"] == ["Gallia leaves its federation"]


def test_units_and_centres_are_given_within_a_federation_after_the_retreats() -> None:
    extra = {"federations": [["Gallia", "Latium"]]}
    centres = {"Latium": ["ROM", "NAP"], "Gallia": ["MAR"]}
    result = adjudicate("F100M", garrisoned({"Latium": ["A ROM", "A NAP"], "Gallia": ["A MAR"]}, centres),
                        {"Latium": ["GIVE A NAP TO Gallia", "GIVE CENTRE ROM TO Gallia"]},
                        centers=centres, extra=extra)
    assert (result["units"]["Gallia"], result["units"]["Latium"]) == (["A MAR", "A NAP"], ["A ROM"])
    assert result["centers"] == {"Gallia": ["MAR", "ROM"], "Latium": ["NAP"]}
    assert result["announcements"] == ["Latium gives its unit in Naples to Gallia", "Latium gives Rome to Gallia"]
    refused = adjudicate("F100M", {"Latium": ["A NAP"], "Samnium": ["A APU"]}, {"Latium": ["GIVE A NAP TO Samnium"]})
    assert refused["results"]["Latium"][0]["outcome"] == "fails"
    assert refused["units"]["Latium"] == ["A NAP"]


def test_a_unit_given_passes_after_the_retreats_wherever_it_moved_or_retreated() -> None:
    """5 "Such trades occur after retreats, but before builds": the army given
    moves that Fall and passes where it stands; one dislodged passes where it retreats; one
    destroyed meanwhile cannot pass."""
    extra = {"federations": [["Gallia", "Latium"]]}
    moved = adjudicate("F100M", {"Latium": ["A NAP"], "Gallia": ["A MAR"]},
                       {"Latium": ["GIVE A NAP TO Gallia", "A NAP - APU"]}, centers={"Latium": ["NAP"]}, extra=extra)
    assert outcome(moved, "Latium", "GIVE A NAP TO Gallia")["outcome"] == "succeeds"
    assert moved["units"]["Gallia"] == ["A APU", "A MAR"] and "Latium" not in moved["units"]
    assert moved["announcements"] == ["Latium gives its unit in Apulia to Gallia"]
    units = {"Latium": ["A TUS"], "Gallia": ["A MAR"], "Samnium": ["A ROM", "A VEN"]}
    beaten = adjudicate("F100M", units, {"Latium": ["GIVE A TUS TO Gallia"], "Samnium": ["A ROM - TUS", "A VEN S A ROM - TUS"]},
                        extra=extra)
    assert beaten["next_phase"] == "F100R" and beaten["extra"]["gifts"] == [
        {"from": "Latium", "to": "Gallia", "what": "unit", "where": "TUS"}]
    retreated = adjudicate("F100R", beaten["units"], {"Latium": ["A TUS R PIE"]}, dislodged=beaten["dislodged"],
                           extra=beaten["extra"])
    assert retreated["units"]["Gallia"] == ["A MAR", "A PIE"] and "Latium" not in retreated["units"]
    destroyed = adjudicate("F100R", beaten["units"], {}, dislodged=beaten["dislodged"], extra=beaten["extra"])
    assert destroyed["units"]["Gallia"] == ["A MAR"]
    assert destroyed["announcements"] == ["Latium's gift of a unit to Gallia is not carried out: the unit is gone"]


def test_a_build_given_in_the_build_phase_is_carried_out_before_the_builds() -> None:
    """5 "Such trades occur after retreats, but before builds": Aurelia has two
    builds and gives one to Bellona, which has one: Bellona's two builds succeed, Aurelia's
    second fails."""
    extra = {"federations": [["Aurelia", "Bellona"]], "empires": {"Aurelia": "ROM", "Bellona": "MAR"},
             "barbarians": ["PIE", "BUR"]}
    centres = {"Aurelia": ["ROM", "NAP", "VEN"], "Bellona": ["MAR", "SPA"]}
    result = adjudicate("W100A", {"Aurelia": ["G ROM", "A APU"], "Bellona": ["G MAR", "A GAS"]},
                        {"Aurelia": ["GIVE BUILD TO Bellona", "BUILD A ROM", "BUILD B PIE"],
                         "Bellona": ["BUILD F MAR", "BUILD B BUR"]}, centers=centres, extra=extra)
    assert outcome(result, "Aurelia", "GIVE BUILD TO Bellona")["outcome"] == "succeeds"
    assert outcome(result, "Bellona", "BUILD F MAR")["outcome"] == "succeeds"
    assert outcome(result, "Bellona", "BUILD B BUR")["outcome"] == "succeeds"
    assert outcome(result, "Aurelia", "BUILD A ROM")["outcome"] == "succeeds"
    assert outcome(result, "Aurelia", "BUILD B PIE")["reason"] == "illegal: Aurelia has only 1 build"
    assert result["announcements"] == ["Aurelia gives a build to Bellona"] and "gifts" not in result["extra"]


def test_a_build_is_given_within_a_federation() -> None:
    extra = {"federations": [["Gallia", "Latium"]], "empires": {"Latium": "ROM", "Gallia": "MAR"},
             "gifts": [{"from": "Latium", "to": "Gallia", "what": "build", "where": ""}]}
    result = adjudicate("W100A", {"Latium": ["G ROM"], "Gallia": ["G MAR"]}, {"Gallia": ["BUILD A MAR"]},
                        centers={"Latium": ["ROM", "NAP"], "Gallia": ["MAR"]}, extra=extra)
    assert result["units"]["Gallia"] == ["A MAR", "G MAR"] and "gifts" not in result["extra"]


def test_a_federation_wins_jointly() -> None:
    centres = sorted(RD.map.supply_centres)
    result = adjudicate("F100M", {"Latium": ["A ROM"]}, centers={"Latium": centres[:8], "Gallia": centres[8:15]},
                        extra={"federations": [["Gallia", "Latium"]]})
    assert result["winner"] == "Gallia + Latium"
    alone = adjudicate("F100M", {"Latium": ["A ROM"]}, centers={"Latium": centres[:8], "Gallia": centres[8:15]})
    assert alone["winner"] is None



def test_several_reaching_victory_at_once_is_a_draw_among_them_all() -> None:
    centres = sorted(RD.map.supply_centres)
    owned = {"Latium": centres[:15], "Gallia": centres[15:23], "Hispania": centres[23:30]}
    held = {power: [f"A {c}" for c in owned_centres] for power, owned_centres in owned.items()}  # none overrun
    alone = adjudicate("F100M", held, centers=owned)
    assert alone["winner"] == "Latium" and "draw" not in alone
    both = adjudicate("F100M", held, centers=owned, extra={"federations": [["Gallia", "Hispania"]]})
    assert both["winner"] is None and both["draw"] == ["Gallia", "Hispania", "Latium"]


# -- barbarians (7, 8) ---------------------------------------------------------------------------

def test_barbarian_land_spreads_into_empty_land_and_an_army_clears_it() -> None:
    result = adjudicate("S100M", garrisoned({"Latium": ["A ROM"]}), {"Latium": ["A ROM - TUS"]},
                        extra=no_barbarians("PIE", "APU"))
    barbarian = set(result["extra"]["barbarians"])
    assert "TUS" not in barbarian  # the army entered it and stands there
    assert "TYR" in barbarian  # empty land next to Piedmont
    assert "APU" in barbarian and "PIE" in barbarian  # they stay barbarian
    assert "BUR" not in barbarian  # next to no barbarian land and not at the map's edge
    assert "SYR" in barbarian  # at the map's edge
    assert neutral_in(result, "VEN", "ROM") == ["VEN", "ROM"]  # Rome, left empty beside Apulia, is garrisoned
    cleared = adjudicate("F100M", garrisoned({"Latium": ["A TUS"]}), {"Latium": ["A TUS - PIE"]},
                         extra=result["extra"])
    assert "PIE" not in cleared["extra"]["barbarians"]  # cleared by the army entering it
    assert "TUS" not in cleared["extra"]["barbarians"]  # left empty, but next to no barbarian land


def test_barbarians_spread_once_a_season_after_its_retreats() -> None:
    """7 "At the end of each turn": nothing spreads after the Spring moves while
    retreats are to come; after them it spreads once: into Burgundy, next to the Ruhr, and no
    further (not into Gascony or Picardy, next to Burgundy only)."""
    units = garrisoned({"Latium": ["A ROM", "A VEN"], "Samnium": ["A TUS"]})
    moved = adjudicate("S100M", units, {"Latium": ["A ROM - TUS", "A VEN S A ROM - TUS"]}, extra=no_barbarians("RUH"))
    assert moved["next_phase"] == "S100R" and moved["extra"]["barbarians"] == ["RUH"]
    retreated = adjudicate("S100R", moved["units"], {"Samnium": ["A TUS R PIE"]},
                           dislodged={"Samnium": [{"unit": "A TUS", "retreats": ["PIE"]}]}, extra=moved["extra"])
    barbarian = set(retreated["extra"]["barbarians"])
    assert "BUR" in barbarian and not barbarian & {"GAS", "PIC", "PIE"}


def test_a_retreat_never_ends_beside_a_neutral_garrison() -> None:
    """7: Aurelia's empty Belgium beside barbarian Picardy is not overrun before
    the retreats, so Aurelia's dislodged army may retreat there; the centre is then occupied and
    stays Aurelia's, and the board is one gm takes back as input."""
    centres = {"Aurelia": ["BEL"]}
    units = garrisoned({"Aurelia": ["A BUR"], "Bellona": ["A MAR", "A GAS"]}, centres)
    moved = adjudicate("S101M", units, {"Bellona": ["A MAR - BUR", "A GAS S A MAR - BUR"]}, centers=centres,
                       extra=no_barbarians("PIC"))
    assert "BEL" in moved["dislodged"]["Aurelia"][0]["retreats"] and neutral_in(moved, "BEL") == []
    retreated = adjudicate("S101R", moved["units"], {"Aurelia": ["A BUR R BEL"]}, centers=moved["centers"],
                           dislodged=moved["dislodged"], extra=moved["extra"])
    assert outcome(retreated, "Aurelia", "A BUR R BEL")["outcome"] == "succeeds"
    assert retreated["units"]["Aurelia"] == ["A BEL"] and neutral_in(retreated, "BEL") == []
    again = adjudicate(retreated["next_phase"], retreated["units"], centers=retreated["centers"],
                       extra=retreated["extra"])
    assert again["units"]["Aurelia"] == ["A BEL"]


def test_an_unheld_centre_the_barbarians_reach_turns_neutral_with_a_garrison() -> None:
    centres = {"Latium": ["ROM", "NAP"]}
    result = adjudicate("S100M", garrisoned({"Latium": ["A ROM"]}, centres), centers=centres,
                        extra=no_barbarians("APU"))
    assert result["centers"] == {"Latium": ["ROM"]}
    assert neutral_in(result, "NAP", "ROM") == ["NAP"]
    assert result["announcements"] == ["barbarians overrun Naples, Latium's: it is neutral again, with a garrison"]


def test_barbarian_armies_are_raised_released_and_hired_again() -> None:
    extra = {"empires": {"Latium": "ROM"}, "barbarians": ["TUS", "APU"]}
    raised = adjudicate("W100A", {"Latium": ["G ROM"], "Gallia": ["G MAR"]},
                        {"Latium": ["BUILD B TUS", "BUILD B APU"], "Gallia": ["BUILD B TUS"]},
                        centers={"Latium": ["ROM", "NAP", "VEN"], "Gallia": ["MAR", "SPA"]},
                        extra={**extra, "empires": {"Latium": "ROM", "Gallia": "MAR"}})
    assert outcome(raised, "Latium", "BUILD B TUS")["reason"] == "bounced: another power builds there too"
    assert raised["units"]["Latium"] == ["B APU", "G ROM"]
    released = adjudicate("W101A", {"Latium": ["G ROM", "B APU", "A NAP"]}, {"Latium": ["REMOVE B APU"]},
                          centers={"Latium": ["ROM", "NAP"]}, extra=extra)
    assert released["units"]["Barbarian"] == ["B APU"] and released["units"]["Latium"] == ["A NAP", "G ROM"]
    centres = {"Latium": ["ROM", "NAP"]}
    hired = adjudicate("W102A", garrisoned({"Latium": ["G ROM"], "Barbarian": ["B APU"]}, centres),
                       {"Latium": ["BUILD B APU"]}, centers=centres, extra=extra)
    assert hired["units"]["Latium"] == ["B APU", "G ROM"] and "Barbarian" not in hired["units"]


def test_a_barbarian_army_is_released_at_will_and_counts_for_a_removal_owed() -> None:
    extra = {"empires": {"Latium": "ROM"}, "barbarians": ["APU"]}
    owed = adjudicate("W101A", {"Latium": ["G ROM", "B APU", "A NAP", "A VEN"]}, {"Latium": ["REMOVE B APU"]},
                      centers={"Latium": ["ROM", "NAP"]}, extra=extra)
    assert owed["units"]["Latium"] == ["A NAP", "A VEN", "G ROM"] and owed["units"]["Barbarian"] == ["B APU"]
    extra_unit = adjudicate("W101A", {"Latium": ["G ROM", "B APU", "A NAP"]}, {"Latium": ["REMOVE A NAP"]},
                            centers={"Latium": ["ROM", "NAP"]}, extra=extra)
    assert extra_unit["results"]["Latium"][0]["reason"] == "illegal: Latium has no units to remove"


def test_a_centre_a_barbarian_army_takes_turns_neutral_with_a_garrison() -> None:
    centres = {"Samnium": ["NAP"]}
    result = adjudicate("F100M", garrisoned({"Latium": ["B APU"]}, centres), {"Latium": ["B APU - NAP"]},
                        centers=centres)
    assert "NAP" not in str(result["centers"]) and neutral_in(result, "NAP") == ["NAP"]
    assert result["units"]["Latium"] == ["B NAP"]


# -- civil disorder (9) ---------------------------------------------------------------------------

def test_an_empire_in_civil_disorder_loses_its_centres_and_its_units_in_them() -> None:
    start = RD.initial_position()
    centres = {"Latium": ["ROM", "NAP", "VEN"]}
    board = adjudicate("S100M", garrisoned({"Latium": ["G ROM", "A ROM", "A TUS", "F NAP"], "Gallia": ["A VEN"]},
                                           centres), centers=centres, extra={"empires": {"Latium": "ROM"}})
    position = read_request({"variant": "roman-diplomacy-i", "phase": "F100M", "units": board["units"],
                             "centers": board["centers"], "extra": board["extra"]}, CATALOG).position
    log = PhaseLog(None)
    after = RD.civil_disorder(position, "Latium", log)
    assert after.centres == {}
    assert sorted(str(u) for u in after.units if u.power == "Latium") == ["A TUS"]
    neutral = {u.location.province for u in after.units if u.power == "Neutral"}
    assert {"NAP", "ROM"} <= neutral and "VEN" not in neutral  # Venice is held by a foreign unit
    assert log.announcements == ["Latium falls into civil disorder: its centres are neutral again"]
    assert encode_position(start)["units"]  # the start is untouched


def missed_after(orders: dict[str, list[str]], missed: dict[str, list[int]]) -> dict[str, Any]:
    centres = {"Latium": ["ROM", "NAP"], "Gallia": ["MAR"]}
    board = garrisoned({"Latium": ["G ROM", "A ROM", "A TUS", "F NAP"], "Gallia": ["G MAR"]}, centres)
    extra = {"empires": {"Latium": "ROM", "Gallia": "MAR"}, "missed": missed, "federations": [["Gallia", "Latium"]]}
    return adjudicate("S100M", board, orders, centers=centres, extra=extra)


def test_a_movement_phase_without_any_order_is_missed_and_counted() -> None:
    result = missed_after({"Gallia": ["G MAR H"]}, {"Gallia": [1, 1]})
    assert result["extra"]["missed"] == {"Gallia": [0, 1], "Latium": [1, 1]}  # an order resets the row
    assert "announcements" not in result and result["centers"]["Latium"] == ["NAP", "ROM"]


@pytest.mark.parametrize("missed", [[1, 1], [0, 2]], ids=["two in a row", "three in all"])
def test_two_missed_in_a_row_or_three_in_all_put_an_empire_in_civil_disorder(missed: list[int]) -> None:
    result = missed_after({"Gallia": ["G MAR H"]}, {"Latium": missed})
    assert "Latium falls into civil disorder: its centres are neutral again" in result["announcements"]
    assert "Latium" not in result["centers"] and result["units"]["Latium"] == ["A TUS"]  # stands, unordered
    assert neutral_in(result, "ROM", "NAP") == ["ROM", "NAP"]
    extra = result["extra"]
    assert extra["empires"] == {"Gallia": "MAR"} and "federations" not in extra and "Latium" not in extra.get("missed", {})
    assert not RD.in_play(read_request({"variant": "roman-diplomacy-i", "phase": "F100M", "units": result["units"],
                                        "extra": extra}, CATALOG).position) & {"Latium"}


def test_the_interchange_carries_the_variants_units_and_state() -> None:
    with pytest.raises(InterchangeError, match="may not stand together"):
        adjudicate("S100M", {"Latium": ["G ROM"], "Gallia": ["A ROM"]})
    board = garrisoned({"Barbarian": ["B TUS"], "Latium": ["G ROM", "A ROM"]})
    result = adjudicate("S100M", board)
    assert result["units"] == {power: sorted(units) for power, units in board.items()}
    assert "TUS" in result["extra"]["barbarians"]  # a barbarian army in civil disorder occupies its province


def test_board_ii_special_build_centres_are_owned_and_used_for_builds() -> None:
    """Board II "special build centers may be used by the owning player": Athens,
    Jerusalem and Sidon are no supply centres; an empire owns one as it would a centre (its unit
    there at the end of a Fall: a ruling) and builds there when it is vacant; barbarian again,
    it is lost, and raises only barbarian armies."""
    extra = {"empires": {"Macedon": "KOR"}, "barbarians": []}
    taken = adjudicate("F-240M", {"Macedon": ["G KOR", "A LAR"]}, {"Macedon": ["A LAR - ATH"]},
                       variant="roman-diplomacy-ii", centers={"Macedon": ["KOR", "PEL"]}, extra=extra)
    assert taken["extra"]["special_build_centres"] == {"ATH": "Macedon"} and taken["next_phase"] == "W-240A"
    built = adjudicate("W-240A", {"Macedon": ["G KOR"]}, {"Macedon": ["BUILD F ATH"]}, variant="roman-diplomacy-ii",
                       centers={"Macedon": ["KOR", "PEL"]}, extra=taken["extra"])
    assert outcome(built, "Macedon", "BUILD F ATH")["outcome"] == "succeeds" and built["units"]["Macedon"] == ["F ATH", "G KOR"]
    wild = adjudicate("W-240A", {"Macedon": ["G KOR"]}, {"Macedon": ["BUILD A ATH"]}, variant="roman-diplomacy-ii",
                      centers={"Macedon": ["KOR", "PEL"]}, extra={**extra, "barbarians": ["ATH"]})
    assert outcome(wild, "Macedon", "BUILD A ATH")["reason"] == "illegal: Macedon cannot build an army in Athens"
    lost = adjudicate("S-239M", {"Macedon": ["G KOR"]}, variant="roman-diplomacy-ii", centers={"Macedon": ["KOR"]},
                      extra={**taken["extra"], "barbarians": ["AET"]})
    assert "special_build_centres" not in lost["extra"] and "ATH" in lost["extra"]["barbarians"]


def test_the_picture_shows_barbarian_land_garrisons_imperial_cities_and_barbarian_armies() -> None:
    from gm.render.scene import build_scene
    from gm.render.svg import render_phase_svg

    board = garrisoned({"Latium": ["G ROM", "A ROM", "B GAS"], "Barbarian": ["B BUR"]}, {"Latium": ["ROM"]})
    result = adjudicate("S100M", board, centers={"Latium": ["ROM"]}, extra={"empires": {"Latium": "ROM"}})
    position = read_request({"variant": "roman-diplomacy-i", "phase": "F100M", "units": result["units"],
                             "centers": result["centers"], "extra": result["extra"]}, CATALOG).position
    marks = build_scene(RD, position).units
    assert sorted(m.letter for m in marks if m.letter != "G") == ["A", "B", "B"]
    assert sum(m.letter == "G" for m in marks) == len(RD.map.supply_centres)  # every centre garrisoned
    svg = render_phase_svg(RD, position)
    assert "barbarian land" in svg and "Imperial City" in svg
