"""Classical (Schwarz & Mous): each numbered rule and every example of the rules text, as
positions run through ``gm adjudicate`` (the interchange format) with their expected results.

Rules: Classical Diplomacy (docs/rules/classical.md). The rules module (gm/variants/classical.py) holds only the
calendar (rule 3), victory during an adjustment phase (rule 4) and aberration-style builds
(rule 6); rules 7, 7a, 7b and 8 are borders of maps/classical.yaml, checked here by playing them.

Each case is a position with orders; ``expect`` lists, per power, each order's outcome in the
order written: "succeeds", or the start of "fails: <reason>" (so "fails: illegal" matches any
illegal order), and optionally the units, centres, dislodged units, next phase and winner
exactly as ``gm adjudicate`` prints them. Every case runs in process and, all together, once
through the real command line (``gm adjudicate --jsonl``).
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from typing import Any

import pytest

from gm.adjudicator.engine import adjudicate
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Build, UnitRef
from gm.domain.phases import Era, PhaseKind
from gm.domain.position import Position
from gm.domain.units import Unit
from gm.interchange import adjudicate_json
from gm.maps.loader import load_map, map_path
from gm.variants import classical
from gm.variants.catalog import VariantCatalog

CATALOG = VariantCatalog()


@pytest.fixture(scope="module")
def variant() -> Variant:
    return CATALOG.get("classical")


def case(name: str, rule: str, phase: str, units: dict, orders: dict, expect: dict,
         centers: dict | None = None, dislodged: dict | None = None, text: str = "") -> Any:
    """One position of the rules; ``text`` quotes the rules where the case is their example."""
    position: dict[str, Any] = {"variant": "classical", "phase": phase, "units": units, "orders": orders}
    if centers is not None:
        position["centers"] = centers
    if dislodged is not None:
        position["dislodged"] = dislodged
    if text:
        expect = {**expect, "example": text}
    return pytest.param(position, expect, id=f"rule-{rule}-{name}")


# -- rule 7: one coast per province; coastal neighbours need a water border -----------------

RULE_7 = [
    case("fleet-enters-athens-from-euboea", "7", "S-273M",
         {"Macedon": ["F Euboea"]}, {"Macedon": ["F Euboea - Athens"]},
         {"results": {"Macedon": ["succeeds"]}, "units": {"Macedon": ["F ATH"]}},
         text="a fleet can enter Athens from Euboea and exit to Corinth the following turn"),
    case("and-exits-athens-to-corinth", "7", "F-273M",
         {"Macedon": ["F Athens"]}, {"Macedon": ["F Athens - Corinth"]},
         {"results": {"Macedon": ["succeeds"]}, "units": {"Macedon": ["F COR"]}}),
    case("euboea-to-corinth-is-two-moves", "7", "S-273M",
         {"Macedon": ["F Euboea"]}, {"Macedon": ["F Euboea - Corinth"]},
         {"results": {"Macedon": ["fails: illegal"]}, "units": {"Macedon": ["F EUB"]}}),
    case("corinth-back-to-athens-and-euboea", "7", "S-273M",
         {"Macedon": ["F Corinth", "F Athens"]}, {"Macedon": ["F Corinth - Athens", "F Athens - Euboea"]},
         {"results": {"Macedon": ["succeeds", "succeeds"]}, "units": {"Macedon": ["F ATH", "F EUB"]}}),
    case("fleet-enters-sinai-from-memphis", "7", "S-273M",
         {"Egypt": ["F Memphis"]}, {"Egypt": ["F Memphis - Sinai"]},
         {"results": {"Egypt": ["succeeds"]}, "units": {"Egypt": ["F SIN"]}},
         text="Fleets entering Sinai from Memphis and proceeding to Petra (and vice versa)"),
    case("and-proceeds-from-sinai-to-petra", "7", "F-273M",
         {"Egypt": ["F Sinai"]}, {"Egypt": ["F Sinai - Petra"]},
         {"results": {"Egypt": ["succeeds"]}, "units": {"Egypt": ["F PET"]}}),
    case("vice-versa-petra-to-sinai", "7", "S-273M",
         {"Syria": ["F Petra"]}, {"Syria": ["F Petra - Sinai"]},
         {"results": {"Syria": ["succeeds"]}, "units": {"Syria": ["F SIN"]}}),
    case("vice-versa-sinai-to-memphis", "7", "F-273M",
         {"Syria": ["F Sinai"]}, {"Syria": ["F Sinai - Memphis"]},
         {"results": {"Syria": ["succeeds"]}, "units": {"Syria": ["F MEM"]}}),
    case("fleet-enters-agrigentum-from-melita", "7", "S-273M",
         {"Carthage": ["F Melita"]}, {"Carthage": ["F Melita - Agrigentum"]},
         {"results": {"Carthage": ["succeeds"]}, "units": {"Carthage": ["F HAL"]}},
         text="and for Agrigentum as well"),
    case("and-leaves-agrigentum-for-mare-internum", "7", "F-273M",
         {"Carthage": ["F Agrigentum"]}, {"Carthage": ["F Agrigentum - Mare Internum"]},
         {"results": {"Carthage": ["succeeds"]}, "units": {"Carthage": ["F MIN"]}}),
    case("no-fleet-from-etruria-to-cisalpina", "7", "S-273M",
         {"Rome": ["F Etruria"]}, {"Rome": ["F Etruria - Cisalpina"]},
         {"results": {"Rome": ["fails: illegal"]}, "units": {"Rome": ["F ETR"]}},
         text="a fleet in Etruria may not move to Cisalpina or vice versa"),
    case("no-fleet-from-cisalpina-to-etruria", "7", "S-273M",
         {"Rome": ["F Cisalpina"]}, {"Rome": ["F Cisalpina - Etruria"]},
         {"results": {"Rome": ["fails: illegal"]}, "units": {"Rome": ["F CIS"]}}),
    case("a-fleet-cannot-support-across-that-border-either", "7", "S-273M",
         {"Rome": ["F Etruria", "A Insubria"], "Carthage": ["A Cisalpina"]},
         {"Rome": ["F Etruria S A Insubria - Cisalpina", "A Insubria - Cisalpina"]},
         {"results": {"Rome": ["fails: illegal", "fails: bounced"]}, "units": {
             "Carthage": ["A CIS"], "Rome": ["A INS", "F ETR"]}}),
    case("armies-do-cross-etruria-cisalpina", "7", "S-273M",
         {"Rome": ["A Etruria"]}, {"Rome": ["A Etruria - Cisalpina"]},
         {"results": {"Rome": ["succeeds"]}, "units": {"Rome": ["A CIS"]}}),
]

# -- rule 7a: the Nile and the Thebes portage ----------------------------------------------

RULE_7A = [
    case("the-nile-is-navigable-up-to-thebes", "7a", "S-273M",
         {"Egypt": ["F Memphis"]}, {"Egypt": ["F Memphis - Thebes"]},
         {"results": {"Egypt": ["succeeds"]}, "units": {"Egypt": ["F THE"]}},
         text="The Nile is navigable up to Thebes"),
    case("from-alexandria-too", "7a", "S-273M",
         {"Egypt": ["F Alexandria"]}, {"Egypt": ["F Alexandria - Thebes"]},
         {"results": {"Egypt": ["succeeds"]}, "units": {"Egypt": ["F THE"]}}),
    *[
        case(f"thebes-portage-to-{name.lower().replace(' ', '-')}", "7a", "S-273M",
             {"Egypt": ["F Thebes"]}, {"Egypt": [f"F Thebes - {name}"]},
             {"results": {"Egypt": ["succeeds"]}, "units": {"Egypt": [f"F {pid}"]}},
             text="Once in Thebes, a fleet may move to the Sinai, Sea of Reeds, or Nubian Desert")
        for name, pid in (("Sinai", "SIN"), ("Sea of Reeds", "SOR"), ("Nubian Desert", "NUB"))
    ],
    case("no-fleet-from-thebes-to-libya", "7a", "S-273M",
         {"Egypt": ["F Thebes"]}, {"Egypt": ["F Thebes - Libya"]},
         {"results": {"Egypt": ["fails: illegal"]}, "units": {"Egypt": ["F THE"]}},
         text="Fleet Thebes cannot move to Libya"),
    case("no-fleet-from-libya-to-thebes", "7a", "S-273M",
         {"Egypt": ["F Libya"]}, {"Egypt": ["F Libya - Thebes"]},
         {"results": {"Egypt": ["fails: illegal"]}, "units": {"Egypt": ["F LIB"]}}),
    case("the-nile-ends-at-thebes-no-fleet-to-syene", "7a", "S-273M",
         {"Egypt": ["F Thebes"]}, {"Egypt": ["F Thebes - Syene"]},
         {"results": {"Egypt": ["fails: illegal"]}, "units": {"Egypt": ["F THE"]}}),
    case("an-army-in-thebes-may-go-to-libya", "7a", "S-273M",
         {"Egypt": ["A Thebes"]}, {"Egypt": ["A Thebes - Libya"]},
         {"results": {"Egypt": ["succeeds"]}, "units": {"Egypt": ["A LIB"]}}),
    case("a-portage-is-a-plain-move-and-bounces-like-one", "7a", "S-273M",
         {"Egypt": ["F Thebes"], "Syria": ["F Petra"]},
         {"Egypt": ["F Thebes - Sinai"], "Syria": ["F Petra - Sinai"]},
         {"results": {"Egypt": ["fails: bounced"], "Syria": ["fails: bounced"]}}),
]

# -- rule 7b: Rhodes and Caria are one province ---------------------------------------------

RULE_7B = [
    case("a-fleet-enters-rhodes-from-the-sea-of-alexander", "7b", "S-273M",
         {"Egypt": ["F Sea of Alexander"]}, {"Egypt": ["F Sea of Alexander - Rhodes"]},
         {"results": {"Egypt": ["succeeds"]}, "units": {"Egypt": ["F RHO"]}},
         text="a unit entering Rhodes from the Sea of Alexander may move to Pergamum in the following season"),
    case("and-moves-on-to-pergamum", "7b", "F-273M",
         {"Egypt": ["F Rhodes"]}, {"Egypt": ["F Rhodes - Pergamum"]},
         {"results": {"Egypt": ["succeeds"]}, "units": {"Egypt": ["F PER"]}, "centers": {"Egypt": ["PER"]}},
         centers={}),
    case("vice-versa-pergamum-to-rhodes", "7b", "S-273M",
         {"Macedon": ["F Pergamum"]}, {"Macedon": ["F Pergamum - Caria"]},
         {"results": {"Macedon": ["succeeds"]}, "units": {"Macedon": ["F RHO"]}}),
    case("vice-versa-rhodes-to-the-sea-of-alexander", "7b", "F-273M",
         {"Macedon": ["F Rhodes"]}, {"Macedon": ["F Rhodes - Sea of Alexander"]},
         {"results": {"Macedon": ["succeeds"]}, "units": {"Macedon": ["F SOA"]}}),
    case("an-army-walks-from-pergamum-into-caria", "7b", "S-273M",
         {"Macedon": ["A Pergamum"]}, {"Macedon": ["A Pergamum - Caria"]},
         {"results": {"Macedon": ["succeeds"]}, "units": {"Macedon": ["A RHO"]}}),
    case("lycian-sea-is-adjacent-to-the-cretan-sea", "7b", "S-273M",
         {"Egypt": ["F Lycian Sea"], "Macedon": ["F Rhodes"]},
         {"Egypt": ["F Lycian Sea - Cretan Sea"], "Macedon": ["F Rhodes H"]},
         {"results": {"Egypt": ["succeeds"], "Macedon": ["succeeds"]}, "units": {
             "Egypt": ["F CRS"], "Macedon": ["F RHO"]}},
         text="the Lycian Sea and the Cretan Sea ARE adjacent (as are Lycian and Kos)"),
    case("lycian-sea-is-adjacent-to-kos", "7b", "S-273M",
         {"Egypt": ["F Lycian Sea"], "Macedon": ["F Rhodes"]},
         {"Egypt": ["F Lycian Sea - Kos"], "Macedon": ["F Rhodes H"]},
         {"results": {"Egypt": ["succeeds"], "Macedon": ["succeeds"]}, "units": {
             "Egypt": ["F KOS"], "Macedon": ["F RHO"]}}),
    case("and-back-from-the-cretan-sea", "7b", "S-273M",
         {"Egypt": ["F Cretan Sea", "F Kos"]}, {"Egypt": ["F Cretan Sea - Lycian Sea", "F Kos S F Cretan Sea - Lycian Sea"]},
         {"results": {"Egypt": ["succeeds", "succeeds"]}, "units": {"Egypt": ["F KOS", "F LYS"]}}),
]

# -- rule 8: land bridges -------------------------------------------------------------------

BOARD = load_map(map_path("classical"))


def _bridge_cases() -> list[Any]:
    """Every bridge of the map, both ways, by army and by fleet, with an enemy fleet in the
    sea it crosses (8a: full strength; nothing closes a bridge)."""
    cases = []
    for bridge in BOARD.rules["land_bridges"]:
        a, b = bridge["between"]
        sea = bridge["crosses"]
        for origin, target in ((a, b), (b, a)):
            for letter in ("A", "F"):
                cases.append(case(
                    f"{letter}-{origin}-{target}-over-{sea}", "8a", "S-273M",
                    {"Rome": [f"{letter} {origin}"], "Carthage": [f"F {sea}"]},
                    {"Rome": [f"{letter} {origin} - {target}"], "Carthage": [f"F {sea} H"]},
                    {"results": {"Rome": ["succeeds"], "Carthage": ["succeeds"]},
                     "units": {"Carthage": [f"F {sea}"], "Rome": [f"{letter} {target}"]}},
                ))
    return cases


RULE_8 = [
    *_bridge_cases(),
    case("full-strength-a-bridge-attack-bounces-an-equal-one", "8a", "S-273M",
         {"Syria": ["A Corinth"], "Rome": ["A Epirus"], "Carthage": ["F Mare Ionium"]},
         {"Syria": ["A Corinth - Delphi"], "Rome": ["A Epirus - Delphi"], "Carthage": ["F Mare Ionium H"]},
         {"results": {"Syria": ["fails: bounced"], "Rome": ["fails: bounced"], "Carthage": ["succeeds"]}},
         text="Units (army or fleet) in a province with a land bridge may move to the opposite shore at full strength"),
    case("full-strength-a-supported-bridge-attack-dislodges", "8a", "S-273M",
         {"Syria": ["A Corinth", "A Athens"], "Macedon": ["A Delphi"], "Carthage": ["F Mare Ionium"]},
         {"Syria": ["A Corinth - Delphi", "A Athens S A Corinth - Delphi"], "Carthage": ["F Mare Ionium H"]},
         {"results": {"Syria": ["succeeds", "succeeds"], "Carthage": ["succeeds"]},
          "dislodged": {"Macedon": [{"unit": "A DEL", "attacker_from": "COR", "retreats": ["EPI", "FET"]}]}}),
    case("support-to-a-unit-on-the-other-side", "8a", "S-273M",
         {"Macedon": ["A Delphi", "A Corinth"], "Rome": ["A Epirus", "A The Fetters"], "Carthage": ["F Mare Ionium"]},
         {"Macedon": ["A Delphi H", "A Corinth S A Delphi"],
          "Rome": ["A Epirus - Delphi", "A The Fetters S A Epirus - Delphi"], "Carthage": ["F Mare Ionium H"]},
         {"results": {"Macedon": ["succeeds", "succeeds"], "Rome": ["fails: bounced", "succeeds"],
                      "Carthage": ["succeeds"]}, "dislodged": {}},
         text="a unit in such a province may give support to a unit on the other side ... regardless of the "
              "presence of a fleet in the waters between"),
    case("support-into-the-space-across-the-bridge", "8a", "S-273M",
         {"Rome": ["A Capua", "A Syracuse"], "Carthage": ["A The Mamertines", "F Liparae"]},
         {"Rome": ["A Capua S A Syracuse - The Mamertines", "A Syracuse - The Mamertines"],
          "Carthage": ["A The Mamertines H", "F Liparae H"]},
         {"results": {"Rome": ["succeeds", "succeeds"], "Carthage": ["fails: dislodged", "succeeds"]},
          "units": {"Carthage": ["F LIP"], "Rome": ["A CAP", "A MAM"]},
          "dislodged": {"Carthage": [{"unit": "A MAM", "attacker_from": "SYR", "retreats": ["HAL"]}]}},
         text="or support a move into the space across the bridge, also at full strength"),
    case("a-fleet-in-the-crossed-sea-may-support-a-bridge-move", "8a", "S-273M",
         {"Macedon": ["A Thrace"], "Egypt": ["F Propontis"], "Syria": ["A Troy"]},
         {"Macedon": ["A Thrace - Troy"], "Egypt": ["F Propontis S A Thrace - Troy"], "Syria": ["A Troy H"]},
         {"results": {"Macedon": ["succeeds"], "Egypt": ["succeeds"], "Syria": ["fails: dislodged"]}}),
    case("an-army-over-the-bridge-does-not-impede-a-fleet-below", "8b", "S-273M",
         {"Macedon": ["A Thrace"], "Syria": ["F Propontis"]},
         {"Macedon": ["A Thrace - Troy"], "Syria": ["F Propontis - Lesbos"]},
         {"results": {"Macedon": ["succeeds"], "Syria": ["succeeds"]},
          "units": {"Macedon": ["A TRO"], "Syria": ["F LES"]}},
         text="an army moving from Thrace to Troy will not impede a fleet moving from Propontis to Lesbos"),
    case("an-army-in-bithynia-convoyed-via-propontis-and-lesbos-to-pergamum", "8b", "S-273M",
         {"Syria": ["A Bithynia", "F Propontis", "F Lesbos"]},
         {"Syria": ["A Bithynia - Pergamum", "F Propontis C A Bithynia - Pergamum", "F Lesbos C A Bithynia - Pergamum"]},
         {"results": {"Syria": ["succeeds", "succeeds", "succeeds"]},
          "units": {"Syria": ["A PER", "F LES", "F PRO"]}},
         text="an army in Bithynia may convoy via Propontis and Lesbos to Pergamum"),
    case("the-propontis-convoy-swap-between-bithynia-and-thrace", "8b", "S-273M",
         {"Syria": ["A Bithynia", "F Propontis"], "Macedon": ["A Thrace"]},
         {"Syria": ["A Bithynia - Thrace via convoy", "F Propontis C A Bithynia - Thrace"],
          "Macedon": ["A Thrace - Bithynia"]},
         {"results": {"Syria": ["succeeds", "succeeds"], "Macedon": ["succeeds"]},
          "units": {"Macedon": ["A BIT"], "Syria": ["A THR", "F PRO"]}},
         text="or even ... directly across the Propontis to Thrace (this might be used to swap two units which "
              "would otherwise bounce)"),
    case("which-would-otherwise-bounce", "8b", "S-273M",
         {"Syria": ["A Bithynia", "F Propontis"], "Macedon": ["A Thrace"]},
         {"Syria": ["A Bithynia - Thrace", "F Propontis H"], "Macedon": ["A Thrace - Bithynia"]},
         {"results": {"Syria": ["fails: bounced", "succeeds"], "Macedon": ["fails: bounced"]},
          "units": {"Macedon": ["A THR"], "Syria": ["A BIT", "F PRO"]}}),
]

# -- rule 6: builds in any owned vacant centre while a home centre is kept -----------------

CARTHAGE_HOME = ["Carthage", "Leptis Magna", "Panormus"]

RULE_6 = [
    case("carthage-builds-in-syracuse", "6", "W-273A",
         {"Carthage": ["F Carthage"]}, {"Carthage": ["Build A Syracuse"]},
         {"results": {"Carthage": ["succeeds"]}, "units": {"Carthage": ["A SYR", "F CAR"]}, "next_phase": "S-272M"},
         centers={"Carthage": ["Carthage", "Leptis Magna", "Syracuse"]},
         text="Carthage may build in Syracuse if (1) it is vacant, (2) Carthage owns it and (3) Carthage is "
              "eligible for a build and (4) Carthage still owns at least one of: Panormus, Carthage, or Leptis Magna"),
    case("a-fleet-in-syracuse-too-and-home-centres-still-count", "6", "W-273A",
         {"Carthage": ["F Carthage"]}, {"Carthage": ["Build F Syracuse", "Build F Leptis Magna"]},
         {"results": {"Carthage": ["succeeds", "succeeds"]}, "units": {"Carthage": ["F CAR", "F LEP", "F SYR"]}},
         centers={"Carthage": ["Carthage", "Leptis Magna", "Syracuse"]}),
    case("not-1-syracuse-is-not-vacant", "6", "W-273A",
         {"Carthage": ["F Carthage", "A Syracuse"]}, {"Carthage": ["Build F Syracuse"]},
         {"results": {"Carthage": ["fails: illegal: Syracuse is not a free supply centre"]},
          "units": {"Carthage": ["A SYR", "F CAR"]}},
         centers={"Carthage": ["Carthage", "Leptis Magna", "Syracuse"]}),
    case("not-2-carthage-does-not-own-syracuse", "6", "W-273A",
         {"Carthage": ["F Carthage"], "Rome": ["A Roma"]}, {"Carthage": ["Build A Syracuse", "Build A Leptis Magna"]},
         {"results": {"Carthage": ["fails: illegal: Syracuse is not a free supply centre", "succeeds"]},
          "units": {"Carthage": ["A LEP", "F CAR"], "Rome": ["A ROM"]}},
         centers={"Carthage": CARTHAGE_HOME, "Rome": ["Roma", "Syracuse"]}),
    case("not-3-carthage-is-not-eligible-for-a-build", "6", "W-273A",
         {"Carthage": ["F Carthage", "F Leptis Magna", "F Melita"]}, {"Carthage": ["Build A Syracuse"]},
         {"results": {"Carthage": ["fails: illegal: Carthage has no builds"]},
          "units": {"Carthage": ["F CAR", "F LEP", "F MEL"]}},
         centers={"Carthage": ["Carthage", "Leptis Magna", "Syracuse"]}),
    case("not-4-carthage-owns-none-of-its-home-centres", "6", "W-273A",
         {"Carthage": ["F Mare Internum"], "Rome": ["A Carthage", "A Leptis Magna", "F Panormus"]},
         {"Carthage": ["Build A Syracuse", "Build F Sardo"]},
         {"results": {"Carthage": ["fails: illegal: Syracuse is not a free supply centre",
                                   "fails: illegal: Sardo is not a free supply centre"]},
          "units": {"Carthage": ["F MIN"], "Rome": ["A CAR", "A LEP", "F PAN"]}},
         centers={"Carthage": ["Syracuse", "Sardo", "Massilia"], "Rome": CARTHAGE_HOME}),
    case("4-one-home-centre-is-enough-even-occupied-by-its-own-unit", "6", "W-273A",
         {"Carthage": ["F Leptis Magna"], "Rome": ["A Carthage", "F Panormus"]},
         {"Carthage": ["Build A Syracuse", "Build F Sardo"]},
         {"results": {"Carthage": ["succeeds", "succeeds"]},
          "units": {"Carthage": ["A SYR", "F LEP", "F SAR"], "Rome": ["A CAR", "F PAN"]}},
         centers={"Carthage": ["Leptis Magna", "Syracuse", "Sardo"], "Rome": ["Carthage", "Panormus"]}),
    case("any-power-egypt-builds-in-athens", "6", "W-273A",
         {"Egypt": ["A Thebes"]}, {"Egypt": ["Build F Athens"]},
         {"results": {"Egypt": ["succeeds"]}, "units": {"Egypt": ["A THE", "F ATH"]}},
         centers={"Egypt": ["Thebes", "Athens"]}),
    case("a-fleet-cannot-be-built-inland", "6", "W-273A",
         {"Syria": ["A Antioch"]}, {"Syria": ["Build F Damascus", "Build A Damascus"]},
         {"results": {"Syria": ["fails: illegal", "succeeds"]}, "units": {"Syria": ["A ANT", "A DAM"]}},
         centers={"Syria": ["Antioch", "Damascus"]}),
]

# -- rule 4: 18 centres during an adjustment phase ------------------------------------------

SEVENTEEN = ["BRU", "CAP", "ROM", "MAS", "SAG", "SAR", "SYR", "PAN", "CAR", "LEP", "CYR", "DEL", "COR", "ATH",
             "SPA", "KNO", "CYD"]
EGYPT = {"units": ["A THE", "F ALE", "F MEM"], "centres": ["ALE", "MEM", "THE"]}


def _rome_with(units: list[str], centres: list[str]) -> tuple[dict, dict]:
    return ({"Rome": units, "Egypt": EGYPT["units"]}, {"Rome": centres, "Egypt": EGYPT["centres"]})


def _victory_case(name: str, phase: str, units: list[str], centres: list[str], orders: list[str],
                  expect: dict, text: str = "") -> Any:
    all_units, all_centres = _rome_with(units, centres)
    return case(name, "4", phase, all_units, {"Rome": orders}, expect, centers=all_centres, text=text)


RULE_4 = [
    _victory_case("the-18th-centre-taken-in-fall-wins-in-the-adjustment-phase", "F-270M",
                  ["A ETR", "A ROM", "A CAP"], SEVENTEEN, ["A ETR - CIS"],
                  {"results": {"Rome": ["succeeds"]}, "next_phase": "W-270A", "winner": "Rome"},
                  text="The winner is the power that holds 18 or more supply centers during an adjustment phase"),
    _victory_case("a-skipped-adjustment-phase-still-counts", "F-270M",
                  [f"A {c}" for c in SEVENTEEN] + ["A ETR"], SEVENTEEN, ["A ETR - CIS"],
                  {"results": {"Rome": ["succeeds"]}, "next_phase": "S-269M", "winner": "Rome"}),
    _victory_case("seventeen-is-not-enough", "F-270M",
                  ["A ETR", "A ROM", "A CAP"], SEVENTEEN, ["A ETR - INS"],
                  {"results": {"Rome": ["succeeds"]}, "next_phase": "W-270A", "winner": None}),
    _victory_case("eighteen-during-spring-is-not-a-win-yet", "S-270M",
                  ["A ETR", "A ROM", "A CAP"], SEVENTEEN + ["CIS"], ["A ETR H"],
                  {"results": {"Rome": ["succeeds"]}, "next_phase": "F-270M", "winner": None}),
    case("nor-during-fall-movement-before-its-retreats", "4", "F-270M",
         {"Rome": ["A ETR", "A ROM", "A INS"], "Egypt": [*EGYPT["units"], "A CIS"]},
         {"Rome": ["A ETR - CIS", "A INS S A ETR - CIS"]},
         {"results": {"Rome": ["succeeds", "succeeds"]}, "next_phase": "F-270R", "winner": None,
          "dislodged": {"Egypt": [{"unit": "A CIS", "attacker_from": "ETR", "retreats": ["DAL", "HEL", "ILL", "SAM"]}]}},
         centers={"Rome": SEVENTEEN, "Egypt": [*EGYPT["centres"], "CIS"]}),
    case("but-once-its-retreats-are-over", "4", "F-270R",
         {"Rome": ["A CIS", "A ROM", "A INS"], "Egypt": EGYPT["units"]}, {"Egypt": ["A CIS R DAL"]},
         {"results": {"Egypt": ["succeeds"]}, "next_phase": "W-270A", "winner": "Rome",
          "centers": {"Rome": sorted(SEVENTEEN + ["CIS"])}},
         centers={"Rome": SEVENTEEN, "Egypt": [*EGYPT["centres"], "CIS"]},
         dislodged={"Egypt": [{"unit": "A CIS", "attacker_from": "ETR", "retreats": ["DAL", "HEL", "ILL", "SAM"]}]}),
    _victory_case("eighteen-held-while-the-adjustments-are-made", "W-270A",
                  ["A ROM", "A CAP"], SEVENTEEN + ["CIS"], ["Build A Brundisium"],
                  {"results": {"Rome": ["succeeds"]}, "next_phase": "S-269M", "winner": "Rome"}),
]

CASES = RULE_7 + RULE_7A + RULE_7B + RULE_8 + RULE_6 + RULE_4


def check(result: dict, expect: dict) -> None:
    example = f"rules: {expect['example']!r}: " if "example" in expect else ""
    for power, wanted in expect.get("results", {}).items():
        got = [r["outcome"] if r["outcome"] == "succeeds" else f"fails: {r['reason']}" for r in result["results"][power]]
        assert len(got) == len(wanted), f"{example}{power}: {got}"
        for g, w in zip(got, wanted):
            assert g.startswith(w), f"{example}{power}: {g!r}, expected {w!r} (all: {got})"
    for key in ("units", "centers", "dislodged", "next_phase", "winner"):
        if key == "centers" and key in expect:
            for power, centres in expect["centers"].items():
                assert result["centers"].get(power) == centres, f"{example}centres of {power}: {result['centers']}"
        elif key in expect:
            assert result[key] == expect[key], f"{example}{key}: {result[key]!r}"


@pytest.mark.parametrize(("position", "expect"), CASES)
def test_rule_positions(position: dict, expect: dict) -> None:
    check(adjudicate_json(position, CATALOG), expect)


def test_the_rule_positions_through_the_gm_adjudicate_command() -> None:
    positions = [p.values[0] for p in CASES]
    done = subprocess.run([sys.executable, "-m", "gm.cli.main", "adjudicate", "--jsonl"],
                          input="".join(json.dumps(p) + "\n" for p in positions),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(CASES)
    for param, result in zip(CASES, results):
        assert "error" not in result, f"{param.id}: {result}"
        check(result, param.values[1])


def test_every_example_of_the_rules_text_has_a_case() -> None:
    quoted = {p.id for p in CASES}
    for fragment in ("athens-from-euboea", "sinai-from-memphis", "sinai-to-petra", "portage-to-sinai",
                     "portage-to-sea-of-reeds", "portage-to-nubian-desert", "thebes-to-libya",
                     "rhodes-from-the-sea-of-alexander", "on-to-pergamum", "adjacent-to-the-cretan-sea",
                     "adjacent-to-kos", "propontis-convoy-swap", "carthage-builds-in-syracuse",
                     "etruria-to-cisalpina", "agrigentum", "does-not-impede", "via-propontis-and-lesbos"):
        assert any(fragment in name for name in quoted), fragment


# -- rule 6 as the variant's answers (what the engine and the bots ask) -----------------------


def _position(variant: Variant, phase: str, units: dict[str, list[str]], centres: dict[str, list[str]]) -> Position:
    made = []
    for power, texts in units.items():
        for text in texts:
            letter, _, where = text.partition(" ")
            made.append(Unit(power, variant.unit_type(letter), Location(where)))
    owners = {c: p for p, cs in centres.items() for c in cs}
    return Position(variant.calendar.parse(phase), tuple(made), owners)


@pytest.mark.parametrize(
    ("units", "centres", "sites", "count"),
    [
        # all four conditions: every owned vacant centre, home or not
        ({"Carthage": ["F CAR"]}, {"Carthage": ["CAR", "LEP", "SYR"]}, {"LEP", "SYR"}, 2),
        # (1) an occupied centre is no build site, even one's own home
        ({"Carthage": ["F CAR", "A SYR"]}, {"Carthage": ["CAR", "LEP", "SYR"]}, {"LEP"}, 1),
        # (2) a centre owned by another power is no build site
        ({"Carthage": ["F CAR"]}, {"Carthage": ["CAR", "LEP"], "Rome": ["SYR"]}, {"LEP"}, 1),
        # (3) no builds due: no build sites at all
        ({"Carthage": ["F CAR", "F LEP", "F MEL"]}, {"Carthage": ["CAR", "LEP", "SYR"]}, set(), 0),
        # (4) none of the original home centres owned: builds are due but cannot be made
        ({"Carthage": ["F MIN"]}, {"Carthage": ["SYR", "SAR", "MAS"], "Rome": ["CAR", "LEP", "PAN"]}, set(), 2),
        # (4) one of them, even occupied, is enough
        ({"Carthage": ["F PAN"]}, {"Carthage": ["PAN", "SYR", "SAR"]}, {"SYR", "SAR"}, 2),
    ],
)
def test_rule_6_build_sites(variant, units, centres, sites, count) -> None:
    position = _position(variant, "W-273A", units, centres)
    (carthage,) = [a for a in variant.adjustments(position) if a.power == "Carthage"]
    assert carthage.count == count
    assert carthage.build_sites == frozenset(sites)


def test_rule_6_a_power_without_its_home_centres_has_no_adjustment_phase(variant) -> None:
    position = _position(variant, "W-273A", {"Carthage": ["F MIN"], "Rome": ["A CAR", "A LEP", "F PAN"]},
                         {"Carthage": ["SYR", "SAR", "MAS"], "Rome": ["CAR", "LEP", "PAN"]})
    assert not variant.has_work(position)  # builds due, nowhere to build: the phase is skipped
    report = adjudicate(variant, position, [("Carthage", Build(UnitRef(Location("SYR"), variant.unit_type("A"))))])
    assert not report.results[0].succeeded


# -- rule 4 as the variant's answers ------------------------------------------------------------


def test_rule_4_eighteen_of_thirty_five(variant) -> None:
    position = variant.initial_position()
    assert variant.victory_threshold(position) == 18 == BOARD.rules["victory_centres"]
    assert len(BOARD.supply_centres) == 35


@pytest.mark.parametrize(
    ("phase", "counts"),
    [("W-270A", True), ("S-269M", True), ("S-269R", False), ("F-269M", False), ("F-269R", False),
     ("W-1A", True), ("S1M", True)],
)
def test_rule_4_when_a_win_is_counted(variant, phase, counts) -> None:
    """During the adjustment phase, or right after it (when it had nothing to do or is done):
    centres change hands only when Fall is over, so these are the centres it was held with."""
    centres = {"Rome": SEVENTEEN + ["CIS"], "Egypt": ["ALE"]}
    position = _position(variant, phase, {"Rome": ["A ROM"]}, centres)
    assert variant.winner(position) == ("Rome" if counts else None)
    fewer = _position(variant, phase, {"Rome": ["A ROM"]}, {"Rome": SEVENTEEN, "Egypt": ["ALE", "CIS"]})
    assert variant.winner(fewer) is None


# -- rule 3: the calendar ------------------------------------------------------------------------


def test_rule_3_the_game_begins_in_spring_273_bc(variant) -> None:
    start = variant.initial_position()
    assert str(start.phase) == "S-273M"
    assert variant.calendar.era is Era.BC_AD
    assert variant.title(start.phase) == "Spring 273 B.C. movement"


def test_rule_3_spring_fall_winter_then_spring_of_the_year_after(variant) -> None:
    calendar = variant.calendar
    phase = calendar.parse("S-273M")
    seen = []
    for _ in range(7):
        seen.append(variant.title(phase))
        phase = calendar.following(phase)
    assert seen == [
        "Spring 273 B.C. movement", "Spring 273 B.C. retreats", "Fall 273 B.C. movement",
        "Fall 273 B.C. retreats", "Winter 273 B.C. adjustments", "Spring 272 B.C. movement",
        "Spring 272 B.C. retreats",
    ]


def test_rule_3_years_count_down_through_1_bc_to_ad_1_with_no_year_0(variant) -> None:
    calendar = variant.calendar
    phase = calendar.parse("S-273M")
    years = [phase.year]
    while phase.year < 2:
        phase = calendar.following(phase)
        if phase.year != years[-1]:
            years.append(phase.year)
    assert years == [*range(-273, 0), 1, 2]
    assert [calendar.year_label(y) for y in (-273, -2, -1, 1, 2)] == ["273 B.C.", "2 B.C.", "1 B.C.", "A.D. 1", "A.D. 2"]
    assert variant.title(calendar.parse("W-1A")) == "Winter 1 B.C. adjustments"
    assert variant.title(calendar.following(calendar.parse("W-1A"))) == "Spring A.D. 1 movement"
    with pytest.raises(ValueError, match="no year 0"):
        calendar.parse("S0M")


def test_rule_3_the_engine_moves_from_1_bc_to_ad_1(variant) -> None:
    position = _position(variant, "F-1M", {"Rome": ["A ROM"]}, {"Rome": ["ROM"]})
    report = adjudicate(variant, position, [])
    assert str(report.next.phase) == "S1M"  # Winter 1 B.C. has nothing to do
    result = adjudicate_json({"variant": "classical", "phase": "W-1A", "units": {"Rome": ["A ROM"]},
                              "centers": {"Rome": ["ROM", "CAP"]}, "orders": {"Rome": ["Build F Capua"]}}, CATALOG)
    assert result["next_phase"] == "S1M" and result["units"] == {"Rome": ["A ROM", "F CAP"]}


# -- the module: data from the map, standard play everywhere else ------------------------------


def test_the_rules_module_overrides_only_victory_and_builds() -> None:
    overridden = {name for name, value in vars(classical.Classical).items()
                  if callable(value) and hasattr(Variant, name)}
    assert overridden == {"victory_threshold", "winner", "build_sites"}


def test_first_year_and_victory_come_from_the_map_file() -> None:
    rules = {**BOARD.rules, "first_move": {"season": "spring", "year": -300}, "victory_centres": 20}
    other = classical.make(dataclasses.replace(BOARD, rules=rules))
    assert other.title(other.initial_position().phase) == "Spring 300 B.C. movement"
    assert other.victory_threshold(other.initial_position()) == 20
    with pytest.raises(ValueError, match="Spring"):
        classical.make(dataclasses.replace(BOARD, rules={**rules, "first_move": {"season": "fall", "year": -300}}))


def test_a_land_bridge_must_be_a_border_in_the_map_file() -> None:
    rules = {**BOARD.rules, "land_bridges": [*BOARD.rules["land_bridges"], {"between": ["ETR", "CIS"], "crosses": "MTY"}]}
    with pytest.raises(ValueError, match="ETR-CIS"):
        classical.make(dataclasses.replace(BOARD, rules=rules))


def test_the_board_keeps_standard_phases(variant) -> None:
    kinds = [s.kinds for s in variant.calendar.seasons]
    assert kinds == [(PhaseKind.MOVEMENT, PhaseKind.RETREATS), (PhaseKind.MOVEMENT, PhaseKind.RETREATS),
                     (PhaseKind.ADJUSTMENTS,)]
    assert [s.name for s in variant.calendar.seasons] == ["Spring", "Fall", "Winter"]
