"""Province names of several words, with hyphens or apostrophes, are read whole in every variant:
a misspelt one is quoted as written and the name meant is suggested, whether a word of it was
first read as a name of its own ("Mid" of "Mid-Atlantik"), or it ends the line or stands before
an order word."""

from __future__ import annotations

import re

import pytest

from gm.maps.loader import MAPS_DIR, available_maps, load_map
from gm.orders import OrderGrammar, parse_line


def misspellings(name: str) -> list[str]:
    """The name with one letter changed near the end of each word of five letters or more."""
    found = []
    for word in re.finditer(r"[A-Za-z]{5,}", name):
        k = word.end() - 2
        found.append(name[:k] + ("k" if name[k].lower() != "k" else "q") + name[k + 1:])
    return found


@pytest.fixture(scope="module", params=available_maps())
def grammar(request) -> OrderGrammar:
    return OrderGrammar(load_map(MAPS_DIR / f"{request.param}.yaml"))


def test_every_misspelt_name_of_several_words_is_quoted_whole_and_suggested(grammar) -> None:
    provinces = list(grammar.map.provinces.values())
    wrong, tried = [], 0
    for province in provinces:
        other = provinces[0] if provinces[0] is not province else provinces[1]
        for name in (province.name, *province.aliases):
            if not re.search(r"[-' ]", name.strip()):
                continue
            for written in misspellings(name):
                for line in (f"{other.id} - {written}", f"{written} H", f"{written} - {other.id}",
                             f"{other.id} S {written}", f"{other.id} S {other.id} - {written}",
                             f"{other.id} S {written} - {other.id}", f"{other.id} C {written} - {other.id}"):
                    parsed = parse_line(line, grammar)
                    tried += 1
                    if parsed.order is not None:
                        continue  # a generic spelling read exactly
                    said = " ".join(str(d) for d in parsed.diagnostics)
                    if f'unknown province "{written}"' not in said or province.name not in said:
                        wrong.append((line, said))
    assert tried > 0
    assert wrong == []


@pytest.mark.parametrize(("line", "quoted", "meant"), [
    ("F Brest - Mid-Atlantik", "Mid-Atlantik", "Mid-Atlantic Ocean"),
    ("F Mid-Atlantik -> Portugal", "Mid-Atlantik", "Mid-Atlantic Ocean"),
    ("F Brest -> Mid Atlantik", "Mid Atlantik", "Mid-Atlantic Ocean"),
    ("F Brest - Mid-Atlantic Ocaen", "Mid-Atlantic Ocaen", "Mid-Atlantic Ocean"),
    ("F Lon - Nort'h Sae", "Nort'h Sae", "North Sea"),
    ("A Par S F Mid-Atlantik - Spain", "Mid-Atlantik", "Mid-Atlantic Ocean"),
])
def test_standard_names_with_hyphens_and_apostrophes(line: str, quoted: str, meant: str) -> None:
    grammar = OrderGrammar(load_map(MAPS_DIR / "standard.yaml"))
    parsed = parse_line(line, grammar)
    assert parsed.order is None
    (error,) = parsed.errors
    assert error.message == f'unknown province "{quoted}"' and error.suggestion == meant
    assert error.unknown_name  # the line's form is right: no form is shown for it
