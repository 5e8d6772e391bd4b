"""Pictures of the board: one per phase, as SVG or PNG.

``render_phase_png(variant, position, report=None, title=None)`` draws the board of
``position`` (provinces filled by owner, supply centres, units, dislodged units) and, given the
phase's ``PhaseReport``, its orders with their outcomes. The province shapes come from
``maps/shapes/VARIANT.json``, made offline by ``gm maps shapes VARIANT``.

Any variant's units are drawn: each unit type by the style table (``style.UNIT_STYLES``, by
the type's name), units sharing a province side by side (``stacks``); a rules module adds
its own layers from ``Position.extra`` by declaring the part ``layers.MAP_LAYERS``.

``chart.history_chart`` and ``chart.chart_png`` draw a game's story: each power's supply centres
(or what its variant tallies) year by year, in its colour.
"""

from gm.render.png import render_phase_png, svg_to_png
from gm.render.shapes import MissingShapes
from gm.render.svg import render_phase_svg

__all__ = ["MissingShapes", "render_phase_png", "render_phase_svg", "svg_to_png"]
