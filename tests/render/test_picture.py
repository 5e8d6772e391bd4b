"""The PNG shows each power's colour where its units stand and on the centres it owns."""

from __future__ import annotations

import math
import random

import pytest
from render_pixels import Picture

from gm.adjudicator.engine import adjudicate
from gm.bots.plausible import PlausiblePlayer
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.render import render_phase_png, style
from gm.render.colours import Palette, owned_fill
from gm.render.scene import DISLODGED_SIDES, build_scene, dislodged_offset
from gm.render.spacing import spaced_shapes as load_shapes
from gm.variants.catalog import VariantCatalog

VARIANT = VariantCatalog().get("standard")


def midgame(seed: int = 11, phases: int = 14, kind: PhaseKind = PhaseKind.MOVEMENT) -> Position:
    player = PlausiblePlayer(VARIANT, random.Random(seed))
    position = VARIANT.initial_position()
    played = 0
    while played < phases or position.phase.kind is not kind:
        position = adjudicate(VARIANT, position, player.orders(position)).next
        played += 1
    return position


def unit_sample(unit_letter: str, x: float, y: float) -> tuple[float, float]:
    """A point inside the unit's shape, clear of its letter."""
    return (x - 9, y - 4) if unit_letter == "F" else (x - 7, y)


def unit_samples(unit_letter: str, x: float, y: float) -> list[tuple[float, float]]:
    """Points inside the unit's shape, clear of its letter, on its left and its right (a unit
    dislodged beside it may cover one side)."""
    sx, sy = unit_sample(unit_letter, x, y)
    return [(sx, sy), (2 * x - sx, sy)]


def colour_of(power: str) -> str:
    """The power's colour on the picture (the map's, unless too like another's)."""
    return Palette(VARIANT).colour(power)


def check_board(position: Position) -> None:
    picture = Picture(render_phase_png(VARIANT, position))
    shapes = load_shapes("standard")
    top = style.TITLE_HEIGHT
    assert picture.width == shapes.width
    for unit in position.units:
        x, y = shapes.provinces[unit.location.province].spot(unit.location.coast)
        assert any(picture.has(sx, sy + top, colour_of(unit.power)) for sx, sy in unit_samples(unit.type.letter, x, y)), \
            f"{unit.power} {unit} at {x},{y}"
    for pid in VARIANT.map.supply_centres:
        x, y = shapes.provinces[pid].centre  # type: ignore[misc]
        owner = position.centres.get(pid)
        want = colour_of(owner) if owner else style.CENTRE_UNOWNED
        assert picture.has(x, y + top, want), f"centre {pid} should be {owner or 'unowned'}"
    marks = [m for m in build_scene(VARIANT, position).units if m.dislodged]
    for d in position.dislodged:
        spot = shapes.provinces[d.unit.location.province].spot(d.unit.location.coast)
        (mark,) = [m for m in marks if any(math.dist((m.x, m.y), dislodged_offset(spot, side)) < 0.01
                                           for side in range(len(DISLODGED_SIDES)))]  # beside its spot
        sx, sy = unit_sample(d.unit.type.letter, mark.x, mark.y)
        assert picture.has(sx, sy + top, colour_of(d.unit.power)), f"dislodged {d.unit}"


def test_the_starting_position() -> None:
    check_board(VARIANT.initial_position())


@pytest.mark.parametrize("seed", [11, 23])
def test_a_midgame_position(seed: int) -> None:
    position = midgame(seed)
    assert len(position.units) >= 18
    check_board(position)


def test_a_retreat_position_shows_the_dislodged_units() -> None:
    player = PlausiblePlayer(VARIANT, random.Random(5))
    position = VARIANT.initial_position()
    for _ in range(60):
        if position.phase.kind is PhaseKind.RETREATS:
            break
        position = adjudicate(VARIANT, position, player.orders(position)).next
    assert position.dislodged
    check_board(position)


def test_owned_provinces_are_filled_with_a_tint_of_the_owner() -> None:
    position = VARIANT.initial_position()
    picture = Picture(render_phase_png(VARIANT, position))
    shapes = load_shapes("standard")
    # the label's spot is inside the province and free of units; sample beside the text
    x, y = shapes.provinces["BUD"].label
    colours = {picture.at(x + dx, y + style.TITLE_HEIGHT + dy) for dx in (-22, 22) for dy in (-8, 8)}
    want = tuple(int(owned_fill(colour_of("Austria"))[i:i + 2], 16) for i in (1, 3, 5))
    assert any(max(abs(a - b) for a, b in zip(c, want, strict=True)) <= 3 for c in colours)  # the PNG's palette


def test_the_picture_is_a_png_with_title_and_legend() -> None:
    png = render_phase_png(VARIANT, VARIANT.initial_position(), title="Hello")
    picture = Picture(png)
    shapes = load_shapes("standard")
    assert picture.height > shapes.height + style.TITLE_HEIGHT
