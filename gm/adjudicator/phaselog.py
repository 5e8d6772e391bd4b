"""What an adjudication records besides the orders' results: every die rolled, and what the
variant's rules announce (a rebellion, a storm), in the order they happened. The variant's
hooks receive it; the report carries it into the results."""

from __future__ import annotations

from gm.adjudicator.dice import Dice
from gm.domain.outcomes import Roll
from gm.domain.units import Unit


class PhaseLog:
    def __init__(self, seed: str | None):
        self.dice = Dice(seed)
        self.announcements: list[str] = []

    @property
    def rolls(self) -> list[Roll]:
        return self.dice.rolls

    def roll(self, phase: str, purpose: str, sides: int = 6, units: tuple[Unit, ...] = ()) -> Roll:
        """One die (gm.adjudicator.dice), for ``units`` if it concerns some; set ``effect`` on the
        roll once it has been used."""
        return self.dice.roll(phase, purpose, sides, units)

    def announce(self, text: str) -> None:
        """A line for the results: what a rule did that no order asked for."""
        self.announcements.append(text)
