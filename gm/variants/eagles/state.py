"""Eagles' state beyond units and centres: one typed view of ``Position.extra``.

Keys (docs/adjudicate-interchange.md, "Eagles"):

* ``original_centres``: power -> its three original centres (its general's first, then its two
  allied centres), drawn at the start (rule 1); builds go there (rule 6). How many powers it
  lists is the number of players the game started with (rule 7, and the extra allied centres).
* ``damaged``: the fleets a winter storm damaged (rule 4), until the end of the Spring move:
  ``[{"power", "unit", "damage": "light" | "severe"}]``, one entry per fleet.
* ``barbarian_wait``: units repelled or retreated into barbarian land (rule 5): they roll at the
  end of the next movement phase if they are still there, ``[{"power", "unit"}]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gm.domain.position import Position


@dataclass(frozen=True)
class EaglesState:
    original_centres: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    damaged: tuple[tuple[str, str, str], ...] = ()  # (power, unit, "light" | "severe")
    barbarian_wait: tuple[tuple[str, str], ...] = ()  # (power, unit)

    @classmethod
    def of(cls, position: Position) -> EaglesState:
        extra = position.extra
        return cls(
            original_centres={p: tuple(cs) for p, cs in extra.get("original_centres", {}).items()},
            damaged=tuple((d["power"], d["unit"], d["damage"]) for d in extra.get("damaged", ())),
            barbarian_wait=tuple((w["power"], w["unit"]) for w in extra.get("barbarian_wait", ())),
        )

    def extra(self, position: Position) -> dict[str, Any]:
        """The position's ``extra`` with this state in it (empty parts left out)."""
        extra = {k: v for k, v in position.extra.items() if k not in _KEYS}
        parts: dict[str, Any] = {
            "original_centres": {p: list(cs) for p, cs in sorted(self.original_centres.items())},
            "damaged": [{"power": p, "unit": u, "damage": d} for p, u, d in sorted(self.damaged)],
            "barbarian_wait": [{"power": p, "unit": u} for p, u in sorted(self.barbarian_wait)],
        }
        extra.update((k, v) for k, v in parts.items() if v)
        return extra

    def changed(self, **changes: Any) -> EaglesState:
        return replace(self, **changes)

    @property
    def players(self) -> int:
        return len(self.original_centres)


_KEYS = ("original_centres", "damaged", "barbarian_wait")
