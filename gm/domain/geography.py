"""Places on a board: terrain kinds and the locations units stand on."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Terrain(Enum):
    LAND = "land"
    SEA = "sea"
    COAST = "coast"
    IMPASSABLE = "impassable"


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """A province, or one coast of a province with several coasts."""

    province: str
    coast: str | None = None

    def __str__(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province

    @classmethod
    def parse(cls, text: str) -> Location:
        """Read an id such as ``LON`` or ``STP/NC`` (ids only; names are the parser's job)."""
        province, _, coast = text.strip().upper().partition("/")
        return cls(province, coast or None)

    @property
    def whole(self) -> Location:
        """The province without any coast."""
        return self if self.coast is None else Location(self.province)
