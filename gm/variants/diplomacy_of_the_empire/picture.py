"""Diplomacy of the Empire's own layers on the board picture (its part ``map_layers``, as
``gm.render.layers.MAP_LAYERS`` draws them), drawn from its state (``EmpireState``).

- each territory a claimant controls: filled with its colour, as an owned centre is elsewhere;
- each city: a mark in its owner's colour, a dot, or a walled square for a fortified city;
- each capital: a ring in its owner's colour around its home's mark, beside its city's mark;
- each road: a pale line edged dark between the marks of its two cities, under the marks and
  the units (and the orders).

Each claimant's territories and talents are told as tallies: the legend gives them, and the
year-by-year chart draws them, as other boards' supply centres.

Cities are given in the order city, fortified city, capital, so the legend reads in that order.
The pen (``gm.render.layers.MapPen``) is passed in: nothing here imports gm.render.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from gm.domain.position import Position
from gm.variants.diplomacy_of_the_empire.state import EmpireState

CONTROLLED = "territory controlled (its claimant's colour)"
CITY = "city"
FORT = "fortified city"
CAPITAL = "capital"
ROAD = "road"
TERRITORIES = "territories"  # the tallies
TALENTS = "talents"
ROAD_COLOUR = "#fff6dc"  # pale, edged dark: a road, not an order of the power drawn in that colour


def map_layers(position: Position, pen: Any) -> None:
    state = EmpireState.of(position)
    for province, power in sorted(state.control.items()):
        pen.tint(province, CONTROLLED, pattern="fill", power=power)
    cities = sorted(state.cities.items(), key=lambda item: (item[1].fort, item[0]))
    for province, city in cities:
        pen.marker(province, "castle" if city.fort else "dot", FORT if city.fort else CITY, power=city.owner)
    for province, city in cities:
        if city.capital:
            pen.marker(province, "ring", CAPITAL, power=city.owner)
    for a, b in sorted(sorted(pair) for pair in state.roads):
        pen.link(a, b, ROAD, colour=ROAD_COLOUR)
    held = Counter(state.control.values())
    for power in sorted(state.treasury):
        pen.tally(power, TERRITORIES, held[power], one="territory")
    for power, talents in sorted(state.treasury.items()):
        pen.tally(power, TALENTS, talents, one="talent")
