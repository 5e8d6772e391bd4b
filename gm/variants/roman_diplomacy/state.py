"""Roman Diplomacy's state beyond units and centres: one typed view of ``Position.extra``.

Keys (docs/adjudicate-interchange.md, "Roman Diplomacy I and II"):

* ``barbarians``: the provinces occupied by barbarians (rule 7), sorted.
* ``empires``: empire -> its Imperial City (rule 3).
* ``joining``: empire -> the Imperial City it asked for, waiting for the next adjustment phase
  (rule 2), in the order they asked.
* ``federations``: the federations (rules 5, 6), each a sorted list of its empires.
* ``asked``: empire -> the empires it asked to federate with (FEDERATE), waiting for an answer.
* ``leaving``: the empires that DEFEDERATEd this phase (they leave at its end).
* ``missed``: empire -> [movement phases missed in a row, in all] (rule 9), for empires that
  missed one.
* ``gifts``: what federated empires hand over after the retreats and before the builds: a list of
  {"from", "to", "what": "unit"|"centre"|"build", "where"}; a unit's "where" follows it as it
  moves and retreats until the gift is carried out.
* ``special_build_centres``: (board II) special build centre -> the empire that owns it (taken as
  a supply centre is, at the end of a Fall; lost to barbarians and in civil disorder).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gm.domain.position import Position


@dataclass(frozen=True)
class RomanState:
    barbarians: frozenset[str] = frozenset()
    empires: Mapping[str, str] = field(default_factory=dict)
    joining: Mapping[str, str] = field(default_factory=dict)
    federations: tuple[tuple[str, ...], ...] = ()
    asked: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    leaving: tuple[str, ...] = ()
    gifts: tuple[Mapping[str, str], ...] = ()
    missed: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    special: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, position: Position) -> RomanState:
        global _last
        extra = position.extra
        last = _last  # the rules ask a dozen times a phase of one position: read it once
        if last[0] is extra and last[1] is not None:
            return last[1]
        state = cls(
            barbarians=frozenset(extra.get("barbarians", ())),
            empires=dict(extra.get("empires", {})),
            joining=dict(extra.get("joining", {})),
            federations=tuple(tuple(sorted(f)) for f in extra.get("federations", ())),
            asked={e: tuple(sorted(others)) for e, others in extra.get("asked", {}).items()},
            leaving=tuple(sorted(extra.get("leaving", ()))),
            gifts=tuple(dict(g) for g in extra.get("gifts", ())),
            missed={e: (int(counts[0]), int(counts[1])) for e, counts in extra.get("missed", {}).items()},
            special=dict(extra.get("special_build_centres", {})),
        )
        _last = (extra, state)  # one tuple, rebound at once: safe across threads
        return state

    def extra(self, position: Position) -> dict[str, Any]:
        """The position's ``extra`` with this state in it (empty parts left out)."""
        extra = {k: v for k, v in position.extra.items() if k not in _KEYS}
        parts: dict[str, Any] = {
            "barbarians": sorted(self.barbarians),
            "empires": dict(sorted(self.empires.items())),
            "joining": dict(self.joining),
            "federations": sorted(list(f) for f in self.federations),
            "asked": {e: list(o) for e, o in sorted(self.asked.items()) if o},
            "leaving": list(self.leaving),
            "gifts": [dict(g) for g in self.gifts],
            "missed": {e: list(counts) for e, counts in sorted(self.missed.items())},
            "special_build_centres": dict(sorted(self.special.items())),
        }
        extra.update((k, v) for k, v in parts.items() if v)
        return extra

    def changed(self, **changes: Any) -> RomanState:
        return replace(self, **changes)

    def federation_of(self, empire: str) -> tuple[str, ...]:
        return next((f for f in self.federations if empire in f), (empire,))

    def side_of(self, empire: str) -> str:
        """The name both fight under: the empire's, or its federation's."""
        return " + ".join(self.federation_of(empire))


# The last ``extra`` read and its state. A position's ``extra`` is a read-only view of its own
# copy (gm.domain.position.frozen_mapping), so the same object always holds the same state; it is
# kept alive here, so its identity is never reused by another.
_last: tuple[object, RomanState | None] = (None, None)

_KEYS = ("barbarians", "empires", "joining", "federations", "asked", "leaving", "gifts", "missed",
         "special_build_centres")
