"""Places on a board: terrain kinds and the locations units stand on."""

from __future__ import annotations

import sys
from enum import Enum
from typing import NamedTuple


# A named tuple made from its values directly: a named tuple's own constructor is Python code,
# and the hot paths make units and references on every phase (``new_tuple(Unit, (...))``).
new_tuple = tuple.__new__


class Terrain(Enum):
    LAND = "land"
    SEA = "sea"
    COAST = "coast"
    IMPASSABLE = "impassable"


class Location(NamedTuple):
    """A province, or one coast of a province with several coasts.

    A named tuple rather than a dataclass: locations are dict keys on every hot path of the
    adjudicator, and tuples hash and compare in C.
    """

    province: str
    coast: str | None = None

    def __str__(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province

    @classmethod
    def parse(cls, text: str) -> Location:
        """Read an id such as ``LON`` or ``STP/NC`` (ids only; names are the parser's job)."""
        province, _, coast = text.strip().upper().partition("/")
        # Interned like the map's own ids, so that comparing two ids is an identity check.
        return cls(sys.intern(province), sys.intern(coast) if coast else None)

    @property
    def whole(self) -> Location:
        """The province without any coast."""
        return self if self.coast is None else Location(self.province)
