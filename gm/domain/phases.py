"""Phases and calendars.

A phase is a year, a season and a phase kind. The core knows no season names: a variant's
``Calendar`` lists its seasons, which phase kinds each has, and after which season supply
centres change hands. Years before Christ are negative and there is no year 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class PhaseKind(Enum):
    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"


class Era(Enum):
    PLAIN = "plain"  # 1901
    BC_AD = "bc-ad"  # 273 B.C., A.D. 1


@dataclass(frozen=True, slots=True)
class Season:
    code: str  # one letter, used in compact phase names: S1901M
    name: str  # shown to players: "Spring"
    kinds: tuple[PhaseKind, ...]
    updates_ownership: bool = False  # supply centres change hands at the end of this season


@dataclass(frozen=True, slots=True, order=True, init=False)
class Phase:
    year: int
    season_index: int
    kind_index: int
    season: str
    kind: PhaseKind

    # Written out, not generated: compiled (setup.py), the constructor then runs no Python.
    def __init__(self, year: int, season_index: int, kind_index: int, season: str, kind: PhaseKind) -> None:
        object.__setattr__(self, "year", year)
        object.__setattr__(self, "season_index", season_index)
        object.__setattr__(self, "kind_index", kind_index)
        object.__setattr__(self, "season", season)
        object.__setattr__(self, "kind", kind)

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.kind._value_}"  # ``value`` is a Python property, ten times slower


_COMPACT = re.compile(r"^\s*([A-Za-z])\s*(-?\d+)\s*([MRAmra])\s*$")


@dataclass(frozen=True, slots=True)
class Calendar:
    seasons: tuple[Season, ...]
    era: Era = Era.PLAIN

    def phase(self, year: int, season: str, kind: PhaseKind) -> Phase:
        if year == 0:
            raise ValueError("there is no year 0")
        for s_index, s in enumerate(self.seasons):
            if s.code == season.upper():
                if kind not in s.kinds:
                    raise ValueError(f"{s.name} has no {kind.name.lower()} phase")
                return Phase(year, s_index, s.kinds.index(kind), s.code, kind)
        raise ValueError(f"no season {season!r} in this calendar")

    def parse(self, text: str) -> Phase:
        """Read a compact phase name such as ``S1901M`` or ``S-273M``."""
        match = _COMPACT.match(text)
        if not match:
            raise ValueError(f"not a phase name: {text!r} (expected e.g. S1901M)")
        season, year, kind = match.groups()
        return self.phase(int(year), season, PhaseKind(kind.upper()))

    def season_of(self, phase: Phase) -> Season:
        return self.seasons[phase.season_index]

    def first_phase(self, year: int) -> Phase:
        first = self.seasons[0]
        return self.phase(year, first.code, first.kinds[0])

    def following(self, phase: Phase) -> Phase:
        """The phase after this one, whether or not it will have anything to do."""
        seasons = self.seasons
        season = seasons[phase.season_index]
        kind_index = phase.kind_index + 1
        if kind_index < len(season.kinds):
            return Phase(phase.year, phase.season_index, kind_index, season.code, season.kinds[kind_index])
        season_index = phase.season_index + 1
        if season_index < len(seasons):
            nxt = seasons[season_index]
            return Phase(phase.year, season_index, 0, nxt.code, nxt.kinds[0])
        first = seasons[0]
        return Phase(next_year(phase.year), 0, 0, first.code, first.kinds[0])

    def is_last_of_season(self, phase: Phase) -> bool:
        return phase.kind_index == len(self.seasons[phase.season_index].kinds) - 1

    def year_label(self, year: int) -> str:
        if self.era is Era.BC_AD:
            return f"{-year} B.C." if year < 0 else f"A.D. {year}"
        return str(year)

    def title(self, phase: Phase) -> str:
        """What players read: "Spring 273 B.C. movement"."""
        season = self.seasons[phase.season_index]
        kind = {PhaseKind.MOVEMENT: "movement", PhaseKind.RETREATS: "retreats",
                PhaseKind.ADJUSTMENTS: "adjustments"}[phase.kind]
        return f"{season.name} {self.year_label(phase.year)} {kind}"


def next_year(year: int) -> int:
    return 1 if year == -1 else year + 1

