"""Each part a variant declares (gm.variants.catalog) fills the interface of its key, defined by
the layer that uses it; a variant that declares none gets standard play's."""

from __future__ import annotations

import inspect
import random

import pytest

from gm.adjudicator.refusals import BUILD_REFUSALS, BuildRefusals, refusals_of
from gm.bots.plausible import PLAUSIBLE_ORDERS, PlausiblePlayer, plausible_start
from gm.domain.units import Unit
from gm.orders.forms import ORDER_FORMS, OrderForm
from gm.orders.grammar import ORDER_GRAMMAR, OrderGrammar
from gm.render.layers import MAP_LAYERS, MapPen
from gm.reports.names import OFF_BOARD, UNIT_NAMES
from gm.reports.words import WORDS, StandardWords, Words, words_of
from gm.variants.catalog import RULES, VariantCatalog
from gm.variants.setup import SETUP, Setup, setup_of

CATALOG = VariantCatalog()
KEYS = {key.name: key for key in (SETUP, WORDS, BUILD_REFUSALS, ORDER_GRAMMAR, ORDER_FORMS, UNIT_NAMES, OFF_BOARD,
                                  MAP_LAYERS, PLAUSIBLE_ORDERS)}


@pytest.mark.parametrize("name", CATALOG.names())
def test_each_declared_part_has_a_key_and_is_made(name: str) -> None:
    variant = CATALOG.get(name)
    assert set(RULES[name].parts) <= set(KEYS), "a part no layer asks for"
    assert variant.parts.names() == set(RULES[name].parts)
    for part in RULES[name].parts:
        assert variant.parts.get(KEYS[part]) is not None
        assert variant.parts.get(KEYS[part]) is variant.parts.get(KEYS[part])  # made once


@pytest.mark.parametrize("name", CATALOG.names())
def test_each_part_fills_its_interface(name: str) -> None:
    variant = CATALOG.get(name)
    start = plausible_start(variant, random.Random(1))
    assert isinstance(setup_of(variant), Setup) and isinstance(refusals_of(variant), BuildRefusals)
    words = words_of(variant)
    for method in ("shown_adjustments", "state_report", "orders_note"):  # Words, as gm.reports asks it
        shape = getattr(Words, method)
        assert list(inspect.signature(getattr(words, method)).parameters) == \
            list(inspect.signature(shape).parameters)[1:], method
    assert isinstance(words.state_report(start), list) and isinstance(words.shown_adjustments(start), list)
    assert isinstance(OrderGrammar.for_variant(variant), OrderGrammar)
    assert all(isinstance(form, OrderForm) for form in variant.parts.get(ORDER_FORMS) or ())
    names, waiting = variant.parts.get(UNIT_NAMES), variant.parts.get(OFF_BOARD)
    off = waiting(variant.initial_position()) if waiting is not None else []
    assert all(isinstance(unit, Unit) for unit in off)
    if names is not None:
        assert all(isinstance(names(unit), str) for unit in off)  # the units waiting are named
    draw = variant.parts.get(MAP_LAYERS)
    if draw is not None:
        pen = MapPen(variant.map.provinces, lambda power: "")
        draw(start, pen)
        assert pen.tints or pen.markers or pen.links
    orders = PlausiblePlayer(variant, random.Random(2)).orders(start)
    assert all(power and order for power, order in orders)


def test_standard_play_declares_no_part_and_gets_the_standard_ones() -> None:
    standard = CATALOG.get("standard")
    assert standard.parts.names() == frozenset() and standard.parts.get(SETUP) is None
    assert type(setup_of(standard)) is Setup and type(words_of(standard)) is StandardWords
    assert setup_of(standard).player_counts() == (7, 7) and not setup_of(standard).open_membership
    assert refusals_of(standard).builds_refusal(standard.initial_position(), "France", 2) == "France has only 2 builds"
