"""Colours, sizes and colour arithmetic of the board picture."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

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
LABEL_SIZE = 10.5  # a province's name: bold capitals, in pixels
LABEL_HALO = 2.6  # the stroke around a name's letters
NAME_SIZE = 9.5  # a unit's own name (a leader's) under its mark: bold italic, in pixels
# DejaVu Sans Bold's advance widths in thousandths of the font size (names are ids: capitals, digits)
BOLD_ADVANCE = {"A": 774, "B": 762, "C": 734, "D": 830, "E": 683, "F": 683, "G": 821, "H": 837, "I": 372, "J": 372,
                "K": 775, "L": 637, "M": 995, "N": 837, "O": 850, "P": 733, "Q": 850, "R": 770, "S": 720, "T": 682,
                "U": 812, "V": 774, "W": 1103, "X": 771, "Y": 724, "Z": 725, " ": 348, "-": 415, "/": 365, ".": 380,
                **dict.fromkeys("0123456789", 696)}
BOLD_ADVANCE_OTHER = 850  # anything else: as wide as an O
TITLE_HEIGHT = 38
LEGEND_ROW = 28
OWNER_TINT = 0.45  # the least of the owner's colour in an owned province's fill (colours.owned_fill)


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(v))):02x}" for v in rgb)


@lru_cache(maxsize=1024)
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


def luminance(colour: str) -> float:
    r, g, b = _rgb(colour)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


@lru_cache(maxsize=1024)
def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    return "#111111" if luminance(colour) > 0.62 else "#ffffff"


@lru_cache(maxsize=1024)
def outline_for(colour: str) -> str:
    """A dark edge for a unit or line of this colour."""
    return "#111111" if luminance(colour) > 0.25 else "#f5f5f5"


# -- unit types: how each is drawn (keyed by the unit type's name, any variant) ----------------
#
# A shape is one of the board template's unit macros; ``scale`` sizes it against an army;
# ``double`` draws a second rim (a unit of strength 2 gets one whatever its type). A type not
# listed is drawn by its mobility (a ship for sea units, a square for units that never move,
# a hexagon otherwise), always with its letter.

UNIT_SHAPES = {"army", "fleet", "star", "square", "hexagon", "diamond", "triangle", "burst"}
# Half the width of each shape at scale 1, in units of UNIT_RADIUS (for laying out stacks).
SHAPE_HALF_WIDTH = {"army": 1.0, "fleet": 1.4, "star": 1.0, "square": 0.9, "hexagon": 1.0, "diamond": 1.1,
                    "triangle": 1.05, "burst": 1.1}
# Half the height of each shape at scale 1 (the larger of above and below its centre), likewise.
SHAPE_HALF_HEIGHT = {"army": 1.0, "fleet": 0.85, "star": 1.1, "square": 0.9, "hexagon": 0.87, "diamond": 1.1,
                     "triangle": 1.15, "burst": 1.1}
# How far each shape reaches from its centre at most (its corners), likewise: a ring around it
# (dislodged, built, to be placed) clears it.
SHAPE_REACH = {"army": 1.0, "fleet": 1.57, "star": 1.1, "square": 1.27, "hexagon": 1.0, "diamond": 1.1,
               "triangle": 1.16, "burst": 1.1}
DOUBLE_RIM = 1.3  # the second rim of a double unit, as a multiple of its shape


@dataclass(frozen=True)
class UnitStyle:
    shape: str
    scale: float = 1.0
    double: bool = False

    def __post_init__(self) -> None:
        if self.shape not in UNIT_SHAPES:
            raise ValueError(f"no unit shape {self.shape!r} (shapes: {', '.join(sorted(UNIT_SHAPES))})")

    def half_width(self, double: bool) -> float:
        """Half the drawn width, in pixels (with the second rim when ``double``)."""
        return UNIT_RADIUS * SHAPE_HALF_WIDTH[self.shape] * self.scale * (DOUBLE_RIM if double else 1.0)

    def half_height(self, double: bool) -> float:
        """Half the drawn height, in pixels (with the second rim when ``double``)."""
        return UNIT_RADIUS * SHAPE_HALF_HEIGHT[self.shape] * self.scale * (DOUBLE_RIM if double else 1.0)

    def reach(self, double: bool) -> float:
        """How far the drawn shape reaches from its centre, in pixels: a ring around it clears it."""
        return UNIT_RADIUS * SHAPE_REACH[self.shape] * self.scale * (DOUBLE_RIM if double else 1.0)


UNIT_STYLES: dict[str, UnitStyle] = {
    "army": UnitStyle("army"),
    "fleet": UnitStyle("fleet"),
    "leader": UnitStyle("star", scale=0.85),
    "garrison": UnitStyle("square"),
    "barbarian army": UnitStyle("burst"),
    "infantry": UnitStyle("army"),
    "cavalry": UnitStyle("diamond"),
    "catapult": UnitStyle("triangle"),
    "double army": UnitStyle("army", double=True),
    "double fleet": UnitStyle("fleet", double=True),
}
UNIT_STYLE_BY_MOBILITY = {"sea": UnitStyle("fleet"), "none": UnitStyle("square")}
UNIT_STYLE_FALLBACK = UnitStyle("hexagon")

STACK_GAP = 3.0  # between the marks of units sharing a province
STACK_ROW = 4  # marks side by side in a row; past that, identical units are counted on one mark
BADGE_RADIUS = 6.5
BADGE_CORNER = 0.9  # the badge's centre from the mark's, right and up, in units of UNIT_RADIUS
STACK_SHRINK = 0.8  # the marks of a stack too big for its province at full size, drawn this much smaller
STACK_ROW_COST = 20.0  # a stack that does not fit its province: an extra row is worth moving this far

# -- a variant's own layers (gm.render.layers) -------------------------------------------------
MARK_INK = "#5b4636"  # a layer drawn in no power's colour
MARK_SIZE = 4.5  # half the width of a marker
HATCH_SPACING = 7.0
LINK_WIDTH = 2.6
RING_GAP = 4.0  # markers beside a ringed centre mark stand this much farther out, clear of the ring
