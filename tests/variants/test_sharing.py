"""Units sharing a space, in every variant that lets them: one rule for a move in and a retreat in.

Rise of Rome II lets a leader share a space with a unit of its own (Stephen Agar's rule 3.4),
Roman Diplomacy a garrison with a friendly unit (Pete Calcraft's rule 3; a federation partner's
is friendly, rule 5), Eagles any fleets in a sea (Ed Greenwood's Sea Warfare). Each case below
is one unit and one space with what stands there, run twice through `gm adjudicate`: the unit
moves in (it shares when it gets in and nobody there is dislodged), and the unit, dislodged
next door, is offered the space as a retreat. The two answers are always the same, and are the
text's (docs/rules/*.md trace the rules to these tests).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest

from gm.interchange import adjudicate_json
from gm.variants.catalog import VariantCatalog

CATALOG = VariantCatalog()


@dataclass(frozen=True)
class Board:
    """Where the unit comes from and goes, and an attack that dislodges it where it stands."""

    variant: str
    phase: str
    start: str  # the province the unit stands in
    space: str  # the space it moves or retreats into
    attack: dict[str, list[str]]  # units that beat it where it stands
    orders: dict[str, list[str]]  # their orders
    extra: dict[str, Any]


ROME = Board("rise-of-rome-ii", "F-219M", "SIC", "CAM", {"Carthage": ["A SYR", "F AFR"]},
             {"Carthage": ["A SYR - SIC", "F AFR S A SYR - SIC"]}, {})
LATIUM = {"empires": {"Latium": "ROM", "Gallia": "MAR"}, "barbarians": []}
TUSCANY = Board("roman-diplomacy-i", "S101M", "TUS", "ROM", {"Dacia": ["A PIE", "A VEN"]},
                {"Dacia": ["A PIE - TUS", "A VEN S A PIE - TUS"]}, LATIUM)
NUMIDIA = Board("roman-diplomacy-ii", "S-239M", "NUM", "CAR", {"Dacia": ["A GAE", "A MSY"]},
                {"Dacia": ["A GAE - NUM", "A MSY S A GAE - NUM"]}, {"empires": {"Punica": "CAR"}, "barbarians": []})
ROMA = Board("eagles", "S118M", "ROM", "MTY", {"Antiochia": ["A ETR", "A PIC"]},
             {"Antiochia": ["A ETR - ROM", "A PIC S A ETR - ROM"]}, {})
ROMA_PORT = Board("eagles", "S118M", "ROM", "HER", ROMA.attack, ROMA.orders, {})
FEDERATED = replace(TUSCANY, extra={**LATIUM, "federations": [["Gallia", "Latium"]]})

CASES = [
    # board, the unit (power, type), the units in the space, do they share
    (ROME, ("Rome", "L"), {"Rome": ["A"]}, True),  # 3.4: a leader beside its own army
    (ROME, ("Rome", "A"), {"Rome": ["L"]}, True),  # 3.4: an army beside its own leader
    (ROME, ("Rome", "F"), {"Rome": ["L"]}, True),  # 3.4: any unit of its own
    (ROME, ("Rome", "A"), {"Rome": ["A", "L"]}, False),  # the leader has a unit already
    (ROME, ("Rome", "A"), {"Rome": ["A"]}, False),  # two armies never share
    (ROME, ("Rome", "L"), {"Carthage": ["A"]}, False),  # "of their own nationality"
    (ROME, ("Rome", "A"), {"Carthage": ["L"]}, False),
    (TUSCANY, ("Latium", "A"), {"Latium": ["G"]}, True),  # 3: beside its own garrison
    (TUSCANY, ("Gallia", "A"), {"Latium": ["G"]}, False),  # another empire's garrison resists
    (FEDERATED, ("Gallia", "A"), {"Latium": ["G"]}, True),  # 5: a partner's garrison is friendly
    (TUSCANY, ("Latium", "A"), {"Neutral": ["G"]}, False),  # a neutral garrison resists (3, 7)
    (TUSCANY, ("Latium", "A"), {"Latium": ["G", "F"]}, False),  # the garrison has its friendly unit
    (TUSCANY, ("Latium", "B"), {"Neutral": ["G"]}, True),  # 8: a barbarian army in a neutral centre
    (NUMIDIA, ("Punica", "A"), {"Punica": ["G"]}, True),  # board II: the same rules
    (NUMIDIA, ("Punica", "A"), {"Neutral": ["G"]}, False),
    (ROMA, ("Alexandria", "F"), {"Byzantium": ["F"]}, True),  # sea warfare: any fleets in a sea
    (ROMA, ("Alexandria", "F"), {"Alexandria": ["F", "F"]}, True),
    (ROMA_PORT, ("Alexandria", "F"), {"Byzantium": ["F"]}, False),  # a port holds one unit
    (ROMA_PORT, ("Alexandria", "A"), {"Byzantium": ["A"]}, False),
]


def _adjudicate(board: Board, units: dict[str, list[str]], orders: dict[str, list[str]]) -> dict[str, Any]:
    document = {"variant": board.variant, "phase": board.phase, "units": units, "orders": orders,
                "extra": board.extra}
    return adjudicate_json(document, CATALOG)


def _units(board: Board, unit: tuple[str, str], there: dict[str, list[str]],
           more: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    units: dict[str, list[str]] = {}
    power, kind = unit
    units.setdefault(power, []).append(f"{kind} {board.start}")
    for owner, kinds in there.items():
        units.setdefault(owner, []).extend(f"{k} {board.space}" for k in kinds)
    for owner, listed in (more or {}).items():
        units.setdefault(owner, []).extend(listed)
    return units


def _name(case: tuple[Board, tuple[str, str], dict[str, list[str]], bool]) -> str:
    board, (power, kind), there, _ = case
    federated = " (federated)" if board.extra.get("federations") else ""
    return f"{board.variant}: {kind} {power}{federated} into {board.space} by " + ", ".join(
        f"{'+'.join(kinds)} {owner}" for owner, kinds in there.items())


@pytest.mark.parametrize(("board", "unit", "there", "shares"), CASES, ids=[_name(c) for c in CASES])
def test_a_unit_retreats_beside_the_units_it_may_move_in_beside(
        board: Board, unit: tuple[str, str], there: dict[str, list[str]], shares: bool) -> None:
    power, kind = unit
    mover = f"{kind} {board.start}"
    moved = _adjudicate(board, _units(board, unit, there), {power: [f"{mover} - {board.space}"]})
    entered = next(r for r in moved["results"][power] if r["unit"] == mover)["outcome"] == "succeeds"
    assert (entered and not moved["dislodged"]) is shares, moved

    beaten = _adjudicate(board, _units(board, unit, there, board.attack), board.orders)
    offered = {d["unit"]: d["retreats"] for d in beaten["dislodged"].get(power, [])}
    assert mover in offered, beaten
    assert (board.space in offered[mover]) is shares, offered
