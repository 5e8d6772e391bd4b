"""The fast lane (gm/orders/fastlane.py) reads a line only as the general parser reads it.

Wherever the fast lane gives an order, the general parser (``OrderGrammar.read``) gives the very
same order with no diagnostic at all; everywhere else the fast lane gives up. Checked on every
string the order tests hold, on orders written in every usual way on every map and variant
grammar, and on random soups of their words. The cache of lines (``OrderGrammar.lines``) is
checked here too: bounded, by the exact text, never for lines read with the caller's context,
and the same readings as without it.
"""

from __future__ import annotations

import ast
import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.domain.orders import Order
from gm.maps.loader import MAPS_DIR, available_maps, load_map
from gm.orders import OrderGrammar, OrderSyntaxError, parse_line, parse_orders
from gm.orders import grammar as grammar_module
from gm.orders.fastlane import tokens
from gm.orders.tokens import clean_line, tokenize
from gm.variants.catalog import VariantCatalog

from . import variant_grammars

HERE = Path(__file__).parent


@cache
def grammars() -> dict[str, OrderGrammar]:
    """Every grammar there is: each catalog variant's, each test-only variant grammar, and the
    plain grammar of every map file."""
    found: dict[str, OrderGrammar] = {}
    catalog = VariantCatalog()
    for name in catalog.names():
        found[f"variant {name}"] = OrderGrammar.for_variant(catalog.get(name))
    for make in (variant_grammars.rise_of_rome, variant_grammars.roman_diplomacy, variant_grammars.eagles,
                 variant_grammars.diplomacy_of_the_empire):
        found[f"test grammar {make.__name__}"] = make()
    for board in available_maps():
        found[f"map {board}"] = OrderGrammar(load_map(MAPS_DIR / f"{board}.yaml"))
    return found


def general(grammar: OrderGrammar, line: str) -> tuple[Order | None, tuple[object, ...]]:
    """The general parser's reading: the order (None on an error) and its diagnostics."""
    c = grammar.cursor(line)
    try:
        order = grammar.read(c)
    except OrderSyntaxError as error:
        return None, (error.diagnostic,)
    return order, tuple(c.warnings)


def agrees(grammar: OrderGrammar, line: str) -> bool:
    """Checks the fast lane against the general parser on one line; whether it read it."""
    written = line.strip()
    fast = grammar.fast_lane.order(written)
    if fast is None:
        return False
    order, diagnostics = general(grammar, written)
    assert (type(order), order, diagnostics) == (type(fast), fast, ()), (line, fast)
    return True


def agrees_on_units_and_places(grammar: OrderGrammar, text: str) -> None:
    unit = grammar.fast_lane.unit(text)
    if unit is not None:
        assert grammar._parse_unit(text) == unit, text
    location = grammar.fast_lane.location(text)
    if location is not None:
        c = grammar.cursor(text)
        assert (c.location(None, "location"), c.at_end()) == (location, True), text


def strings_of_the_order_tests() -> list[str]:
    """Every line of every string written in tests/orders/."""
    found: dict[str, None] = {}
    for source in sorted(HERE.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for line in node.value.splitlines():
                    if line.strip() and len(line) < 200:
                        found[line] = None
    return list(found)


def test_every_string_of_the_order_tests_on_every_grammar():
    lines = strings_of_the_order_tests()
    read = 0
    for grammar in grammars().values():
        for line in lines:
            read += agrees(grammar, line)
            agrees_on_units_and_places(grammar, line)
    assert read > 500  # the fast lane does read lines


def written_forms(grammar: OrderGrammar, rng: random.Random, count: int) -> list[str]:
    """Orders on a board written the ways players write them: ids, names, aliases, any case,
    coasts in every spelling, every verb word, power names before supported units, paths,
    "via convoy", bullets and item numbers, junk after the order."""
    board = grammar.map
    provinces = list(board.provinces.values())
    powers = list(board.powers.values())
    types = [t for t in grammar.unit_types]
    coast_words = {coast: [f"/{coast}", f"({coast})", f" {coast}", f" ({name})", f"/{name}", f" {name}", f"-{coast}"]
                   for coast, name in board.coast_names.items()}

    def place() -> str:
        province = rng.choice(provinces)
        name = rng.choice([province.id, province.name, *province.aliases, province.name.replace(" ", "")])
        name = rng.choice([name, name.lower(), name.upper()])
        if province.coasts and rng.random() < 0.6:
            name += rng.choice(coast_words.get(rng.choice(province.coasts), [""]))
        elif rng.random() < 0.05:
            name += rng.choice([" nc", "/sc", "(ec)", " north coast", " north"])
        return name

    def unit() -> str:
        kind = rng.random()
        if kind < 0.15:
            return place()
        t = rng.choice(types)
        word = rng.choice([t.letter, t.name, t.name.capitalize(), t.letter.lower(), f"an {t.name}", f"a {t.name}"])
        if rng.random() < 0.03:
            word += rng.choice([" in", " at"])
        return f"{word} {place()}"

    def owner() -> str:
        if powers and rng.random() < 0.1:
            power = rng.choice(powers)
            return rng.choice([power.name, power.adjective, f"{power.name}'s"]) + " "
        return ""

    move = ["-", "->", "to", "moves to", "move", "=>", "--", "- to", "M", ">", "attacks", ""]
    lines = []
    for _ in range(count):
        kind = rng.randrange(9)
        u = unit()
        if kind == 0:
            line = f"{u} {rng.choice(['H', 'holds', 'hold', 'stands', 'h'])}"
        elif kind in (1, 2):
            line = f"{u} {rng.choice(move)} {place()}"
            if rng.random() < 0.1:
                line += rng.choice([" via convoy", " VIA", " by convoy", " (via convoy)", f" - {place()}"])
        elif kind == 3:
            line = f"{u} {rng.choice(['S', 'supports', 'support', 's'])} {owner()}{unit()}"
            if rng.random() < 0.7:
                line += f" {rng.choice(move)} {place()}"
            elif rng.random() < 0.3:
                line += " H"
        elif kind == 4:
            line = f"{u} {rng.choice(['C', 'convoys', 'c'])} {owner()}{unit()} {rng.choice(move)} {place()}"
        elif kind == 5:
            line = f"{u} {rng.choice(['R', 'retreats', 'retreat'])} {rng.choice(['', 'to ', '- '])}{place()}"
        elif kind == 6:
            line = rng.choice([f"{u} D", f"{u} B", f"{u} disband", f"{u} R disband", f"{u} build"])
        elif kind == 7:
            line = f"{rng.choice(['BUILD', 'build', 'B', 'Builds', 'DISBAND', 'remove', 'D', 'RETREAT'])} {u}"
        else:
            line = f"{u} {place()}"  # a move without a separator
        if rng.random() < 0.05:
            line = rng.choice(["- ", "* ", "1. ", "2) ", "(3) ", "4 ", "#5 "]) + line
        if rng.random() < 0.05:
            line += rng.choice([".", ",", ";", " junk", " x", "!", " H"])
        if rng.random() < 0.05:
            line = line.replace(" ", "  ").replace("-", " - ")
        lines.append(line)
    return lines


@pytest.mark.parametrize("name", sorted(grammars()))
def test_orders_written_every_way(name):
    grammar = grammars()[name]
    rng = random.Random(name)
    lines = written_forms(grammar, rng, 1500)
    read = sum(agrees(grammar, line) for line in lines)
    for line in lines[:300]:
        agrees_on_units_and_places(grammar, line)
        agrees_on_units_and_places(grammar, line.split(" - ")[0])
    assert read > len(lines) // 5, (read, len(lines))


def vocabulary(grammar: OrderGrammar) -> list[str]:
    board = grammar.map
    return sorted({
        *(p.id for p in board.provinces.values()), *(p.name for p in board.provinces.values()),
        *(a for p in board.provinces.values() for a in p.aliases),
        *grammar.unit_verbs, *grammar.line_verbs, *grammar.unit_names.values(),
        *(t.letter for t in grammar.unit_types), *(t.name for t in grammar.unit_types),
        *(w for p in board.powers.values() for w in (p.name, p.adjective)),
        *board.coast_names, *board.coast_names.values(),
        "a", "an", "in", "at", "to", "via", "convoy", "by", "then", "/", "(", ")", "-", "->", ">", "=>", "=",
        "--", "1", "2", "1.", ",", "~", "n", "s",
    })


GRAMMAR_NAMES = sorted(grammars())


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_soups_of_words(data):
    grammar = grammars()[data.draw(st.sampled_from(GRAMMAR_NAMES))]
    words = data.draw(st.lists(st.sampled_from(vocabulary(grammar)), min_size=1, max_size=8))
    seps = data.draw(st.lists(st.sampled_from((" ", " ", "", "  ", "-", "/")), min_size=len(words), max_size=len(words)))
    line = "".join(w + s for w, s in zip(words, seps, strict=True))
    agrees(grammar, line)
    agrees_on_units_and_places(grammar, line)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="AaFfPRSBUNTHCVI /()->=1 ", max_size=30))
def test_soups_of_letters(line):
    grammar = grammars()["variant standard"]
    agrees(grammar, line)


def test_the_fast_tokens_are_the_general_tokens():
    for line in ["A PAR - BUR", "F Mid-Atlantic Ocean -> Spain (north coast)", "f stp/nc=>bar", "A PAR->BUR",
                 "A Lon-Bel", "F BUL(EC) - CON", "A PAR -- BUR", "A PAR > BUR", "A PAR - BUR -"]:
        general_tokens = tokenize(clean_line(line))
        expected = ["~" if t.tight else t.norm for t in general_tokens]
        assert tokens(line) == expected, line
    for line in ["A PAR. - BUR", "1. A PAR - BUR", "- A PAR H", "(1) A PAR H", "A PAR, BUR", "A PAR – BUR",
                 "A St. Petersburg", "", "   ", "A PAR_X"]:
        assert tokens(line) is None, line


def test_noise_around_a_plain_line_is_cleaned_as_the_general_parser_cleans_it():
    grammar = grammars()["variant standard"]
    for line in ["1. A PAR - BUR.", "* F BRE H", "A PAR \u2013 BUR", "A PAR \u2192 BUR;", "(1) A PAR H",
                 "#2 F NTH C A LON - BEL!", "- A MUN S A BER - SIL", "2) F STP/NC - BAR.", "\ufeffA PAR H",
                 "A\u00a0PAR - BUR", "  3: A PAR H  "]:
        assert agrees(grammar, line), line
    for line in ["3. 2. 1. A PAR H", "A PAR - BUR,", "1 A PAR H", "A PAR - BUR. H", "A St. Petersburg H"]:
        assert grammar.fast_lane.order(line.strip()) is None, line


# -- the cache of lines ------------------------------------------------------------------


def test_cached_readings_are_the_readings():
    grammar = OrderGrammar(grammars()["variant standard"].map)
    lines = strings_of_the_order_tests() + written_forms(grammar, random.Random(1), 500)
    for line in lines:
        if not line.strip():
            continue
        fresh = parse_line(line, grammar, 7, cached=False)
        assert parse_line(line, grammar, 7) == fresh
        assert parse_line(line, grammar, 7) == fresh  # from the cache this time
        assert parse_line(line, grammar, 8).line_no == 8


def test_the_cache_is_bounded_and_by_the_exact_text(monkeypatch):
    monkeypatch.setattr(grammar_module, "CACHE_LIMIT", 10)
    grammar = OrderGrammar(grammars()["variant standard"].map)
    for n in range(30):
        parse_line(f"A PAR - BUR{' ' * n}", grammar)
    assert len(grammar.lines) == 10
    assert list(grammar.lines) == [f"A PAR - BUR{' ' * n}" for n in range(20, 30)]  # the oldest went first
    assert parse_line("  A PAR - BUR  ", grammar).text == "A PAR - BUR"


def test_the_cache_is_the_grammars_own():
    catalog = VariantCatalog()
    standard = OrderGrammar.for_variant(catalog.get("standard"))
    parse_orders("A PAR - BUR\nF BRE H\nA Bugundy - Paris", standard)
    assert {"A PAR - BUR", "F BRE H", "A Bugundy - Paris"} <= set(standard.lines)
    assert "A PAR - BUR" not in OrderGrammar.for_variant(catalog.get("classical")).lines
    extended = standard.extended(unit_verbs={"sit": None})
    assert extended.lines == {} and extended.lines is not standard.lines
    assert OrderGrammar.for_variant(VariantCatalog().get("standard")).lines == {}  # a new variant, a new cache


def test_a_line_read_with_the_context_is_never_cached():
    grammar = variant_grammars.rise_of_rome()
    name = next(iter(grammar.unit_names.values()))
    where = grammar.map.provinces[next(iter(grammar.map.provinces))].id
    line = f"{name} H"
    first = parse_line(line, grammar, context={})
    assert first.order is None and line not in grammar.lines
    found = parse_line(line, grammar, context={name: None})
    assert found.order is None
    from gm.domain.geography import Location
    from gm.domain.orders import UnitRef

    placed = parse_line(line, grammar, context={name: UnitRef(Location(where))})
    assert placed.ok and str(placed.order) == f"{where} H" and line not in grammar.lines


def test_cached_readings_cannot_be_changed():
    grammar = OrderGrammar(grammars()["variant standard"].map)
    parsed = parse_line("A PAR - BUR", grammar)
    with pytest.raises(AttributeError):
        parsed.order.destination = None  # type: ignore[misc, union-attr]
    kept = grammar.lines["A PAR - BUR"]
    assert isinstance(kept, tuple) and isinstance(kept[2], tuple)


def test_units_and_locations_are_cached_too():
    grammar = OrderGrammar(grammars()["variant standard"].map)
    assert grammar.parse_unit("F St Petersburg (south coast)") == grammar.parse_unit("F STP/SC")
    assert "F St Petersburg (south coast)" in grammar.units
    assert str(grammar.parse_location("stp(nc)")) == "STP/NC" and "stp(nc)" in grammar.locations
    with pytest.raises(OrderSyntaxError):
        grammar.parse_unit("X PAR")
    assert "X PAR" not in grammar.units


# -- near-miss suggestions ---------------------------------------------------------------


def _full_search(matcher, word: str, cutoff: float):  # type: ignore[no-untyped-def]
    """FuzzyMatcher.best as it was before it skipped hopeless spellings: every spelling of the
    shortlist compared in full."""
    import difflib
    from collections import Counter

    from gm.orders.names import _pairs

    counts: Counter[int] = Counter()
    for pair in _pairs(word):
        counts.update(matcher.index.get(pair, ()))
    shortlist = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[: matcher.shortlist]
    seq = difflib.SequenceMatcher()
    seq.set_seq2(word)
    best = None
    for n, _count in shortlist:
        spelling = matcher.spellings[n]
        seq.set_seq1(spelling)
        if seq.real_quick_ratio() < cutoff or seq.quick_ratio() < cutoff:
            continue
        ratio = seq.ratio()
        rank = (spelling[:1] != word[:1], spelling)
        if ratio >= cutoff and (best is None or ratio > best[1]
                                or (ratio == best[1] and rank < (best[0][:1] != word[:1], best[0]))):
            best = (spelling, ratio)
    return best


def test_suggestions_are_those_of_the_full_search():
    compared = 0
    for board, kind in [(b, k) for b in available_maps() for k in ("_fuzzy_land", "_fuzzy_sea")]:
        matcher = getattr(OrderGrammar(load_map(MAPS_DIR / f"{board}.yaml")).provinces, kind)
        if not matcher.spellings:
            continue
        rng = random.Random(board + kind)
        for _ in range(400):
            word = rng.choice(matcher.spellings)
            for _ in range(rng.randrange(4)):
                k = rng.randrange(len(word))
                word = word[:k] + rng.choice("aeiourstn ") + word[k + 1:]
            if rng.random() < 0.2:
                word = word[: rng.randrange(1, len(word) + 1)]
            for cutoff in (0.6, 0.8):
                assert matcher.best(word, cutoff) == _full_search(matcher, word, cutoff), (board, word)
                compared += 1
    assert compared > 5000
