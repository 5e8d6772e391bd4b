"""Example orders a reader could really send in its game: written from its own units (a move to a
free neighbour, a support of that move, a hold, a build where it may build), as players write
them ("A Paris - Burgundy"), so a Classical player is never shown a Paris it does not have.

``example_of`` gives one of an order form (gm.orders.forms): a variant's own form makes its own;
a standard form's is made here.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.adjudicator.variant import Variant
from gm.domain.position import Position
from gm.domain.units import Mobility, Unit
from gm.orders.forms import OrderForm
from gm.variants.setup import setup_of


@dataclass(frozen=True)
class Examples:
    move: str | None = None
    support: str | None = None
    hold: str | None = None
    build: str | None = None

    def listed(self) -> list[str]:
        return [text for text in (self.move, self.support, self.hold, self.build) if text]


def examples_for(variant: Variant, position: Position, power: str | None, own_only: bool = False) -> Examples:
    """Examples for ``power``'s units (or, with no power or no units of its own, for the first
    power of the board that has some, unless ``own_only``); none when nobody has a unit to order."""
    owners = [power] if power and position.units_of(power) else []
    if not own_only:
        owners += [p for p in variant.powers if p != power and position.units_of(p)]
    if not owners:
        return Examples()
    units = sorted(position.units_of(owners[0]), key=lambda u: (u.type.letter, _name(variant, u.location.province)))
    occupied = {u.location.province for u in position.units}
    move = support = None
    for unit in units:  # the first move of the first unit that has one; a support of the first supportable
        if unit.type.mobility is Mobility.NONE:
            continue
        free = sorted((_name(variant, p), p) for p in variant.map.neighbours.get(unit.location.province, ())
                      if p not in occupied and variant.destinations(unit, p))
        for name, province in free:
            here = f"{_unit(variant, unit)} - {name}"
            move = move or here
            helper = next((u for u in units if u is not unit and variant.can_support_into(u, province)), None)
            if helper is not None:  # the move shown is the one supported
                move, support = here, f"{_unit(variant, helper)} S {here}"
                break
        if support is not None:
            break
    movable = [u for u in units if u.type.mobility is not Mobility.NONE] or units  # a garrison last
    hold = f"{_unit(variant, movable[-1])} H"
    return Examples(move, support, hold, _build(variant, position, owners[0], units))


def example_of(form: OrderForm, variant: Variant, position: Position, power: str | None) -> str | None:
    """An example of ``form`` from ``power``'s own units (None where it has none to show it with)."""
    if power is None:
        return None
    if form.example is not None:
        return form.example(position, power)
    found = examples_for(variant, position, power, own_only=True)
    mine = position.units_of(power)
    dislodged = [d for d in position.dislodged if d.unit.power == power]
    if form.name == "retreat" and dislodged:
        for entry in dislodged:
            if entry.retreats:
                return f"{_unit(variant, entry.unit)} R {_name(variant, entry.retreats[0].province)}"
        return None
    if form.name == "disband":
        if dislodged:
            return f"DISBAND {_unit(variant, dislodged[0].unit)}"
        removable = [u for u in mine if variant.supplied(u)]
        return f"REMOVE {_unit(variant, removable[0])}" if removable else None
    if form.name == "convoy":
        return _convoy(variant, position, power)
    if form.name == "waive":
        return "WAIVE"
    return {"move": found.move, "support": found.support, "hold": found.hold, "build": found.build}.get(form.name)


def _build(variant: Variant, position: Position, power: str, units: list[Unit]) -> str | None:
    """A build where the power may build now, else in its first home centre, else where it has a
    unit that needs supply (with a type it may build there)."""
    known = power in variant.map.powers or setup_of(variant).open_membership  # the standard sites need a home
    sites = sorted(variant.build_sites(position, power),  # its supply centres first
                   key=lambda p: (p not in variant.map.supply_centres, _name(variant, p))) if known else []
    home = variant.map.powers[power].home if power in variant.map.powers else ()
    places = sites or list(home[:1]) or [u.location.province for u in units if variant.supplied(u)][:1]
    for site in places:
        types = variant.buildable_types_at(position, power, site)
        if types:
            return f"BUILD {types[0].letter} {_name(variant, site)}"
    return None


def _convoy(variant: Variant, position: Position, power: str) -> str | None:
    """A fleet of the power at sea carrying an army of its own beside it to a coast beside the sea."""
    mine = position.units_of(power)
    armies = [u for u in mine if u.type.convoyable]
    for fleet in sorted((u for u in mine if u.type.convoys), key=lambda u: _name(variant, u.location.province)):
        sea = fleet.location.province
        if not variant.convoy_province(sea):
            continue
        beside = variant.map.neighbours.get(sea, ())
        for army in armies:
            if army.location.province not in beside:
                continue
            to = sorted(_name(variant, p) for p in beside if p != army.location.province
                        and variant.map.provinces[p].holds_armies)
            if to:
                return f"{_unit(variant, fleet)} C {_unit(variant, army)} - {to[0]}"
    return None


def _unit(variant: Variant, unit: Unit) -> str:
    return f"{unit.type.letter} {_name(variant, unit.location.province)}"


def _name(variant: Variant, province: str) -> str:
    return variant.map.provinces[province].name
