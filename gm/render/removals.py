"""The units a phase removed from the board, whatever removed them, found from its report.

- a variant's rule during the moves (``PhaseReport.destroyed``: destroyed by barbarians, sunk in
  an attack, lost at sea with the fleet convoying it);
- civil disorder: units removed because their power gave too few removal orders;
- a dislodged unit with nowhere to retreat (drawn dislodged and removed on the moves' picture);
- on a retreat phase's picture, each dislodged unit that did not retreat;
- whatever the rules take away at the end of the season (a winter storm, a unit removed before
  the others): a unit of the board after the phase's orders that is gone from the next board,
  with no unit in its place (a unit handed to another power, or a double unit become single, is
  not removed).

Units disbanded by their own order are not listed: the order's cross shows them.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.adjudicator.engine import PhaseReport
from gm.domain.orders import Disband, Retreat
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.domain.units import Unit


@dataclass(frozen=True)
class Removal:
    unit: Unit  # as it stood when removed (where it had moved to, if it moved)
    dislodged: bool  # removed while dislodged (drawn off its province's spot)


def removals(position: Position, report: PhaseReport | None) -> list[Removal]:
    """The units the phase of ``position`` removed, each once, in the order found."""
    if report is None:
        return []
    disbanded = {r.unit for r in report.results if isinstance(r.order, Disband) and r.succeeded}
    found: dict[Removal, None] = {}

    def add(unit: Unit, dislodged: bool) -> None:
        if unit not in disbanded:
            found.setdefault(Removal(unit, dislodged), None)

    for unit, _why in report.destroyed:
        add(unit, False)
    for unit in report.civil_disorder:
        add(unit, False)
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        for d in report.resolved.dislodged:
            if not d.retreats:
                add(d.unit, True)
    elif kind is PhaseKind.RETREATS:
        retreated = {r.unit for r in report.results if isinstance(r.order, Retreat) and r.succeeded}
        for d in position.dislodged:
            if d.unit not in retreated:
                add(d.unit, True)
    after = report.next
    standing = {u.location for u in after.units} | {d.unit.location for d in after.dislodged}
    for unit in report.resolved.units:
        if unit.location not in standing:
            add(unit, False)
    return list(found)
