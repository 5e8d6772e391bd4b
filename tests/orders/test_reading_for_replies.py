"""What the replies need of the parser: standard letters where a variant has no armies, a move written
with its order word first, an order word before its unit, a misspelt name of several words, the
order word a failed line carries (Diagnostic.form), and the forms of every variant's orders with
examples that read back."""

from __future__ import annotations

import pytest

from gm.adjudicator.phaselog import PhaseLog
from gm.domain.orders import Move, SupportMove
from gm.domain.units import ARMY
from gm.orders import OrderGrammar, parse_line
from gm.orders.forms import STANDARD_FORMS, form_for, forms_of
from gm.reports.examples import example_of
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

CATALOG = VariantCatalog()


def _grammar(name: str) -> OrderGrammar:
    return OrderGrammar.for_variant(CATALOG.get(name))


@pytest.mark.parametrize("line", ["Army Aegyptus -> Arabia Petraea", "A Aegyptus - Arabia Petraea",
                                  "an army in Aegyptus - Arabia Petraea"])
def test_standard_letters_stand_for_the_land_unit_where_a_variant_has_no_armies(line: str) -> None:
    grammar = _grammar("diplomacy-of-the-empire")
    assert ARMY in grammar.stand_ins and ARMY not in CATALOG.get("diplomacy-of-the-empire").unit_types
    order = parse_line(line, grammar, cached=False).order
    assert isinstance(order, Move) and order.unit.type is ARMY and str(order) == "A EGY - ARA"
    assert not _grammar("standard").stand_ins and not _grammar("rise-of-rome-ii").stand_ins


@pytest.mark.parametrize("line, read", [("move Nisibis to Osrhoene", "NIS - OSR"), ("moves A Nisibis - Osrhoene",
                                                                                  "A NIS - OSR")])
def test_a_move_written_with_its_order_word_first_is_a_move(line: str, read: str) -> None:
    assert str(parse_line(line, _grammar("eagles"), cached=False).order) == read


def test_an_order_word_before_its_unit_is_answered_so_with_the_form_to_show() -> None:
    parsed = parse_line("support A Nisibis - Osrhoene", _grammar("eagles"), cached=False)
    (error,) = parsed.diagnostics
    assert error.message == '"support" comes after the unit it orders: write the unit first'
    assert error.form == "support" and error.suggestion is None
    assert parse_line("S A Nisibis - Osrhoene", _grammar("eagles"), cached=False).diagnostics[0].form is None


@pytest.mark.parametrize("line", ["A New Carthagee - Saguntum", "New Carthagee - Saguntum", "A Saguntum - New Carthagee"])
def test_a_misspelt_name_of_several_words_suggests_that_name(line: str) -> None:
    (error,) = parse_line(line, _grammar("rise-of-rome-ii"), cached=False).diagnostics
    assert (error.message, error.suggestion) == ('unknown province "New Carthagee"', "New Carthage")


def test_a_line_that_fails_after_its_order_word_carries_it() -> None:
    grammar = _grammar("eagles")
    loose = parse_line("fleet sinope attacks the fleets in pontus euxinus", grammar, cached=False)
    assert loose.diagnostics[0].form == "attacks"
    assert form_for(CATALOG.get("eagles"), "attacks").name == "attack at sea"  # the variant's own first
    assert parse_line("PAY Galatia 5", _grammar("diplomacy-of-the-empire"), cached=False).diagnostics[0].form == "pay"
    assert parse_line("A PAR S", _grammar("standard"), cached=False).diagnostics[0].form == "s"
    assert isinstance(parse_line("A MAR S A PAR - BUR", _grammar("standard")).order, SupportMove)


@pytest.mark.parametrize("name", CATALOG.names())
def test_every_form_of_every_variant_has_an_example_that_reads(name: str) -> None:
    """Each variant's forms, standard and its own, at its start (a Roman Diplomacy board with two
    empires founded), for every power: an example, where one is given, is an order the grammar
    reads without a word of comment."""
    variant = CATALOG.get(name)
    position = variant.initial_position()
    if setup_of(variant).open_membership:
        for empire, city in zip(("Latins", "Punics"), setup_of(variant).joining_choices(position)[:2]):
            position = setup_of(variant).with_joining(position, *setup_of(variant).joining_request(f"{city} as {empire}", position))
        position = setup_of(variant).admit_joining(position, PhaseLog(None))
    grammar = OrderGrammar.for_variant(variant)
    forms = forms_of(variant)
    assert {f.name for f in STANDARD_FORMS} <= {f.name for f in forms}
    shown = 0
    for power in sorted({u.power for u in position.units} - set(variant.unplayed_powers)):
        for form in forms:
            example = example_of(form, variant, position, power)
            if example is None or "<" in example:
                continue
            parsed = parse_line(example, grammar, context=position, cached=False)
            assert parsed.ok and not parsed.diagnostics, (name, power, form.name, example, parsed.diagnostics)
            shown += 1
    assert shown


@pytest.mark.parametrize("variant, line, message, suggestion", [
    ("eagles", "Flet Sinope - Pontus", 'unknown unit type "Flet"', "Fleet"),
    ("diplomacy-of-the-empire", "Cavalery Numidia - Africa", 'unknown unit type "Cavalery"', "Cavalry"),
    ("eagles", "bulid A Sinope", 'unknown order "bulid" at the start of the line', "build"),
    ("eagles", "A Nisibis suport A Antiochia - Palmyra", 'unknown order "suport" after "A NIS"', "support"),
    ("rise-of-rome-ii", "Hanibal - Mauretania", 'unknown unit "Hanibal"', "Hannibal"),
])
def test_a_suggestion_is_of_the_kind_of_word_expected_where_it_stands(variant: str, line: str, message: str,
                                                                       suggestion: str) -> None:
    (error,) = parse_line(line, _grammar(variant), cached=False).diagnostics
    assert (error.message, error.suggestion) == (message, suggestion)
