"""Every two colours a picture uses for powers and for the unplayed (neutral, barbarian) differ
by CIEDE2000 20 or more, on every board, with up to twelve empires founded during the game."""

from __future__ import annotations

from itertools import combinations

import pytest

from gm.render.colours import DISTINCT, PALETTE, UNPLAYED, Palette, delta_e, delta_e_lab
from gm.variants.catalog import VariantCatalog

CATALOG = VariantCatalog()
BOARDS = ["standard", "classical", "rise-of-rome-ii", "roman-diplomacy-i", "roman-diplomacy-ii", "eagles",
          "diplomacy-of-the-empire"]
EMPIRES = ["Latium", "Hellenes", "Punics", "Iberians", "Pontus", "Dacia", "Gallia", "Aegyptus", "Parthia",
           "Britannia", "Germania", "Numidia"]


def closest(colours: dict[str, str]) -> tuple[float, str, str]:
    return min((delta_e(colours[a], colours[b]), a, b) for a, b in combinations(colours, 2))


@pytest.mark.parametrize(("one", "other", "expected"), [
    # Sharma, Wu and Dalal (2005), the CIEDE2000 test data: pairs 1, 7, 17, 25, 34
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
])
def test_the_difference_is_ciede2000(one: tuple[float, float, float], other: tuple[float, float, float],
                                     expected: float) -> None:
    assert delta_e_lab(one, other) == pytest.approx(expected, abs=1e-4)
    assert delta_e_lab(other, one) == pytest.approx(expected, abs=1e-4)


def test_the_palette_and_the_unplayed_colours_are_distinct_two_by_two() -> None:
    colours = {c: c for c in (*UNPLAYED, *PALETTE)}
    assert closest(colours)[0] >= DISTINCT


@pytest.mark.parametrize("name", BOARDS)
def test_every_boards_powers_and_neutrals_are_distinct(name: str) -> None:
    variant = CATALOG.get(name)
    palette = Palette(variant)
    colours = {p: palette.colour(p) for p in (*variant.map.powers, *variant.unplayed_powers)}
    assert len(colours) >= 2
    assert closest(colours)[0] >= DISTINCT, closest(colours)


@pytest.mark.parametrize("name", ["roman-diplomacy-i", "roman-diplomacy-ii"])
def test_twelve_empires_founded_in_turn_are_distinct_and_keep_their_colours(name: str) -> None:
    variant = CATALOG.get(name)
    assert not variant.map.powers
    earlier: dict[str, str] = {}
    for count in range(1, len(EMPIRES) + 1):
        arrived = EMPIRES[:count]
        palette = Palette(variant, arrived, arrived)
        colours = {p: palette.colour(p) for p in (*arrived, *variant.unplayed_powers)}
        if len(colours) > 1:
            assert closest(colours)[0] >= DISTINCT, closest(colours)
        assert all(colours[p] == c for p, c in earlier.items()), "an empire's colour changed when another joined"
        earlier = {p: colours[p] for p in arrived}


def test_an_empire_keeps_its_colour_when_an_earlier_one_is_gone_from_the_board() -> None:
    variant = CATALOG.get("roman-diplomacy-i")
    everyone = Palette(variant, EMPIRES[:4], EMPIRES[:4])
    later = Palette(variant, EMPIRES[2:4], EMPIRES[:4])  # the first two fell; the seats remember them
    assert [later.colour(p) for p in EMPIRES[2:4]] == [everyone.colour(p) for p in EMPIRES[2:4]]


def test_a_maps_own_colour_is_kept_where_it_is_distinct() -> None:
    variant = CATALOG.get("classical")
    palette = Palette(variant)
    assert all(palette.colour(p) == d.colour.lower() for p, d in variant.map.powers.items())
