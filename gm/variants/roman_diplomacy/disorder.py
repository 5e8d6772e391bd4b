"""Rule 9: civil disorder, after two movement phases without any order in a row or three in all
(counted in ``extra.missed`` at the end of each movement phase)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.retreats import retreats_left
from gm.domain.geography import Location
from gm.domain.outcomes import OrderResult
from gm.domain.position import Position, sorted_units
from gm.domain.units import Unit
from gm.variants.roman_diplomacy.state import RomanState
from gm.variants.roman_diplomacy.units import GARRISON, NEUTRAL

if TYPE_CHECKING:
    from gm.variants.roman_diplomacy.rules import RomanDiplomacy

MISSED_IN_ROW, MISSED_IN_ALL = 2, 3  # movement phases without orders before civil disorder


def missed_orders(variant: RomanDiplomacy, position: Position, results: Sequence[OrderResult],
                  log: PhaseLog) -> Position:
    """An empire with units that gave no order at all this movement phase missed it; two in a row
    or three in all put it in civil disorder."""
    state = RomanState.of(position)
    ordered = {r.power for r in results}
    missed = dict(state.missed)
    for empire in sorted(state.empires):
        if empire in ordered or not position.units_of(empire):
            if empire in missed:
                missed[empire] = (0, missed[empire][1])
            continue
        in_row, in_all = missed.get(empire, (0, 0))
        missed[empire] = (in_row + 1, in_all + 1)
    board = position.replace(extra=state.changed(missed=missed).extra(position))
    for empire, (in_row, in_all) in sorted(missed.items()):
        if in_row >= MISSED_IN_ROW or in_all >= MISSED_IN_ALL:
            board = civil_disorder(variant, board, empire, log)
    return board


def civil_disorder(variant: RomanDiplomacy, position: Position, power: str, log: PhaseLog) -> Position:
    """Every centre of the empire turns neutral; its units in supply centres are removed; the
    others stand, unordered, until dislodged; centres no foreign unit holds get a neutral
    garrison."""
    state = RomanState.of(position)
    centres_of = variant.map.supply_centres
    lost = sorted(c for c, owner in position.centres.items() if owner == power)
    centres = {c: o for c, o in position.centres.items() if o != power}
    units = [u for u in position.units if not (u.power == power and u.location.province in centres_of)]
    for centre in lost:
        if not any(u.location.province == centre and u.power != power for u in units):
            units.append(Unit(NEUTRAL, GARRISON, Location(centre)))
    log.announce(f"{power} falls into civil disorder: its centres are neutral again")
    # no retreat into a centre just garrisoned (a neutral garrison shares with no empire's unit)
    dislodged = retreats_left(variant, position.dislodged, units, variant.sides(position))
    board = position.replace(units=sorted_units(units), centres=centres, dislodged=dislodged)
    federations = tuple(kept for f in state.federations if len(kept := tuple(e for e in f if e != power)) > 1)
    gone = state.changed(
        empires={e: c for e, c in state.empires.items() if e != power}, federations=federations,
        asked={e: tuple(o for o in others if o != power) for e, others in state.asked.items() if e != power},
        missed={e: counts for e, counts in state.missed.items() if e != power},
        gifts=tuple(g for g in state.gifts if power not in (g["from"], g["to"])),
        special={c: e for c, e in state.special.items() if e != power})
    return board.replace(extra=gone.extra(board))
