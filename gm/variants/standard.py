"""Standard Diplomacy: the map file and the rules exactly as the core implements them."""

from __future__ import annotations

from gm.adjudicator.variant import Variant
from gm.domain.phases import Calendar, Era, PhaseKind, Season
from gm.maps.model import GameMap

CALENDAR = Calendar(
    seasons=(
        Season("S", "Spring", (PhaseKind.MOVEMENT, PhaseKind.RETREATS)),
        Season("F", "Fall", (PhaseKind.MOVEMENT, PhaseKind.RETREATS), updates_ownership=True),
        Season("W", "Winter", (PhaseKind.ADJUSTMENTS,)),
    )
)


ANCIENT_CALENDAR = Calendar(seasons=CALENDAR.seasons, era=Era.BC_AD)


def first_year(game_map: GameMap, calendar: Calendar = CALENDAR, default: int = 1901) -> int:
    """The year the map's ``rules.first_move`` names (the game begins in the first season)."""
    first = game_map.rules.get("first_move")
    if not first:
        return default
    season = str(first.get("season", calendar.seasons[0].name)).casefold()
    if season not in (calendar.seasons[0].name.casefold(), calendar.seasons[0].code.casefold()):
        raise ValueError(f"{game_map.name}: the game must begin in {calendar.seasons[0].name}, not {season}")
    return int(first["year"])


def make(game_map: GameMap) -> Variant:
    return Variant("standard", game_map, CALENDAR, first_year=1901)
