"""How far gm has read each IMAP mailbox (the `WatermarkStore` of gm.transport), in the
``mailbox_state`` table."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from gm.clock import Clock, SystemClock
from gm.store.database import Database
from gm.store.models import MailboxState
from gm.transport.base import Watermark


class DatabaseWatermarks:
    """One short transaction per ``save``. Within one UIDVALIDITY the mark never moves back
    (two readers of one mailbox cannot undo each other's progress); a new UIDVALIDITY replaces it."""

    def __init__(self, db: Database, clock: Clock | None = None):
        self.db = db
        self.clock = clock or SystemClock()

    def load(self, mailbox: str) -> Watermark | None:
        with self.db.unit_of_work() as session:
            row = session.scalars(select(MailboxState).where(MailboxState.mailbox == mailbox)).one_or_none()
            return None if row is None else Watermark(int(row.uidvalidity), int(row.last_uid))

    def save(self, mailbox: str, watermark: Watermark) -> None:
        for attempt in (1, 2):
            try:
                self._save(mailbox, watermark)
                return
            except IntegrityError:  # another process made the row first: update it instead
                if attempt == 2:
                    raise

    def _save(self, mailbox: str, watermark: Watermark) -> None:
        with self.db.unit_of_work() as session:
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
