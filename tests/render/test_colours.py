"""Every two colours a picture uses for powers and for the unplayed (neutral, barbarian) differ
by CIEDE2000 20 or more, on every board, with up to twelve empires founded during the game; every
power's colour differs by 20 or more from the board's own fills (sea, land, the land beyond the
board, impassable land, and what the variant's layers fill with, such as barbarian land's
hatching), and the fill of its provinces by 15 or more from the board's; each map's own colours
are those drawn."""

from __future__ import annotations

from itertools import combinations

import pytest

from gm.render import style
from gm.render.colours import (
    DISTINCT,
    FILL_DISTINCT,
    FILLS,
    PALETTE,
    UNPLAYED,
    Palette,
    delta_e,
    assign,
    delta_e_lab,
    fits,
    layer_fills,
    owned_fill,
)
from gm.render.layers import MAP_LAYERS, MapPen
from gm.render.shapes import load_shapes
from gm.variants.catalog import VariantCatalog
from tests.render.crowded import crowded

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


@pytest.mark.parametrize("name", BOARDS)
def test_every_maps_own_colours_are_the_colours_drawn(name: str) -> None:
    variant = CATALOG.get(name)
    palette = Palette(variant)
    assert {p: palette.colour(p) for p in variant.map.powers} == {p: style.normal(d.colour)
                                                                    for p, d in variant.map.powers.items()}


def drawn_fills(name: str) -> set[str]:
    """Every colour the variant's layers fill provinces with, in no power's colour, on its first
    board and on a board as crowded as a game could make it."""
    variant = CATALOG.get(name)
    found = set()
    for board in (variant.initial_position(), crowded(variant)):
        pen = MapPen(load_shapes(variant.map.name).provinces, lambda power: "")
        draw = variant.parts.get(MAP_LAYERS)
        if draw is not None:
            draw(board, pen)
        found |= {t.colour for t in pen.tints if t.colour}
    return found


@pytest.mark.parametrize("name", BOARDS)
def test_no_powers_colour_is_like_the_boards_fills(name: str) -> None:
    variant = CATALOG.get(name)
    powers = list(variant.map.powers) or EMPIRES
    palette = Palette(variant, powers, powers)
    fills = {*FILLS, *drawn_fills(name)}
    assert drawn_fills(name) <= set(layer_fills(variant))  # the palette knows them all
    for power in powers:
        if power in variant.unplayed_powers:
            continue
        colour = palette.colour(power)
        for fill in fills:
            assert delta_e(colour, fill) >= DISTINCT, (power, colour, fill)
        for fill in FILLS:
            assert delta_e(palette.fill(power), fill) >= FILL_DISTINCT, (power, palette.fill(power), fill)


def test_the_palettes_colours_fit_every_board() -> None:
    hatching = set().union(*(drawn_fills(name) for name in BOARDS))
    for colour in PALETTE:
        assert all(delta_e(colour, fill) >= DISTINCT for fill in (*FILLS, *hatching)), colour
        assert all(delta_e(owned_fill(colour), fill) >= FILL_DISTINCT for fill in FILLS), colour


@pytest.mark.parametrize(("colour", "fixed", "fill"), [
    ("#5ea9e6", (), style.SEA),  # the sky blue the Greek States and France had: their land like the sea
    ("#1e88e5", (), style.SEA),  # Ephesus's blue: its units apart from the sea, its land not
    ("#6d4c41", ("#8b5a2b",), "#8b5a2b"),  # Caesarea's brown: like barbarian land's hatching
])
def test_a_maps_colour_like_a_fill_is_replaced_by_the_nearest_that_fits(colour: str, fixed: tuple[str, ...],
                                                                       fill: str) -> None:
    assert delta_e(colour, fill) < DISTINCT or delta_e(style.mix(colour, style.LAND, style.OWNER_TINT), fill) < FILL_DISTINCT
    given = assign(("Neutral",), (("Power", colour),), (), fixed)["Power"]
    assert given != colour and fits(given, fixed) and delta_e(given, colour) < 25


def test_a_power_whose_palest_fill_is_like_a_boards_fill_fills_its_land_with_more_of_its_colour() -> None:
    variant = CATALOG.get("standard")
    palette = Palette(variant)
    palest = style.mix(palette.colour("Germany"), style.LAND, style.OWNER_TINT)
    assert delta_e(palest, style.IMPASSABLE) < 10  # Germany's land would look like Switzerland
    assert delta_e(palette.fill("Germany"), style.IMPASSABLE) >= FILL_DISTINCT
    assert palette.fill("Austria") == style.mix(palette.colour("Austria"), style.LAND, style.OWNER_TINT)
