"""Diplomacy of the Empire's state beyond units: one typed view of ``Position.extra``.

Keys (docs/adjudicate-interchange.md, "Diplomacy of the Empire"):

* ``treasury``: power -> talents on hand (every claimant of the game, 0 at the start).
* ``cities``: province -> ``{"owner", "fort", "capital"}``; ``capital`` is true for a city in a
  claimant's home province (its capital while it holds it).
* ``roads``: ``[[a, b], ...]``, each pair sorted, the list sorted: roads between adjacent cities.
* ``control``: province -> the power controlling the land territory (it collects its tribute).
* ``inflation``: 1, 2 or 3, the multiple of every base price and of the upkeep.
* ``tribute``: power -> the tribute it collected after the last Fall (shown in the build phase).
* ``six_players``: true in a game of six (no Macedonia, Syria worth 5).
* ``inflation_double_at``, ``inflation_triple_at``: the tribute marks of a game whose GM chose
  them (the variant's options); absent, 105 and 205.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gm.domain.position import Position


@dataclass(frozen=True)
class City:
    owner: str
    fort: bool = False
    capital: bool = False


@dataclass(frozen=True)
class EmpireState:
    treasury: Mapping[str, int] = field(default_factory=dict)
    cities: Mapping[str, City] = field(default_factory=dict)
    roads: frozenset[frozenset[str]] = frozenset()
    control: Mapping[str, str] = field(default_factory=dict)
    inflation: int = 1
    tribute: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, position: Position) -> EmpireState:
        extra = position.extra
        return cls(
            treasury=dict(extra.get("treasury", {})),
            cities={p: City(c["owner"], bool(c.get("fort")), bool(c.get("capital")))
                    for p, c in extra.get("cities", {}).items()},
            roads=frozenset(frozenset(pair) for pair in extra.get("roads", ())),
            control=dict(extra.get("control", {})),
            inflation=int(extra.get("inflation", 1)),
            tribute=dict(extra.get("tribute", {})),
        )

    def extra(self, position: Position) -> dict[str, Any]:
        """The position's ``extra`` with this state in it."""
        extra = {k: v for k, v in position.extra.items() if k not in _KEYS}
        extra.update({
            "treasury": dict(sorted(self.treasury.items())),
            "cities": {p: {"owner": c.owner, "fort": c.fort, "capital": c.capital} for p, c in sorted(self.cities.items())},
            "roads": sorted(sorted(pair) for pair in self.roads),
            "control": dict(sorted(self.control.items())),
            "inflation": self.inflation,
        })
        if self.tribute:
            extra["tribute"] = dict(sorted(self.tribute.items()))
        return extra

    def changed(self, **changes: Any) -> EmpireState:
        return replace(self, **changes)

    def road_neighbours(self, province: str) -> set[str]:
        return {other for pair in self.roads if province in pair for other in pair if other != province}

    def cities_of(self, power: str) -> set[str]:
        return {p for p, c in self.cities.items() if c.owner == power}


_KEYS = ("treasury", "cities", "roads", "control", "inflation", "tribute")
