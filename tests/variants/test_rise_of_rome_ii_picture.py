"""Rise of Rome II's board picture: leaders and double units drawn apart from armies and fleets,
a leader beside its unit, build areas shaded, sacked centres struck out, centres about to rebel
ringed."""

from __future__ import annotations

from gm.adjudicator.variant import Variant
from gm.interchange import read_request
from gm.render import style
from gm.render.colours import Palette
from gm.render.scene import build_scene
from gm.render.svg import render_phase_svg
from tests.variants.test_rise_of_rome_ii import CATALOG, adjudicate


def test_leaders_and_double_units_are_drawn_apart_and_the_variants_layers_shown() -> None:
    variant = CATALOG.get("rise-of-rome-ii")
    result = adjudicate("S-219M", {"Rome": ["A SYR", "L ROM", "A ROM", "F TYR"], "Carthage": ["A CAR", "L CAR"]},
                        {"Rome": ["A SYR sack"]}, centers={"Rome": ["SYR", "ROM", "AQU"]})
    board = read_request({"variant": "rise-of-rome-ii", "phase": "F-219M", "units": result["units"],
                          "centers": result["centers"], "extra": {**result["extra"], "rebellion": {"AQU": 1}}},
                         CATALOG).position
    marks = {(m.letter, m.x, m.y): m for m in build_scene(variant, board).units}
    letters = sorted(letter for letter, _, _ in marks)
    assert letters == ["2A", "A", "A", "F", "L", "L"]
    shapes = {letter: m.shape for (letter, _, _), m in marks.items()}
    assert shapes["L"] == "star" and shapes["A"] == "army" and shapes["F"] == "fleet"
    assert next(m for (letter, _, _), m in marks.items() if letter == "2A").double
    rome = [m for (letter, _, _), m in marks.items() if letter in ("A", "L") and m.fill == _fill(variant, "Rome")]
    assert len({(m.x, m.y) for m in rome}) == len(rome)  # the leader beside its army, not on it
    svg = render_phase_svg(variant, board)
    for legend in ("Barbarian build area: only Barbarians enter", "sacked: a supply centre no more",
                   "Barbarian centre left empty: rebels if empty again after Autumn"):
        assert legend in svg


def _fill(variant: Variant, power: str) -> str:
    return Palette(variant).colour(power)
