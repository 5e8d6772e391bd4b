"""The judge plays a power that missed a deadline (``missed: {policy: play}``), as the DPjudge's
SMART_CD plays a power in civil disorder.

At the deadline, each power that owes orders and gave none at all (its player silent, its seat
vacant or in civil disorder) is given orders by the plausible player (gm.bots.plausible), in any
variant: they are read and judged as a player's (an order that would surely fail is refused and
its unit left without one), adjudicated and kept with the phase (``PhaseRecord.orders``, the
powers played in its results), never as the power's own order set, and the results say so. The
phase still counts as missed for the power (its player gave nothing): after ``after`` missed in
a row it is in civil disorder, and the judge goes on playing it. A ROLLBACK to the phase leaves
such a power without orders again, so that the judge plays it again, alike.

The bot draws from a generator seeded by the game's secret seed (never the players', who could
otherwise foresee its orders), the phase and the power: processing the phase again, after a
ROLLBACK, gives the same orders.
"""

from __future__ import annotations

import hashlib
import hmac
import random

from sqlalchemy.orm import Session

from gm.bots.plausible import PlausiblePlayer
from gm.domain.position import Position
from gm.games.context import Services
from gm.games.lifecycle import seat_of
from gm.games.orderbook import needed, submit
from gm.settings.model import MissedPolicy
from gm.store.models import Game, SeatStatus

BY = "the judge (missed: play)"  # OrderSet.by of the orders it writes


def generator(game: Game, phase: str, power: str) -> random.Random:
    """The bot's generator for one power in one phase (see the module)."""
    digest = hmac.new(game.dice_seed.encode(), f"stand-in|{phase}|{power}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def orders_for(services: Services, game: Game, position: Position, power: str) -> list[str]:
    """The order lines the judge writes for ``power`` in ``position``'s phase."""
    player = PlausiblePlayer(services.variant_of(game), generator(game, str(position.phase), power))
    return [str(order) for _, order in player.orders(position, powers=[power])]


def play_missing(services: Services, session: Session, game: Game, position: Position,
                 lines: dict[str, list[str]]) -> dict[str, list[str]]:
    """Where the game's ``missed:`` policy is ``play``: orders for each power that owes some and
    gave none (``lines``: the orders given), as judged when submitted; by power played."""
    if services.settings_of(game).missed.policy is not MissedPolicy.PLAY:
        return {}
    played: dict[str, list[str]] = {}
    for power in sorted(needed(services.variant_of(game), position)):
        seat = seat_of(game, power)
        if seat is None or seat.status == SeatStatus.ELIMINATED or lines.get(power):
            continue
        written = orders_for(services, game, position, power)
        if not written:
            continue
        trial = session.begin_nested()  # judged as a submission is, and never stored as the power's set
        try:
            judged = submit(services, session, game, power, "\n".join(written), by=BY, replace=True)
        finally:
            trial.rollback()
        played[power] = [str(order) for order in judged.orders]
    if played:
        services.audit(session, game, "system", "played-by-judge", phase=str(position.phase), powers=sorted(played))
    return played
