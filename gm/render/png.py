"""SVG to PNG with resvg (the ``resvg-py`` wheel: a Rust renderer, no system libraries), and
the board picture as PNG, composed by the variant's painter (``painter``) from what resvg drew.

resvg draws text with the fonts it is given. Loading every system font costs tens of
milliseconds a picture, so when DejaVu Sans (Debian's fonts-dejavu-core) is found it is the
only font loaded; otherwise resvg looks through the system's fonts.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import resvg_py

from gm.adjudicator.engine import PhaseReport
from gm.adjudicator.variant import Variant
from gm.domain.position import Position
from gm.render.painter import painter_for
from gm.render.scene import build_scene

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/local/share/fonts"),
    Path("/Library/Fonts"),
)
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSans-BoldOblique.ttf")


@lru_cache(maxsize=1)
def font_files() -> tuple[str, ...]:
    """DejaVu Sans, if this machine has it (in the usual places)."""
    for folder in FONT_DIRS:
        found = [folder / name for name in FONT_FILES if (folder / name).is_file()]
        if found:
            return tuple(str(f) for f in found)
    return ()


def svg_to_png(svg: str) -> bytes:
    fonts = font_files()
    if fonts:
        data = resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True, font_files=list(fonts),
                                     font_family="DejaVu Sans", sans_serif_family="DejaVu Sans")
    else:
        data = resvg_py.svg_to_bytes(svg_string=svg)
    return bytes(data)


def render_phase_png(variant: Variant, position: Position, report: PhaseReport | None = None,
                     title: str | None = None, arrivals: Sequence[str] = ()) -> bytes:
    """The board of ``position`` as PNG; with ``report``, that phase's orders and outcomes too.
    ``arrivals``: powers the map does not list, in the order they came into the game. The
    picture of ``svg_to_png(render_phase_svg(...))``, drawn in a fraction of its time
    (gm.render.painter: within a tested tolerance of it)."""
    return painter_for(variant).png(build_scene(variant, position, report, title, arrivals))
