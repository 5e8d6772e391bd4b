"""Shorthands for the order tests."""

from __future__ import annotations

from gm.domain.geography import Location
from gm.domain.orders import UnitRef
from gm.domain.units import ARMY, FLEET


def L(text: str) -> Location:
    """A location by id: "PAR", "STP/NC"."""
    return Location.parse(text)


def U(text: str) -> UnitRef:
    """A unit reference: "A PAR", "F STP/NC", or "PAR" with no type."""
    parts = text.split()
    if len(parts) == 1:
        return UnitRef(L(parts[0]))
    return UnitRef(L(parts[1]), {"A": ARMY, "F": FLEET}[parts[0]])
