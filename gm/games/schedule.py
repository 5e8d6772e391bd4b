"""Deadlines of the current phase and when the scheduler must next look at a game."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from gm.domain.position import Position
from gm.games.context import Services
from gm.games.holds import held_deadline
from gm.games.notices import tell_everyone
from gm.settings.schedule import next_deadline
from gm.store.models import Game, GameStatus


def start_phase(services: Services, session: Session, game: Game, position: Position) -> None:
    """A new phase begins now: set its deadline and forget the last phase's notices."""
    now = services.clock.now()
    settings = services.settings_of(game)
    game.phase_started_at = now
    game.deadline_unheld = next_deadline(settings.schedule, position.phase.kind, now)
    game.deadline = held_deadline(services, session, game, game.deadline_unheld)
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
        # Past the deadline: a reminder not sent by then never will be (nor waited for).
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
    """Set a new deadline for the current phase (from the schedule, or the one given), held by the
    players' absences (gm.games.holds), and tell everyone."""
    if game.status != GameStatus.ACTIVE:
        return
    if deadline is None:
        settings = services.settings_of(game)
        position = services.position_of(game)
        deadline = next_deadline(settings.schedule, position.phase.kind, game.phase_started_at or services.clock.now())
        deadline = max(deadline, services.clock.now() + timedelta(minutes=1))
    game.deadline_unheld = deadline
    move_deadline(services, session, game, held_deadline(services, session, game, deadline), reason)


def hold_again(services: Services, session: Session, game: Game, reason: str,
               notice: timedelta | None = None) -> datetime | None:
    """The players' absences changed: the deadline held again from the one the schedule or the GM
    gave; ``notice``: when it comes nearer (an absence cancelled), never nearer than this from now
    (nor later than it was). The deadline now (None: the game has none)."""
    if game.status != GameStatus.ACTIVE or game.deadline is None:
        return game.deadline
    new = held_deadline(services, session, game, game.deadline_unheld or game.deadline)
    if notice is not None and new < game.deadline:
        new = max(new, min(game.deadline, services.clock.now() + notice))
    move_deadline(services, session, game, new, reason)
    return game.deadline


def move_deadline(services: Services, session: Session, game: Game, deadline: datetime, reason: str) -> None:
    """Put the current phase's deadline at ``deadline`` and tell everyone (nothing when it is
    there already)."""
    old = game.deadline
    if deadline == old:
        return
    game.deadline = deadline
    game.notices = {k: v for k, v in (game.notices or {}).items() if k != "late_sent"}
    refresh_due(services, game)
    services.audit(session, game, "system", "deadline-changed", old=old.isoformat() if old else None,
                   new=deadline.isoformat(), reason=reason)
    tell_everyone(services, session, game, template="mail/deadline_changed.txt.j2", kind="deadline",
                  subject=f"{game.name}: new deadline", old=old, new=deadline, reason=reason)
