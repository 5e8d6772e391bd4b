"""Example orders a reader could really send in its game: written from its own units (a move to a
free neighbour, a support of that move, a hold, a build where it has a unit), as players write
them ("A Paris - Burgundy"), so a Classical player is never shown a Paris it does not have."""

from __future__ import annotations

from dataclasses import dataclass

from gm.adjudicator.variant import Variant
from gm.domain.position import Position
from gm.domain.units import Unit


@dataclass(frozen=True)
class Examples:
    move: str | None = None
    support: str | None = None
    hold: str | None = None
    build: str | None = None

    def listed(self) -> list[str]:
        return [text for text in (self.move, self.support, self.hold, self.build) if text]


def examples_for(variant: Variant, position: Position, power: str | None) -> Examples:
    """Examples for ``power``'s units (or, with no power or no units of its own, for the first
    power of the board that has some); none when nobody has a unit to order."""
    owners = [power] if power and position.units_of(power) else []
    owners += [p for p in variant.powers if p != power and position.units_of(p)]
    if not owners:
        return Examples()
    units = sorted(position.units_of(owners[0]), key=lambda u: (u.type.letter, _name(variant, u.location.province)))
    occupied = {u.location.province for u in position.units}
    move = support = None
    for unit in units:
        free = sorted((_name(variant, p), p) for p in variant.map.neighbours.get(unit.location.province, ())
                      if p not in occupied and variant.destinations(unit, p))
        if not free:
            continue
        name, province = free[0]
        move = f"{_unit(variant, unit)} - {name}"
        helper = next((u for u in units if u is not unit and variant.can_support_into(u, province)), None)
        if helper is not None:
            support = f"{_unit(variant, helper)} S {move}"
        break
    hold = f"{_unit(variant, units[-1])} H"
    return Examples(move, support, hold, f"BUILD {_unit(variant, units[0])}")


def _unit(variant: Variant, unit: Unit) -> str:
    return f"{unit.type.letter} {_name(variant, unit.location.province)}"


def _name(variant: Variant, province: str) -> str:
    return variant.map.provinces[province].name
