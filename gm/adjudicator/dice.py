"""Dice that anyone can check: one source of randomness for the whole engine.

Each roll is derived from the game's secret seed, the phase and the roll's purpose, with
HMAC-SHA-256, never from a global random generator. So the same seed always gives the same
game, and once the seed is published anyone can re-derive every roll:

    message = "<phase>|<purpose>|<n>|<attempt>"   (n: how many times this purpose was rolled
                                                   before in this phase; attempt: 0, 1, ...)
    digest  = HMAC-SHA-256(key = seed as UTF-8, message as UTF-8)

The digest is read as four 64-bit big-endian numbers; the first below the largest multiple of
``sides`` gives ``number % sides + 1`` (no bias); if none is, the next attempt is made.
The game commits to its seed by publishing ``commitment(seed)`` (SHA-256 of the seed).
"""

from __future__ import annotations

import hashlib
import hmac

from gm.domain.outcomes import Roll
from gm.domain.units import Unit


class DiceError(ValueError):
    """A rule needed a die but the phase was given no seed."""


def commitment(seed: str) -> str:
    """What a game publishes before its first roll: the SHA-256 of its seed, in hex."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def derive(seed: str, message: str, sides: int) -> int:
    """The value (1..sides) of the die named by ``message``."""
    if sides < 1:
        raise ValueError("a die has at least one side")
    span = 1 << 64
    limit = span - span % sides
    attempt = 0
    key = seed.encode("utf-8")
    while True:
        digest = hmac.new(key, f"{message}|{attempt}".encode(), hashlib.sha256).digest()
        for start in range(0, 32, 8):
            number = int.from_bytes(digest[start:start + 8], "big")
            if number < limit:
                return number % sides + 1
        attempt += 1


class Dice:
    """The rolls of one adjudication, in the order they were made."""

    def __init__(self, seed: str | None):
        self.seed = seed
        self.rolls: list[Roll] = []
        self._made: dict[tuple[str, str], int] = {}

    def roll(self, phase: str, purpose: str, sides: int = 6, units: tuple[Unit, ...] = ()) -> Roll:
        """Roll one die for ``units`` (if it concerns some); the caller sets ``effect`` on the
        returned roll once it has used it. The units do not enter the derivation."""
        if self.seed is None:
            raise DiceError(f"a die must be rolled ({purpose}) but no dice seed was given")
        made = self._made.get((phase, purpose), 0)
        self._made[(phase, purpose)] = made + 1
        roll = Roll(phase, purpose, sides, derive(self.seed, f"{phase}|{purpose}|{made}", sides), "", units)
        self.rolls.append(roll)
        return roll
