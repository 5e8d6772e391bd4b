"""Deadlines of the current phase and when the scheduler must next look at a game."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from gm.domain.position import Position
from gm.games.context import Services
from gm.games.notices import tell_everyone
from gm.settings.schedule import next_deadline
from gm.store.models import Game, GameStatus


def start_phase(services: Services, session: Session, game: Game, position: Position) -> None:
    """A new phase begins now: set its deadline and forget the last phase's notices."""
    now = services.clock.now()
    settings = services.settings_of(game)
    game.phase_started_at = now
    game.deadline = next_deadline(settings.schedule, position.phase.kind, now)
    game.orders_complete_at = None
    game.notices = {}
    for seat in game.seats:
        if seat.wait_seq is not None:  # set only when it changes: else each seat is flushed for nothing
            seat.wait_seq = None
    refresh_due(services, game)


def refresh_due(services: Services, game: Game) -> None:
    due = due_time(services, game)
    if game.due_at != due:  # set only when it changes: an attribute set is flushed even to the same value
        game.due_at = due


def due_time(services: Services, game: Game) -> datetime | None:
    """The next moment something may happen: a reminder, early processing, the deadline."""
    if game.status != GameStatus.ACTIVE or game.deadline is None:
        return None
    settings = services.settings_of(game)
    notices = game.notices or {}
    deadline = game.deadline
    moments = []
    if notices.get("late_sent"):
        moments.append(deadline + settings.grace)
    else:
        moments.append(deadline)
    started = game.phase_started_at or deadline
    for before in settings.reminders:
        at = deadline - before
        if at > started and int(before.total_seconds()) not in notices.get("reminded", []):
            moments.append(at)
    if settings.early.enabled and game.orders_complete_at is not None and not any(
        s.wait_seq == game.phase_seq for s in game.seats if s.left_at is None
    ):
        moments.append(game.orders_complete_at + settings.early.delay)
    return min(moments)


def reschedule(services: Services, session: Session, game: Game, reason: str, deadline: datetime | None = None) -> None:
    """Set a new deadline for the current phase (from the schedule, or the one given) and tell everyone."""
    if game.status != GameStatus.ACTIVE:
        return
    settings = services.settings_of(game)
    position = services.position_of(game)
    old = game.deadline
    if deadline is None:
        deadline = next_deadline(settings.schedule, position.phase.kind, game.phase_started_at or services.clock.now())
        deadline = max(deadline, services.clock.now() + timedelta(minutes=1))
    if deadline == old:
        return
    game.deadline = deadline
    game.notices = {k: v for k, v in (game.notices or {}).items() if k != "late_sent"}
    refresh_due(services, game)
    services.audit(session, game, "system", "deadline-changed", old=old.isoformat() if old else None,
                   new=deadline.isoformat(), reason=reason)
    tell_everyone(services, session, game, template="mail/deadline_changed.txt.j2", kind="deadline",
                  subject=f"{game.name}: new deadline", old=old, new=deadline, reason=reason)
