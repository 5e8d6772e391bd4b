"""Roman Diplomacy's unit types and the owners of units no player plays."""

from __future__ import annotations

from gm.domain.units import Mobility, UnitType

GARRISON = UnitType("G", "garrison", Mobility.NONE)  # 3: an Imperial City's, or a neutral centre's
BARBARIAN_ARMY = UnitType("B", "barbarian army", Mobility.LAND, convoyable=True)  # 8
NEUTRAL = "Neutral"
BARBARIAN = "Barbarian"  # 8: a barbarian army released, in civil disorder
