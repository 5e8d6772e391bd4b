"""Draining the outbox: each queued mail is claimed, built, pictures attached, and handed to the sender.

* **Claimed, so sent once.** A process claims a few due mails at a time (a lease: ``FOR UPDATE
  SKIP LOCKED`` on PostgreSQL, the write lock on SQLite) before it sends them, so any number of
  processes drain one outbox without sending a mail twice. A process that dies holding a claim
  leaves it to run out (``outbox_lease``); another then sends the mail with the Message-ID it
  was queued with, so a client drops the copy should the first have gone out after all: a crash
  between the server's "accepted" and the record of it is the one window for a second copy, and
  the record is written at once.
* **One bad mail stops nothing.** A mail that cannot be built is set aside (failed) with the
  error and the administrator told; a picture that cannot be drawn leaves its mail without it,
  saying so.
* **Failures by whose fault they are** (gm.transport): a server that takes no mail (configuration,
  connection) makes every mail wait, none is given up (gm.services.outbound_health); a message
  refused for now is tried again later (1 min, 5 min, 30 min, then every 2 hours, up to a day);
  a message refused for good is marked failed and the game master (or the administrator) told.

Every mail carries a Message-ID that gm recognises as its own (no mail loops).
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from sqlalchemy import bindparam, or_, select, update
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.notices import tell_gm
from gm.games.pictures import Attachment, attachments
from gm.services import outbound_health
from gm.services.masking import mask_text
from gm.store.models import Game, OutboundMail, OutboundStatus
from gm.store.retry import DatabaseBusy, in_transaction
from gm.transport import PermanentFailure, Sender, ServerFailure, TemporaryFailure

log = logging.getLogger(__name__)
RETRY_DELAYS = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30)) + (timedelta(hours=2),) * 12
AUTOMATIC = {"reply": "auto-replied", "refusal": "auto-replied", "map": "auto-replied", "paused": "auto-replied"}
CLAIM = 10  # mails claimed at a time: a few, so that other processes share a long drain
NO_PICTURE = "\n\n(The map picture could not be drawn for this mail; the judge's administrator has been told.)\n"

_OUTBOX = OutboundMail.__table__
_CLAIMABLE = (select(_OUTBOX.c.id)  # built once
              .where(_OUTBOX.c.status == OutboundStatus.PENDING, _OUTBOX.c.next_attempt_at <= bindparam("now"),
                     or_(_OUTBOX.c.lease_until.is_(None), _OUTBOX.c.lease_until < bindparam("now")))
              .order_by(_OUTBOX.c.id).limit(bindparam("limit")).with_for_update(skip_locked=True))
_CLAIM = (update(_OUTBOX).where(_OUTBOX.c.id.in_(bindparam("ids", expanding=True)))
          .values(lease_until=bindparam("until"), lease_owner=bindparam("owner")))
_RELEASE = (update(_OUTBOX).where(_OUTBOX.c.id.in_(bindparam("ids", expanding=True)),
                                  _OUTBOX.c.lease_owner == bindparam("owner"))
            .values(lease_until=None, lease_owner=""))
_RENEW = (update(_OUTBOX).where(_OUTBOX.c.id == bindparam("mail"), _OUTBOX.c.lease_owner == bindparam("owner"),
                                _OUTBOX.c.status == OutboundStatus.PENDING)
          .values(lease_until=bindparam("until")))
_SENT = (update(_OUTBOX).where(_OUTBOX.c.id == bindparam("mail"))
         .values(status=OutboundStatus.SENT, sent_at=bindparam("at"), attempts=_OUTBOX.c.attempts + 1,
                 lease_until=None, lease_owner=""))
_SENT_MASKED = _SENT.values(body=bindparam("masked"), secrets=[])  # a mail that gave out a secret


@dataclass
class Drained:
    sent: int = 0
    outage: outbound_health.Outage | None = None  # every mail waits on the server: why, since when
    busy: str = ""  # the outbox could not be claimed in time: left for the next run


class Dispatcher:
    def __init__(self, services: Services, sender: Sender, owner: str | None = None):
        self.services = services
        self.sender = sender
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._leases: dict[int, datetime] = {}  # mail id -> until when this process holds it

    async def drain(self, limit: int = 500) -> Drained:
        """Send what is due now (up to ``limit`` mails), a few claimed at a time."""
        drained = Drained()
        known = outbound_health.outage(self.services)
        if known is not None and known.next_try_at is not None and self.services.clock.now() < known.next_try_at:
            drained.outage = known  # not to be tried yet
            return drained
        was_failing = known is not None
        pictures: dict[tuple[int | None, int | None], bytes | None] = {}
        tried = 0
        while tried < limit:
            try:
                claimed = self._claim(min(CLAIM, limit - tried))
            except DatabaseBusy as exc:
                log.warning("%s", exc)
                drained.busy = str(exc)
                break
            if not claimed:
                break
            for index, mail_id in enumerate(claimed):
                tried += 1
                try:
                    drained.sent += await self._send_one(mail_id, pictures)
                except ServerFailure as exc:
                    self._release(claimed[index:])
                    drained.outage = outbound_health.server_failed(self.services, str(exc))
                    return drained
                finally:
                    self._leases.pop(mail_id, None)
                if was_failing and drained.sent:
                    outbound_health.server_works(self.services)
                    was_failing = False
        return drained

    def _claim(self, count: int) -> list[int]:
        now = self.services.clock.now()

        def claim(session: Session) -> list[int]:
            connection = session.connection()
            ids = list(connection.execute(_CLAIMABLE, {"now": now, "limit": count}).scalars())
            if ids:
                until = now + timedelta(seconds=self.services.config.outbox_lease)
                connection.execute(_CLAIM, {"ids": ids, "until": until, "owner": self.owner})
                self._leases.update(dict.fromkeys(ids, until))
            return ids

        return in_transaction(self.services.db, "claiming outgoing mail", claim)

    def _still_ours(self, mail_id: int) -> bool:
        """Right before sending: whether the claim still holds (renewed when half of it is gone,
        say while pictures were drawn), so that no other process can be sending it too."""
        lease = timedelta(seconds=self.services.config.outbox_lease)
        now = self.services.clock.now()
        until = self._leases.pop(mail_id, now)
        if until - now > lease / 2:
            return True
        with self.services.db.unit_of_work() as session:
            renewed = session.connection().execute(_RENEW, {"mail": mail_id, "owner": self.owner, "until": now + lease})
            return renewed.rowcount == 1

    def _release(self, ids: list[int]) -> None:
        for mail_id in ids:
            self._leases.pop(mail_id, None)
        with self.services.db.unit_of_work() as session:
            session.connection().execute(_RELEASE, {"ids": ids, "owner": self.owner})

    async def _send_one(self, mail_id: int, pictures: dict) -> int:  # type: ignore[type-arg]
        """1 when the mail went; raises ServerFailure when the server takes no mail."""
        undrawn: list[str] = []
        with self.services.db.reading() as session:  # written to only once it is closed (SQLite: no lock held)
            mail = session.get(OutboundMail, mail_id)
            if mail is None or mail.status != OutboundStatus.PENDING or mail.lease_owner != self.owner:
                return 0
            masked = mask_text(mail.body, mail.secrets) if mail.secrets else None
            tried = mail.attempts  # for the log: a deferred mail that finally goes says so
            try:
                message: EmailMessage | None = self.build(session, mail, pictures, undrawn)
                problem = ""
            except Exception as exc:  # noqa: BLE001 - a mail that cannot be built never holds up the others
                log.exception("mail %s cannot be built", mail_id)
                message, problem = None, f"could not be built: {type(exc).__name__}: {exc}"
        for text in undrawn:
            self._tell_admin("a map picture cannot be drawn", text)
        if message is None:
            self._set_aside(mail_id, problem)
            return 0
        if not self._still_ours(mail_id):
            log.info("mail %s was taken over by another process (this one held it too long)", mail_id)
            return 0
        try:
            await self.sender.send(message)
        except ServerFailure:
            raise
        except TemporaryFailure as exc:
            self._retry(mail_id, str(exc))
            return 0
        except PermanentFailure as exc:
            self._give_up(mail_id, str(exc))
            return 0
        self.services.faults.point("after-send")
        # Recorded at once: a crash before this line is the only way to a second copy.
        with self.services.db.unit_of_work() as session:
            if masked is None:
                session.connection().execute(_SENT, {"mail": mail_id, "at": self.services.clock.now()})
            else:  # the secret was delivered: gm keeps no copy of it in clear
                session.connection().execute(_SENT_MASKED, {"mail": mail_id, "at": self.services.clock.now(),
                                                            "masked": masked})
        log.info("sent mail %s (%s) to %s%s", mail_id, message["X-GM-Kind"], message["To"],
                 f", after {tried} failed tries" if tried else "")
        return 1

    def build(self, session: Session, mail: OutboundMail, pictures: dict,  # type: ignore[type-arg]
              undrawn: list[str] | None = None) -> EmailMessage:
        """The mail as sent; ``undrawn`` gets a note for the administrator of each picture that
        could not be drawn (the mail goes without it, saying so)."""
        config = self.services.config
        message = EmailMessage()
        message["From"] = formataddr((config.judge_name, config.judge_address))
        message["To"] = mail.to_address
        message["Subject"] = mail.subject
        message["Date"] = format_datetime(mail.created_at)
        message["Message-ID"] = mail.message_id
        message["Auto-Submitted"] = AUTOMATIC.get(mail.kind, "auto-generated")  # RFC 3834: do not answer us
        message["X-GM-Kind"] = mail.kind
        if mail.in_reply_to:
            message["In-Reply-To"] = mail.in_reply_to
            message["References"] = mail.in_reply_to
        wanted = mail.attach_phase_id is not None or mail.kind in ("map", "start")
        drawn = self._pictures(session, mail, pictures, undrawn if undrawn is not None else []) if wanted else []
        message.set_content(mail.body if drawn or not wanted else mail.body.rstrip("\n") + NO_PICTURE)
        for picture in drawn:
            message.add_attachment(picture.data, maintype="image", subtype="png", filename=picture.name)
        return message

    def _pictures(self, session: Session, mail: OutboundMail, pictures: dict,  # type: ignore[type-arg]
                  undrawn: list[str]) -> list[Attachment]:
        """The mail's pictures (gm.games.pictures.attachments), each drawn once per drain; one that
        cannot be drawn is left out, noted once per picture in ``undrawn`` for the administrator."""
        def failed(name: str, exc: Exception) -> None:
            log.error("no picture %s for mail %s", name, mail.id, exc_info=exc)
            undrawn.append(f"The picture {name} for the mail {mail.id} ({mail.subject!r}) and others like it could "
                           f"not be drawn; the mails go without it, saying so.\n\n{type(exc).__name__}: {exc}")

        return attachments(self.services, session, mail, pictures, failed)

    def _retry(self, mail_id: int, error: str) -> None:
        with self.services.db.unit_of_work() as session:
            mail = session.get(OutboundMail, mail_id)
            assert mail is not None
            mail.attempts += 1
            mail.last_error = error
            mail.lease_until, mail.lease_owner = None, ""
            if mail.attempts > len(RETRY_DELAYS):
                self._failed(session, mail, f"still failing after {mail.attempts} attempts: {error}")
            else:
                mail.next_attempt_at = self.services.clock.now() + RETRY_DELAYS[mail.attempts - 1]
                log.info("mail %s to %s deferred: %s; next try at %s", mail_id, mail.to_address, error,
                         mail.next_attempt_at.isoformat(sep=" ", timespec="seconds"))

    def _give_up(self, mail_id: int, error: str) -> None:
        with self.services.db.unit_of_work() as session:
            mail = session.get(OutboundMail, mail_id)
            assert mail is not None
            mail.attempts += 1
            self._failed(session, mail, error)

    def _set_aside(self, mail_id: int, error: str) -> None:
        with self.services.db.unit_of_work() as session:
            mail = session.get(OutboundMail, mail_id)
            assert mail is not None
            mail.status, mail.last_error = OutboundStatus.FAILED, error
            mail.lease_until, mail.lease_owner = None, ""
            if mail.kind == "gm-alert":
                return  # never alert about an alert: no loops
            tell_gm(self.services, session, None, subject=f"mail {mail_id} set aside",
                    text=f"The mail {mail.subject!r} to {mail.to_address} could not be built and is set aside; "
                         f"the others go on. Once the cause is fixed, `gm outbox --resend {mail_id}` sends it.\n\n"
                         f"{error}")

    def _tell_admin(self, subject: str, text: str) -> None:
        with self.services.db.unit_of_work() as session:
            tell_gm(self.services, session, None, subject=subject, text=text)

    def _failed(self, session: Session, mail: OutboundMail, error: str) -> None:
        mail.status = OutboundStatus.FAILED
        mail.last_error = error
        mail.lease_until, mail.lease_owner = None, ""
        log.error("mail %s to %s failed: %s", mail.id, mail.to_address, error)
        if mail.kind == "gm-alert":
            return  # never alert about an alert: no loops
        game = session.get(Game, mail.game_id) if mail.game_id else None
        if game is not None and mail.to_address.lower() == self.services.settings_of(game).gm.lower():
            game = None  # the GM cannot be told by a mail to the GM: tell the administrator
        tell_gm(self.services, session, game, subject=f"mail to {mail.to_address} failed",
                text=f"The mail {mail.subject!r} to {mail.to_address} could not be delivered: {error}")
