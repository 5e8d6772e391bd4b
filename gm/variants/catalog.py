"""Which rules module goes with which map file, and the parts each variant declares; loads each
variant once per catalog."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from gm.adjudicator.parts import Parts
from gm.adjudicator.variant import Variant
from gm.maps.loader import MAPS_DIR, available_maps, load_map
from gm.maps.model import GameMap


@dataclass(frozen=True)
class Declared:
    """A variant as the catalog knows it: its rules module, gm.variants.<module> (its ``maker``
    makes the ``Variant``), and the parts it fills beyond its rules (gm.adjudicator.parts), each
    made from the variant by the function of the part's name in gm.variants.<module>.parts.
    Imported when a variant of it is first made (a process loads only the variants it plays:
    `gm receive` answering HELP loads none); each part when first asked for."""

    module: str
    maker: str = "make"
    parts: tuple[str, ...] = ()

    def make(self, game_map: GameMap) -> Variant:
        rules = importlib.import_module(f"gm.variants.{self.module}")
        variant: Variant = getattr(rules, self.maker)(game_map)
        if self.parts:
            makers = importlib.import_module(f"gm.variants.{self.module}.parts")
            variant.parts = Parts({name: partial(getattr(makers, name), variant) for name in self.parts})
        return variant


# The parts of the ancient variants (docs/design/variants.md has the table).
_ORDERS = ("order_grammar", "order_forms", "plausible_orders", "map_layers")

RULES: dict[str, Declared] = {
    "standard": Declared("standard"),
    "classical": Declared("classical"),
    "diplomacy-of-the-empire": Declared("diplomacy_of_the_empire", parts=(*_ORDERS, "setup", "build_refusals", "words")),
    "eagles": Declared("eagles", parts=(*_ORDERS, "setup")),
    "rise-of-rome-ii": Declared("rise_of_rome_ii", parts=(*_ORDERS, "setup", "unit_names", "off_board")),
    "roman-diplomacy-i": Declared("roman_diplomacy", "make_i", parts=(*_ORDERS, "setup")),
    "roman-diplomacy-ii": Declared("roman_diplomacy", "make_ii", parts=(*_ORDERS, "setup")),
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
            self._loaded[key] = RULES[key].make(load_map(self.maps_dir / f"{key}.yaml"))
        return self._loaded[key]
