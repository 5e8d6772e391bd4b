"""What the map tests share: a rules text's spelling looked up on a map, and reachability."""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping

from gm.maps.model import GameMap, normalise_name


class Spellings:
    """Every spelling of every province (id, full name, alias), case and punctuation ignored."""

    def __init__(self, game_map: GameMap):
        self._ids: dict[str, set[str]] = {}
        for province in game_map.provinces.values():
            for spelling in (province.id, province.name, *province.aliases):
                self._ids.setdefault(normalise_name(spelling), set()).add(province.id)

    def __call__(self, spelling: str) -> str:
        """The id of the one province the spelling names (failing the test if none or several)."""
        ids = self._ids.get(normalise_name(spelling), set())
        assert len(ids) == 1, f"the rules' spelling {spelling!r} names {sorted(ids) or 'no province'}"
        return next(iter(ids))

    def __contains__(self, spelling: object) -> bool:
        return isinstance(spelling, str) and normalise_name(spelling) in self._ids


def reachable(graph: Mapping[str, Iterable[str]], start: str, within: Collection[str] | None = None) -> set[str]:
    """Every province reached from ``start`` along the graph's borders, stepping only ``within`` if given."""
    seen, todo = {start}, deque([start])
    while todo:
        for nxt in graph.get(todo.popleft(), ()):
            if nxt not in seen and (within is None or nxt in within):
                seen.add(nxt)
                todo.append(nxt)
    return seen
