"""Rules 1 and 2: the start. The generals are drawn (a die over the general centres left), then
each player in turn draws two allied centres (20 centres; 24 with more than ten players); an
army in each of the three original centres, a fleet in a coastal one for a player who asked;
every other centre in play but Roma holds a defending army of ``Neutral``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gm.adjudicator.phaselog import PhaseLog
from gm.domain.geography import Location
from gm.domain.position import Position, sorted_units
from gm.domain.units import ARMY, FLEET, Unit
from gm.variants.eagles.state import EaglesState
from gm.variants.setup import Setup

if TYPE_CHECKING:
    from gm.variants.eagles.rules import Eagles

NEUTRAL = "Neutral"
SAMPLE_PLAYERS = 6  # the start shown where no game draws one (the bench, the picture)
SAMPLE_SEED = "eagles sample start"
FLEETS = "fleets"  # what a player asks for who wants fleets in its coastal original centres
_FLEET_REQUEST_WORDS = frozenset({"fleet", "fleets", "with", "a", "instead", "in", "my", "the", "coastal", "coast",
                                  "centres", "centers", "centre", "center", "please"})


def generals(variant: Eagles, count: int, log: PhaseLog) -> list[str]:
    """1: each player's general is drawn among the general centres left (a D12, then D11...)."""
    left, drawn = list(variant.general_centres), []
    for number in range(count):
        roll = log.roll("setup", f"general {number + 1}", len(left))
        centre = left.pop(roll.value - 1)
        drawn.append(variant.general_of[centre])
        roll.effect = f"{drawn[-1]}: general in {variant.name_of(centre)}"
    return drawn


def start_request(text: str) -> str | None:
    """1: a player may ask, when joining, for fleets instead of armies in those of its original
    centres that are coastal (``JOIN game fleets``); it does not know them yet."""
    words = set(text.lower().replace(",", " ").split())
    return FLEETS if words & {"fleet", "fleets"} and words <= _FLEET_REQUEST_WORDS else None


def opening(variant: Eagles, powers: Sequence[str], log: PhaseLog, requests: Mapping[str, str] | None = None
            ) -> Position:
    """1: the players in turn (in the order of the general centres) each draw two allied
    centres; an army in each original centre (a fleet in a coastal one for a player who asked
    for fleets); 2: a defending army in every other centre."""
    centre_of = {p: c for c, p in variant.general_of.items()}
    order = sorted(powers, key=lambda p: variant.general_centres.index(centre_of[p]))
    pool = list(variant.allied_centres) + (list(variant.extra_allied) if len(powers) >= variant.extra_from else [])
    originals: dict[str, tuple[str, ...]] = {}
    for power in order:
        mine = [centre_of[power]]
        for number in range(variant.per_player):
            roll = log.roll("setup", f"allied centre {number + 1} of {power}", len(pool))
            mine.append(pool.pop(roll.value - 1))
            roll.effect = f"{variant.name_of(mine[-1])} allies itself with {power}"
        originals[power] = tuple(mine)
    fleets = {p for p, asked in (requests or {}).items() if asked == FLEETS}
    units = [Unit(p, FLEET if p in fleets and variant.map.provinces[c].holds_fleets else ARMY, Location(c))
             for p, cs in originals.items() for c in cs]
    centres = {c: p for p, cs in originals.items() for c in cs}
    taken = set(centres) | variant.undefended
    units += [Unit(NEUTRAL, ARMY, Location(c)) for c in sorted(variant.centres_in_play(len(powers)) - taken)]
    start = Position(variant.calendar.first_phase(variant.first_year), sorted_units(units), centres)
    return start.replace(extra=EaglesState(original_centres=originals).extra(start))


def sample_start(variant: Eagles) -> Position:
    """A start of six players, drawn with a published seed (where no game draws its own)."""
    log = PhaseLog(SAMPLE_SEED)
    return opening(variant, generals(variant, SAMPLE_PLAYERS, log), log)


class EaglesSetup(Setup):
    """1, 2: the generals drawn, the allied centres dealt, fleets for a player who asked."""

    def __init__(self, variant: Eagles):
        super().__init__(variant)
        self.eagles = variant

    def player_counts(self) -> tuple[int, int]:
        return self.eagles.players

    def powers_in_play(self, count: int, log: PhaseLog) -> list[str]:
        return generals(self.eagles, count, log)

    def start_request(self, text: str) -> str | None:
        return start_request(text)

    def opening(self, powers: Sequence[str], log: PhaseLog, requests: Mapping[str, str] | None = None) -> Position:
        return opening(self.eagles, powers, log, requests)
