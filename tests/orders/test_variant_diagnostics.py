"""The coming variants' forms, written wrong: one error naming what is wrong, on the line it is
on, with "did you mean" where a near word exists."""

from __future__ import annotations

import pytest

from gm.orders import Severity, parse_line, parse_orders

from . import variant_grammars as v
from .test_variant_forms import LEADERS

# (line, the error message, suggestion or None)
DIPLOMACY_OF_THE_EMPIRE = [
    # Paths: a misspelt province anywhere in them, a dangling comma, a missing place.
    ("HISPANIA move to Nar, Itaa, Dal, MACIDONIA", 'unknown province "Itaa"', "Italia"),
    ("I HIS - NAR - ITA - Dalmatiaa - MAC", 'unknown province "Dalmatiaa"', "Dalmatia"),
    ("HISPANIA move to Nar, Ita, Dal,", 'missing destination after "Dal,"', None),
    ("HISPANIA move to Nar, Ita, Africa Procons ,", 'missing destination after "Africa Procons,"', None),
    ("I HIS - NAR -", "missing destination", None),
    ("HISPANIA move to Nar Ita", 'unexpected "Ita" at the end of the order', None),
    # Second moves.
    ("Numidia move to Ceasarienis then", 'missing destination after "then"', None),
    ("Numidia move to Ceasarienis then move to", 'missing destination after "then"', None),
    ("Numidia move to Ceasarienis then Tingitanaa", 'unknown province "Tingitanaa"', "Tingitana"),
    ("C NUM - then TIN", 'missing destination before "then"', None),
    ("C NUM - CEA then TIN,", 'missing destination after "TIN,"', None),
    ("C NUM - CEA then TIN then BEA", 'a second "then": a unit makes one second move at most', None),
    ("I NUM - CEA then TIN", 'no second move ("then") for I NUM', None),
    ("K NUM - CEA then TIN", 'no second move ("then") for K NUM', None),
    # PAY.
    ("PAY thirty Egyptus", 'expected a number, found "thirty"', None),
    ("PAY 33 Egyptus", "pay in multiples of 5 talents, not 33", None),
    ("PAY 0 Egyptus", "pay a positive amount", None),
    ("PAY", "expected a number", None),
    ("PAY 35", "missing home province of the payee", None),
    ("PAY 35 Egyptos", 'unknown province "Egyptos"', "Aegyptus"),
    ("PAY 35 Egyptus now", 'unexpected "now" at the end of the order', None),
    # Unknown verbs, cities, forts, razing.
    ("PAYY 35 Egyptus", 'unknown order "PAYY" at the start of the line', "pay"),
    ("Raz Galatia", 'unknown order "Raz" at the start of the line', "raze"),
    ("Biuld City Neapolis", 'unknown order "Biuld" at the start of the line', "build"),
    ("Build Citty Neapolis", 'unknown word "Citty"', "city"),
    ("Build Fortt Asia", 'unknown word "Fortt"', "fort"),
    ("Build City Neapolos", 'unknown province "Neapolos"', "Neapolis"),
    ("Build City", "missing province", None),
    ("Raze", "missing province", None),
    ("Build Fleet Hispania/XC", 'unknown coast "XC"', None),
    ("C NUM sweep CEA", 'expected an order after "C NUM", found "sweep"', None),
]

RISE_OF_ROME = [
    ("A Syracuse sak", 'unknown order "sak" after "A SYR"', "sack"),
    ("A Syracuze sack", 'unknown province "Syracuze"', "Syracuse"),
    ("Hanibal - Numidia", 'unknown unit "Hanibal"', "Hannibal"),
    ("Hannibal leads A Carthag", 'unknown province "Carthag"', "Carthage"),
    ("Hannibal leads", "missing unit", None),
    ("Hannibal starts in", "missing home centre", None),
    ("Hannibal starts in Carthag", 'unknown province "Carthag"', "Carthage"),
    ("Ptolemy IV - Memphis", 'cannot tell which unit "Ptolemy IV" is', None),  # not in the context
    ("2A Syracuse - Zamaa", 'unknown province "Zamaa"', "Zama"),
]

EAGLES = [
    ("F MIN attacks F MIN (Alexandra)", 'unknown power "Alexandra"', "Alexandria"),
    ("F MIN attacks F MIN (Alexandria", 'missing ")"', None),
    ("F MIN attacks F MIN (Alexandria) now", 'unexpected "now" at the end of the order', None),
    ("F MIN attacks F MIN ()", 'expected a power, found ")"', None),
    ("F MIN attacks F Mare Internun", 'unknown province "Mare Internun"', "Mare Internum"),
    ("F MIN attacks F", "missing province", None),
    # The bracket names the attacked fleet's owner: Carthage is no power on the Eagles board.
    ("F Mare Internum attacks F Mare Internum (Carthage)", 'unknown power "Carthage"', "Carthago Nova"),
]

ROMAN_DIPLOMACY = [
    ("F TYS - GLC - Masilia", 'unknown province "Masilia"', "Massilia"),
    ("F Tyrrhenian Sea - Gulf of Lyon - Spain", 'unknown province "Spain"', "Sparta"),  # no Spain on this board
    ("F TYS - - GLC", 'expected a destination, found "-"', None),
    ("F TYS, GLC,", 'missing destination after "GLC,"', None),
]

CASES = [
    *((v.diplomacy_of_the_empire, *case) for case in DIPLOMACY_OF_THE_EMPIRE),
    *((v.rise_of_rome, *case) for case in RISE_OF_ROME),
    *((v.eagles, *case) for case in EAGLES),
    *((v.roman_diplomacy, *case) for case in ROMAN_DIPLOMACY),
]


@pytest.mark.parametrize(
    ("grammar", "line", "message", "suggestion"), CASES, ids=[f"{c[0].__name__}: {c[1]}" for c in CASES]
)
def test_rejected(grammar, line, message, suggestion):
    parsed = parse_line(line, grammar(), line_no=7, context=LEADERS)
    assert parsed.order is None and parsed.line_no == 7
    assert [(d.severity, d.message, d.suggestion) for d in parsed.diagnostics] == [(Severity.ERROR, message, suggestion)]


def test_a_misspelt_province_in_a_path_is_reported_on_its_line():
    mail = "\n".join([
        "SIGNON Hispania game secret",
        "HISPANIA move to Nar, Ita, Dal, MACIDONIA",
        "",
        "HISPANIA move to Nar, Itallia, Dal, MACIDONIA",
        "Beatica move to Tingitana then move to Cea, Numidiia, Africa Procons",
    ])
    lines = {p.line_no: p for p in parse_orders(mail, v.diplomacy_of_the_empire())}
    assert lines[2].ok
    assert str(lines[4].diagnostics[0]) == 'unknown province "Itallia" — did you mean Italia?'
    assert str(lines[5].diagnostics[0]) == 'unknown province "Numidiia" — did you mean Numidia?'
    assert str(lines[4]) == f"line 4: {lines[4].text} (unknown province \"Itallia\" — did you mean Italia?)"


def test_commas_around_then_separate_nothing():
    grammar = v.diplomacy_of_the_empire()
    for line in ("Numidia move to Ceasarienis, then move to Tingitana", "Numidia move to Ceasarienis then, Tingitana"):
        parsed = parse_line(line, grammar)
        assert parsed.ok and parsed.diagnostics == (), line


def test_via_convoy_before_a_second_move_is_ignored_with_a_warning():
    parsed = parse_line("C NUM - SIC via convoy then NEA", v.diplomacy_of_the_empire())
    assert parsed.ok and [d.severity for d in parsed.diagnostics] == [Severity.WARNING]
    assert "via convoy" in parsed.diagnostics[0].message
