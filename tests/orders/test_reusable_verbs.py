"""The reusable pieces a rules module builds its verbs from (gm.orders.verbs, Cursor), on the
standard board; and the standard grammar, which uses none of them, reading as before."""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType

import pytest

from gm.adjudicator.variant import Variant
from gm.domain.orders import Build, Move, MoveAlongPath, MoveInRounds, MoveThen, Order, UnitRef
from gm.orders import Cursor, OrderGrammar, Severity, parse_line, verbs
from gm.orders.tokens import clean_line, tokenize
from gm.variants.standard import CALENDAR

from .helpers import L, U
from .variant_orders import BuildCity, Raze


def steps(*ids: str):
    return tuple(L(i) for i in ids)


@pytest.fixture(scope="module")
def rounds(grammar) -> OrderGrammar:
    return grammar.extended(unit_verbs=dict.fromkeys(verbs.MOVE_WORDS, verbs.moves(MoveInRounds)))


@pytest.fixture(scope="module")
def paths_and_then(grammar) -> OrderGrammar:
    return grammar.extended(unit_verbs=dict.fromkeys(verbs.MOVE_WORDS, verbs.moves(MoveAlongPath, MoveThen)))


def test_standard_paths_commas_and_then_read_as_before(grammar):
    parsed = parse_line("A PAR - BUR - MAR", grammar)
    assert parsed.order == Move(U("A PAR"), L("MAR"))
    assert [d.message for d in parsed.diagnostics] == ["convoy path BUR ignored: only the destination MAR counts"]
    assert parse_line("A PAR - BUR,", grammar).order == Move(U("A PAR"), L("BUR"))
    assert parse_line("A PAR, - BUR", grammar).order == Move(U("A PAR"), L("BUR"))
    assert parse_line("F St Petersburg, north coast - BAR", grammar).order == Move(U("F STP/NC"), L("BAR"))
    assert parse_line("A PAR - BUR, MAR", grammar).diagnostics[0].message == 'unexpected "MAR" at the end of the order'
    assert parse_line("A PAR - BUR then MAR", grammar).diagnostics[0].message == 'unexpected "then MAR" at the end of the order'


MOVES_IN_ROUNDS = [
    ("F TYS - LYO - SPA/SC", MoveInRounds(U("F TYS"), steps("LYO", "SPA/SC"))),
    ("F Tyrrhenian Sea - Gulf of Lyon - Spain (south coast)", MoveInRounds(U("F TYS"), steps("LYO", "SPA/SC"))),
    ("F TYS to LYO to WES", MoveInRounds(U("F TYS"), steps("LYO", "WES"))),
    ("F TYS moves to LYO, WES, NAF", MoveInRounds(U("F TYS"), steps("LYO", "WES", "NAF"))),
    ("F TYS LYO - WES", MoveInRounds(U("F TYS"), steps("LYO", "WES"))),  # the bare move reads as "-"
    ("F TYS - LYO", Move(U("F TYS"), L("LYO"))),
    ("A LON - BEL VIA CONVOY", Move(U("A LON"), L("BEL"), via_convoy=True)),
]


@pytest.mark.parametrize(("line", "order"), MOVES_IN_ROUNDS, ids=[c[0] for c in MOVES_IN_ROUNDS])
def test_moves_in_rounds(rounds, line, order):
    parsed = parse_line(line, rounds)
    assert parsed.order == order and parsed.diagnostics == (), str(parsed)
    assert parse_line(str(order), rounds).order == order


def test_then_is_not_read_unless_the_variant_asks(rounds, paths_and_then):
    assert parse_line("F TYS - LYO then WES", rounds).diagnostics[0].message == 'unexpected "then WES" at the end of the order'
    parsed = parse_line("F TYS - LYO then WES", paths_and_then)
    assert parsed.order == MoveThen(U("F TYS"), steps("LYO"), steps("WES"))
    assert str(parsed.order) == "F TYS - LYO then WES"


def test_a_shape_answering_none_keeps_the_standard_reading(grammar):
    def fleets_only(unit: UnitRef, places: tuple) -> Order | None:
        return MoveInRounds(unit, places) if unit.type is not None and unit.type.letter == "F" else None

    fleets = grammar.extended(unit_verbs={"-": verbs.moves(fleets_only)})
    assert parse_line("F TYS - LYO - WES", fleets).order == MoveInRounds(U("F TYS"), steps("LYO", "WES"))
    army = parse_line("A LON - NTH - BEL", fleets)
    assert army.order == Move(U("A LON"), L("BEL"))
    assert [d.severity for d in army.diagnostics] == [Severity.WARNING]


def test_a_then_shape_answering_none_refuses_the_line(grammar):
    no_armies = grammar.extended(
        unit_verbs={"-": verbs.moves(then=lambda u, first, then: None if u.type is not None and u.type.letter == "A" else MoveThen(u, first, then))}
    )
    assert parse_line("A PAR - BUR then MAR", no_armies).diagnostics[0].message == 'no second move ("then") for A PAR'
    assert parse_line("PAR - BUR then MAR", no_armies).order == MoveThen(U("PAR"), steps("BUR"), steps("MAR"))


@pytest.fixture(scope="module")
def city_board(variant) -> OrderGrammar:
    """The standard board where London is also called "City": "BUILD CITY" may be a build in London."""
    provinces = dict(variant.map.provinces)
    provinces["LON"] = replace(provinces["LON"], aliases=(*provinces["LON"].aliases, "city"))
    board = replace(variant.map, provinces=MappingProxyType(provinces))
    build = verbs.by_next_word({"City": verbs.province_order(BuildCity)}, verbs.build_line)
    return OrderGrammar.for_variant(Variant("city", board, CALENDAR, 1901)).extended(
        line_verbs={**dict.fromkeys(verbs.BUILD_WORDS, build), "raze": verbs.province_order(Raze)}
    )


def test_by_next_word_reads_the_word_first_then_the_verb_as_before(city_board):
    assert parse_line("BUILD CITY PAR", city_board).order == BuildCity(L("PAR"))
    assert parse_line("BUILD city Paris", city_board).order == BuildCity(L("PAR"))
    assert parse_line("BUILD A PAR", city_board).order == Build(U("A PAR"))
    assert parse_line("BUILD CITY", city_board).order == Build(U("LON"))  # no province after "city": London
    assert parse_line("BUILD F CITY", city_board).order == Build(U("F LON"))
    assert parse_line("RAZE Paris", city_board).order == Raze(L("PAR"))


def test_by_next_word_suggests_its_words(city_board):
    parsed = parse_line("BUILD CITTY PAR", city_board)
    assert str(parsed.diagnostics[0]) == 'unknown word "CITTY" — did you mean city?'
    parsed = parse_line("BUILD A Pariss", city_board)
    assert parsed.diagnostics[0].suggestion == "Paris"


@dataclass(frozen=True, slots=True)
class Named(Order):
    name: str
    unit: None = None


def test_power_and_bracketed(grammar):
    def owner(_unit, c: Cursor) -> Order:
        name = c.bracketed(c.power)
        return Named(name if name is not None else c.power())

    g = grammar.extended(line_verbs={"owner": owner})
    assert parse_line("OWNER (Germany)", g).order == Named("Germany")
    assert parse_line("OWNER [German]", g).order == Named("Germany")
    assert parse_line("OWNER England's", g).order == Named("England")
    assert parse_line("OWNER austrian", g).order == Named("Austria")
    messages = {
        "OWNER (Germny)": ('unknown power "Germny"', "Germany"),
        "OWNER (Germany": ('missing ")"', None),
        "OWNER (Germany France)": ('expected ")", found "France"', None),
        "OWNER": ("missing power", None),
        "OWNER -": ('expected a power, found "-"', None),
        "OWNER Zzzz": ('unknown power "Zzzz"', None),
    }
    for line, (message, suggestion) in messages.items():
        d = parse_line(line, g).diagnostics[0]
        assert (d.message, d.suggestion) == (message, suggestion), line


def test_commas_are_marked_on_the_word_before_them():
    line = clean_line("HIS move to Nar, Ita ,Dal, ; .")
    assert line == "HIS move to Nar, Ita ,Dal,"
    assert [(t.text, t.comma) for t in tokenize(line)] == [
        ("HIS", False), ("move", False), ("to", False), ("Nar", True), ("Ita", True), ("Dal", True),
    ]
    assert clean_line("A PAR - BUR.") == "A PAR - BUR"
