"""A test-only rule delta over the standard board that uses everything a variant may put in a
phase's results: dice, a unit destroyed by a rule, notes, a prevented order, and variant state
in ``Position.extra`` changed at every season's end (with a die). Played under the name
"standard", so the store tests can write ordinary game files for it.
"""

from __future__ import annotations

from typing import Any

from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.effects import Effects
from gm.adjudicator.variant import Variant
from gm.domain.position import Position
from gm.maps.model import GameMap
from gm.variants.standard import CALENDAR


class Stormy(Variant):
    def before_movement(self, effects: Effects) -> None:
        # Each English fleet rolls against a storm; the lowest roll (the first of equals) sinks.
        rolls = []
        for slot, unit in enumerate(effects.position.units):
            if unit.power == "England" and unit.type.letter == "F":
                rolls.append((effects.roll(f"storm, {unit}"), slot))
        if rolls:
            sunk = min(rolls, key=lambda pair: pair[0].value)[1]
            for roll, slot in rolls:
                roll.effect = "sunk" if slot == sunk else "calm"
            effects.destroy(sunk, "sunk in a storm")
        for slot, unit in enumerate(effects.position.units):
            if unit.power == "France" and unit.province == "PAR":
                effects.add_strength(slot, 0.5, "strength 1½: led by the test")
        for index, ruling in enumerate(effects.rulings):
            if ruling.counts and ruling.unit is not None and ruling.unit.province == "MUN":
                effects.prevent(index, "the Alps are snowed in")

    def end_of_season(self, position: Position, log: PhaseLog) -> Position:
        position = super().end_of_season(position, log)
        harvest = log.roll(str(position.phase), "harvest")
        harvest.effect = f"{harvest.value} talents to every treasury"
        extra: dict[str, Any] = dict(position.extra)
        treasury = {power: amount + harvest.value for power, amount in extra.get("treasury", {}).items()}
        extra["treasury"] = treasury
        extra["harvests"] = [*extra.get("harvests", []), {"phase": str(position.phase), "talents": harvest.value}]
        return position.replace(extra=extra)


def make(game_map: GameMap) -> Variant:
    variant = Stormy("standard", game_map, CALENDAR, first_year=1901)
    variant.rolls_dice = True
    return variant


class _Declared:
    """Stands in the catalog for standard play's entry (gm.variants.catalog.Declared): the tests'
    rules module is no package of gm.variants."""

    @staticmethod
    def make(game_map: GameMap) -> Variant:
        return make(game_map)


DECLARED: Any = _Declared()
