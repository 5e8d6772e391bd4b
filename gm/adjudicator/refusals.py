"""Why a build is refused, in the words of a variant's rules: a part of the variant that the
adjustment phase's review asks for (gm.adjudicator.adjustments) when a power builds more than it
may, or where it may not. Standard play's words here; a variant whose builds are bounded by
something else (money) declares its own (gm.variants.catalog)."""

from __future__ import annotations

from typing import Final

from gm.adjudicator.parts import Part
from gm.adjudicator.variant import Variant
from gm.domain.position import Position


class BuildRefusals:
    def __init__(self, variant: Variant):
        self.variant = variant

    def builds_refusal(self, position: Position, power: str, count: int) -> str:
        """Why ``power`` may make no more builds (or waives) than the ``count`` it has (0: none)."""
        if count <= 0:
            return f"{power} has no builds"
        return f"{power} has only {count} build{'s' if count > 1 else ''}"

    def build_site_refusal(self, position: Position, power: str, province: str) -> str:
        """Why ``power`` may not build a unit in ``province``, not one of its ``build_sites``."""
        return f"{self.variant.map.provinces[province].name} is not a free supply centre where {power} may build"


BUILD_REFUSALS: Final = Part[BuildRefusals]("build_refusals")


def refusals_of(variant: Variant) -> BuildRefusals:
    """The variant's words for a refused build as it declares them, else standard play's."""
    return variant.parts.get(BUILD_REFUSALS) or BuildRefusals(variant)
