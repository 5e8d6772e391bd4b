"""How the grammar settles words with two readings (rules in gm/orders/grammar.py)."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from gm.adjudicator.variant import Variant
from gm.domain.orders import Build, Convoy, Hold, Move, MoveThen, SupportHold, SupportMove, UnitRef
from gm.orders import OrderGrammar, Severity, parse_line
from gm.variants.standard import CALENDAR

from . import variant_grammars as vg
from .helpers import L, U


@pytest.fixture(scope="module")
def toy(variant) -> OrderGrammar:
    """The standard board where "s" is also Spain, "b" Belgium, "a" Albania, "c" Constantinople,
    and "Rome" Italy."""
    m = variant.map
    provinces = dict(m.provinces)
    for pid, alias in (("SPA", "s"), ("BEL", "b"), ("ALB", "a"), ("CON", "c")):
        provinces[pid] = replace(provinces[pid], aliases=provinces[pid].aliases + (alias,))
    powers = dict(m.powers)
    powers["Italy"] = replace(powers["Italy"], aliases=("rome",))
    board = replace(m, provinces=MappingProxyType(provinces), powers=MappingProxyType(powers))
    return OrderGrammar.for_variant(Variant("toy", board, CALENDAR, 1901))


def read(grammar, line):
    parsed = parse_line(line, grammar)
    assert parsed.ok, parsed.diagnostics
    return parsed.order, [d.message for d in parsed.diagnostics]


# (line, order, fragment of the warning or None)
TOY_CASES = [
    # A verb where a verb may stand wins over a province of the same spelling...
    ("A MUN S BER", SupportHold(U("A MUN"), U("BER")), None),
    ("A MUN S A BER - SIL", SupportMove(U("A MUN"), U("A BER"), L("SIL")), None),
    ("A PAR B", Build(U("A PAR")), None),
    # ... unless the verb reading cannot read the line: then the province, with a warning.
    ("A MAR S", Move(U("A MAR"), L("SPA")), '"S" read as Spain'),
    ("B - HOL", Move(U("BEL"), L("HOL")), '"B" read as part of a unit'),
    # Where only a province may stand, the alias is a province.
    ("A MAR - S", Move(U("A MAR"), L("SPA")), None),
    ("A PAR - B", Move(U("A PAR"), L("BEL")), None),
    ("S - MAR", Move(U("SPA"), L("MAR")), None),
    ("S H", Hold(U("SPA")), None),
    # A single-letter coast is read only after "/" or in brackets.
    ("F SPA/S - MAO", Move(U("F SPA/SC"), L("MAO")), None),
    # ... and a bare coast never starts with a verb: "S C" here is not "s.c.".
    ("F SPA S C", SupportHold(U("F SPA"), U("CON")), None),
    ("F AEG C A SMY - C", Convoy(U("F AEG"), U("A SMY"), L("CON")), None),
    # A unit type letter is the type first, the province if that cannot work.
    ("A SER - A", Move(U("A SER"), L("ALB")), None),
    ("A - SER", Move(U("ALB"), L("SER")), None),
    # A power word before a supported unit is skipped first, a province if that fails.
    ("A VEN S Rome A ROM - TUS", SupportMove(U("A VEN"), U("A ROM"), L("TUS")), None),
    ("A VEN S Rome - TUS", SupportMove(U("A VEN"), U("ROM"), L("TUS")), None),
    ("A VEN S Rome", SupportHold(U("A VEN"), U("ROM")), None),
    ("A VEN S Rome Tuscany", SupportMove(U("A VEN"), U("ROM"), L("TUS")), None),
    ("A VEN S Italian Tuscany", SupportHold(U("A VEN"), U("TUS")), None),
    ("A VEN S Rome Army Rome - Tuscany", SupportMove(U("A VEN"), U("A ROM"), L("TUS")), None),
]


@pytest.mark.parametrize(("line", "order", "warning"), TOY_CASES, ids=[c[0] for c in TOY_CASES])
def test_toy_board(toy, line, order, warning):
    got, messages = read(toy, line)
    assert got == order
    if warning is None:
        assert messages == []
    else:
        assert len(messages) == 1 and warning in messages[0]


STANDARD_CASES = [
    # "east"/"west" are both coasts and sea aliases: a coast only if the province has it.
    ("F BUL EAST - CON", Move(U("F BUL/EC"), L("CON"))),
    ("F SPA WEST", Move(U("F SPA"), L("WES"))),
    ("F CON - BUL EAST", Move(U("F CON"), L("BUL/EC"))),
    # A bare coast word never swallows a longer province name.
    ("F NWY NORTH SEA", Move(U("F NWY"), L("NTH"))),
    ("F STP NORTH SEA", Move(U("F STP"), L("NTH"))),
    ("F STP NORTH - BAR", Move(U("F STP/NC"), L("BAR"))),
    # "S" after a fleet in Spain is the support, not the south coast.
    ("F SPA S MAO", SupportHold(U("F SPA"), U("MAO"))),
    ("F SPA S F MAO - POR", SupportMove(U("F SPA"), U("F MAO"), L("POR"))),
    # Names run across a hyphen without spaces; "Lon-Bel" is no name, so it is a move.
    ("F Mid-Atlantic - Spain", Move(U("F MAO"), L("SPA"))),
    ("A LON-BEL", Move(U("A LON"), L("BEL"))),
    ("F WES-LYO", Move(U("F WES"), L("LYO"))),
    # "English" is England's adjective and the start of "English Channel".
    ("F NTH S English F LON - ENG", SupportMove(U("F NTH"), U("F LON"), L("ENG"))),
    ("F NTH S English Channel", SupportHold(U("F NTH"), U("ENG"))),
    ("F NTH S F English Channel - LON", SupportMove(U("F NTH"), U("F ENG"), L("LON"))),
    # "a" before a type name is an article; "A" alone the army letter.
    ("build a fleet Kiel", Build(U("F KIE"))),
    ("build a Kiel", Build(U("A KIE"))),
]


@pytest.mark.parametrize(("line", "order"), STANDARD_CASES, ids=[c[0] for c in STANDARD_CASES])
def test_standard_board(grammar, line, order):
    got, messages = read(grammar, line)
    assert got == order
    assert messages == []


def test_no_coast_is_guessed(grammar):
    for line in ("F MAO - SPA", "F GAS - Spain", "F BOT - StP", "F BLA - BUL"):
        parsed = parse_line(line, grammar)
        assert parsed.ok and parsed.order.destination.coast is None
        assert parsed.diagnostics == ()


def test_coast_the_province_lacks_is_a_warning(grammar):
    parsed = parse_line("F MAO - Spain (west coast)", grammar)
    assert parsed.order == Move(U("F MAO"), L("SPA"))
    assert parsed.diagnostics[0].severity is Severity.WARNING


def test_power_words_that_are_not_provinces_are_skipped_first(grammar):
    assert read(grammar, "A MUN S German BER")[0] == SupportHold(U("A MUN"), U("BER"))
    assert read(grammar, "A MUN S German BER SIL")[0] == SupportMove(U("A MUN"), U("BER"), L("SIL"))


# Unit letters that are also verbs, and letters with digits (variants' own unit types).
def test_c_is_convoy_after_a_unit_and_cavalry_where_a_unit_is_expected():
    grammar = vg.diplomacy_of_the_empire()
    cavalry, infantry = UnitRef(L("NUM"), vg.CAVALRY), UnitRef(L("NUM"), vg.INFANTRY)
    assert read(grammar, "C NUM - CEA") == (Move(cavalry, L("CEA")), [])
    assert read(grammar, "C NUM H") == (Hold(cavalry), [])
    assert read(grammar, "F MSA C C NUM - SIC") == (Convoy(U("F MSA"), cavalry, L("SIC")), [])
    assert read(grammar, "F MSA C I NUM - SIC") == (Convoy(U("F MSA"), infantry, L("SIC")), [])
    assert read(grammar, "F MSA C NUM - SIC") == (Convoy(U("F MSA"), U("NUM"), L("SIC")), [])
    assert read(grammar, "F MSA convoys C NUM to SIC") == (Convoy(U("F MSA"), cavalry, L("SIC")), [])
    assert read(grammar, "I AFR S C NUM - CEA") == (SupportMove(UnitRef(L("AFR"), vg.INFANTRY), cavalry, L("CEA")), [])


def test_b_starts_a_line_as_build_first_then_as_a_barbarian_army_without_warning():
    grammar = vg.roman_diplomacy()
    barbarian = UnitRef(L("CLT"), vg.BARBARIAN)
    assert read(grammar, "B Celtica") == (Build(U("CLT")), [])
    assert read(grammar, "BUILD B Celtica") == (Build(barbarian), [])
    assert read(grammar, "B Celtica - Belgica") == (Move(barbarian, L("BEL")), [])
    assert read(grammar, "B Celtica B") == (Build(barbarian), [])
    assert read(grammar, "A NAR S B Celtica - AQU") == (SupportMove(U("A NAR"), barbarian, L("AQU")), [])


def test_letters_with_digits_are_one_unit_type_never_an_item_number():
    grammar = vg.rise_of_rome()
    double_army = UnitRef(L("SYR"), vg.DOUBLE_ARMY)
    assert read(grammar, "2A SYR H") == (Hold(double_army), [])
    assert read(grammar, "1. 2A SYR H") == (Hold(double_army), [])
    assert read(grammar, "1 2A SYR H") == (Hold(double_army), [])
    assert read(grammar, "2 A SYR H") == (Hold(U("A SYR")), [])  # "2" alone is an item number, as before
    assert read(grammar, "2a syr - zam") == (Move(double_army, L("ZAM")), [])
    assert grammar.parse_unit("2A SYR") == (vg.DOUBLE_ARMY, L("SYR"))
    assert grammar.parse_unit("2F Syracuse") == (vg.DOUBLE_FLEET, L("SYR"))
    assert grammar.parse_unit("Double Fleet SYR") == (vg.DOUBLE_FLEET, L("SYR"))


def test_then_ends_a_chain_and_a_comma_before_it_separates_nothing():
    cavalry = UnitRef(L("NUM"), vg.CAVALRY)
    expected = MoveThen(cavalry, (L("CEA"),), (L("TIN"),))
    for line in ("C NUM - CEA then TIN", "C NUM - CEA, then TIN", "C NUM to CEA then to TIN", "C NUM CEA then - TIN"):
        assert read(vg.diplomacy_of_the_empire(), line) == (expected, []), line
