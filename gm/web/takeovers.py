"""What the pages show of open powers and the record of deadlines (gm.games.openings,
gm.games.records).

The game's page lists the powers open to everyone, with the JOIN to mail for each: the web has
no accounts, so asking is done by mail from the address that will play (a ``mailto:`` link writes
it), through the same intake and the same takeover rules as any JOIN, and nothing a stranger
types on the page reaches the judge. The game master's page lists the asks waiting for an answer,
each with an Approve and a Refuse button that post APPROVE or REFUSE to the GM's commands, as a
mail after SIGNON GM would."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

from sqlalchemy.orm import Session

from gm.commands.gm_status import opening_stage
from gm.games import openings, records
from gm.games.context import Services
from gm.games.lifecycle import current_seats
from gm.store.models import Game, Opening, Player


@dataclass(frozen=True)
class OpenPower:
    power: str
    join: str  # the line to mail: JOIN <game> <power>
    address: str  # the judge's
    mailto: str  # a link that writes that mail
    policy: str  # what an ask does in this game, in words


@dataclass(frozen=True)
class Ask:
    address: str
    power: str
    asked_at: datetime
    record: str  # the asker's deadlines across the judge, in words
    approve: str  # the GM's command that answers yes
    refuse: str


def open_powers(services: Services, session: Session, game: Game) -> tuple[OpenPower, ...]:
    judge = services.config.judge_address
    found = []
    for power, _ in openings.open_powers(services, session, game):
        line = f"JOIN {game.name} {power}"
        found.append(OpenPower(power, line, judge, f"mailto:{judge}?subject={quote(line)}&body={quote(line)}",
                               openings.policy_words(services, game)))
    return tuple(found)


def seat_records(session: Session, game: Game) -> dict[int, str]:
    """Each current seat's player's deadlines, in words, by seat id (a seat without a player: none)."""
    tallies = records.by_seat(session, game)
    return {seat.id: str(records.of_seat(tallies, seat)) for seat in current_seats(game) if seat.player is not None}


def gm_part(services: Services, session: Session, game: Game) -> dict[str, Any]:
    """The game master's page: the asks waiting for an answer, and where each open power stands."""
    asks = []
    waiting = openings.waiting_asks(session, game, open_only=True)
    players = {r.player_id: session.get(Player, r.player_id) for r in waiting}
    known = records.by_player(session, players)
    for request in waiting:
        player = players[request.player_id]
        opening = session.get(Opening, request.opening_id)
        seat = openings.holder(game, opening) if opening is not None else None
        if player is None or seat is None or not seat.power:
            continue
        record = known.get(player.id)
        history = (f"{record.tally} in {record.games} game{'s' if record.games != 1 else ''}"
                   + (f", left {record.left} before the end" if record.left else "")
                   if record is not None and record.games else "new to this judge")
        asks.append(Ask(player.email, seat.power, request.asked_at, history,
                        f"APPROVE {player.email} {seat.power}", f"REFUSE {player.email} {seat.power}"))
    stages = []
    for opening in openings.live(session, game):
        seat = openings.holder(game, opening)
        if seat is not None and seat.power:
            stages.append((seat.power, opening_stage(services, session, game, opening)))
    return {"takeover_asks": asks, "open_stages": sorted(stages)}
