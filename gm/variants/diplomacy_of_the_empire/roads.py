"""Diplomacy of the Empire's roads (rules 6, 7, 8): built by themselves between adjacent cities
of one owner (never across a sea or a strait), kept when a city changes hands, gone only with
a razed city; units move along them, and builds need a road home to the capital."""

from __future__ import annotations

from collections.abc import Iterable

from gm.maps.model import GameMap
from gm.variants.diplomacy_of_the_empire.state import EmpireState


class RoadMap:
    def __init__(self, game_map: GameMap, straits: Iterable[tuple[str, str]]):
        self.map = game_map
        self.straits = {frozenset(pair) for pair in straits}

    def may_join(self, a: str, b: str) -> bool:
        """May a road join cities in these provinces: neighbours over land, not over a strait."""
        return b in self.map.army_adjacency.get(a, frozenset()) and frozenset((a, b)) not in self.straits

    def with_city(self, state: EmpireState, province: str) -> frozenset[frozenset[str]]:
        """The roads once the city in ``province`` belongs to its owner (built or captured): a
        road to every adjacent city of the same owner."""
        owner = state.cities[province].owner
        new = {frozenset((province, other)) for other, city in state.cities.items()
               if city.owner == owner and other != province and self.may_join(province, other)}
        return state.roads | new

    @staticmethod
    def without_city(state: EmpireState, province: str) -> frozenset[frozenset[str]]:
        return frozenset(pair for pair in state.roads if province not in pair)

    @staticmethod
    def network(state: EmpireState, start: str, owner: str | None = None) -> set[str]:
        """The cities reached from ``start`` along roads (through ``owner``'s cities only, if given)."""
        seen, frontier = {start}, [start]
        while frontier:
            here = frontier.pop()
            for there in state.road_neighbours(here):
                city = state.cities.get(there)
                if there not in seen and city is not None and (owner is None or city.owner == owner):
                    seen.add(there)
                    frontier.append(there)
        return seen
