"""The inbound mail row (``inbound_mail``), its one owner: every mail kept as it came, and every
web action kept as the mail it stands for (gm.web.actions), from storing to being handled.

A row is written once (``store``), locked while it is handled (``lock``), marked with what
became of it (``mark_handled``), or shunted with the error when its handling failed (``shunt``;
``record_shunted`` for an action that failed before its row was kept) and made new again to be
handled once more (``unshunt``). Plain statements, built once (building a statement costs more
than running it: docs/design/performance.md): the row is never an object for a session to flush.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, bindparam, func, insert, or_, select, update
from sqlalchemy.orm import Session

from gm.store.models import InboundMail, InboundStatus

_INBOUND = InboundMail.__table__
_INSERT = insert(_INBOUND)
_LOCKED = select(_INBOUND).where(_INBOUND.c.id == bindparam("id")).with_for_update()
_HANDLED = (update(_INBOUND).where(_INBOUND.c.id == bindparam("mail"))
            .values(status=bindparam("new_status"), error=bindparam("new_error"),
                    processed_at=bindparam("handled_at")))
_MASKED = update(_INBOUND).where(_INBOUND.c.id == bindparam("mail")).values(raw=bindparam("masked"))
_SAME_ID_BEFORE = select(func.min(_INBOUND.c.id)).where(_INBOUND.c.message_id == bindparam("message_id"),
                                                        _INBOUND.c.id != bindparam("id"))
# Stored but never handled (a process died, or gave up waiting): taken by one process each.
_LEFT_UNHANDLED = (select(_INBOUND.c.id).where(_INBOUND.c.status == InboundStatus.NEW,
                                               _INBOUND.c.received_at <= bindparam("before"))
                   .order_by(_INBOUND.c.id).limit(bindparam("limit")).with_for_update(skip_locked=True))


@dataclass(frozen=True)
class Incoming:
    """A mail (or a web action) as it is kept."""

    sender: str
    subject: str
    raw: bytes
    source_key: str | None = None  # where it came from: a mailbox position, a web session
    message_id: str | None = None
    content_digest: str = ""  # with the Message-ID, what makes a delivery the same mail (gm.services.arrival)
    cut: str = ""  # what was cut from a mail too large to read


@dataclass(frozen=True)
class Shunted:
    """What the administrator is told of a mail shunted."""

    sender: str
    subject: str


def store(connection: Connection, mail: Incoming, now: datetime) -> int:
    """The new row's id; IntegrityError when this very mail (the same Message-ID and content, or
    the same source) is kept already."""
    return _insert(connection, mail, now, InboundStatus.NEW, "", None)


def record_shunted(connection: Connection, mail: Incoming, error: str, now: datetime) -> int:
    """Keep, shunted with its error, what failed before its row was kept (a web action whose
    transaction was rolled back)."""
    return _insert(connection, mail, now, InboundStatus.SHUNTED, error, now)


def _insert(connection: Connection, mail: Incoming, now: datetime, status: str, error: str,
            processed_at: datetime | None) -> int:
    stored = connection.execute(_INSERT, {
        "message_id": mail.message_id or None, "content_digest": mail.content_digest, "source_key": mail.source_key,
        "sender": mail.sender, "subject": mail.subject, "raw": mail.raw, "cut": mail.cut, "status": status,
        "error": error, "received_at": now, "processed_at": processed_at})
    return int(stored.inserted_primary_key[0])


def earlier_with_message_id(connection: Connection, inbound_id: int, message_id: str) -> int | None:
    """Another mail kept before under the same Message-ID (with other content), if any."""
    return connection.execute(_SAME_ID_BEFORE, {"message_id": message_id, "id": inbound_id}).scalar()


def lock(connection: Connection, inbound_id: int) -> Row[Any] | None:
    """The row, locked until the transaction ends: a mail handled by two processes at once is
    acted on once."""
    return connection.execute(_LOCKED, {"id": inbound_id}).first()


def mark_handled(connection: Connection, inbound_id: int, status: str, note: str, now: datetime,
                 masked: bytes | None = None) -> None:
    """What became of the mail (``note``: why it was ignored, or what of its reply was held
    back); ``masked``: the mail with the secrets it carried masked, when it carried some."""
    connection.execute(_HANDLED, {"mail": inbound_id, "new_status": status, "new_error": note, "handled_at": now})
    if masked is not None:
        connection.execute(_MASKED, {"mail": inbound_id, "masked": masked})


def shunt(session: Session, inbound_id: int, error: str, now: datetime) -> Shunted:
    """Keep the mail with the error that stopped its handling, for ``unshunt``."""
    row = session.get(InboundMail, inbound_id)
    if row is None:
        raise LookupError(f"no inbound mail {inbound_id}")
    row.status = InboundStatus.SHUNTED
    row.error = error
    row.processed_at = now
    return Shunted(row.sender, row.subject)


def unshunt(session: Session, inbound_id: int) -> bool:
    """Make a shunted mail new again, to be handled once more; False when it is not shunted."""
    row = session.get(InboundMail, inbound_id)
    if row is None or row.status != InboundStatus.SHUNTED:
        return False
    row.status, row.error = InboundStatus.NEW, ""
    return True


def unfinished(session: Session, source_key: str | None, message_id: str | None, content_digest: str) -> int | None:
    """A mail kept but never handled that this delivery is again (by its source, or its
    Message-ID and content)."""
    keys = [InboundMail.source_key == source_key] if source_key else []
    if message_id:
        keys.append((InboundMail.message_id == message_id) & (InboundMail.content_digest == content_digest))
    if not keys:
        return None
    return session.scalars(select(InboundMail.id).where(or_(*keys), InboundMail.status == InboundStatus.NEW)).first()


def left_unhandled(session: Session, before: datetime) -> int | None:
    """The oldest mail kept before ``before`` and never handled, taken by this process (another
    skips it)."""
    return session.scalars(_LEFT_UNHANDLED, {"before": before, "limit": 1}).first()
