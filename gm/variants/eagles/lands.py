"""Rule 5: barbarian lands. A unit that moved into one rolls at once; one repelled or retreated
there waits in ``extra.barbarian_wait`` and rolls at the end of the next move if it is still
there."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gm.adjudicator.effects import Effects
from gm.adjudicator.retreats import retreats_left
from gm.adjudicator.rulings import MovementOutcome
from gm.domain.geography import Location
from gm.domain.position import Position, sorted_units
from gm.domain.units import Unit
from gm.variants.eagles.state import EaglesState

if TYPE_CHECKING:
    from gm.variants.eagles.rules import Eagles


def barbarian_lands(variant: Eagles, effects: Effects, outcome: MovementOutcome,
                    position: Position) -> MovementOutcome:
    """5: each unit that moved into barbarian land, or waited there, rolls."""
    state = EaglesState.of(position)
    units = list(outcome.units)
    destroyed: list[tuple[Unit, str]] = []
    waiting: list[tuple[str, str]] = []
    rolling: list[tuple[Unit, str | None]] = []  # the unit as it stands now, where it came from
    for unit, where in outcome.moves:
        if where.province in variant.barbarian:
            rolling.append((Unit(unit.power, unit.type, where), unit.location.province))
    moved_from = {u for u, _ in outcome.moves}
    for power, text in state.barbarian_wait:
        still = next((u for u in position.units if u.power == power and str(u) == text and u not in moved_from
                      and u in units), None)
        if still is not None:
            rolling.append((still, None))
    for unit, origin in rolling:
        if unit not in units:
            continue
        province = unit.location.province
        roll = effects.roll(f"barbarians: {unit} ({unit.power}) in {variant.name_of(province)}", units=(unit,))
        value = roll.value
        if value in (2, 5) or (value == 1 and province in variant.desert):
            why = "destroyed by sandstorms and lack of water" if value == 1 else "destroyed by barbarians"
            roll.effect = f"{unit} ({unit.power}) {why}"
            units.remove(unit)
            destroyed.append((unit, why))
        elif value == 4 and origin is not None:
            back = Unit(unit.power, unit.type, _origin_location(unit, origin, outcome))
            free = not any(u.location.province == origin for u in units)
            units.remove(unit)
            if free:
                units.append(back)
                roll.effect = f"{unit} ({unit.power}) repelled back to {variant.name_of(origin)}"
                if origin in variant.barbarian:
                    waiting.append((back.power, str(back)))
            else:
                roll.effect = f"{unit} ({unit.power}) repelled, with nowhere to go back: destroyed"
                destroyed.append((unit, "repelled by barbarians with nowhere to go back"))
        elif value == 4:
            roll.effect = "no effect (it has nowhere to be repelled to)"
        else:
            roll.effect = "no effect"
    if rolling or state.barbarian_wait:  # a unit repelled where a retreat was open
        outcome.dislodged = retreats_left(variant, outcome.dislodged, units)
    outcome.units = sorted_units(units)
    outcome.destroyed.extend(destroyed)
    board = position.replace(units=outcome.units, extra=dict(outcome.extra or position.extra))
    outcome.extra = state.changed(barbarian_wait=tuple(waiting)).extra(board)
    return outcome

def _origin_location(unit: Unit, origin: str, outcome: MovementOutcome) -> Location:
    for before, where in outcome.moves:
        if before.location.province == origin and where == unit.location:
            return before.location
    return Location(origin)

def retreated_into(variant: Eagles, position: Position, moves: Sequence[tuple[Unit, Location | None]]) -> Position:
    """5: a unit retreating into barbarian land rolls only if still there after the next move."""
    state = EaglesState.of(position)
    waiting = list(state.barbarian_wait)
    for unit, where in moves:
        if where is not None and where.province in variant.barbarian:
            waiting.append((unit.power, str(Unit(unit.power, unit.type, where))))
    return position.replace(extra=state.changed(barbarian_wait=tuple(waiting)).extra(position))
