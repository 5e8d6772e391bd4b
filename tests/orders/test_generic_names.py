"""Province names with and without the generic words of their kind: players
write "Tyrrhenian Sea", "the Tyrrhenian", "Sea of Alexander", "Gulf of Lyon" or "Lyon"; every
such spelling reaches exactly one province on every map, no earlier spelling changes meaning,
and a misspelt name suggests a province of its own kind, or nothing when nothing is close."""

from __future__ import annotations

import pytest

from gm.domain.geography import Terrain
from gm.maps.loader import MAPS_DIR, available_maps, load_map
from gm.maps.model import normalise_name
from gm.orders import OrderGrammar, parse_line
from gm.orders.names import SEA_WORDS, ProvinceNames, generic_spellings
from gm.variants.catalog import VariantCatalog

CATALOG = VariantCatalog()


@pytest.mark.parametrize("board", available_maps())
def test_every_generated_spelling_names_the_one_province_it_came_from(board: str) -> None:
    game_map = load_map(MAPS_DIR / f"{board}.yaml")
    names = ProvinceNames(game_map)
    written = {}  # every id, name and alias as the map writes it -> its province
    for province in game_map.provinces.values():
        for spelling in (province.id, province.name, *province.aliases):
            written.setdefault(normalise_name(spelling), province.id)
    for spelling, pid in written.items():
        assert names.get(spelling) == pid, (board, spelling)  # no written spelling changes meaning
    sources: dict[str, set[str]] = {}
    for province in game_map.provinces.values():
        for name in (province.name, *province.aliases):
            for spelling in generic_spellings(name, province.terrain is Terrain.SEA):
                sources.setdefault(spelling, set()).add(province.id)
    assert names.generated, board
    for spelling, pid in names.generated.items():
        assert sources[spelling] == {pid}, (board, spelling)  # one province made it: never ambiguous
        assert names.get(spelling) == pid
    dropped = {s for s, pids in sources.items() if len(pids) > 1}
    assert not dropped & set(names.generated)


@pytest.mark.parametrize(("variant", "line", "read"), [
    ("classical", "F Cumae - Tyrrhenian Sea", "F CAP - MTY"),
    ("classical", "F Cumae - the Tyrrhenian", "F CAP - MTY"),
    ("classical", "F Cumae - Sea of Tyrrhenum", "F CAP - MTY"),
    ("classical", "F Alexandria - Sea of Alexander", "F ALE - SOA"),
    ("classical", "F Alexandria - the Sea of Alexander", "F ALE - SOA"),
    ("standard", "F Mar - Gulf of Lyon", "F MAR - LYO"),
    ("standard", "F Mar - Lyon", "F MAR - LYO"),
    ("standard", "F Mar - the Gulf of Lyon", "F MAR - LYO"),
    ("standard", "F Mar - Lyon Gulf", "F MAR - LYO"),
    ("standard", "F Nth - Norwegian", "F NTH - NWG"),
    ("standard", "F Bre - the Mid-Atlantic", "F BRE - MAO"),
])
def test_players_write_sea_names_with_and_without_their_generic_words(variant: str, line: str, read: str) -> None:
    parsed = parse_line(line, OrderGrammar.for_variant(CATALOG.get(variant)))
    assert parsed.ok and str(parsed.order) == read, [d.message for d in parsed.diagnostics]


def _suggested(variant: str, line: str) -> str | None:
    parsed = parse_line(line, OrderGrammar.for_variant(CATALOG.get(variant)))
    assert not parsed.ok
    return parsed.diagnostics[0].suggestion


def test_a_misspelt_land_name_suggests_land_and_nothing_when_nothing_is_close() -> None:
    assert _suggested("classical", "A Neapolis - Roma") is None  # was "Sea of Colchis"
    assert _suggested("classical", "A Romaa - Capua") == "Roma"
    assert _suggested("standard", "A Pari - Bur") == "Paris"
    assert _suggested("standard", "F Lon - Nrth Sea") == "North Sea"  # a word for water: a sea


@pytest.mark.parametrize("variant", CATALOG.names())
def test_land_names_misspelt_are_suggested_as_land(variant: str) -> None:
    game_map = CATALOG.get(variant).map
    names = ProvinceNames(game_map)
    for province in game_map.provinces.values():
        if province.terrain is Terrain.SEA or len(province.name) < 6:
            continue
        word = normalise_name(province.name)
        misspelt = word[:-1] + ("x" if word[-1] != "x" else "y")  # one letter wrong at the end
        found = names.closest_entry(misspelt)
        assert found is not None, (variant, misspelt)
        assert game_map.provinces[names.entries[found[0]]].terrain is not Terrain.SEA or any(
            w in SEA_WORDS for w in misspelt.split()), (variant, misspelt, found)
