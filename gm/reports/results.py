"""What a results mail says about a phase, as template context (names from the variant)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from gm.adjudicator.engine import PhaseReport
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Order
from gm.domain.phases import PhaseKind
from gm.domain.outcomes import OrderResult, Reason, Roll
from gm.domain.position import Position
from gm.domain.units import Unit
from gm.reports.counts import units_counted
from gm.reports.names import Namer
from gm.reports.notes import notes_text
from gm.reports.words import words_of


def results_context(variant: Variant, phase_code: str, report: PhaseReport, before: Position) -> dict[str, Any]:
    namer = Namer(variant, ordered_board(variant, before, [(r.power, r.order) for r in report.results]), whole=True)
    by_power: dict[str, list[dict[str, Any]]] = {p: [] for p in variant.map.powers}
    commanded: dict[Unit, int] = {}  # counted: two alike units may share a province
    dislodged_now = Counter(d.unit for d in report.resolved.dislodged) if before.phase.kind is PhaseKind.MOVEMENT \
        else Counter[Unit]()
    for result in report.results:
        by_power.setdefault(result.power, []).append({
            "text": namer.order(result.order, result.power),
            "succeeded": result.succeeded,
            "reason": outcome_words(result, dislodged_now),
            "notes": notes_text(result.notes),
        })
        if result.unit is not None:
            commanded[result.unit] = commanded.get(result.unit, 0) + 1
    unordered: dict[str, list[str]] = {}  # power -> its units that had no order (canonical, for the headers)
    if before.phase.kind is PhaseKind.MOVEMENT:  # units without orders hold, and are listed too
        dislodged_units = set(dislodged_now)
        destroyed_units = dict(report.destroyed)
        for unit in sorted(before.units, key=str):  # by type, then place, however the position orders them
            if commanded.get(unit, 0):
                commanded[unit] -= 1
                continue
            reason = "dislodged" if unit in dislodged_units else None
            if unit in destroyed_units:
                reason = f"destroyed: {destroyed_units[unit]}"
            if reason is None and unit.power in variant.unplayed_powers:
                continue  # nobody orders a neutral garrison: only what befalls it is news
            if unit.power not in variant.unplayed_powers:
                unordered.setdefault(unit.power, []).append(str(unit))
            by_power.setdefault(unit.power, []).append({
                "text": f"{namer.unit(unit)} HOLD (no order)", "succeeded": reason is None, "reason": reason, "notes": [],
            })
    by_power = {power: lines for power, lines in by_power.items() if lines}
    dislodged = [
        {"unit": namer.owned_unit(d.unit), "retreats": namer.places(list(d.retreats))}
        for d in report.resolved.dislodged
    ]
    nxt = report.next
    ownership_changed = dict(nxt.centres) != dict(before.centres) or nxt.phase.kind is PhaseKind.ADJUSTMENTS
    centres = []
    if variant.map.supply_centres and (ownership_changed or before.phase.kind is not PhaseKind.MOVEMENT):
        for power in list(variant.map.powers) or sorted(variant.in_play(nxt) | variant.in_play(before)):
            owned = [namer.place(Location(c)) for c in sorted(nxt.centres) if nxt.centres[c] == power]
            units = nxt.units_of(power)
            centres.append({"power": power, "adjective": namer.adjective(power), "centres": owned,
                            "count": len(owned), "units": len(units), "units_text": units_counted(variant, units, 2)})
    adjustments = []
    if nxt.phase.kind is PhaseKind.ADJUSTMENTS:
        for adjustment in words_of(variant).shown_adjustments(nxt):
            if adjustment.count:
                adjustments.append({"power": adjustment.power, "count": adjustment.count,
                                    "sites": len(adjustment.build_sites)})
    return {
        "variant": variant,
        "phase_title": variant.title(before.phase),
        "phase_code": phase_code,
        "results_by_power": by_power,
        "dislodged": dislodged,
        "civil_disorder": [namer.owned_unit(u) for u in report.civil_disorder],
        "rolls": [{"purpose": r.purpose, "sides": r.sides, "value": r.value, "effect": r.effect,
                   "when": "" if r.phase == phase_code else variant.title(variant.calendar.parse(r.phase))}
                  for r in shown_rolls(report.rolls)],
        "destroyed": [{"unit": namer.owned_unit(unit), "reason": reason} for unit, reason in report.destroyed],
        "announcements": list(report.announcements),
        "centres": centres,
        "adjustments": adjustments,
        "unordered": header_lines("Unordered", unordered),
        "state_report": words_of(variant).state_report(nxt),
        "next_title": variant.title(nxt.phase),
        "next_code": str(nxt.phase),
        "winner": report.winner,
    }


def outcome_words(result: OrderResult, dislodged: Counter[Unit]) -> str | None:
    """What the results print after an order: why it failed, and "dislodged" for a unit dislodged
    whatever it was ordered, as njudge does ("bounced, dislodged"); None for an order that
    succeeded and left its unit in place. ``dislodged``: the units dislodged, each counted off
    as its order's line takes it (alike units may share a province)."""
    words = [] if result.succeeded else [result.reason_text or "failed"]
    if result.unit is not None and dislodged[result.unit] > 0:
        dislodged[result.unit] -= 1
        if result.reason is not Reason.DISLODGED:
            words.append(Reason.DISLODGED.value)
    return ", ".join(words) or None


def shown_rolls(rolls: Iterable[Roll]) -> list[Roll]:
    """The rolls a mail lists: a die of one face decides nothing, and is no roll to a player."""
    return [roll for roll in rolls if roll.sides > 1]


def ordered_board(variant: Variant, before: Position, orders: Sequence[tuple[str, Order]]) -> Position:
    """The board a phase's orders were given on, as the results name their units: the units as
    they stood, placed where the orders placed them (Rise of Rome II's leaders)."""
    if before.phase.kind is not PhaseKind.MOVEMENT:
        return before
    return variant.prepare_movement(before, orders)[0]


def header_lines(name: str, by_power: dict[str, list[str]], width: int = 72) -> list[str]:
    """``:: Unordered: France A PAR, F BRE`` lines, one or more a power, none over ``width``."""
    lines = []
    for power, items in sorted(by_power.items()):
        line = f":: {name}: {power}"
        for n, item in enumerate(items):
            piece = f" {item}" if n == 0 else f", {item}"
            if len(line) + len(piece) > width and n > 0:
                lines.append(line + ",")
                line, piece = f":: {name}: {power}", f" {item}"
            line += piece
        lines.append(line)
    return lines
