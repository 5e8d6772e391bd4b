"""A variant's set-up and membership, a part of it that the engine never asks for (gm.games
starts games and admits players with it; the commands, the CLI, the demo and the bot read it,
the bot from this layer, so its interface is here).

``Setup`` is standard play's: one player a power, every power of the map in every game, the
map's start, nothing to ask of a start; no powers joining during the game; a game's choice of
rules checked against ``Variant.options``. A variant whose set-up differs declares a subclass
as its part ``SETUP`` (gm.variants.catalog); ``setup_of(variant)`` gives the one to use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from gm.adjudicator.parts import Part
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.variant import Variant
from gm.domain.position import Position, sorted_units
from gm.domain.units import Unit


class Setup:
    def __init__(self, variant: Variant):
        self.variant = variant

    # -- a game's start -----------------------------------------------------------------

    def player_counts(self) -> tuple[int, int]:
        """How many players a game may have, fewest and most (standard: one per map power)."""
        powers = len(self.variant.map.powers)
        return powers, powers

    def powers_in_play(self, count: int, log: PhaseLog) -> list[str]:
        """The powers a game of ``count`` players plays, among which its players' seats are then
        assigned (by preference, else at random): all the map's, or, where the rules draw them,
        those drawn with ``log``'s dice."""
        return list(self.variant.map.powers)

    def opening(self, powers: Sequence[str], log: PhaseLog, requests: Mapping[str, str] | None = None) -> Position:
        """The starting position of a game whose players play ``powers`` (given to them by
        preference or at random), drawing any chance from ``log``'s dice: a variant with fewer
        players than powers, or a random setup, overrides it. ``requests``: power -> what its
        player asked of its start when joining (``start_request``)."""
        return self.variant.initial_position()

    def start_request(self, text: str) -> str | None:
        """What a player may ask of its start when joining, other than a power (``JOIN game
        fleets``), in its normal form; None when the text asks nothing this variant knows."""
        return None

    def option_problems(self, chosen: Mapping[str, object]) -> list[tuple[str, str]]:
        """What is wrong with a game's choice of rules: (rule, why) for each problem."""
        options = self.variant.options
        problems = []
        for name, value in chosen.items():
            if name not in options:
                known = ", ".join(sorted(options)) or "none"
                problems.append((name, f"{self.variant.name} has no rule {name!r} to choose (it has: {known})"))
            elif type(value) is not type(options[name]):
                problems.append((name, f"{name} must be like {options[name]!r}, not {value!r}"))
        return problems

    def with_options(self, position: Position, chosen: Mapping[str, object]) -> Position:
        """The game's starting position with the rules its GM chose (``options``) written in."""
        if not chosen:
            return position
        return position.replace(extra={**position.extra, **chosen})

    # -- powers joining during the game (a map with no powers) ------------------------------------

    @property
    def open_membership(self) -> bool:
        return not self.variant.map.powers

    def joining_request(self, text: str, position: Position) -> tuple[str, str]:
        """What a player asks for when joining a game in play: (the power's name, its choice), or
        ValueError saying why not."""
        raise ValueError(f"players do not join {self.variant.name} during the game")

    def joining_choices(self, position: Position) -> list[str]:
        """The choices still open to a player joining now, as a player would write them (for
        examples and the demo); none where nobody joins during the game."""
        return []

    def with_joining(self, position: Position, power: str, choice: str) -> Position:
        """The position with the power waiting to join (ValueError: the choice is taken)."""
        raise ValueError(f"players do not join {self.variant.name} during the game")

    def admit_joining(self, position: Position, log: PhaseLog) -> Position:
        """The position with every power waiting to join brought into the game."""
        return position

    def renamed(self, position: Position, old: str, new: str) -> Position:
        """The position with a power founded by a player renamed (the game master's choice of
        name): its units, centres and dislodged units; a variant renames it in its state too."""
        def unit(u: Unit) -> Unit:
            return Unit(new, u.type, u.location) if u.power == old else u

        return position.replace(
            units=sorted_units(unit(u) for u in position.units),
            centres={c: new if o == old else o for c, o in position.centres.items()},
            dislodged=tuple(replace(d, unit=unit(d.unit)) for d in position.dislodged),
            second_moves=tuple(replace(m, unit=unit(m.unit)) for m in position.second_moves))


SETUP: Final = Part[Setup]("setup")


def setup_of(variant: Variant) -> Setup:
    """The variant's set-up as it declares it, else standard play's."""
    return variant.parts.get(SETUP) or Setup(variant)
