"""The parser never raises and gives one ParsedLine per non-blank line, whatever it is fed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.orders import OrderGrammar, ParsedLine, parse_orders
from gm.orders.parser import INTERNAL_ERROR
from gm.variants.catalog import VariantCatalog

GRAMMAR = OrderGrammar.for_variant(VariantCatalog().get("standard"))

_WORDS = sorted(
    {
        *(p.id for p in GRAMMAR.map.provinces.values()),
        *(p.name for p in GRAMMAR.map.provinces.values()),
        *(a for p in GRAMMAR.map.provinces.values() for a in p.aliases),
        *GRAMMAR.unit_verbs,
        *GRAMMAR.line_verbs,
        "A", "F", "Army", "Fleet", "a", "an", "in", "German", "England's", "English",
        "nc", "sc", "ec", "north coast", "south", "n.c.", "via", "convoy", "by", "VIA CONVOY",
        "/", "(", ")", "(nc)", "/sc", "-", "->", "=>", "\u2013", "\u2014", "\u2192", ">", ".", ",", ";",
        "1.", "2)", "*", "0", "35", "'", "St.", "Mid-", "Burgundi", "Hannibal", "\\", "[", "]",
    }
)


@st.composite
def token_lines(draw) -> str:
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=0, max_size=9))
    seps = draw(st.lists(st.sampled_from((" ", " ", " ", "", "\t", "  ")), min_size=len(words), max_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps, strict=True))


def _check(text: str) -> list[ParsedLine]:
    lines = parse_orders(text, GRAMMAR)
    expected = [n for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    assert [p.line_no for p in lines] == expected
    for parsed in lines:
        assert parsed.ok == (parsed.order is not None and not parsed.errors)
        assert parsed.order is not None or parsed.errors
        for diagnostic in parsed.diagnostics:
            assert INTERNAL_ERROR not in diagnostic.message, (parsed.text, diagnostic)
            str(diagnostic)
    return lines


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text(text):
    _check(text)


@settings(max_examples=500, deadline=None)
@given(st.lists(token_lines(), max_size=4))
def test_mixes_of_real_tokens(lines):
    _check("\n".join(lines))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(token_lines(), st.text(max_size=20)), max_size=3).map("".join))
def test_real_tokens_and_noise(text):
    _check(text)


def test_some_nasty_lines():
    for text in ("\x00", "\u2028", "((((", "////", "A " * 300, "-" * 1000, "A PAR - " * 100, "\ufeffA PAR H"):
        _check(text)
