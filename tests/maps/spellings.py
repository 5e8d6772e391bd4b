"""A rules text's spelling of a province, looked up on a map: the map tests' common yardstick."""

from __future__ import annotations

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
