"""Every map file's names read back as its provinces, and its locations round trip."""

from __future__ import annotations

import pytest

from gm.domain.geography import Location
from gm.domain.orders import Build, Hold, Move, UnitRef
from gm.domain.units import FLEET
from gm.maps.loader import MAPS_DIR, MapError, available_maps, load_map
from gm.orders import OrderGrammar, parse_line


@pytest.fixture(scope="module", params=available_maps())
def board_grammar(request) -> OrderGrammar:
    try:
        board = load_map(MAPS_DIR / f"{request.param}.yaml")
    except MapError as error:
        pytest.fail(f"{request.param} does not load: {error}")
    return OrderGrammar(board)


def test_every_id_name_and_alias_reads_as_its_province(board_grammar):
    wrong = []
    for province in board_grammar.map.provinces.values():
        for spelling in (province.id, province.name, *province.aliases, province.name.upper()):
            parsed = parse_line(f"{spelling} H", board_grammar)
            if parsed.order != Hold(UnitRef(Location(province.id))) or parsed.diagnostics:
                wrong.append((spelling, str(parsed)))
    assert wrong == []


def test_every_location_round_trips(board_grammar):
    provinces = list(board_grammar.map.provinces.values())
    somewhere = Location(provinces[0].id)
    for province in provinces:
        for coast in (None, *province.coasts):
            here = Location(province.id, coast)
            for order in (
                Hold(UnitRef(here, FLEET if coast else None)),
                Move(UnitRef(somewhere), here),
                Build(UnitRef(here)),
            ):
                parsed = parse_line(str(order), board_grammar)
                assert parsed.order == order and parsed.diagnostics == (), str(parsed)
