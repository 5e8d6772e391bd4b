"""A variant adds verbs, unit types and named units without touching the core grammar."""

from __future__ import annotations

from typing import Any

import pytest

from gm.adjudicator.parts import Parts
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Build, Move, UnitRef
from gm.domain.units import STANDARD_UNIT_TYPES, Mobility, UnitType
from gm.orders import OrderGrammar, parse_line, parse_orders
from gm.orders.grammar import ORDER_GRAMMAR
from gm.variants.standard import CALENDAR

from .helpers import L, U
from .variant_orders import Lead, Pay, Sack, leads, pay, sack

LEADER = UnitType("L", "leader", Mobility.ANY)


def hannibal(context) -> UnitRef | None:
    return None if context is None else context.get("hannibal")


@pytest.fixture(scope="module")
def extended(grammar) -> OrderGrammar:
    return grammar.extended(
        unit_verbs={"sack": sack, "leads": leads},
        line_verbs={"sack": sack, "PAY": pay},
        named_units={"Hannibal": hannibal, "Scipio Africanus": lambda _ctx: UnitRef(L("ROM"), LEADER)},
    )


def test_toy_unit_verb(extended):
    parsed = parse_line("A Tunis sack", extended)
    assert parsed.ok and parsed.order == Sack(U("A TUN"))
    assert parse_line("F NAP SACK.", extended).order == Sack(U("F NAP"))
    assert parse_line("SACK A TUN", extended).order == Sack(U("A TUN"))


def test_core_grammar_is_unchanged(grammar, extended):
    assert not parse_line("A TUN sack", grammar).ok
    assert parse_line("A PAR - BUR", extended).order == Move(U("A PAR"), L("BUR"))


def test_handler_errors_and_leftovers_are_diagnostics(extended):
    parsed = parse_line("PAY 0 Burgundy", extended)
    assert not parsed.ok and parsed.diagnostics[0].message == "pay a positive amount"
    assert parse_line("PAY 35 Burgundy", extended).order == Pay(35, "BUR")
    assert parse_line("PAY 35 Burgundi", extended).diagnostics[0].suggestion == "Burgundy"
    leftover = parse_line("A TUN sack twice", extended)
    assert 'unexpected "twice"' in leftover.diagnostics[0].message


def test_named_units(extended):
    context = {"hannibal": UnitRef(L("NAF"), LEADER)}
    lines = parse_orders("Hannibal - Tunis\nHannibal leads A Tunis\nScipio Africanus H", extended, context=context)
    assert [p.order for p in lines] == [
        Move(UnitRef(L("NAF"), LEADER), L("TUN")),
        Lead(UnitRef(L("NAF"), LEADER), U("A TUN")),
        parse_line("L ROM H", OrderGrammar.for_variant(_leader_variant())).order,
    ]
    unknown = parse_line("Hannibal - Tunis", extended)  # no context: cannot be resolved
    assert not unknown.ok and "cannot tell which unit" in unknown.diagnostics[0].message


def test_a_verb_can_be_removed(grammar):
    strict = grammar.extended(unit_verbs={"m": None})
    assert not parse_line("A PAR M BUR", strict).ok
    assert parse_line("A PAR M BUR", grammar).ok


def test_verbs_are_single_words(grammar):
    with pytest.raises(ValueError):
        grammar.extended(unit_verbs={"lead to": leads})


def test_a_crashing_handler_is_reported_not_raised(grammar):
    def broken(_unit, _c):
        raise RuntimeError("boom")

    parsed = parse_line("A PAR boom", grammar.extended(unit_verbs={"boom": broken}))
    assert not parsed.ok and "internal error" in parsed.diagnostics[0].message


def _leader_variant() -> Variant:
    from gm.variants.catalog import VariantCatalog

    standard = VariantCatalog().get("standard")
    return Variant("leaders", standard.map, CALENDAR, 1901, STANDARD_UNIT_TYPES + (LEADER,))


def test_variant_unit_types_need_no_code():
    grammar = OrderGrammar.for_variant(_leader_variant())
    leader_par = UnitRef(Location("PAR"), LEADER)
    assert parse_line("L PAR - BUR", grammar).order == Move(leader_par, L("BUR"))
    assert parse_line("Leader Paris to Burgundy", grammar).order == Move(leader_par, L("BUR"))
    assert parse_line("BUILD L PAR", grammar).order == Build(leader_par)
    assert parse_line("A MUN S L PAR - BUR", grammar).ok


class RiseOfToy(Variant):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.parts = Parts({ORDER_GRAMMAR.name: lambda: self.extend_order_grammar})

    def extend_order_grammar(self, grammar: OrderGrammar) -> OrderGrammar:
        return grammar.extended(unit_verbs={"sack": sack})


def test_variant_hook_is_used_by_for_variant():
    from gm.variants.catalog import VariantCatalog

    standard = VariantCatalog().get("standard")
    variant = RiseOfToy("toy", standard.map, CALENDAR, 1901)
    grammar = OrderGrammar.for_variant(variant)
    assert grammar is OrderGrammar.for_variant(variant)
    assert parse_line("A TUN sack", grammar).order == Sack(U("A TUN"))
