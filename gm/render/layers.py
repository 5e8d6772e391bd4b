"""A variant's own layers on the board picture, drawn from its state (``Position.extra``).

A variant that wants them declares the part ``MAP_LAYERS`` (gm.variants.catalog): a function
``(position, pen)`` called for every picture of the variant's boards, which draws through
``pen``, a ``MapPen`` (the variant imports nothing from gm.render, which sits above it)::

    def map_layers(position, pen):
        for province in position.extra.get("barbarians", []):
            pen.tint(province, "barbarian land", colour="#8b5a2b")
        for province, city in position.extra.get("cities", {}).items():
            pen.marker(province, "square", "city", power=city["owner"])
        for a, b in position.extra.get("roads", []):
            pen.link(a, b, "road")
        for centre in position.extra.get("sacked", []):
            pen.marker(centre, "cross", "sacked centre")

A variant may also count something for each power that its board does not show as supply
centres (``pen.tally(power, "territories", 5, one="territory")``): the legend gives each
power's tallies, and the year-by-year chart draws each tally as its own panel.

Tints shade a province (``fill``, ``hatch`` or ``dots``), markers stand at a province (on
its supply-centre mark for ``ring`` and ``cross``, which mark the centre itself; for the
others, in a row beside it, past its ring if it has one, or in a province without one, from
a spot clear of its units and its name), links join two provinces (from the first marker
beside each, as a road joins two cities' marks; else from its centre mark or unit spot). Each
takes a power (drawn in its colour) or a colour, and a legend: each legend appears once under
the picture, with a sample. All are drawn under the orders and the units.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import Enum
from typing import Final, TypeVar

from gm.adjudicator.parts import Part
from gm.domain.position import Position
from gm.render import style


class Pattern(Enum):
    FILL = "fill"
    HATCH = "hatch"
    DOTS = "dots"


class Symbol(Enum):
    SQUARE = "square"
    CASTLE = "castle"
    STAR = "star"
    TRIANGLE = "triangle"
    DOT = "dot"
    RING = "ring"  # around the supply-centre mark
    CROSS = "cross"  # through the supply-centre mark (a centre struck out)

    @property
    def on_centre(self) -> bool:
        return self in (Symbol.RING, Symbol.CROSS)


@dataclass(frozen=True)
class Tint:
    province: str
    legend: str
    pattern: Pattern
    colour: str


@dataclass(frozen=True)
class Marker:
    province: str
    legend: str
    symbol: Symbol
    colour: str


@dataclass(frozen=True)
class Link:
    a: str
    b: str
    legend: str
    colour: str
    dashed: bool


@dataclass(frozen=True)
class Tally:
    measure: str  # plural: "territories"
    one: str  # singular: "territory"
    values: dict[str, int]  # power -> how many

    def text(self, value: int) -> str:
        return f"{value} {self.one if value == 1 else self.measure}"


class MapPen:
    """What a variant draws its layers with; the scene then draws what it was given."""

    def __init__(self, provinces: Collection[str], colour_of: Callable[[str], str]):
        self.provinces = provinces
        self.colour_of = colour_of
        self.tints: list[Tint] = []
        self.markers: list[Marker] = []
        self.links: list[Link] = []
        self.tallies: dict[str, Tally] = {}  # by measure, in the order first told

    def tint(self, province: str, legend: str, *, pattern: str = "hatch", power: str | None = None,
             colour: str | None = None) -> None:
        self.tints.append(Tint(self._province(province), legend, _named(Pattern, pattern), self._colour(power, colour)))

    def marker(self, province: str, symbol: str, legend: str, *, power: str | None = None,
               colour: str | None = None) -> None:
        self.markers.append(Marker(self._province(province), legend, _named(Symbol, symbol), self._colour(power, colour)))

    def link(self, a: str, b: str, legend: str, *, power: str | None = None, colour: str | None = None,
             dashed: bool = False) -> None:
        self.links.append(Link(self._province(a), self._province(b), legend, self._colour(power, colour), dashed))

    def tally(self, power: str, measure: str, value: int, *, one: str | None = None) -> None:
        """What the power has of ``measure`` (a plural noun; ``one``: its singular)."""
        found = self.tallies.setdefault(measure, Tally(measure, one or measure, {}))
        found.values[power] = value

    def _province(self, province: str) -> str:
        if province not in self.provinces:
            raise ValueError(f"map layers: no province {province!r} on this board")
        return province

    def _colour(self, power: str | None, colour: str | None) -> str:
        if power is not None:
            return self.colour_of(power)
        return style.normal(colour) if colour else style.MARK_INK


E = TypeVar("E", bound=Enum)


def _named(kind: type[E], value: str) -> E:
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(k.value for k in kind)
        raise ValueError(f"map layers: no {kind.__name__.lower()} {value!r} (known: {known})") from None


MapLayers = Callable[[Position, MapPen], None]
# A variant's own layers on the board picture (what this module's docstring shows).
MAP_LAYERS: Final = Part[MapLayers]("map_layers")
