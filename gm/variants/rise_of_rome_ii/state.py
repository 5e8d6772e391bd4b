"""Rise of Rome II's state beyond units and centres: one typed view of ``Position.extra``.

Keys (docs/adjudicate-interchange.md, "Rise of Rome II"):

* ``unplaced_leaders``: power -> the home centre its leader starts in unless its player names
  another with the first Spring orders (rule 3.3); gone once the leaders are placed.
* ``doubles``: province -> movement phases the double unit there has left (rule 6.1).
* ``retreating_doubles``: during a retreat phase, province a dislodged double unit leaves ->
  its phases left.
* ``sacked``: the supply centres sacked, gone for good (rule 6.1), sorted.
* ``rebellion``: a Barbarian home centre held by a civilised power -> how many Autumns in a
  row it has been left empty (rule 5.1).
* ``rebellion_after``: empty Autumns in a row after which such a centre rebels (2; 1 is the
  strict reading).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gm.domain.position import Position

REBELLION_AFTER = 2


@dataclass(frozen=True)
class RomeState:
    unplaced: Mapping[str, str] = field(default_factory=dict)
    doubles: Mapping[str, int] = field(default_factory=dict)
    retreating_doubles: Mapping[str, int] = field(default_factory=dict)
    sacked: tuple[str, ...] = ()
    rebellion: Mapping[str, int] = field(default_factory=dict)
    rebellion_after: int = REBELLION_AFTER

    @classmethod
    def of(cls, position: Position) -> RomeState:
        extra = position.extra
        return cls(
            unplaced=dict(extra.get("unplaced_leaders", {})),
            doubles={p: int(n) for p, n in extra.get("doubles", {}).items()},
            retreating_doubles={p: int(n) for p, n in extra.get("retreating_doubles", {}).items()},
            sacked=tuple(sorted(extra.get("sacked", ()))),
            rebellion={p: int(n) for p, n in extra.get("rebellion", {}).items()},
            rebellion_after=int(extra.get("rebellion_after", REBELLION_AFTER)),
        )

    def extra(self, position: Position) -> dict[str, Any]:
        """The position's ``extra`` with this state in it (empty parts left out)."""
        extra = {k: v for k, v in position.extra.items() if k not in _KEYS}
        parts: dict[str, Any] = {
            "unplaced_leaders": dict(sorted(self.unplaced.items())),
            "doubles": dict(sorted(self.doubles.items())),
            "retreating_doubles": dict(sorted(self.retreating_doubles.items())),
            "sacked": sorted(self.sacked),
            "rebellion": dict(sorted(self.rebellion.items())),
        }
        extra.update((k, v) for k, v in parts.items() if v)
        if self.rebellion_after != REBELLION_AFTER:
            extra["rebellion_after"] = self.rebellion_after
        return extra

    def changed(self, **changes: Any) -> RomeState:
        return replace(self, **changes)


_KEYS = ("unplaced_leaders", "doubles", "retreating_doubles", "sacked", "rebellion", "rebellion_after")
