"""Each power's colour on a picture, every two of them told apart at a glance, and none like
the board's own fills.

Two colours count as distinct when their CIEDE2000 difference is at least ``DISTINCT`` (20: far
more than the 2-3 that people notice side by side; the same hue at two lightnesses passes, two
near mauves do not). A power's colour *fits* a board when it is distinct from the board's fills
(``FILLS``: sea, land, the land beyond the board, impassable land; and the fixed colours the
variant's layers fill provinces with, such as barbarian land's hatching) and its provinces'
fill (``owned_fill``: the colour mixed into the land, at least ``style.OWNER_TINT`` of it, more
where that is needed) differs from the board's own fills by ``FILL_DISTINCT`` (15: a pale fill
over a whole province reads apart from the sea at that, where the fills players took for sea or
for Switzerland were 4 to 9 from them): no power's land looks like sea, like land no one owns,
or like Switzerland.

A map's own colour is kept where it fits and is distinct from every colour kept before it (the
unplayed powers' first, then the map's powers in the map's order); each power whose colour
clashes then takes the fitting colour nearest its own that is distinct from all chosen (of
``PALETTE`` and a grid of sRGB). Powers the map does not list (empires founded during the game)
take the palette's colours in the order they arrived, so an empire keeps its colour all game.
``PALETTE`` and ``UNPLAYED`` are distinct two by two and the palette's colours fit every board
(tests check it), which is what makes twelve empires and the neutrals possible on any board.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

from gm.adjudicator.kept import PerVariant
from gm.adjudicator.variant import Variant
from gm.render import style
from gm.render.layers import MAP_LAYERS, MapPen

DISTINCT = 20.0
FILL_DISTINCT = 15.0  # an owned province's pale fill from the board's own (Eagles' Ephesus had 7 from the sea)
FILLS = (style.SEA, style.LAND, style.NEUTRAL_LAND, style.IMPASSABLE)  # the board's own fills
MOST_OWNED = 0.6  # the most of a power's colour its provinces' fill takes (more is too heavy to read names on)

# Units that no player plays: neutral garrisons and armies, then barbarians (a variant's
# unplayed powers in turn).
UNPLAYED = ("#a5a5a5", "#8a715b")

# Sixteen colours, CIEDE2000 >= 20 apart two by two and from UNPLAYED, each fitting every board
# (``fits``: none like the sea or land), most close to a colour the maps use (found by annealing
# from them; the blue and the mint by search of a grid); in the order joining empires take them.
PALETTE = (
    "#e70c23",  # red
    "#043c88",  # navy
    "#2e9d3e",  # green
    "#f4c201",  # yellow
    "#ef6c00",  # orange
    "#7a5fdd",  # violet
    "#1ea2a2",  # teal
    "#f06292",  # pink
    "#3b3b3a",  # charcoal
    "#a3cc05",  # lime
    "#7f0000",  # maroon
    "#ba0259",  # magenta
    "#1b5e20",  # dark green
    "#0078b8",  # steel blue
    "#50f8c0",  # mint
    "#694f70",  # plum grey
)


def rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


@lru_cache(maxsize=8192)
def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in (c / 255 for c in rgb(colour))]
    r, g, b = linear
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(one: str, other: str) -> float:
    """CIEDE2000 difference of two sRGB colours."""
    return delta_e_lab(lab(one), lab(other))


def delta_e_lab(one: tuple[float, float, float], other: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference of two L*a*b* colours (Sharma, Wu and Dalal's formulation)."""
    l1, a1, b1 = one
    l2, a2, b2 = other
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dl, dc = l2 - l1, c2 - c1
    dh = 0.0
    if c1 * c2:
        dh = h2 - h1
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if not c1 * c2:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    turn = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * c_mean
    sh = 1 + 0.015 * c_mean * t
    rt = -math.sin(math.radians(2 * turn)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (big_dh / sh) ** 2 + rt * (dc / sc) * (big_dh / sh))


def _distinct(colour: str, chosen: Sequence[str]) -> bool:
    return all(delta_e(colour, c) >= DISTINCT for c in chosen)


@lru_cache(maxsize=1024)
def owned_share(colour: str) -> float | None:
    """The least share of ``colour`` (from ``style.OWNER_TINT`` to ``MOST_OWNED``, by hundredths)
    whose mix with the land is ``FILL_DISTINCT`` from every one of ``FILLS``; None when none is."""
    for hundredths in range(round(style.OWNER_TINT * 100), round(MOST_OWNED * 100) + 1):
        mixed = style.mix(colour, style.LAND, hundredths / 100)
        if all(delta_e(mixed, fill) >= FILL_DISTINCT for fill in FILLS):
            return hundredths / 100
    return None


@lru_cache(maxsize=1024)
def owned_fill(colour: str) -> str:
    """The fill of a province a power owns: its colour mixed into the land (``owned_share``)."""
    return style.mix(colour, style.LAND, owned_share(colour) or MOST_OWNED)


@lru_cache(maxsize=4096)
def fits(colour: str, fixed: tuple[str, ...] = ()) -> bool:
    """A power may have ``colour`` on a board whose layers also fill with ``fixed`` colours."""
    return _distinct(colour, (*FILLS, *fixed)) and owned_share(colour) is not None


def _near(wanted: str) -> list[str]:
    """Colours to take instead of ``wanted``: the palette's, and those of a grid of sRGB, nearest
    first (in CIE76, a cheap first sieve)."""
    target = lab(wanted)
    return sorted([*PALETTE, *_GRID], key=lambda c: math.dist(lab(c), target))


_GRID = tuple(f"#{r:02x}{g:02x}{b:02x}" for r in range(0, 256, 17) for g in range(0, 256, 17) for b in range(0, 256, 17))


def _fallback(power: str) -> str:
    """A stable colour for a power past what the palette holds (not guaranteed distinct)."""
    digest = hashlib.sha256(power.encode()).digest()
    return "#" + "".join(f"{60 + digest[i] % 160:02x}" for i in range(3))


@lru_cache(maxsize=64)
def assign(unplayed: tuple[str, ...], listed: tuple[tuple[str, str], ...], arrived: tuple[str, ...],
           fixed: tuple[str, ...] = ()) -> dict[str, str]:
    """Power -> colour: ``unplayed`` powers (in turn from ``UNPLAYED``), ``listed`` (power, the
    map's colour as #rrggbb) in the map's order, then ``arrived`` (powers the map does not list,
    in the order they came into the game); each played power's colour fits a board whose layers
    fill with the ``fixed`` colours."""
    colours: dict[str, str] = {}
    for index, power in enumerate(unplayed):
        colours[power] = UNPLAYED[index] if index < len(UNPLAYED) else _fallback(power)
    clashing = []
    for power, wanted in listed:  # first every map colour that can be kept, so one replaced blocks none
        if fits(wanted, fixed) and _distinct(wanted, list(colours.values())):
            colours[power] = wanted
        else:
            clashing.append((power, wanted))
    for power, wanted in clashing:
        chosen = list(colours.values())
        free = (c for c in _near(wanted) if fits(c, fixed) and _distinct(c, chosen))
        best = [c for c, _ in zip(free, range(40), strict=False)]  # the nearest few by CIE76, then the closest
        colours[power] = min(best, key=lambda c: delta_e(c, wanted)) if best else _fallback(power)
    colours = {p: colours[p] for p in [*unplayed, *(p for p, _ in listed)]}  # in the map's order
    for power in arrived:
        if power in colours:
            continue
        chosen = list(colours.values())
        colours[power] = next((c for c in PALETTE if fits(c, fixed) and _distinct(c, chosen)), None) \
            or _fallback(power)
    return colours


def layer_fills(variant: Variant) -> tuple[str, ...]:
    """The fixed colours (no power's) the variant's layers fill provinces with on its first board
    (barbarian land's hatching), kept here for each variant."""
    return _FILLS(variant)


def _fills(variant: Variant) -> tuple[str, ...]:
    draw = variant.parts.get(MAP_LAYERS)
    if draw is None:
        return ()
    pen = MapPen(variant.map.provinces, lambda power: "")
    draw(variant.initial_position(), pen)
    return tuple(dict.fromkeys(t.colour for t in pen.tints if t.colour))


_FILLS: PerVariant[Variant, tuple[str, ...]] = PerVariant(_fills)


class Palette:
    """Each power's colour on one picture (``assign``), and its name for the legend.

    ``powers``: every power the picture shows; ``arrivals``: the powers the map does not list,
    in the order they came into the game (the game's seats), so each keeps its colour; others
    not among them follow in the order of their names."""

    def __init__(self, variant: Variant, powers: Iterable[str] = (), arrivals: Sequence[str] = ()):
        self.defs = variant.map.powers
        unplayed = tuple(variant.unplayed_powers)
        listed = tuple((p, style.normal(d.colour)) for p, d in self.defs.items())
        known = {*self.defs, *unplayed}
        late = sorted({p for p in powers if p not in known} - set(arrivals))
        arrived = tuple(p for p in dict.fromkeys([*arrivals, *late]) if p not in known)
        self.colours = assign(unplayed, listed, arrived, layer_fills(variant))

    def colour(self, power: str | None) -> str:
        if power is None:
            return style.CENTRE_UNOWNED
        return self.colours.get(power) or _fallback(power)

    def fill(self, power: str) -> str:
        """The fill of the provinces ``power`` owns."""
        return owned_fill(self.colour(power))
