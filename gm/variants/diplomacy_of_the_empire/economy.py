"""Diplomacy of the Empire's money (rules 2, 4, 5): prices, upkeep, tribute and inflation.

Every price is a base price times the inflation stage (1, then 2, then 3); the stage rises in
the build phase after some claimant first collects at least the game's mark in one Fall (105
and 205 talents unless the GM chose others), and never falls.
"""

from __future__ import annotations

from collections.abc import Mapping

from gm.domain.units import UnitType

BASE_PRICE = {"I": 10, "C": 20, "K": 30, "F": 20}
CITY = 30
FORT_WITH_CITY = 50  # a new fortified city
FORT_ON_CITY = 20  # a fortification added to a city
UPKEEP = 10  # per unit, each build phase
CITY_TRIBUTE = 5
DOUBLE_AT, TRIPLE_AT = 105, 205  # the designer's later marks; game options


def unit_price(unit_type: UnitType, inflation: int) -> int:
    return BASE_PRICE[unit_type.letter] * inflation


def upkeep(units: int, inflation: int) -> int:
    return UPKEEP * units * inflation


def inflation_after(stage: int, collected: Mapping[str, int], double_at: int, triple_at: int) -> int:
    """The stage once this Fall's tribute is counted (the bonus of a captured home is not)."""
    most = max(collected.values(), default=0)
    return max(stage, 3 if most >= triple_at else 2 if most >= double_at else 1)


def talents(amount: int) -> str:
    return f"{amount} talent{'s' * (amount != 1)}"
