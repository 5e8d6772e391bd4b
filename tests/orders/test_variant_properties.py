"""Properties of the variant forms: every move of several steps reads back from its canonical
form, and no text makes the extended grammars raise."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.domain.geography import Location
from gm.domain.orders import MoveAlongPath, MoveInRounds, MoveThen, UnitRef
from gm.domain.units import FLEET, Mobility
from gm.orders import OrderGrammar, parse_orders
from gm.orders.parser import INTERNAL_ERROR

from . import variant_grammars as v


def _locations(grammar: OrderGrammar, with_coasts: bool) -> list[Location]:
    provinces = grammar.map.provinces.values()
    return [Location(p.id, coast) for p in provinces for coast in (None, *(p.coasts if with_coasts else ()))]


def _unit_and_places(grammar: OrderGrammar, unit_types, n: int):
    @st.composite
    def draw_them(draw):
        unit_type = draw(st.sampled_from(unit_types))
        coasts = unit_type is None or unit_type.mobility is not Mobility.LAND
        places = st.sampled_from(_locations(grammar, coasts))
        unit = UnitRef(draw(places), unit_type)
        return unit, tuple(draw(st.lists(places, min_size=n, max_size=5)))

    return draw_them()


DOTE = v.diplomacy_of_the_empire()
ROMAN = v.roman_diplomacy()


def _reads_back(grammar: OrderGrammar, order) -> None:
    [parsed] = parse_orders(str(order), grammar)
    assert parsed.order == order and parsed.diagnostics == (), str(parsed)


@settings(max_examples=300, deadline=None)
@given(_unit_and_places(DOTE, (None, v.INFANTRY, v.CAVALRY, v.CATAPULT, FLEET), 2))
def test_paths_read_back(unit_and_path):
    _reads_back(DOTE, MoveAlongPath(*unit_and_path))


@settings(max_examples=300, deadline=None)
@given(_unit_and_places(DOTE, (None, v.CAVALRY, FLEET), 1), st.data())
def test_second_moves_read_back(unit_and_first, data):
    unit, first = unit_and_first
    coasts = unit.type is not v.CAVALRY
    then = data.draw(st.lists(st.sampled_from(_locations(DOTE, coasts)), min_size=1, max_size=4))
    _reads_back(DOTE, MoveThen(unit, first, tuple(then)))


@settings(max_examples=300, deadline=None)
@given(_unit_and_places(ROMAN, (None, FLEET), 2))
def test_moves_in_rounds_read_back(unit_and_steps):
    _reads_back(ROMAN, MoveInRounds(*unit_and_steps))


_WORDS = sorted({
    *(p.id for p in DOTE.map.provinces.values()),
    *(p.name for p in DOTE.map.provinces.values()),
    *(a for p in DOTE.map.provinces.values() for a in p.aliases),
    *DOTE.unit_verbs, *DOTE.line_verbs,
    "I", "C", "K", "F", "then", "move to", ",", ", ", "-", "city", "fort", "35", "thirty", "(", ")", "/sc",
    "via convoy", "Hannibal", "2A",
})


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_WORDS), max_size=10).map(" ".join), max_size=4).map("\n".join))
def test_variant_words_in_any_order_never_raise(text):
    for grammar in (DOTE, ROMAN, v.rise_of_rome(), v.eagles()):
        for parsed in parse_orders(text, grammar):
            assert parsed.order is not None or parsed.errors
            assert all(INTERNAL_ERROR not in d.message for d in parsed.diagnostics), str(parsed)
