"""Boards as crowded as a game could make them, to draw: every province filled, each unit of a
power in turn (twelve founded empires where players found their powers), every supply centre
owned, and where the variant lets units share a province, as many as may share it (up to
three); then a few units dislodged beside them."""

from __future__ import annotations

from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.position import Dislodgement, Position, sorted_units
from gm.domain.units import Mobility, Unit
from gm.variants.setup import setup_of

EMPIRES = tuple(f"Empire {n}" for n in range(1, 13))  # founded by players, in the order they joined


def powers(variant: Variant) -> tuple[str, ...]:
    return tuple(variant.map.powers) or EMPIRES


def _locations(variant: Variant, province: str) -> list[Location]:
    coasts = variant.map.provinces[province].coasts
    return [Location(province)] + [Location(province, c) for c in coasts]


def founded(variant: Variant, start: Position) -> Position:
    """``start`` with the twelve empires founded, one at each of the first Imperial City sites."""
    for empire in EMPIRES:
        site = setup_of(variant).joining_choices(start)[0]
        name, city = setup_of(variant).joining_request(f"{site} as {empire}", start)
        start = setup_of(variant).with_joining(start, name, city)
    return setup_of(variant).admit_joining(start, PhaseLog(None))


def crowded(variant: Variant, dislodged_every: int = 9) -> Position:
    start = variant.initial_position()
    if setup_of(variant).open_membership:
        start = founded(variant, start)
    players = powers(variant)
    kinds = [t for t in variant.unit_types if t.mobility is not Mobility.NONE] + \
            [t for t in variant.unit_types if t.mobility is Mobility.NONE]
    units: list[Unit] = []
    dislodged: list[Dislodgement] = []
    turn = 0
    for index, province in enumerate(sorted(variant.map.provinces)):
        here: list[Unit] = []
        for kind in kinds * 2:
            if len(here) == (3 if variant.stacks else 1):
                break
            power = players[turn % len(players)]
            for location in _locations(variant, province):
                unit = Unit(power, kind, location)
                if not variant.can_stand(kind, location):
                    continue
                if kind.mobility is Mobility.NONE and province not in variant.map.supply_centres:
                    continue  # garrisons hold cities
                if here and (not variant.stacks or variant.stack_problem([*here, unit]) is not None):
                    unit = Unit(here[0].power, kind, location)  # a power's own units may share where others may not
                    if not variant.stacks or unit in here or variant.stack_problem([*here, unit]) is not None:
                        continue
                here.append(unit)
                turn += 1
                break
        units += here
        if here and index % dislodged_every == 4:
            unit = here[0]
            dislodged.append(Dislodgement(Unit(players[(turn + 3) % len(players)], unit.type, unit.location),
                                          None, ()))
    centres = {c: players[n % len(players)] for n, c in enumerate(sorted(variant.map.supply_centres))}
    return start.replace(units=sorted_units(units), centres=centres, dislodged=tuple(dislodged))
