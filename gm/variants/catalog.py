"""Which rules module goes with which map file; loads each variant once per catalog."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from gm.adjudicator.variant import Variant
from gm.maps.loader import MAPS_DIR, available_maps, load_map
from gm.maps.model import GameMap


def _rules(module: str, maker: str = "make") -> Callable[[GameMap], Variant]:
    """A rules module's maker, imported when a variant of it is first made (a process loads only
    the variants it plays: `gm receive` answering HELP loads none)."""
    def make(game_map: GameMap) -> Variant:
        return getattr(importlib.import_module(f"gm.variants.{module}"), maker)(game_map)  # type: ignore[no-any-return]

    return make


RULES: dict[str, Callable[[GameMap], Variant]] = {
    "standard": _rules("standard"),
    "classical": _rules("classical"),
    "diplomacy-of-the-empire": _rules("diplomacy_of_the_empire"),
    "eagles": _rules("eagles"),
    "rise-of-rome-ii": _rules("rise_of_rome_ii"),
    "roman-diplomacy-i": _rules("roman_diplomacy", "make_i"),
    "roman-diplomacy-ii": _rules("roman_diplomacy", "make_ii"),
}


class UnknownVariant(LookupError):
    pass


class VariantCatalog:
    """The variants a process can play; each built on first use and kept."""

    def __init__(self, maps_dir: Path = MAPS_DIR):
        self.maps_dir = maps_dir
        self._loaded: dict[str, Variant] = {}

    def names(self) -> list[str]:
        return [n for n in available_maps() if n in RULES]

    def get(self, name: str) -> Variant:
        key = name.strip().lower()
        if key not in self._loaded:
            if key not in RULES:
                known = ", ".join(self.names())
                raise UnknownVariant(f"unknown variant {name!r} (known: {known})")
            self._loaded[key] = RULES[key](load_map(self.maps_dir / f"{key}.yaml"))
        return self._loaded[key]
