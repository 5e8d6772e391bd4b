"""Colours, sizes and colour arithmetic of the board picture."""

from __future__ import annotations

import hashlib

SEA = "#b5d3ec"
SEA_BORDER = "#8fb3d3"
LAND = "#f1e9d6"
LAND_BORDER = "#8a7f6a"
NEUTRAL_LAND = "#d9d4c7"
IMPASSABLE = "#c9c2b3"
COASTLINE = "#4d5e6e"
CENTRE_UNOWNED = "#ffffff"
INK = "#222222"
SEA_INK = "#2b557e"
DISLODGED = "#d01c1c"
BACKGROUND = "#fbf8f1"

UNIT_RADIUS = 10.0
CENTRE_RADIUS = 4.5
TITLE_HEIGHT = 38
LEGEND_ROW = 28
OWNER_TINT = 0.45  # how much of the owner's colour fills an owned province


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(v))):02x}" for v in rgb)


def normal(colour: str) -> str:
    """The colour as #rrggbb (map files may write #abc)."""
    try:
        return _hex(_rgb(colour))
    except ValueError:
        return "#888888"


def mix(colour: str, other: str, amount: float) -> str:
    """``amount`` of ``colour`` and the rest of ``other``."""
    a, b = _rgb(colour), _rgb(other)
    return _hex(tuple(amount * x + (1 - amount) * y for x, y in zip(a, b, strict=True)))  # type: ignore[arg-type]


def tint(colour: str) -> str:
    return mix(colour, LAND, OWNER_TINT)


def luminance(colour: str) -> float:
    r, g, b = _rgb(colour)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    return "#111111" if luminance(colour) > 0.62 else "#ffffff"


def outline_for(colour: str) -> str:
    """A dark edge for a unit or line of this colour."""
    return "#111111" if luminance(colour) > 0.25 else "#f5f5f5"


def fallback_colour(power: str) -> str:
    """A stable colour for a power the map does not list (one that joined during the game)."""
    digest = hashlib.sha256(power.encode()).digest()
    return _hex((60 + digest[0] % 160, 60 + digest[1] % 160, 60 + digest[2] % 160))
