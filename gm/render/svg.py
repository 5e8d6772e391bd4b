"""The board picture as SVG text, from the Jinja2 template ``templates/map/board.svg.j2``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import jinja2

from gm.adjudicator.engine import PhaseReport
from gm.adjudicator.variant import Variant
from gm.domain.position import Position
from gm.render import style
from gm.render.scene import Scene, build_scene

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
TEMPLATE = "map/board.svg.j2"


@lru_cache(maxsize=4)
def template(name: str = TEMPLATE) -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        trim_blocks=False,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template(name)


def scene_svg(scene: Scene) -> str:
    return template().render(s=scene, st=style)


def render_phase_svg(variant: Variant, position: Position, report: PhaseReport | None = None,
                     title: str | None = None, arrivals: Sequence[str] = ()) -> str:
    """The board of ``position`` as SVG; with ``report``, that phase's orders and outcomes too.
    ``arrivals``: powers the map does not list, in the order they came into the game."""
    return scene_svg(build_scene(variant, position, report, title, arrivals))
