"""The coming variants' order forms, as their rules texts write them, on the real boards."""

from __future__ import annotations

import pytest

from gm.domain.orders import (
    Build,
    Convoy,
    Hold,
    Move,
    MoveAlongPath,
    MoveInRounds,
    MoveThen,
    SupportMove,
    UnitRef,
)
from gm.domain.units import ARMY, FLEET, UnitType
from gm.orders import OrderGrammar, parse_line, parse_orders

from . import variant_grammars as v
from .helpers import L
from .variant_orders import AttackAtSea, BuildCity, BuildFort, Lead, Pay, Raze, Sack, StartsIn


def R(unit_type: UnitType | None, where: str) -> UnitRef:
    return UnitRef(L(where), unit_type)


def paths(*ids: str):
    return tuple(L(i) for i in ids)


HANNIBAL = R(v.LEADER, "CAR")  # where the context says each leader stands
SCIPIO = R(v.LEADER, "ROM")
PHILIP = R(v.LEADER, "PEL")
LEADERS = {"Hannibal": HANNIBAL, "Publius Scipio": SCIPIO, "Philip V": PHILIP}

RISE_OF_ROME = [
    ("A Syracuse sack", Sack(R(ARMY, "SYR"))),
    ("A Syracuse sacks", Sack(R(ARMY, "SYR"))),
    ("F Carthage sacks.", Sack(R(FLEET, "CAR"))),
    ("Hannibal leads A Carthage", Lead(HANNIBAL, R(ARMY, "CAR"))),
    ("Hannibal Barca leads army Carthage", Lead(HANNIBAL, R(ARMY, "CAR"))),
    ("Hannibal - Numidia", Move(HANNIBAL, L("NUM"))),
    ("L Carthage - Numidia", Move(R(v.LEADER, "CAR"), L("NUM"))),
    ("Hannibal starts in Carthage", StartsIn(HANNIBAL, L("CAR"))),
    ("Hannibal starts in New Carthage", StartsIn(HANNIBAL, L("NEW"))),
    ("Publius Scipio starts at Campania", StartsIn(SCIPIO, L("CAM"))),
    ("Scipio S A Rome - Etruria", SupportMove(SCIPIO, R(ARMY, "ROM"), L("ETU"))),
    ("Philip V H", Hold(PHILIP)),
    ("2A Syracuse - Zama", Move(R(v.DOUBLE_ARMY, "SYR"), L("ZAM"))),
    ("2F SYR - AFR", Move(R(v.DOUBLE_FLEET, "SYR"), L("AFR"))),
    ("A ZAM S 2A SYR - THA", SupportMove(R(ARMY, "ZAM"), R(v.DOUBLE_ARMY, "SYR"), L("THA"))),
    ("Double Army Syracuse holds", Hold(R(v.DOUBLE_ARMY, "SYR"))),
    ("F AFR - SYR", Move(R(FLEET, "AFR"), L("SYR"))),
]

ROMAN_DIPLOMACY = [
    # Rule 4: a fleet's several steps, resolved in rounds.
    ("F Tyrrhenian Sea - Gulf of Lyon - Massilia", MoveInRounds(R(FLEET, "TYS"), paths("GLC", "MAS"))),
    ("F TYS - GLC - IBE - FRE", MoveInRounds(R(FLEET, "TYS"), paths("GLC", "IBE", "FRE"))),
    ("F Mare Tyrrhenum moves to Sinus Gallicus, Massilia", MoveInRounds(R(FLEET, "TYS"), paths("GLC", "MAS"))),
    ("Tyrrhenian Sea - Gulf of Lyon - Massilia", MoveInRounds(R(None, "TYS"), paths("GLC", "MAS"))),
    ("F TYS - GLC", Move(R(FLEET, "TYS"), L("GLC"))),
    # Garrisons and barbarian armies; "B" is BUILD first, the barbarian army if that fails.
    ("G Rome S A Neapolis - Samnium", SupportMove(R(v.GARRISON, "ROM"), R(ARMY, "NEA"), L("SAM"))),
    ("BUILD B Celtica", Build(R(v.BARBARIAN, "CLT"))),
    ("B Celtica - Belgica", Move(R(v.BARBARIAN, "CLT"), L("BEL"))),
    ("B Celtica H", Hold(R(v.BARBARIAN, "CLT"))),
    ("A NAR S B Celtica - Aquitania", SupportMove(R(ARMY, "NAR"), R(v.BARBARIAN, "CLT"), L("AQU"))),
    ("B Celtica", Build(R(None, "CLT"))),
]

EAGLES = [
    ("F Mare Internum attacks F Mare Internum (Alexandria)", AttackAtSea(R(FLEET, "MIN"), R(FLEET, "MIN"), "Alexandria")),
    ("F MIN attacks F MIN (Alexandrian)", AttackAtSea(R(FLEET, "MIN"), R(FLEET, "MIN"), "Alexandria")),
    ("F MIN attack F MIN [General of Lutetia]", AttackAtSea(R(FLEET, "MIN"), R(FLEET, "MIN"), "Lutetia")),
    ("F Mare Internum attacks F Carthago", AttackAtSea(R(FLEET, "MIN"), R(FLEET, "CAR"), None)),
    ("F Mare Internum attacks Carthago", Move(R(FLEET, "MIN"), L("CAR"))),
    ("F MIN - CAR", Move(R(FLEET, "MIN"), L("CAR"))),
    ("F MIN C A CAR - SIC", Convoy(R(FLEET, "MIN"), R(ARMY, "CAR"), L("SIC"))),
]

I, C, K = v.INFANTRY, v.CAVALRY, v.CATAPULT

DIPLOMACY_OF_THE_EMPIRE = [
    # The rules' own examples (the rules never write a unit's type).
    ("Italia move to Rhetia", Move(R(None, "ITA"), L("RAE"))),
    ("Thracia move to Asia", Move(R(None, "THR"), L("ASI"))),
    ("Galaita move to Egyptus", Move(R(None, "GAL"), L("EGY"))),
    ("HISPANIA move to Nar, Ita, Dal, MACIDONIA", MoveAlongPath(R(None, "HIS"), paths("NAR", "ITA", "DAL", "MAC"))),
    ("MACIDONIA move to Dal, Ita, Nar, HISPANIA", MoveAlongPath(R(None, "MAC"), paths("DAL", "ITA", "NAR", "HIS"))),
    ("Numidia move to Ceasarienis then Tingitana", MoveThen(R(None, "NUM"), paths("CEA"), paths("TIN"))),
    ("Numidia move to Ceasarienis then move to Tingitana", MoveThen(R(None, "NUM"), paths("CEA"), paths("TIN"))),
    ("Beatica move to Tingitana then move to Cea, Num, Africa Procons",
     MoveThen(R(None, "BEA"), paths("TIN"), paths("CEA", "NUM", "AFR"))),
    ("Africa Procons move to Num, Cea, Tingitana then move to Beatica",
     MoveThen(R(None, "AFR"), paths("NUM", "CEA", "TIN"), paths("BEA"))),
    ("PAY 35 Egyptus", Pay(35, "EGY")),
    ("Build City Neapolis", BuildCity(L("NEA"))),
    ("build city SICILIA", BuildCity(L("SIC"))),
    ("Build Fort Asia", BuildFort(L("ASI"))),
    ("build fort SICILIA", BuildFort(L("SIC"))),
    ("Raze Galatia", Raze(L("GAL"))),
    ("raze JUDIA", Raze(L("PAL"))),
    ("Build Fleet Hispania(SC)", Build(R(FLEET, "HIS/SC"))),
    ("Build Cavalry Numidia", Build(R(C, "NUM"))),
    # The same with unit letters and the usual separators.
    ("I HIS - NAR - ITA - DAL - MAC", MoveAlongPath(R(I, "HIS"), paths("NAR", "ITA", "DAL", "MAC"))),
    ("K HIS -> NAR -> ITA", MoveAlongPath(R(K, "HIS"), paths("NAR", "ITA"))),
    ("C NUM - CEA then TIN", MoveThen(R(C, "NUM"), paths("CEA"), paths("TIN"))),
    ("C BEA - TIN then CEA - NUM - AFR", MoveThen(R(C, "BEA"), paths("TIN"), paths("CEA", "NUM", "AFR"))),
    ("C NUM CEA then TIN", MoveThen(R(C, "NUM"), paths("CEA"), paths("TIN"))),
    ("C Numidia moves to Caesariensis, then moves to Tingitana.", MoveThen(R(C, "NUM"), paths("CEA"), paths("TIN"))),
    ("F MNA - MBA then HIS/SC", MoveThen(R(FLEET, "MNA"), paths("MBA"), paths("HIS/SC"))),
    ("C NUM - CEA", Move(R(C, "NUM"), L("CEA"))),
    # "C" after a unit is CONVOY; where a unit is expected, the cavalry.
    ("F MSA C C NUM - SIC", Convoy(R(FLEET, "MSA"), R(C, "NUM"), L("SIC"))),
    ("F MSA C I NUM - SIC", Convoy(R(FLEET, "MSA"), R(I, "NUM"), L("SIC"))),
    ("I AFR S C NUM - CEA", SupportMove(R(I, "AFR"), R(C, "NUM"), L("CEA"))),
    ("BUILD C Hispania", Build(R(C, "HIS"))),
]

CASES = [
    *((v.rise_of_rome, line, order) for line, order in RISE_OF_ROME),
    *((v.roman_diplomacy, line, order) for line, order in ROMAN_DIPLOMACY),
    *((v.eagles, line, order) for line, order in EAGLES),
    *((v.diplomacy_of_the_empire, line, order) for line, order in DIPLOMACY_OF_THE_EMPIRE),
]


@pytest.mark.parametrize(("grammar", "line", "order"), CASES, ids=[f"{g.__name__}: {line}" for g, line, _ in CASES])
def test_form_is_read(grammar, line, order):
    parsed = parse_line(line, grammar(), context=LEADERS)
    assert parsed.order == order and parsed.diagnostics == (), str(parsed)


# An army's path in Roman Diplomacy stays a convoy path, of which only the destination counts
# (DATC 4.A.6), and so does any path written "via convoy".
CONVOY_PATHS = [
    ("A ROM - TYS - CAR", Move(R(ARMY, "ROM"), L("CAR")), "TYS"),
    ("A Rome, Mare Tyrrhenum, Carthage", Move(R(ARMY, "ROM"), L("CAR")), "TYS"),
    ("F TYS - GLC - IBE - MAS via convoy", Move(R(FLEET, "TYS"), L("MAS"), via_convoy=True), "GLC - IBE"),
]


@pytest.mark.parametrize(("line", "order", "ignored"), CONVOY_PATHS, ids=[c[0] for c in CONVOY_PATHS])
def test_convoy_paths_keep_their_destination(line, order, ignored):
    parsed = parse_line(line, v.roman_diplomacy())
    assert parsed.order == order
    expected = f"convoy path {ignored} ignored: only the destination {order.destination} counts"
    assert [d.message for d in parsed.diagnostics] == [expected]


@pytest.mark.parametrize(("grammar", "line", "order"), CASES, ids=[f"{g.__name__}: {line}" for g, line, _ in CASES])
def test_canonical_form_reads_back(grammar, line, order):
    again = parse_line(str(order), grammar(), context=LEADERS)
    assert again.order == order and again.diagnostics == (), str(again)


def test_a_mail_of_several_forms_keeps_its_line_numbers():
    mail = "SIGNON Hispania game secret\n\nHISPANIA move to Nar, Ita, Dal, MACIDONIA\nPAY 35 Egyptus\nBuild City Neapolis\n"
    lines = parse_orders(mail, v.diplomacy_of_the_empire())
    assert [(p.line_no, type(p.order).__name__ if p.ok else None) for p in lines] == [
        (1, None), (3, "MoveAlongPath"), (4, "Pay"), (5, "BuildCity"),
    ]


def test_the_boards_own_grammar_is_not_changed_by_the_extensions():
    """Extended grammars are copies: the board's plain grammar reads a path as a convoy path
    and knows none of the variant's words."""
    dote = v.diplomacy_of_the_empire()
    plain = OrderGrammar(dote.map, dote.unit_types)
    parsed = parse_line("I HIS - NAR - ITA", plain)
    assert parsed.order == Move(R(I, "HIS"), L("ITA")) and parsed.warnings
    for line in ("PAY 35 Egyptus", "Build City Neapolis", "Raze Galatia", "C NUM - CEA then TIN"):
        assert not parse_line(line, plain).ok, line
    assert not parse_line("A Syracuse sack", OrderGrammar(v.rise_of_rome().map)).ok
