"""parse_orders over whole texts, ParsedLine, Diagnostic and the grammar's small entry points."""

from __future__ import annotations

import pytest

from gm.domain.orders import Hold, Move, SupportHold, Waive
from gm.domain.units import ARMY, FLEET
from gm.orders import (
    Diagnostic,
    OrderGrammar,
    OrderSyntaxError,
    ParsedLine,
    Severity,
    parse_line,
    parse_orders,
)

from .helpers import L, U

MAIL = """\
Spring orders:

  A PAR - BUR
A MAR H

F BRE - Mid-Atlantic
A MUN S Burgandi
\tWAIVE
"""


def test_one_parsed_line_per_non_blank_line_with_its_number(grammar):
    lines = parse_orders(MAIL, grammar)
    assert [p.line_no for p in lines] == [1, 3, 4, 6, 7, 8]
    assert [p.text for p in lines] == [
        "Spring orders:",
        "A PAR - BUR",
        "A MAR H",
        "F BRE - Mid-Atlantic",
        "A MUN S Burgandi",
        "WAIVE",
    ]
    assert [p.ok for p in lines] == [False, True, True, True, False, True]
    assert lines[1].order == Move(U("A PAR"), L("BUR"))
    assert lines[2].order == Hold(U("A MAR"))
    assert lines[3].order == Move(U("F BRE"), L("MAO"))
    assert lines[4].diagnostics[0].suggestion == "Burgundy"
    assert lines[5].order == Waive()


def test_first_line_number_and_crlf(grammar):
    lines = parse_orders("A PAR H\r\n\r\nA MAR H\r\n", grammar, first_line=10)
    assert [(p.line_no, p.text) for p in lines] == [(10, "A PAR H"), (12, "A MAR H")]


def test_empty_text(grammar):
    assert parse_orders("", grammar) == []
    assert parse_orders("\n  \n\t\n", grammar) == []


def test_parsed_line_properties(grammar):
    warned = parse_line("F MAO - Spain west coast", grammar, line_no=2)
    assert warned.ok
    assert warned.errors == ()
    assert [d.severity for d in warned.warnings] == [Severity.WARNING]
    assert str(warned) == "line 2: F MAO - SPA (Spain has no west coast; the coast is ignored)"
    failed = parse_line("A PAR - Burgundi", grammar, line_no=5)
    assert not failed.ok
    assert failed.warnings == ()
    assert str(failed) == 'line 5: A PAR - Burgundi (unknown province "Burgundi" — did you mean Burgundy?)'
    assert isinstance(failed, ParsedLine)


def test_warnings_of_a_failed_reading_are_not_reported(grammar):
    parsed = parse_line("A PAR - Brest north coast junk", grammar)
    assert [d.severity for d in parsed.diagnostics] == [Severity.ERROR]


def test_diagnostic_str():
    assert str(Diagnostic(Severity.ERROR, "bad")) == "bad"
    d = Diagnostic(severity=Severity.ERROR, message='unknown province "Burgandy"', suggestion="Burgundy")
    assert str(d) == 'unknown province "Burgandy" — did you mean Burgundy?'


def test_parse_location(grammar):
    assert grammar.parse_location("St Petersburg (south coast)") == L("STP/SC")
    assert grammar.parse_location("stp/nc") == L("STP/NC")
    assert grammar.parse_location("Mid-Atlantic Ocean") == L("MAO")
    assert grammar.parse_location("spa") == L("SPA")
    with pytest.raises(OrderSyntaxError) as caught:
        grammar.parse_location("Burgundi")
    assert caught.value.diagnostic.suggestion == "Burgundy"
    with pytest.raises(OrderSyntaxError):
        grammar.parse_location("Paris Burgundy")
    with pytest.raises(OrderSyntaxError):
        grammar.parse_location("")


def test_parse_unit(grammar):
    assert grammar.parse_unit("F St Petersburg (south coast)") == (FLEET, L("STP/SC"))
    assert grammar.parse_unit("A PAR") == (ARMY, L("PAR"))
    assert grammar.parse_unit("army paris") == (ARMY, L("PAR"))
    with pytest.raises(OrderSyntaxError) as caught:
        grammar.parse_unit("PAR")
    assert "missing unit type" in caught.value.diagnostic.message
    with pytest.raises(OrderSyntaxError):
        grammar.parse_unit("A Pariss")
    with pytest.raises(OrderSyntaxError):
        grammar.parse_unit("A PAR H")


def test_province_suggestion(grammar):
    assert grammar.province_suggestion("Burgandy") == "Burgundy"  # an alias: its full name
    assert grammar.province_suggestion("Burgundi") == "Burgundy"
    assert grammar.province_suggestion("st petersberg") == "St Petersburg"
    assert grammar.province_suggestion("mid atlantik") == "Mid-Atlantic Ocean"
    assert grammar.province_suggestion("zzzzzz") is None


def test_grammar_is_built_once_per_variant(variant):
    assert OrderGrammar.for_variant(variant) is OrderGrammar.for_variant(variant)


def test_context_is_optional(grammar):
    assert parse_line("A MUN S A BER", grammar, context=object()).order == SupportHold(U("A MUN"), U("A BER"))
