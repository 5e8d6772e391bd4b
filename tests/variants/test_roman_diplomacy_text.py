"""Roman Diplomacy I and II: the rules text's sentences that no other test proves, each written
from the text (Roman Diplomacy, Pete Calcraft) and run through `gm adjudicate`
(docs/rules/roman-diplomacy.md traces every rule to its tests)."""

from __future__ import annotations

from typing import Any

import pytest

from gm.interchange import adjudicate_json
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

CATALOG = VariantCatalog()
RD = CATALOG.get("roman-diplomacy-i")
RD2 = CATALOG.get("roman-diplomacy-ii")


def adjudicate(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]] | None = None,
               variant: str = "roman-diplomacy-i", **more: Any) -> dict[str, Any]:
    document = {"variant": variant, "phase": phase, "units": units, "orders": orders or {}, **more}
    return adjudicate_json(document, CATALOG)


# -- 3. Imperial Cities ----------------------------------------------------------------------------

def test_the_garrison_of_an_imperial_city_may_not_move() -> None:
    """3 "The garrison of an imperial city may not move"."""
    result = adjudicate("S100M", {"Latium": ["G ROM"]}, {"Latium": ["G Rome - Tuscany"]}, extra={"empires": {"Latium": "ROM"}})
    assert result["results"]["Latium"][0]["outcome"] == "fails"
    assert result["results"]["Latium"][0]["reason"].startswith("illegal:")
    assert result["units"]["Latium"] == ["G ROM"]


def test_a_captured_centre_has_no_garrison_and_a_captured_imperial_citys_garrison_is_destroyed() -> None:
    """3 "is destroyed if the province is captured by another power ... Captured supply centers
    have no garrisons"."""
    extra = {"empires": {"Latium": "ROM"}, "barbarians": []}
    taken = adjudicate("F100M", {"Latium": ["G ROM"], "Samnium": ["A NAP", "A APU"]},
                       {"Samnium": ["A NAP - ROM", "A APU S A NAP - ROM"]}, centers={"Latium": ["ROM"]}, extra=extra)
    assert taken["dislodged"]["Latium"] == [{"unit": "G ROM", "attacker_from": "NAP", "retreats": []}]
    assert taken["centers"] == {"Samnium": ["ROM"]} and "Latium" not in taken["units"]
    assert "G ROM" not in taken["units"].get("Neutral", [])
    neutral = adjudicate("F100M", {"Neutral": ["G NAP"], "Samnium": ["A ROM", "A APU"]},
                         {"Samnium": ["A ROM - NAP", "A APU S A ROM - NAP"]}, extra={"barbarians": []})
    assert neutral["centers"] == {"Samnium": ["NAP"]} and "G NAP" not in neutral["units"].get("Neutral", [])


def test_a_dislodged_army_retreats_into_its_own_imperial_city_beside_the_garrison() -> None:
    """3 "Normal units may occupy the same province as a friendly garrison": Latium's army beaten
    in Tuscany, every other neighbour held, retreats to Rome, its own Imperial City, beside the
    garrison; a second unit of Latium's retreating there with it would clash with it, as usual."""
    extra = {"empires": {"Latium": "ROM"}, "barbarians": []}
    units = {"Latium": ["G ROM", "A TUS"], "Dacia": ["A PIE", "A VEN", "F LYO", "F TYS"]}
    beaten = adjudicate("S101M", units, {"Dacia": ["A PIE - TUS", "A VEN S A PIE - TUS"]}, extra=extra)
    assert beaten["dislodged"] == {"Latium": [{"unit": "A TUS", "attacker_from": "PIE", "retreats": ["ROM"]}]}
    retreated = adjudicate("S101R", beaten["units"], {"Latium": ["A TUS R ROM"]}, dislodged=beaten["dislodged"],
                           centers=beaten["centers"], extra=beaten["extra"])
    assert retreated["results"]["Latium"][0]["outcome"] == "succeeds"
    assert retreated["units"]["Latium"] == ["A ROM", "G ROM"]
    two = adjudicate("S101R", {"Latium": ["G ROM"], "Dacia": ["A TUS", "A APU"]}, {"Latium": ["A TUS R ROM", "A APU R ROM"]},
                     dislodged={"Latium": [{"unit": "A TUS", "attacker_from": "PIE", "retreats": ["ROM"]},
                                           {"unit": "A APU", "attacker_from": "NAP", "retreats": ["ROM"]}]}, extra=extra)
    assert [r["reason"] for r in two["results"]["Latium"]] == ["bounced", "bounced"]
    assert two["units"]["Latium"] == ["G ROM"]


def test_a_retreat_into_a_neutral_garrison_is_refused_whatever_the_retreats_listed() -> None:
    """3 "a garrison does resist attacks from other empires", 7: a retreat phase given with
    Belgium, neutral and garrisoned, among the retreats of Aurelia's army (as an older judge
    wrote them) does not let it retreat there: the rules judge the order, not the list alone."""
    extra = {"empires": {"Aurelia": "PAR"}, "barbarians": []}
    result = adjudicate("S101R", {"Neutral": ["G BEL"], "Bellona": ["A BUR"], "Aurelia": ["G PAR"]},
                        {"Aurelia": ["A BUR R BEL"]}, centers={"Aurelia": ["PAR"]}, extra=extra,
                        dislodged={"Aurelia": [{"unit": "A BUR", "attacker_from": "MAR", "retreats": ["BEL", "PIC"]}]})
    refused = result["results"]["Aurelia"][0]
    assert refused["outcome"] == "fails"
    assert refused["reason"] == "illegal: G BEL (Neutral) stands in Belgium: it may not retreat beside it"
    assert result["units"]["Aurelia"] == ["G PAR"] and "G BEL" in result["units"]["Neutral"]
    listed = adjudicate("S101R", {"Neutral": ["G BEL"], "Bellona": ["A BUR"], "Aurelia": ["G PAR"]},
                        {"Aurelia": ["A BUR R PIC"]}, centers={"Aurelia": ["PAR"]}, extra=extra,
                        dislodged={"Aurelia": [{"unit": "A BUR", "attacker_from": "MAR", "retreats": ["BEL", "PIC"]}]})
    assert listed["units"]["Aurelia"] == ["A PIC", "G PAR"]  # the list's other place the rules allow


# -- 4. fleets --------------------------------------------------------------------------------------

def test_an_unordered_fleet_stands_and_may_be_supported_while_another_takes_its_step() -> None:
    """4 "You may make as many fleet orders as you have fleets. Unordered fleets stand, and may be
    supported.": Latium's fleet in Naples takes no order, so its step goes to the fleet in the
    Tyrrhenian Sea, and the army's support still helps Naples hold."""
    result = adjudicate("S100M", {"Latium": ["F TYS", "F NAP", "A ROM"], "Samnium": ["A APU", "F ION"]},
                        {"Latium": ["F TYS - LYO - MAR", "A ROM S F NAP"],
                         "Samnium": ["A APU - NAP", "F ION S A APU - NAP"]}, extra={"barbarians": []})
    assert result["results"]["Latium"][0]["outcome"] == "succeeds"
    assert [r["outcome"] for r in result["results"]["Samnium"]] == ["fails", "succeeds"]
    assert sorted(result["units"]["Latium"]) == ["A ROM", "F MAR", "F NAP"]


# -- 5. federation ------------------------------------------------------------------------------------

FEDERATION = {"federations": [["Aurelia", "Bellona"]], "barbarians": []}


def test_a_support_to_hold_against_a_federation_partners_attack_counts_for_nothing() -> None:
    """5 "Units belonging to the same empire may not support against [each] other": Bellona's
    support of Camilla's army in Venice, against the attack of Aurelia, Bellona's partner, is a
    support against Aurelia: it counts for nothing (void, the result says), and Aurelia's army,
    supported from Piedmont, dislodges Camilla's. Without the federation it holds Venice."""
    units = {"Aurelia": ["A TYR", "A PIE"], "Bellona": ["A ROM"], "Camilla": ["A VEN"]}
    orders = {"Aurelia": ["A TYR - VEN", "A PIE S A TYR - VEN"], "Bellona": ["A ROM S A VEN"]}
    result = adjudicate("S101M", units, orders, extra=FEDERATION)
    support = result["results"]["Bellona"][0]
    assert (support["outcome"], support["reason"]) == (
        "fails", "void: given against A TYR (Aurelia), of Bellona's own federation: no support against it counts")
    assert result["dislodged"]["Camilla"][0]["unit"] == "A VEN"
    assert "A VEN" in result["units"]["Aurelia"]
    alone = adjudicate("S101M", units, orders, extra={"barbarians": []})
    assert alone["dislodged"] == {} and alone["results"]["Bellona"][0]["outcome"] == "succeeds"


def test_a_support_to_stand_off_a_federation_partners_move_counts_for_nothing_against_it() -> None:
    """5, a ruling: Bellona supporting Camilla's move into Venice, where Aurelia's army moves too,
    supports it against Aurelia, Bellona's partner: it counts for nothing there (void), and
    Aurelia's army, stronger by its own support, goes in."""
    result = adjudicate("S101M", {"Aurelia": ["A TYR", "A PIE"], "Bellona": ["A ROM"], "Camilla": ["A APU"]},
                        {"Aurelia": ["A TYR - VEN", "A PIE S A TYR - VEN"], "Bellona": ["A ROM S A APU - VEN"],
                         "Camilla": ["A APU - VEN"]}, extra=FEDERATION)
    assert result["results"]["Bellona"][0]["reason"].startswith("void: given against A TYR (Aurelia)")
    assert "A VEN" in result["units"]["Aurelia"] and result["units"]["Camilla"] == ["A APU"]


def test_a_federation_partners_attack_cuts_no_support() -> None:
    """5 "... or cut each other's support": Aurelia's army attacking Piedmont, where Bellona's
    army supports Bellona's attack on Marseilles, cuts nothing, and Marseilles falls."""
    result = adjudicate("S101M", {"Aurelia": ["A TUS"], "Bellona": ["A PIE", "A GAS"], "Camilla": ["A MAR"]},
                        {"Aurelia": ["A TUS - PIE"], "Bellona": ["A PIE S A GAS - MAR", "A GAS - MAR"]},
                        extra=FEDERATION)
    assert [r["outcome"] for r in result["results"]["Bellona"]] == ["succeeds", "succeeds"]
    assert result["dislodged"]["Camilla"][0]["unit"] == "A MAR"


def test_a_federation_partners_supported_attack_never_dislodges_a_partner() -> None:
    """5: Aurelia's attack on Venice, held by Bellona, its partner, with Aurelia's own support: a
    support against a partner counts for nothing, and Bellona's army stays; without the
    federation it is dislodged."""
    units = {"Aurelia": ["A TYR", "A PIE"], "Bellona": ["A VEN"]}
    orders = {"Aurelia": ["A TYR - VEN", "A PIE S A TYR - VEN"]}
    federated = adjudicate("S101M", units, orders, extra=FEDERATION)
    assert federated["results"]["Aurelia"][0]["reason"] == "bounced" and federated["dislodged"] == {}
    assert federated["results"]["Aurelia"][1]["reason"].startswith("void: A VEN is Bellona's")
    alone = adjudicate("S101M", units, orders, extra={"barbarians": []})
    assert alone["dislodged"]["Bellona"][0]["unit"] == "A VEN"


# -- 8. barbarian armies ------------------------------------------------------------------------------

def test_a_kept_barbarian_army_does_not_make_its_province_barbarian() -> None:
    """8 "the presence of a barbarian army does not imply 'barbarian occupation' under rule 7 unless
    that army is in civil disorder"."""
    result = adjudicate("S100M", {"Latium": ["B TUS", "A VEN"]}, {"Latium": ["B TUS - PIE", "A VEN - TYR"]},
                        extra={"empires": {"Latium": "ROM"}, "barbarians": []})
    assert result["units"]["Latium"] == ["A TYR", "B PIE"]
    assert "PIE" not in result["extra"].get("barbarians", [])
    released = adjudicate("S100M", {"Barbarian": ["B PIE"], "Latium": ["A VEN"]}, extra={"barbarians": []})
    assert "PIE" in released["extra"]["barbarians"]


# -- board I: no Kiel canal -----------------------------------------------------------------------------

def test_board_i_has_no_kiel_canal() -> None:
    """Board I "Note the Kiel Canal does not exist in that era": a fleet on Kiel's Baltic coast
    cannot sail into the Helgoland Bight, nor one on its North Sea coast into the Baltic."""
    baltic = adjudicate("S100M", {"Latium": ["F KIE/EC"]}, {"Latium": ["F KIE/EC - HEL"]})
    north = adjudicate("S100M", {"Latium": ["F KIE/WC"]}, {"Latium": ["F KIE/WC - BAL"]})
    assert baltic["results"]["Latium"][0]["reason"].startswith("illegal:")
    assert north["results"]["Latium"][0]["reason"].startswith("illegal:")
    assert adjudicate("S100M", {"Latium": ["F KIE/WC"]}, {"Latium": ["F KIE/WC - HEL"]})["units"]["Latium"] == ["F HEL"]


# -- board II ----------------------------------------------------------------------------------------

def test_board_ii_starting_centres_are_on_the_mediterranean_or_the_black_sea() -> None:
    """Board II "The starting supply centers must be on the coasts of the Mediterranean or Black Sea"."""
    start = RD2.initial_position()
    assert setup_of(RD2).joining_request("Rome as Latium", start) == ("Latium", "ROM")
    for inland_or_atlantic in ("Lusitania", "Memphis", "Damascus"):
        with pytest.raises(ValueError, match="is no Imperial City site"):
            setup_of(RD2).joining_request(inland_or_atlantic, start)


def test_board_ii_every_province_is_passable_and_the_passage_links_are_crossed_directly() -> None:
    """Board II "All provinces on the map are passable and direct passage links may be used"."""
    for here, there in (("GAD", "MAU"), ("BTT", "SYC"), ("COR", "SAR"), ("AET", "ACH"), ("THR", "PGM"), ("BYZ", "BIT")):
        for a, b in ((here, there), (there, here)):
            result = adjudicate("S-240M", {"Roma": [f"A {a}"]}, {"Roma": [f"A {a} - {b}"]}, variant="roman-diplomacy-ii")
            assert result["units"]["Roma"] == [f"A {b}"], (a, b)
    for province in ("BRI", "DAC"):  # impassable on the Diadochi board, passable here
        assert RD2.map.provinces[province].holds_armies


def test_board_ii_a_multiple_centre_counts_once() -> None:
    """Board II "All multiple supply centers are treated as if single": Rome (a triple centre in
    Diadochi V) gives one build, not three."""
    wild = sorted(RD2.initial_position().extra["barbarians"])[:2]
    built = adjudicate("W-240A", {"Roma": ["G ROM"]}, {"Roma": ["BUILD A ROM", f"BUILD B {wild[0]}", f"BUILD B {wild[1]}"]},
                       variant="roman-diplomacy-ii", centers={"Roma": ["ROM"]},
                       extra={"empires": {"Roma": "ROM"}, "barbarians": wild})
    assert [r["outcome"] for r in built["results"]["Roma"]] == ["succeeds", "fails", "fails"]
    assert built["results"]["Roma"][1]["reason"] == "illegal: Roma has only 1 build"


# -- 9. civil disorder ----------------------------------------------------------------------------------

def test_a_centre_garrisoned_by_a_civil_disorder_is_no_retreat() -> None:
    """9 "Centers not occupied by foreign units gain neutral garrisons" at once: Aurelia's empty
    Belgium, garrisoned when Aurelia falls into civil disorder, is no longer a retreat for
    Bellona's army dislodged beside it in the same phase, and gm takes the retreat's board back."""
    extra = {"empires": {"Aurelia": "PAR", "Bellona": "MAR"}, "missed": {"Aurelia": [1, 1]}, "barbarians": []}
    centres = {"Aurelia": ["BEL", "PAR"], "Bellona": ["MAR"]}
    moved = adjudicate("S101M", {"Aurelia": ["G PAR", "A PIC"], "Bellona": ["G MAR", "A BUR"], "Cassia": ["A MUN", "A RUH"]},
                       {"Bellona": ["G MAR H"], "Cassia": ["A MUN - BUR", "A RUH S A MUN - BUR"]}, centers=centres, extra=extra)
    assert "Aurelia falls into civil disorder: its centres are neutral again" in moved["announcements"]
    assert "G BEL" in moved["units"]["Neutral"]
    retreats = moved["dislodged"]["Bellona"][0]["retreats"]
    assert "BEL" not in retreats and retreats
    retreated = adjudicate("S101R", moved["units"], {"Bellona": [f"A BUR R {retreats[0]}"]}, centers=moved["centers"],
                           dislodged=moved["dislodged"], extra=moved["extra"])
    assert f"A {retreats[0]}" in retreated["units"]["Bellona"]

