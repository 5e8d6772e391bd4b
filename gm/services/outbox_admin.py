"""What an operator asks of the outbox: what waits or failed and why, and sending again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import or_, select, update

from gm.games.context import Services
from gm.services import outbound_health
from gm.store.models import OutboundMail, OutboundStatus


@dataclass(frozen=True)
class Entry:
    id: int
    kind: str
    to: str
    subject: str
    status: str
    attempts: int
    next_attempt_at: datetime
    error: str


def troubled(services: Services) -> list[Entry]:
    """Mails that failed, and mails still waiting after a failed try, oldest first."""
    with services.db.reading() as session:
        rows = session.scalars(select(OutboundMail).where(or_(
            OutboundMail.status == OutboundStatus.FAILED,
            (OutboundMail.status == OutboundStatus.PENDING) & (OutboundMail.attempts > 0))).order_by(OutboundMail.id))
        return [Entry(m.id, m.kind, m.to_address, m.subject, m.status, m.attempts, m.next_attempt_at, m.last_error)
                for m in rows]


def pending_count(services: Services) -> int:
    with services.db.reading() as session:
        return len(session.scalars(select(OutboundMail.id).where(OutboundMail.status == OutboundStatus.PENDING)).all())


def resend(services: Services, ids: list[int] | None) -> list[int]:
    """Failed mails (these, or all when ``ids`` is None) due again now, with a fresh count of
    attempts; the ids made due (a mail that did not fail is left as it is)."""
    now = services.clock.now()
    with services.db.unit_of_work() as session:
        query = select(OutboundMail.id).where(OutboundMail.status == OutboundStatus.FAILED)
        if ids is not None:
            query = query.where(OutboundMail.id.in_(ids))
        chosen = list(session.scalars(query))
        if chosen:
            session.execute(update(OutboundMail).where(OutboundMail.id.in_(chosen)).values(
                status=OutboundStatus.PENDING, attempts=0, next_attempt_at=now, lease_until=None, lease_owner=""))
    return chosen


def retry_now(services: Services) -> None:
    """Everything waiting is due now, the server tried at once (after a fix)."""
    outbound_health.try_now(services)
    with services.db.unit_of_work() as session:
        session.execute(update(OutboundMail).where(OutboundMail.status == OutboundStatus.PENDING)
                        .values(next_attempt_at=services.clock.now()))
