"""Runtime: a map's shape file (``maps/shapes/VARIANT.json``), read once per process.

The file is made offline by ``gm maps shapes VARIANT`` (``shapes_build``); reading it needs
nothing beyond the standard library.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

SHAPES_DIR = Path(__file__).resolve().parents[2] / "maps" / "shapes"

Point = tuple[float, float]


class MissingShapes(LookupError):
    pass


@dataclass(frozen=True)
class ProvinceShape:
    id: str
    kind: str  # sea | land | coast | impassable
    path: str  # SVG path data in picture pixels
    unit: Point  # where a unit in the province stands
    label: Point  # centre of the province's label
    centre: Point | None = None  # the supply-centre mark, for supply centres
    coasts: dict[str, Point] = field(default_factory=dict)  # where a fleet on each coast stands

    def spot(self, coast: str | None) -> Point:
        """Where a unit at this province (on this coast, if any) is drawn."""
        if coast and coast in self.coasts:
            return self.coasts[coast]
        return self.unit


@dataclass(frozen=True)
class MapShapes:
    variant: str
    width: int
    height: int
    land: str  # outline of all land, for the coastline
    neutral_land: str  # land that is no province
    provinces: dict[str, ProvinceShape]
    source: str = ""


def shapes_file(variant: str) -> Path:
    return SHAPES_DIR / f"{variant}.json"


def _point(value: list[float] | None) -> Point | None:
    return (float(value[0]), float(value[1])) if value else None


@lru_cache(maxsize=32)
def load_shapes(variant: str, path: Path | None = None) -> MapShapes:
    path = path or shapes_file(variant)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MissingShapes(
            f"no shapes for map {variant!r} ({path}); make them with: gm maps shapes {variant}"
        ) from None
    provinces = {}
    for pid, spec in raw["provinces"].items():
        provinces[pid] = ProvinceShape(
            id=pid,
            kind=spec["kind"],
            path=spec["path"],
            unit=_point(spec["unit"]),  # type: ignore[arg-type]
            label=_point(spec["label"]),  # type: ignore[arg-type]
            centre=_point(spec.get("centre")),
            coasts={c: _point(p) for c, p in (spec.get("coasts") or {}).items()},  # type: ignore[misc]
        )
    return MapShapes(
        variant=raw.get("variant", variant),
        width=int(raw["width"]),
        height=int(raw["height"]),
        land=raw.get("land", ""),
        neutral_land=raw.get("neutral_land", ""),
        provinces=provinces,
        source=raw.get("source", ""),
    )
