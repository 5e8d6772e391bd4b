"""Resolving a movement phase: Kruijswijk's decisions with partial information (DATC 5.B, 5.E).

Each unit carries one decision: its move succeeds, its support is given, or its convoy holds.
The work is cut along its seams, each a module:

* gm.adjudicator.nodes: a node per unit, its order and the state of its decision;
* gm.adjudicator.graph: the nodes linked (units by province, moves into each, supports and
  convoys to the moves they help), and whether two units may share a province;
* gm.adjudicator.resolver: the generic resolver, with the backup rule for cycles as a policy;
* gm.adjudicator.strengths and gm.adjudicator.conditions: what each unit brings to a battle, and
  what each decision depends on;
* gm.adjudicator.claims: what a path claims of the provinces it enters later (the rounds are
  gm.adjudicator.steps);
* gm.adjudicator.results: the results and the board after the moves.

This runs for every phase of every game, so it is written for speed: one node per unit
holding plain fields, the classes compiled (setup.py), the results built in one pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from gm.adjudicator.conditions import Conditions
from gm.adjudicator.effects import Effects
from gm.adjudicator.resolver import BackupRule
from gm.adjudicator.results import Resolution, results_of
from gm.adjudicator.rulings import MovementOutcome, Ruling
from gm.adjudicator.variant import Variant
from gm.domain.position import Position

SZYKMAN: Final = BackupRule()  # the standard rules' backup rule (2000 and 2023 rules)


def resolve_movement(variant: Variant, position: Position, rulings: Sequence[Ruling],
                     effects: Effects | None = None) -> MovementOutcome:
    return resolve_round(variant, position, rulings, effects).outcome


def resolve_round(variant: Variant, position: Position, rulings: Sequence[Ruling],
                  effects: Effects | None = None) -> Resolution:
    """One resolution, with what the rounds of moves of several steps need (gm.adjudicator.steps)."""
    board = Conditions(variant, position, rulings, effects, SZYKMAN)
    board.resolve_all(board.nodes)
    return results_of(board, rulings)
