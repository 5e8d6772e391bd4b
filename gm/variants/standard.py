"""Standard Diplomacy: the map file and the rules exactly as the core implements them."""

from __future__ import annotations

from gm.adjudicator.variant import Variant
from gm.domain.phases import Calendar, PhaseKind, Season
from gm.maps.model import GameMap

CALENDAR = Calendar(
    seasons=(
        Season("S", "Spring", (PhaseKind.MOVEMENT, PhaseKind.RETREATS)),
        Season("F", "Fall", (PhaseKind.MOVEMENT, PhaseKind.RETREATS), updates_ownership=True),
        Season("W", "Winter", (PhaseKind.ADJUSTMENTS,)),
    )
)


def make(game_map: GameMap) -> Variant:
    return Variant("standard", game_map, CALENDAR, first_year=1901)
