"""How far gm has read each IMAP mailbox (the `WatermarkStore` of gm.transport), in the
``mailbox_state`` table."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gm.clock import Clock, SystemClock
from gm.store.database import Database
from gm.store.models import MailboxState
from gm.store.retry import DatabaseBusy, in_transaction
from gm.transport.base import Deferred, Watermark


class DatabaseWatermarks:
    """One short transaction per ``save``. Within one UIDVALIDITY the mark never moves back
    (two readers of one mailbox cannot undo each other's progress); a new UIDVALIDITY replaces it.
    A database that stays away (or busy) is the inbox's ``Deferred``: it reads the mail again."""

    def __init__(self, db: Database, clock: Clock | None = None):
        self.db = db
        self.clock = clock or SystemClock()

    def load(self, mailbox: str) -> Watermark | None:
        def read(session: Session) -> Watermark | None:
            row = session.scalars(select(MailboxState).where(MailboxState.mailbox == mailbox)).one_or_none()
            return None if row is None else Watermark(int(row.uidvalidity), int(row.last_uid))

        try:
            return in_transaction(self.db, f"how far {mailbox} was read", read, reading=True)
        except DatabaseBusy as exc:
            raise Deferred(str(exc)) from exc

    def save(self, mailbox: str, watermark: Watermark) -> None:
        for attempt in (1, 2):
            try:
                in_transaction(self.db, f"how far {mailbox} was read",
                               lambda session: self._save(session, mailbox, watermark), conflicts=False)
                return
            except IntegrityError:  # another process made the row first: update it instead
                if attempt == 2:
                    raise
            except DatabaseBusy as exc:
                raise Deferred(str(exc)) from exc

    def _save(self, session: Session, mailbox: str, watermark: Watermark) -> None:
        row = session.scalars(select(MailboxState).where(MailboxState.mailbox == mailbox)).one_or_none()
        if row is None:
            session.add(MailboxState(mailbox=mailbox, uidvalidity=watermark.uidvalidity,
                                     last_uid=watermark.last_uid, updated_at=self.clock.now()))
            return
        if row.uidvalidity == watermark.uidvalidity and row.last_uid >= watermark.last_uid:
            return
        row.uidvalidity = watermark.uidvalidity
        row.last_uid = watermark.last_uid
        row.updated_at = self.clock.now()
