"""Absences: a player away from a game holds its deadlines.

A player takes an absence with SET ABSENCE, within the limits of the game's ``absences:``
setting (the longest absence, how many a player may take in the game; none unless the GM allows
them); every deadline of the game inside it is held to its end (gm.games.holds).

The deadline the schedule (or the GM, SET DEADLINE) gives is kept beside the one in force
(``Game.deadline_unheld``), so that a new or cancelled absence holds the deadline again from
it. An absence is the player's own: the other players are told that the deadline moved for a
player's absence, never whose (the GM is told whose).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.lifecycle import GameError
from gm.games.mailer import zone_named
from gm.settings.model import format_duration
from gm.store.models import Absence, Game, Seat

NOTICE = timedelta(hours=24)  # a cancelled absence never brings a deadline nearer than this


def mine(session: Session, game: Game, seat: Seat) -> list[Absence]:
    """The absences the seat's player took in the game, in order, cancelled ones too."""
    return list(session.scalars(select(Absence).where(
        Absence.game_id == game.id, Absence.player_id == seat.player_id).order_by(Absence.starts, Absence.id)))


def counted(absence: Absence) -> bool:
    """An absence counts against the player's allowance unless it was cancelled before it began."""
    return absence.cancelled_at is None or absence.cancelled_at > absence.starts


def take(services: Services, session: Session, game: Game, seat: Seat, starts: datetime, ends: datetime,
         length: timedelta) -> Absence:
    """A new absence of the seat's player, within the game's limits (``length``: how long it is
    on the clock of the player's zone); refused with the limits said."""
    rules = services.settings_of(game).absences
    if not rules.allowed:
        raise GameError(f"{game.name} allows no absences (its game master may allow them: absences: in its "
                        "settings); ask the game master to move a deadline")
    limits = f"{game.name} allows absences of {format_duration(rules.longest)} at most, {rules.per_player} a player"
    now = services.clock.now()
    if ends <= starts or ends <= now:
        raise GameError("an absence must end after it starts, and in the future")
    if length > rules.longest:
        raise GameError(f"that absence is {format_duration(length)} long: {limits}")
    taken = [a for a in mine(session, game, seat) if counted(a)]
    if len(taken) >= rules.per_player:
        raise GameError(f"you have taken {len(taken)} absences in {game.name} already: {limits}")
    for other in taken:
        if other.cancelled_at is None and other.starts < ends and starts < other.ends:
            raise GameError("it overlaps an absence you have taken already; CANCEL ABSENCE that one first")
    absence = Absence(player_id=seat.player_id, game_id=game.id, starts=max(starts, now), ends=ends)
    session.add(absence)
    session.flush()
    return absence


def to_cancel(services: Services, session: Session, game: Game, seat: Seat, starting: date | None,
              zone: str) -> Absence:
    """The absence of the seat's player that ``starting`` names (the day it starts, in ``zone``),
    or, with none named, the first that has not ended."""
    now = services.clock.now()
    open_ = [a for a in mine(session, game, seat) if a.cancelled_at is None and a.ends > now]
    if starting is not None:
        open_ = [a for a in open_ if a.starts.astimezone(zone_named(zone)).date() == starting]
    if not open_:
        raise GameError(f"{seat.power} has no absence {'starting that day ' if starting else ''}to cancel")
    return open_[0]
