"""str(order) is the canonical form: reading it back gives the same order, with no diagnostics."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.domain.geography import Location
from gm.domain.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from gm.domain.units import ARMY, FLEET
from gm.orders import OrderGrammar, parse_line
from gm.variants.catalog import VariantCatalog

from .test_fuzz import token_lines

GRAMMAR = OrderGrammar.for_variant(VariantCatalog().get("standard"))
BOARD = GRAMMAR.map
PROVINCES = sorted(BOARD.provinces)


@st.composite
def locations(draw, for_army: bool = False) -> Location:
    province = BOARD.provinces[draw(st.sampled_from(PROVINCES))]
    if province.coasts and not for_army:
        return Location(province.id, draw(st.sampled_from((None, *province.coasts))))
    return Location(province.id)


@st.composite
def units(draw) -> UnitRef:
    unit_type = draw(st.sampled_from((ARMY, FLEET, None)))
    return UnitRef(draw(locations(for_army=unit_type is ARMY)), unit_type)


@st.composite
def orders(draw):
    unit = draw(units())
    is_army = unit.type is ARMY
    kind = draw(st.sampled_from(("hold", "move", "sh", "sm", "convoy", "retreat", "disband", "build", "waive")))
    if kind == "hold":
        return Hold(unit)
    if kind == "move":
        return Move(unit, draw(locations(for_army=is_army)), draw(st.booleans()))
    if kind == "sh":
        return SupportHold(unit, draw(units()))
    if kind == "sm":
        supported = draw(units())
        return SupportMove(unit, supported, draw(locations(for_army=supported.type is ARMY)))
    if kind == "convoy":
        army = draw(units())
        return Convoy(unit, army, draw(locations(for_army=army.type is ARMY)))
    if kind == "retreat":
        return Retreat(unit, draw(locations(for_army=is_army)))
    if kind == "disband":
        return Disband(unit)
    if kind == "build":
        return Build(unit)
    return Waive()


@settings(max_examples=400, deadline=None)
@given(orders())
def test_generated_orders_round_trip(order):
    parsed = parse_line(str(order), GRAMMAR)
    assert parsed.order == order, (str(order), parsed.diagnostics)
    assert parsed.diagnostics == ()


@settings(max_examples=300, deadline=None)
@given(token_lines())
def test_every_order_the_parser_gives_round_trips(line):
    parsed = parse_line(line, GRAMMAR)
    if parsed.order is not None:
        again = parse_line(str(parsed.order), GRAMMAR)
        assert again.order == parsed.order, (line, str(parsed.order), again.diagnostics)


def test_all_provinces_and_coasts_round_trip():
    for pid, province in BOARD.provinces.items():
        for coast in (None, *province.coasts):
            unit = UnitRef(Location(pid, coast), FLEET if coast else None)
            for order in (Hold(unit), Move(UnitRef(Location("PAR")), Location(pid, coast)), Build(unit)):
                assert parse_line(str(order), GRAMMAR).order == order
