"""Draining the outbox: each queued mail is claimed, built, pictures attached, and handed to the sender.

* **Claimed, so sent once.** A process claims a few due mails at a time (a lease: ``FOR UPDATE
  SKIP LOCKED`` on PostgreSQL, the write lock on SQLite) before it sends them, so any number of
  processes drain one outbox without sending a mail twice. A process that dies holding a claim
  leaves it to run out (``outbox_lease``); another then sends the mail with the Message-ID it
  was queued with, so a client drops the copy should the first have gone out after all: a crash
  between the server's "accepted" and the record of it is the one window for a second copy, and
  the record is written at once. A database away at that moment only delays the record: the
  process that sent the mail tries it again until the database is back, every half second (no
  other process can claim anything while it is away, and the claim was renewed for the time a
  record may take before the mail was handed over).
* **The event loop only waits.** Every database step runs in a worker thread; with a
  ``drawer`` (gm.services.drawing: `gm run` draws in worker processes) the pictures of the next
  mails are drawn while one is sent, and a mail is sent only once its claim is checked again.
* **One bad mail stops nothing.** A mail that cannot be built is set aside (failed) with the
  error and the administrator told; a picture that cannot be drawn leaves its mail without it,
  saying so.
* **Failures by whose fault they are** (gm.transport): a server that takes no mail (configuration,
  connection) makes every mail wait, none is given up (gm.services.outbound_health); a message
  refused for now is tried again later (1 min, 5 min, 30 min, then every 2 hours, up to a day);
  a message refused for good is marked failed and the game master (or the administrator) told.

Every mail carries a Message-ID that gm recognises as its own (no mail loops), and only the
judge's own headers (``OWN_HEADERS``), written with a policy that refuses one that would break
into more (gm.transport.headers): nothing of a mail gm answers reaches them unchecked.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import bindparam, or_, select, update
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.notices import tell_gm
from gm.games import pictures as pictures_of
from gm.games.pictures import Attachment, Picture, attachments
from gm.games.plaintext import header_text
from gm.mailsyntax import mail_address, message_id
from gm.services import outbound_health
from gm.services.masking import mask_text
from gm.store.database import connection_lost
from gm.store.models import Game, OutboundMail, OutboundStatus, PhaseRecord
from gm.store.retry import DatabaseBusy, in_transaction, said
from gm.transport import PermanentFailure, Sender, ServerFailure, TemporaryFailure
from gm.transport.headers import STRICT, HeaderRefused, check_headers

if TYPE_CHECKING:
    from gm.services.drawing import Drawer

log = logging.getLogger(__name__)
RETRY_DELAYS = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30)) + (timedelta(hours=2),) * 12
# Every header a mail gm sends has: all written by the judge (``Dispatcher._headers``, the MIME parts).
OWN_HEADERS = frozenset(("from", "to", "subject", "date", "message-id", "auto-submitted", "x-gm-kind", "in-reply-to",
                         "references", "mime-version", "content-type", "content-transfer-encoding",
                         "content-disposition"))
AUTOMATIC = {"reply": "auto-replied", "refusal": "auto-replied", "map": "auto-replied", "paused": "auto-replied"}
CLAIM = 10  # mails claimed at a time: a few, so that other processes share a long drain
HANDOVER = 10.0  # seconds allowed for handing one mail to the transport, beyond waiting for the database
AHEAD = 40  # mails read (their pictures drawing) before the one being sent, when a drawer draws them
NO_PICTURE = "\n\n(The map picture could not be drawn for this mail; the judge's administrator has been told.)\n"

_OUTBOX = OutboundMail.__table__
_FREE = (_OUTBOX.c.next_attempt_at <= bindparam("now"),
         or_(_OUTBOX.c.lease_until.is_(None), _OUTBOX.c.lease_until < bindparam("now")))  # due, claimed by none
_CLAIMABLE = (select(_OUTBOX.c.id).where(_OUTBOX.c.status == OutboundStatus.PENDING, *_FREE)  # built once
              .order_by(_OUTBOX.c.id).limit(bindparam("limit")).with_for_update(skip_locked=True))
# The other mails that carry the picture of a phase claimed: a phase's picture is drawn by the
# process that claims its first mail, not by each of two processes that split its mails. Their
# status is compared as an expression that no index serves: SQLite, which keeps no statistics,
# would otherwise walk every pending mail by ix_outbox_queue instead of the phase's few by theirs
# (tests/store/test_outbox_queue.py).
_SAME_PICTURE = (select(_OUTBOX.c.id)
                 .where((_OUTBOX.c.status + "") == OutboundStatus.PENDING, *_FREE,
                        _OUTBOX.c.id.not_in(bindparam("ids", expanding=True)),
                        _OUTBOX.c.attach_phase_id.in_(
                            select(_OUTBOX.c.attach_phase_id).where(_OUTBOX.c.id.in_(bindparam("ids", expanding=True)),
                                                                    _OUTBOX.c.attach_phase_id.is_not(None))))
                 .order_by(_OUTBOX.c.id).with_for_update(skip_locked=True))
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
_MAILS = select(OutboundMail).where(OutboundMail.id.in_(bindparam("ids", expanding=True)))  # a claim's mails
_GAMES = select(Game).where(Game.id.in_(bindparam("ids", expanding=True)))  # their games
_PHASES = select(PhaseRecord).where(PhaseRecord.id.in_(bindparam("ids", expanding=True)))  # the phases they attach


@dataclass
class Drained:
    sent: int = 0
    outage: outbound_health.Outage | None = None  # every mail waits on the server: why, since when
    busy: str = ""  # the outbox could not be claimed in time: left for the next run
    more: bool = False  # the limit was reached: more mail may be due now


@dataclass
class _Run:
    """One drain's pictures: drawn here (``drawn``, by key), or being drawn by the drawer."""

    drawn: dict[Any, bytes | None] = field(default_factory=dict)
    planned: dict[Any, Picture | None | Exception] = field(default_factory=dict)
    drawing: dict[Any, asyncio.Future[bytes | None]] = field(default_factory=dict)
    parts: dict[Any, EmailMessage] = field(default_factory=dict)  # each picture's MIME part, encoded once
    uses: Counter[Any] = field(default_factory=Counter)  # mails read that still wait for it
    lock: threading.Lock = field(default_factory=threading.Lock)  # ``uses`` and dropping a picture
    told: set[Any] = field(default_factory=set)  # pictures the administrator was told of


@dataclass
class _Read:
    """A claimed mail as read: to skip, to set aside, or to send (its pictures being drawn)."""

    mail_id: int
    skip: bool = False
    problem: str = ""
    message: EmailMessage | None = None  # built; or, while its pictures are drawn, its headers
    body: str = ""
    subject: str = ""
    masked: str | None = None
    tried: int = 0
    planned: list[tuple[Any, str]] | None = None  # (key, file name) of each picture being drawn
    undrawn: list[str] = field(default_factory=list)


T = TypeVar("T")


async def _to_thread_to_the_end(call: Callable[..., T], *args: Any) -> T:
    """``asyncio.to_thread``, but when cancelled it waits for the thread to end before it stops:
    a claim the thread commits after the drain gave up is then known, and released, by it."""
    work = asyncio.ensure_future(asyncio.to_thread(call, *args))
    try:
        return await asyncio.shield(work)
    except asyncio.CancelledError:
        await asyncio.wait([work])
        if not work.cancelled() and work.exception() is not None:  # retrieved: nothing was claimed
            log.debug("%s, cancelled, ended in %s", getattr(call, "__name__", call), work.exception())
        raise


class Dispatcher:
    def __init__(self, services: Services, sender: Sender, owner: str | None = None, drawer: Drawer | None = None):
        self.services = services
        self.sender = sender
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.drawer = drawer  # None: pictures are drawn in the thread that reads the mail
        self._leases: dict[int, datetime] = {}  # mail id -> until when this process holds it

    async def drain(self, limit: int = 500, drained: Drained | None = None) -> Drained:
        """Send what is due now (up to ``limit`` mails), a few claimed at a time; the next mails
        are read (and their pictures drawn) while one is sent. ``drained``: filled in as mails go."""
        drained = drained if drained is not None else Drained()
        known = await asyncio.to_thread(outbound_health.outage, self.services)
        if known is not None and known.next_try_at is not None and self.services.clock.now() < known.next_try_at:
            drained.outage = known  # not to be tried yet
            return drained
        was_failing = known is not None
        run = _Run()
        ready: asyncio.Queue[_Read | None] = asyncio.Queue()
        ahead = AHEAD if self.drawer is not None else 1
        room = asyncio.Semaphore(ahead)
        reader = asyncio.create_task(self._read_ahead(limit, run, ready, room, ahead, drained))
        try:
            while (read := await ready.get()) is not None:
                try:
                    drained.sent += await self._finish(read, run)
                except ServerFailure as exc:
                    self._leases[read.mail_id] = self.services.clock.now()  # released below, with those read ahead
                    drained.outage = await asyncio.to_thread(outbound_health.server_failed, self.services, str(exc))
                    return drained
                finally:
                    room.release()
                self._leases.pop(read.mail_id, None)
                if was_failing and drained.sent:
                    await asyncio.to_thread(outbound_health.server_works, self.services)
                    was_failing = False
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
            if self._leases:  # claimed, never tried (the server failed): for any process to take at once
                await asyncio.to_thread(self._release, list(self._leases))
        return drained

    async def _read_ahead(self, limit: int, run: _Run, ready: asyncio.Queue[_Read | None], room: asyncio.Semaphore,
                          ahead: int, drained: Drained) -> None:
        """Claim mails a few at a time and read them, starting to draw their pictures, up to the
        room left ahead of the mail being sent. Once none is left to claim, claim again when every
        mail read has been sent: the mail that sending queued (an alert for the administrator: a
        picture not drawn, a mail set aside) goes with this drain."""
        tried = 0
        settled = False  # every mail read was sent before the last claim
        try:
            while True:
                if tried >= limit:
                    drained.more = True
                    break
                try:
                    claimed = await _to_thread_to_the_end(self._claim, min(CLAIM, limit - tried))
                except DatabaseBusy as exc:
                    said(exc)
                    drained.busy = str(exc)
                    break
                if not claimed:
                    if settled:
                        break
                    for _ in range(ahead):  # every mail read is sent
                        await room.acquire()
                    for _ in range(ahead):
                        room.release()
                    settled = True
                    continue
                settled = False
                for read in await asyncio.to_thread(self._read, claimed, run):
                    await room.acquire()
                    tried += 1
                    self._start_drawing(read, run)
                    ready.put_nowait(read)
        finally:
            ready.put_nowait(None)

    async def _send_one(self, mail_id: int, pictures: dict) -> int:  # type: ignore[type-arg]
        """Read, then send, one claimed mail: 1 when it went; raises ServerFailure when the
        server takes no mail. ``pictures``: those drawn for earlier mails of the run."""
        run = _Run(drawn=pictures)
        (read,) = await asyncio.to_thread(self._read, [mail_id], run)
        self._start_drawing(read, run)
        try:
            return await self._finish(read, run)
        finally:
            self._leases.pop(mail_id, None)

    def _read(self, ids: list[int], run: _Run) -> list[_Read]:
        """The mails as claimed (in a worker thread), in one session: each built, its pictures
        drawn here; or, with a drawer, its headers and what pictures it carries."""
        with self.services.db.reading() as session:  # written to only once it is closed (SQLite: no lock held)
            mails = {mail.id: mail for mail in session.scalars(_MAILS, {"ids": ids})}
            # Their games and phases read in two statements, not one each per mail (a round trip
            # each on PostgreSQL), and held here: the session keeps an object only while something
            # refers to it, and a game's eight results mails would read it eight times.
            held = [*session.scalars(_GAMES, {"ids": list({m.game_id for m in mails.values() if m.game_id})}),
                    *session.scalars(_PHASES, {"ids": list({m.attach_phase_id for m in mails.values()
                                                            if m.attach_phase_id})})]
            reads = [self._read_one(session, mail_id, mails.get(mail_id), run) for mail_id in ids]
            del held
            return reads

    def _read_one(self, session: Session, mail_id: int, mail: OutboundMail | None, run: _Run) -> _Read:
        read = _Read(mail_id)
        if mail is None or mail.status != OutboundStatus.PENDING or mail.lease_owner != self.owner:
            read.skip = True
            return read
        read.masked = mask_text(mail.body, mail.secrets) if mail.secrets else None
        read.tried = mail.attempts  # for the log: a deferred mail that finally goes says so
        read.body, read.subject = mail.body, mail.subject
        try:
            if self.drawer is None or not _carries_pictures(mail):
                read.message = self.build(session, mail, run.drawn, read.undrawn)
            else:
                read.message = self._headers(mail)
                read.planned = self._plan(session, mail, run)
        except Exception as exc:  # noqa: BLE001 - a mail that cannot be built never holds up the others
            if connection_lost(exc):
                raise  # no fault of the mail: it stays claimed, and goes once the database is back
            log.exception("mail %s cannot be built", mail_id)
            read.message, read.problem = None, f"could not be built: {type(exc).__name__}: {exc}"
        return read

    def _plan(self, session: Session, mail: OutboundMail, run: _Run) -> list[tuple[Any, str]]:
        """What pictures the mail carries, each planned once per run (a failure to read what it
        shows is its failure to be drawn)."""
        planned = []
        for picture in pictures_of.wanted(self.services, session, mail):
            planned.append((picture.key, picture.name))
            with run.lock:  # counted from now: a picture being drawn is kept until this mail has it
                run.uses[picture.key] += 1
                known = picture.key in run.drawing or picture.key in run.planned
            if not known:
                try:
                    run.planned[picture.key] = picture.plan()
                except Exception as exc:  # noqa: BLE001 - the mail goes without this picture
                    if connection_lost(exc):
                        raise  # the database away is no fault of the picture: the mail waits for it
                    run.planned[picture.key] = exc
        return planned

    def _start_drawing(self, read: _Read, run: _Run) -> None:
        for key, _ in read.planned or ():
            if key in run.drawing:
                continue
            what = run.planned.pop(key, None)
            if isinstance(what, Picture) and self.drawer is not None:
                run.drawing[key] = asyncio.ensure_future(self.drawer.draw(what))
            else:
                run.drawing[key] = asyncio.get_running_loop().create_future()
                if isinstance(what, Exception):
                    run.drawing[key].set_exception(what)
                else:
                    run.drawing[key].set_result(None)

    async def _finish(self, read: _Read, run: _Run) -> int:
        """Send a mail read: 1 when it went; raises ServerFailure when the server takes no mail."""
        if read.skip:
            return 0
        mail_id = read.mail_id
        if read.planned is not None and read.message is not None:
            drawn = await self._drawn(read, run)
            try:
                await asyncio.to_thread(self._complete, read, drawn, run)
            except Exception as exc:  # noqa: BLE001 - as a mail that cannot be built
                log.exception("mail %s cannot be built", mail_id)
                read.message, read.problem = None, f"could not be built: {type(exc).__name__}: {exc}"
            with run.lock:
                for key, _ in read.planned:
                    run.uses[key] -= 1
                    if not run.uses[key]:  # no mail read waits for it: its memory goes
                        del run.uses[key]
                        run.drawing.pop(key, None)
                        run.parts.pop(key, None)
        for text in read.undrawn:
            await asyncio.to_thread(self._tell_admin, "a map picture cannot be drawn", text)
        message = read.message
        if message is None:
            await asyncio.to_thread(self._set_aside, mail_id, read.problem)
            return 0
        if not await asyncio.to_thread(self._still_ours, mail_id):
            log.info("mail %s was taken over by another process (this one held it too long)", mail_id)
            return 0
        try:
            await self.sender.send(message)
        except ServerFailure:
            raise
        except TemporaryFailure as exc:
            await asyncio.to_thread(self._retry, mail_id, str(exc))
            return 0
        except PermanentFailure as exc:
            await asyncio.to_thread(self._give_up, mail_id, str(exc))
            return 0
        self.services.faults.point("after-send")
        # Recorded at once: a crash before this line is the only way to a second copy.
        await asyncio.to_thread(self._record_sent, mail_id, read.masked)
        log.info("sent mail %s (%s) to %s%s", mail_id, message["X-GM-Kind"], message["To"],
                 f", after {read.tried} failed tries" if read.tried else "")
        return 1

    async def _drawn(self, read: _Read, run: _Run) -> list[tuple[Any, str, bytes]]:
        """The mail's pictures once drawn; one that could not be is left out, the administrator
        told once per picture."""
        drawn = []
        for key, name in read.planned or ():
            try:
                data = await run.drawing[key]
            except Exception as exc:  # noqa: BLE001 - the mail goes without this picture
                data = None
                if key not in run.told:
                    run.told.add(key)
                    log.error("no picture %s for mail %s", name, read.mail_id, exc_info=exc)
                    read.undrawn.append(_undrawn_note(name, read.mail_id, read.subject, exc))
            if data is not None:
                drawn.append((key, name, data))
        return drawn

    def _complete(self, read: _Read, drawn: list[tuple[Any, str, bytes]], run: _Run) -> None:
        """The mail's text and pictures (in a worker thread: each picture encoded once a run)."""
        message = read.message
        assert message is not None
        message.set_content(read.body if drawn else read.body.rstrip("\n") + NO_PICTURE)
        if drawn:
            message.make_mixed()
        for key, name, data in drawn:
            part = run.parts.get(key)
            if part is None:
                part = run.parts[key] = _attachment(message, data, name)
            message.attach(part)
        checked(message)

    def _record_sent(self, mail_id: int, masked: str | None) -> None:
        """The server took the mail: recorded, tried again until the database takes it (away,
        or a lock waited for too long), never left for the lease to run out while this process
        lives: another would send the mail again."""
        at = self.services.clock.now()

        def record(session: Session) -> None:
            if masked is None:
                session.connection().execute(_SENT, {"mail": mail_id, "at": at})
            else:  # the secret was delivered: gm keeps no copy of it in clear
                session.connection().execute(_SENT_MASKED, {"mail": mail_id, "at": at, "masked": masked})

        told = False
        while True:
            try:
                in_transaction(self.services.db, f"the record of mail {mail_id} as sent", record, patience=math.inf,
                               sleep=lambda seconds: time.sleep(min(seconds, 0.5)))
                return
            except DatabaseBusy as exc:  # a lock waited for too long: the record is tried again at once
                if not told:
                    told = True
                    log.warning("mail %s was sent; recording it waits: %s", mail_id, exc)

    def _claim(self, count: int) -> list[int]:
        """The ``count`` lowest mails due that no process holds, and with them the others due that
        carry a picture of the same phase, held by this process for ``outbox_lease`` seconds."""
        now = self.services.clock.now()

        def claim(session: Session) -> list[int]:
            connection = session.connection()
            ids = list(connection.execute(_CLAIMABLE, {"now": now, "limit": count}).scalars())
            if ids:
                ids += connection.execute(_SAME_PICTURE, {"now": now, "ids": ids}).scalars()
                ids.sort()
                until = now + timedelta(seconds=self.services.config.outbox_lease)
                connection.execute(_CLAIM, {"ids": ids, "until": until, "owner": self.owner})
                self._leases.update(dict.fromkeys(ids, until))
            return ids

        return in_transaction(self.services.db, "claiming outgoing mail", claim)

    def _still_ours(self, mail_id: int) -> bool:
        """Right before sending: whether the claim still holds, renewed unless it holds long
        enough to hand the mail over and record it (recording may wait ``lock_timeout`` for the
        database), so that no other process can be sending it too while this one is alive."""
        config = self.services.config
        needed = timedelta(seconds=max(config.outbox_lease / 2, config.lock_timeout + HANDOVER))
        now = self.services.clock.now()
        until = self._leases.pop(mail_id, now)
        if until - now > needed:
            return True
        hold = max(timedelta(seconds=config.outbox_lease), needed)
        with self.services.db.unit_of_work() as session:
            renewed = session.connection().execute(_RENEW, {"mail": mail_id, "owner": self.owner, "until": now + hold})
            return renewed.rowcount == 1

    def _release(self, ids: list[int]) -> None:
        for mail_id in ids:
            self._leases.pop(mail_id, None)
        with self.services.db.unit_of_work() as session:
            session.connection().execute(_RELEASE, {"ids": ids, "owner": self.owner})

    def build(self, session: Session, mail: OutboundMail, pictures: dict,  # type: ignore[type-arg]
              undrawn: list[str] | None = None) -> EmailMessage:
        """The mail as sent; ``undrawn`` gets a note for the administrator of each picture that
        could not be drawn (the mail goes without it, saying so)."""
        message = self._headers(mail)
        wanted = _carries_pictures(mail)
        drawn = self._pictures(session, mail, pictures, undrawn if undrawn is not None else []) if wanted else []
        message.set_content(mail.body if drawn or not wanted else mail.body.rstrip("\n") + NO_PICTURE)
        for picture in drawn:
            message.add_attachment(picture.data, maintype="image", subtype="png", filename=picture.name)
        return checked(message)

    def _headers(self, mail: OutboundMail) -> EmailMessage:
        """The judge's own headers, each value checked again (a row may be older than the checks
        made when mail is queued): an address that is not plain sets the mail aside; a Message-ID
        that is not leaves the reply without In-Reply-To. ``STRICT`` refuses whatever else would
        break a header."""
        config = self.services.config
        if mail_address(mail.to_address) is None:
            raise HeaderRefused(f"To: {mail.to_address!r} is not a plain mail address")
        message = EmailMessage(policy=STRICT)
        message["From"] = formataddr((config.judge_name, config.judge_address))
        message["To"] = mail.to_address.strip()
        message["Subject"] = header_text(mail.subject)
        message["Date"] = format_datetime(mail.created_at)
        message["Message-ID"] = mail.message_id
        message["Auto-Submitted"] = AUTOMATIC.get(mail.kind, "auto-generated")  # RFC 3834: do not answer us
        message["X-GM-Kind"] = mail.kind
        reference = message_id(mail.in_reply_to or "")
        if reference is not None:
            message["In-Reply-To"] = reference
            message["References"] = reference
        return message

    def _pictures(self, session: Session, mail: OutboundMail, pictures: dict,  # type: ignore[type-arg]
                  undrawn: list[str]) -> list[Attachment]:
        """The mail's pictures (gm.games.pictures.attachments), each drawn once per drain; one that
        cannot be drawn is left out, noted once per picture in ``undrawn`` for the administrator."""
        def failed(name: str, exc: Exception) -> None:
            if connection_lost(exc):
                raise exc  # the database away is no fault of the picture: the mail waits for it
            log.error("no picture %s for mail %s", name, mail.id, exc_info=exc)
            undrawn.append(_undrawn_note(name, mail.id, mail.subject, exc))

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


def checked(message: EmailMessage) -> EmailMessage:
    """``message`` when it has only the judge's own headers, each written as one header by
    ``STRICT``; else ``HeaderRefused`` (a mail that cannot be built: set aside)."""
    for part in message.walk():
        other = {name for name in part.keys() if name.lower() not in OWN_HEADERS}
        if other:
            raise HeaderRefused(f"headers the judge does not write: {sorted(other)}")
    check_headers(message)
    return message


def _carries_pictures(mail: OutboundMail) -> bool:
    return mail.attach_phase_id is not None or mail.kind in ("map", "start")


def _undrawn_note(name: str, mail_id: int, subject: str, exc: Exception) -> str:
    return (f"The picture {name} for the mail {mail_id} ({subject!r}) and others like it could not be drawn; "
            f"the mails go without it, saying so.\n\n{type(exc).__name__}: {exc}")


def _attachment(message: EmailMessage, data: bytes, name: str) -> EmailMessage:
    """A PNG as an attachment part, as ``EmailMessage.add_attachment`` makes it (encoded once,
    attached to every mail that carries it)."""
    part = EmailMessage(policy=message.policy)
    part.set_content(data, maintype="image", subtype="png", filename=name)
    if "content-disposition" not in part:
        part["Content-Disposition"] = "attachment"
    return part
