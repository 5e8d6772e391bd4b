"""Deadlines held by absences: every deadline of a game that falls inside an absence of one of
its players is held to the absence's end, and then to an allowed weekday of the schedule; held
there, it may fall inside another absence (a player's, or another's that overlaps it), and is
held again, until it falls inside none. An absence that ends before the deadline does not move
it. Only the absences of the players who hold a seat of the game now count: a player who left,
or whose power is out, holds nothing (gm.games.absences takes and cancels them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.settings.model import Schedule
from gm.settings.schedule import allowed_day
from gm.store.models import Absence, Game, SeatStatus


@dataclass(frozen=True, order=True)
class Span:
    starts: datetime
    ends: datetime


def holding(session: Session, game: Game, after: datetime | None = None) -> list[Span]:
    """The absences that may hold the game's deadlines (of its players now, not cancelled),
    those ending after ``after`` only."""
    players = {s.player_id for s in game.seats
               if s.left_at is None and s.player_id is not None and s.status != SeatStatus.ELIMINATED}
    if not players:
        return []
    query = select(Absence.starts, Absence.ends, Absence.player_id).where(
        Absence.game_id == game.id, Absence.cancelled_at.is_(None))
    if after is not None:
        query = query.where(Absence.ends > after)
    return sorted(Span(starts, ends) for starts, ends, player in session.execute(query) if player in players)


def held(deadline: datetime, spans: list[Span], schedule: Schedule) -> datetime:
    """``deadline`` held past every absence it falls inside (a chain of them), on an allowed
    weekday (see the module)."""
    for _ in range(8 * len(spans) + 8):  # each round moves past an absence's end, or stops
        moved = deadline
        for span in spans:
            if span.starts <= moved < span.ends:
                moved = span.ends
        if moved == deadline:
            return deadline
        deadline = allowed_day(moved, schedule)
    return deadline


def held_deadline(services: Services, session: Session, game: Game, unheld: datetime) -> datetime:
    return held(unheld, holding(session, game, after=unheld), services.settings_of(game).schedule)
