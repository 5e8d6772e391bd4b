"""Rise of Rome II's own unit types: leaders (3) and the double units a sack makes (6)."""

from __future__ import annotations

from gm.domain.units import ARMY, FLEET, Mobility, UnitType

LEADER = UnitType("L", "leader", Mobility.ANY)
DOUBLE_ARMY = UnitType("2A", "double army", Mobility.LAND, convoyable=True)
DOUBLE_FLEET = UnitType("2F", "double fleet", Mobility.SEA, convoys=True, needs_coast=True)
DOUBLED = {ARMY: DOUBLE_ARMY, FLEET: DOUBLE_FLEET}
SINGLE = {DOUBLE_ARMY: ARMY, DOUBLE_FLEET: FLEET}
