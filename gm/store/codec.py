"""Positions and orders as JSON, to store them and to restore any phase exactly."""

from __future__ import annotations

from typing import Any

from gm.adjudicator.kept import PerVariant
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.outcomes import OrderResult
from gm.domain.position import Dislodgement, PendingMove, Position
from gm.domain.units import Unit
from gm.reports.notes import notes_text


def unit_text(unit: Unit) -> str:
    return f"{unit.type.letter} {unit.location}"


def encode_position(position: Position) -> dict[str, Any]:
    units: dict[str, list[str]] = {}
    for unit in position.units:
        units.setdefault(unit.power, []).append(unit_text(unit))
    encoded: dict[str, Any] = {
        "phase": str(position.phase),
        "units": {p: sorted(u) for p, u in sorted(units.items())},
        "centres": dict(sorted(position.centres.items())),
        "dislodged": [
            {
                "power": d.unit.power,
                "unit": unit_text(d.unit),
                "from": d.attacker_from,
                "retreats": [str(r) for r in d.retreats],
            }
            for d in position.dislodged
        ],
        "extra": dict(position.extra),
    }
    if position.second_moves:
        encoded["second_moves"] = [
            {"power": m.unit.power, "unit": unit_text(m.unit), "path": [str(loc) for loc in m.path]}
            for m in position.second_moves
        ]
    return encoded


_MEMO_LIMIT = 4096


def _units_met(variant: Variant) -> dict[tuple[str, str], Unit]:
    return {}


# For each variant: (power, stored text) -> Unit, for units met before.
_UNITS_MET: PerVariant[Variant, dict[tuple[str, str], Unit]] = PerVariant(_units_met)


def decode_unit(variant: Variant, power: str, text: str) -> Unit:
    """The unit stored as ``text`` ("A PAR", "F STP/NC"). Units are immutable: the last few
    thousand decoded for each variant are kept, as every phase of a game stores most again."""
    memo = _UNITS_MET(variant)
    key = (power, text)
    unit = memo.get(key)
    if unit is None:
        unit = _decode_unit(variant, power, text)
        if len(memo) >= _MEMO_LIMIT:
            del memo[next(iter(memo))]
        memo[key] = unit
    return unit


def _decode_unit(variant: Variant, power: str, text: str) -> Unit:
    letter, _, where = text.partition(" ")
    unit_type = variant.unit_type(letter)
    if unit_type is None:
        raise ValueError(f"unknown unit type in stored position: {text!r}")
    return Unit(power, unit_type, Location.parse(where))


def decode_position(variant: Variant, data: dict[str, Any]) -> Position:
    units = [decode_unit(variant, power, text) for power, items in data["units"].items() for text in items]
    dislodged = tuple(
        Dislodgement(
            decode_unit(variant, d["power"], d["unit"]),
            d.get("from"),
            tuple(Location.parse(r) for r in d.get("retreats", [])),
        )
        for d in data.get("dislodged", [])
    )
    second_moves = tuple(
        PendingMove(decode_unit(variant, m["power"], m["unit"]), tuple(Location.parse(p) for p in m["path"]))
        for m in data.get("second_moves", [])
    )
    return Position(
        phase=variant.calendar.parse(data["phase"]),
        units=tuple(units),
        centres=dict(data.get("centres", {})),
        dislodged=dislodged,
        extra=dict(data.get("extra", {})),
        second_moves=second_moves,
    )


def encode_results(results: list[OrderResult]) -> list[dict[str, Any]]:
    return [
        {
            "power": r.power,
            "order": r.text,
            "unit": unit_text(r.unit) if r.unit is not None else None,
            "succeeded": r.succeeded,
            "reason": r.reason_text,
            **({"notes": notes_text(r.notes)} if r.notes else {}),
        }
        for r in results
    ]
