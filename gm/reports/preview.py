"""What PREVIEW shows the game master: the phase processed now, without a die.

A game master who saw the dice before they fall could act on them (BECOME a power and change
its orders), so a preview never rolls with the game's secret seed. In a variant that rolls dice
the phase is adjudicated with trial seeds that are not the game's (``TRIALS`` of them, derived
from nothing secret): a result, a line of the results, is shown where every trial gives the same;
where they differ it "waits on the dice", and no roll is ever printed. What a preview shows is
so never a die of the game, nor anything only a die of the game decides. A variant without dice
is previewed exactly as processing will go.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gm.adjudicator.engine import adjudicate
from gm.adjudicator.variant import Variant
from gm.domain.orders import Order
from gm.domain.position import Position
from gm.reports.results import results_context

TRIALS = 16
WAITS = "waits on the dice"
_COMPARED = ("dislodged", "civil_disorder", "destroyed", "announcements", "centres", "adjustments", "state_report")


def preview_context(variant: Variant, position: Position, orders: Sequence[tuple[str, Order]], phase_code: str,
                    seed: str | None) -> dict[str, Any]:
    """The results mail's context for processing now; ``seed``: the game's, used only by a
    variant that rolls no dice (where it decides nothing)."""
    if not variant.rolls_dice:
        report = adjudicate(variant, position, orders, seed=seed)
        return {**results_context(variant, phase_code, report, position), "dice_hidden": False}
    trials = [results_context(variant, phase_code, adjudicate(variant, position, orders, seed=f"preview trial {n}"),
                              position) for n in range(TRIALS)]
    if not any(t["rolls"] for t in trials):
        return {**trials[0], "dice_hidden": False}
    shown = dict(trials[0])
    shown["rolls"] = []
    shown["results_by_power"] = _results(trials)
    hidden = False
    for key in _COMPARED:
        kept = [item for item in trials[0][key] if all(item in t[key] for t in trials[1:])]
        hidden = hidden or any(len(t[key]) != len(kept) for t in trials)
        shown[key] = kept
    for key in ("next_title", "next_code", "winner"):
        if any(t[key] != trials[0][key] for t in trials[1:]):
            shown[key] = WAITS if key != "winner" else None
            hidden = True
    shown["dice_hidden"] = hidden
    return shown


def _results(trials: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Each power's result lines as the first trial gives them, each that some trial gives
    otherwise marked as waiting on the dice (one line a submitted order, in every trial)."""
    first = trials[0]["results_by_power"]
    merged: dict[str, list[dict[str, Any]]] = {}
    for power, lines in first.items():
        merged[power] = []
        for index, line in enumerate(lines):
            alike = all(index < len(t["results_by_power"].get(power, [])) and t["results_by_power"][power][index] == line
                        for t in trials[1:])
            merged[power].append(line if alike else {"text": line["text"], "succeeded": True, "reason": None,
                                                     "notes": [f"its result {WAITS}"]})
    return merged
