"""The two legends under the board: the powers in play, and the variant's own layers.

The powers' legend names each power as the mails do and counts the board the picture shows
once its phase is over (after the moves, builds and removals: what the results text counts),
and lists only the powers in the game on either side of the phase (a power eliminated by it
shows its zeros once), then the units no player plays, where there are any. Leaders and
garrisons are counted apart from the units that fight (a unit the variant names, by its name as
the mails give it: "Hannibal (Leader, New Carthage)"; one not yet on the board, "to be placed"),
and what the variant tallies for each power follows (Diplomacy of the Empire's territories and
talents). The second legend gives the variant's layers and every unit kind drawn but armies and
fleets (a leader's star, a garrison's castle), each with its sample.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gm.adjudicator.variant import Variant
from gm.domain.position import Position
from gm.domain.units import Mobility
from gm.render import style
from gm.render.colours import Palette, owned_fill
from gm.render.layers import MapPen, Pattern, Tally
from gm.render.scene_types import KeyMark, LegendEntry, MarkLegend, TintPattern
from gm.reports.names import Namer, off_board, unit_names

FIGHTING = (Mobility.LAND, Mobility.SEA)  # counted as units; other kinds (leaders, garrisons) by name


@dataclass(frozen=True)
class Counted:
    power: str
    name: str
    detail: str


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def powers_shown(variant: Variant, before: Position, after: Position) -> list[str]:
    """The powers in play before or after the phase (the map's order, then by name), then the
    unplayed owners of units on either board."""
    playing = (variant.in_play(before) | variant.in_play(after)) - set(variant.unplayed_powers)
    listed = [p for p in variant.map.powers if p in playing]
    unplayed_units = {u.power for board in (before, after) for u in board.units if u.power in variant.unplayed_powers}
    return listed + sorted(playing - set(listed)) + [p for p in variant.unplayed_powers if p in unplayed_units]


def counted(variant: Variant, power: str, board: Position, tallies: Iterable[Tally] = (),
            namer: Namer | None = None) -> Counted:
    namer = namer or Namer(variant)
    units = [u for u in board.units if u.power == power] + [d.unit for d in board.dislodged if d.unit.power == power]
    waiting = [u for u in off_board(variant, board) if u.power == power]
    fighting = sum(1 for u in units if u.type.mobility in FIGHTING)
    others = [u for u in units if u.type.mobility not in FIGHTING]
    parts = []
    centres = len(board.centres_of(power))
    if variant.map.supply_centres and (centres or power not in variant.unplayed_powers):
        parts.append(_plural(centres, "centre"))
    if fighting or not (others or waiting):
        parts.append(_plural(fighting, "unit"))
    names = unit_names(variant)
    named = [u for u in others if names is not None and names(u)]
    parts += [namer.unit(u) for u in named]
    parts += [f"{namer.unit(u)} to be placed" for u in waiting]
    others = [u for u in others if u not in named]
    kinds = Counter(u.type.name for u in others)
    parts += [_plural(n, name) for name, n in sorted(kinds.items())]
    parts += [tally.text(tally.values[power]) for tally in tallies if power in tally.values]
    return Counted(power, power, ", ".join(parts))


def power_legend(variant: Variant, before: Position, after: Position, palette: Palette,
                 width: int, tallies: Iterable[Tally] = ()) -> tuple[list[LegendEntry], int]:
    """One entry per power shown, in a grid of as few rows as fit the width (columns balanced);
    ``tallies``: what the variant counts for each power on the board ``after``."""
    tallies = list(tallies)
    namer = Namer(variant)
    items = [counted(variant, power, after, tallies, namer) for power in powers_shown(variant, before, after)]
    if not items:
        return [], 0
    # DejaVu Sans at 12.5 px: about 7.6 px a bold letter, 6.9 px a plain one
    column = max(24 + 7.6 * len(i.name) + 6.9 * (len(i.detail) + 1) + 16 for i in items)
    columns = max(1, min(len(items), int((width - 20) // column)))
    rows = -(-len(items) // columns)
    columns = -(-len(items) // rows)
    step = (width - 20) / columns
    entries = []
    for index, item in enumerate(items):
        row, col = divmod(index, columns)
        colour = palette.colour(item.power)
        entries.append(LegendEntry(12 + col * step, row * style.LEGEND_ROW, colour, style.outline_for(colour),
                                   item.name, item.detail))
    return entries, rows * style.LEGEND_ROW + 12


def tint_fill(pattern: Pattern, colour: str, patterns: dict[tuple[Pattern, str], TintPattern]) -> str:
    """A tint's fill: a province filled as one its power owns, or a pattern of the colour."""
    return owned_fill(colour) if pattern is Pattern.FILL else f"url(#{patterns[pattern, colour].id})"


def mark_legend(pen: MapPen, patterns: dict[tuple[Pattern, str], TintPattern], width: int,
                top: int, units: Sequence[tuple[str, str, str]] = ()) -> tuple[list[MarkLegend], int]:
    """One entry per legend text of the variant's layers, then one per unit kind in ``units``
    (shape, letter, name), in rows under the powers' legend. An entry drawn in several colours
    (cities of several owners) shows its sample in neutral ink; a tint's sample is its fill (a
    colour, or its first pattern); a unit kind's, its shape and letter in neutral ink."""
    samples: dict[tuple[str, str], tuple[str, str]] = {}  # (kind, text) -> (sample, colour)
    colours: dict[tuple[str, str], set[str]] = {}
    letters: dict[str, str] = {}
    for tint in pen.tints:
        samples.setdefault(("tint", tint.legend), (tint_fill(tint.pattern, tint.colour, patterns), tint.colour))
        colours.setdefault(("tint", tint.legend), set()).add(tint.colour)
    for link in pen.links:
        samples.setdefault(("link", link.legend), ("dashed" if link.dashed else "solid", link.colour))
        colours.setdefault(("link", link.legend), set()).add(link.colour)
    for marker in pen.markers:
        samples.setdefault(("marker", marker.legend), (marker.symbol.value, marker.colour))
        colours.setdefault(("marker", marker.legend), set()).add(marker.colour)
    for shape, letter, name in units:
        samples.setdefault(("unit", name), (shape, style.MARK_INK))
        colours.setdefault(("unit", name), set()).add(style.MARK_INK)
        letters[name] = letter
    if not samples:
        return [], 0
    placed, x, y = [], 12.0, float(top)
    for (kind, text), (sample, colour) in samples.items():
        if len(colours[kind, text]) > 1:
            colour = style.MARK_INK
            sample = owned_fill(colour) if kind == "tint" and not sample.startswith("url(") else sample
        room = 34 + 6.9 * len(text) + 18  # the sample, the text (DejaVu Sans at 12.5 px), a gap
        if x + room > width - 10 and x > 12:
            x, y = 12.0, y + style.LEGEND_ROW
        placed.append(MarkLegend(x, y, kind, sample, colour, style.outline_for(colour), text,
                                 letters.get(text, "") if kind == "unit" else ""))
        x += room
    return placed, int(y - top) + style.LEGEND_ROW + 4


KEY_TOP = 20.0  # the middle of the orders' key, above the map
KEY_SAMPLES = {"move": (40.0, "move"), "support": (34.0, "support"), "convoy": (36.0, "convoy"),
               "failed": (36.0, "failed"), "dislodged": (16.0, "dislodged"), "removed": (14.0, "removed"),
               "built": (16.0, "built"), "waiting": (16.0, "to be placed")}
KEY_LETTER = 6.2  # DejaVu Sans at 11 px: about this wide a letter


def order_key(shown: Iterable[str], width: int) -> list[KeyMark]:
    """The key to the marks the picture shows (``KEY_SAMPLES``' kinds), in that order, set
    against the right edge."""
    kinds = [k for k in KEY_SAMPLES if k in set(shown)]
    rooms = [KEY_SAMPLES[k][0] + 6 + KEY_LETTER * len(KEY_SAMPLES[k][1]) + 14 for k in kinds]
    x = width - 10 - sum(rooms)
    marks = []
    for kind, room in zip(kinds, rooms, strict=True):
        sample, word = KEY_SAMPLES[kind]
        marks.append(KeyMark(round(x, 1), kind, sample, word))
        x += room
    return marks
