"""Incoming mail, as one straight way: store the raw mail, decide whether to ignore it, read
its commands, run them (each game they touch locked), reply.

* Each message is kept as it came (``inbound_mail``) before anything is decided
  (gm.services.arrival); the same message delivered twice (the same Message-ID and content, or
  the same mailbox position) is acted on once. A mail over ``max_mail_bytes`` is kept cut down
  to its headers and text parts, with a note of what was cut, and refused: nothing in it is
  done, and its sender is told so.
* Mail gm must never answer (auto-replies, bounces, lists, its own) is kept and ignored.
* Every other mail is handled in full, and answered with one reply, a section per command,
  within the same transaction as the changes it made (the reply is a row in the outbox). The
  reply policy (gm.services.reply_policy) may hold a reply back, never what the mail did.
* A mail that meets another process's change (a phase processed meanwhile, a deadlock) is
  handled again from the start; one whose lock is not had in time is left unhandled for the
  next run (``DatabaseBusy``), never shunted.
* A message whose handling fails otherwise is "shunted": kept with the error, the
  administrator told; ``gm unshunt ID`` runs it again. Nothing is ever lost.
"""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass
from datetime import timedelta
from email.message import Message
from typing import Any

from sqlalchemy import Row, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gm.commands.base import Invocation, MailContext, Section
from gm.commands.reader import read_invocations
from gm.commands.registry import CommandTable
from gm.commands.runner import run_commands
from gm.games.context import Services
from gm.games.mailer import wrap
from gm.games.notices import tell_gm
from gm.services.arrival import Arrival, arrive, parse_message
from gm.services.authresults import authenticated
from gm.services.mail_rules import reason_to_ignore
from gm.services.mailtext import body_text, readable_lines
from gm.services.masking import mask_raw
from gm.services.replying import Addressee, queue_reply
from gm.store.models import InboundMail, InboundStatus
from gm.store.retry import DatabaseBusy, in_transaction

log = logging.getLogger(__name__)
# Built once: building a statement costs more than running it (docs/design/performance.md).
_INBOUND = InboundMail.__table__
_INBOUND_INSERT = insert(_INBOUND)
_INBOUND_LOCKED = select(_INBOUND).where(_INBOUND.c.id == bindparam("id")).with_for_update()
_INBOUND_HANDLED = (update(_INBOUND).where(_INBOUND.c.id == bindparam("mail"))
                    .values(status=bindparam("new_status"), error=bindparam("new_error"),
                            processed_at=bindparam("handled_at")))
_INBOUND_MASKED = update(_INBOUND).where(_INBOUND.c.id == bindparam("mail")).values(raw=bindparam("masked"))
_SAME_ID_BEFORE = select(func.min(_INBOUND.c.id)).where(_INBOUND.c.message_id == bindparam("message_id"),
                                                        _INBOUND.c.id != bindparam("id"))
# Stored but never handled (a process died, or gave up waiting): taken by one process each.
_LEFT_UNHANDLED = (select(_INBOUND.c.id).where(_INBOUND.c.status == InboundStatus.NEW,
                                               _INBOUND.c.received_at <= bindparam("before"))
                   .order_by(_INBOUND.c.id).limit(bindparam("limit")).with_for_update(skip_locked=True))
UNHANDLED_AFTER = timedelta(minutes=1)  # a mail stored longer ago than this and still new was left


@dataclass(frozen=True)
class Handled:
    status: str
    note: str = ""  # why it was ignored, or what of its reply was held back
    secrets: tuple[str, ...] = ()  # written in its commands: masked in the stored mail
    outcome: str = ""  # for the log: from whom, which game, what became of its commands (never a line of it)


class Intake:
    def __init__(self, services: Services, table: CommandTable | None = None):
        self.services = services
        self.table = table or CommandTable()

    # -- the transport's entry points ------------------------------------------------

    async def deliver(self, raw: bytes, source_key: str, size: int | None = None) -> None:
        """For inboxes: returns once the message is stored and handled (or shunted); raises
        ``DatabaseBusy`` when it is stored but left for the next run."""
        self.receive(raw, source_key, size)

    def receive(self, raw: bytes, source_key: str | None = None, size: int | None = None) -> int | None:
        """Store and handle one message (``size``: the whole message's, when ``raw`` is only its
        first part); its id, or None when it was seen before."""
        arrival = arrive(raw, source_key, size, self.services.config.max_mail_bytes)
        inbound_id = self.store(arrival)
        if inbound_id is None:
            self._finish(arrival)
            return None
        self.handle(inbound_id, arrival.message)
        return inbound_id

    # -- 1. store the raw mail -------------------------------------------------------

    def store(self, arrival: Arrival) -> int | None:
        """The mail's row (a plain INSERT: nothing else is written), or None when this very mail
        was stored before."""
        try:
            with self.services.db.unit_of_work() as session:
                connection = session.connection()
                stored = connection.execute(_INBOUND_INSERT, {
                    "message_id": arrival.message_id or None, "content_digest": arrival.content_digest,
                    "source_key": arrival.source_key, "sender": arrival.sender, "subject": arrival.subject,
                    "raw": arrival.raw, "cut": arrival.cut, "status": InboundStatus.NEW, "error": "",
                    "received_at": self.services.clock.now(), "processed_at": None})
                inbound_id = int(stored.inserted_primary_key[0])
                if arrival.message_id:
                    earlier = connection.execute(_SAME_ID_BEFORE, {"message_id": arrival.message_id,
                                                                   "id": inbound_id}).scalar()
                    if earlier is not None:
                        log.info("mail %s reuses the Message-ID %s of mail %s with other content: handled as a "
                                 "mail of its own", inbound_id, arrival.message_id, earlier)
                return inbound_id
        except IntegrityError:  # the same Message-ID and content, or mailbox position: seen before
            log.info("duplicate delivery of %s ignored", arrival.message_id or arrival.source_key)
            return None

    def _finish(self, arrival: Arrival) -> None:
        """A mail delivered again that was stored but never handled (the process died between
        the two, or gave up waiting) is handled now: the redelivery is what the inbox offers
        for that."""
        keys = [InboundMail.source_key == arrival.source_key] if arrival.source_key else []
        if arrival.message_id:
            keys.append((InboundMail.message_id == arrival.message_id)
                        & (InboundMail.content_digest == arrival.content_digest))
        if not keys:
            return
        with self.services.db.reading() as session:
            unfinished = session.scalars(select(InboundMail.id).where(
                or_(*keys), InboundMail.status == InboundStatus.NEW)).first()
        if unfinished is not None:
            self.handle(unfinished)

    def handle_left_unhandled(self, limit: int = 100) -> int:
        """Handle the mails stored a while ago and never handled (their process died, or left
        them for later); the number handled. Each is taken by one process (skip locked)."""
        before = self.services.clock.now() - UNHANDLED_AFTER
        handled = 0
        while handled < limit:
            with self.services.db.reading() as session:
                waiting = list(session.scalars(_LEFT_UNHANDLED, {"before": before, "limit": 1}))
            if not waiting:
                break
            log.info("mail %s was stored and never handled: handling it now", waiting[0])
            self.handle(waiting[0])
            handled += 1
        return handled

    # -- 2 to 5: decide, read, run, reply: in one transaction --------------------------

    def handle(self, inbound_id: int, message: Message | None = None) -> None:
        """``message``: the mail as parsed on arrival, when it is at hand (else read from its row)."""
        try:
            handled = in_transaction(self.services.db, f"mail {inbound_id}",
                                     lambda session: self._handle_in(session, inbound_id, message))
        except DatabaseBusy:
            raise  # stored, left new: the next run (or a redelivery) handles it
        except Exception:  # noqa: BLE001 - whatever went wrong, the mail is kept and a person told
            self.shunt(inbound_id, traceback.format_exc())
            return
        if handled is not None:
            log.info("mail %s %s: %s%s", inbound_id, handled.status, handled.outcome,
                     f"; {handled.note}" if handled.note else "; reply queued" if handled.status == InboundStatus.DONE else "")

    def _handle_in(self, session: Session, inbound_id: int, message: Message | None) -> Handled | None:
        # Locked: a mail handled by two processes at once is acted on once. Read and marked
        # done with plain statements: the mail's row is never an object to flush.
        connection = session.connection()
        row = connection.execute(_INBOUND_LOCKED, {"id": inbound_id}).first()
        if row is None or row.status != InboundStatus.NEW:
            return None
        handled = self._answer(session, row, message or parse_message(row.raw))
        connection.execute(_INBOUND_HANDLED, {"mail": inbound_id, "new_status": handled.status,
                                              "new_error": handled.note, "handled_at": self.services.clock.now()})
        masked = mask_raw(row.raw, handled.secrets)  # no secret kept in clear once it served
        if masked != row.raw:
            connection.execute(_INBOUND_MASKED, {"mail": inbound_id, "masked": masked})
        self.services.faults.point("intake-before-commit")
        return handled

    def _answer(self, session: Session, row: Row[Any], message: Message) -> Handled:
        invocations = self.commands_in(message)
        secrets = tuple(s for i in invocations for s in self.table.find(i.name).secrets(i))  # type: ignore[union-attr]
        ignore = reason_to_ignore(message, self.services.config.judge_address, self.services.mailer.is_own_message_id)
        if ignore:
            return Handled(InboundStatus.IGNORED, ignore, secrets, f"from {row.sender or '(no sender)'}")
        to = Addressee(row.sender, row.message_id, row.subject, row.received_at, refused_whole=bool(row.cut))
        if row.cut:
            return Handled(InboundStatus.DONE, _note(f"too large: {row.cut}", queue_reply(
                self.services, session, to, [self._too_large(row)])), secrets, f"from {row.sender}, refused whole")
        ctx = MailContext(services=self.services, session=session, sender=row.sender, now=self.services.clock.now(),
                          received_at=row.received_at, inbound_id=row.id, message_id=row.message_id,
                          authenticated=authenticated(message, self.services.config.authserv_id))
        if invocations:
            sections = run_commands(ctx, self.table, invocations)
        else:
            sections = [Section([], ["No commands found in your mail. Send HELP for the list of commands."], ok=False)]
        return Handled(InboundStatus.DONE, queue_reply(self.services, session, to, sections, attach=ctx.attach,
                                                       secrets=ctx.revealed), secrets, _outcome(ctx, sections))

    def commands_in(self, message: Message) -> list[Invocation]:
        """What the mail asks for: its text (quotes and signature left out) as commands."""
        return read_invocations(readable_lines(body_text(message)), self.table.spellings, self.table.bodied,
                                self.table.misspelt)

    def _too_large(self, row: Row[Any]) -> Section:
        limit = self.services.config.max_mail_bytes // 1024
        return Section([], [wrap(
            f"Your mail is larger than the {limit} KB this judge reads, so nothing in it was done: "
            "no orders, press or other commands were read. Please send them again as plain text, "
            f"without attachments.\n\n(Received: {row.cut}.)")], ok=False)

    # -- when handling fails ----------------------------------------------------------

    def shunt(self, inbound_id: int, error: str) -> None:
        log.error("mail %s shunted: %s", inbound_id, error.strip().splitlines()[-1])
        with self.services.db.unit_of_work() as session:
            row = session.get(InboundMail, inbound_id)
            assert row is not None
            row.status = InboundStatus.SHUNTED
            row.error = error
            row.processed_at = self.services.clock.now()
            tell_gm(self.services, session, None, subject=f"mail {inbound_id} shunted",
                    text=f"The mail {inbound_id} from {row.sender or '(no sender)'} ({row.subject!r}) could not be "
                         f"handled and is kept. Fix the cause, then run: gm unshunt {inbound_id}\n\n{error}")

    def unshunt(self, inbound_id: int) -> bool:
        with self.services.db.unit_of_work() as session:
            row = session.get(InboundMail, inbound_id)
            if row is None or row.status != InboundStatus.SHUNTED:
                return False
            row.status, row.error = InboundStatus.NEW, ""
        self.handle(inbound_id)
        return True


def _outcome(ctx: MailContext, sections: list[Section]) -> str:
    """What the log says of a handled mail: never a line of it (it may hold a secret)."""
    game = ctx.game
    who = f" ({ctx.power})" if ctx.power else " (GM)" if ctx.is_gm else ""
    refused = sum(not section.ok for section in sections)
    return (f"from {ctx.sender}, {f'game {game.name}{who}' if game is not None else 'no game'}: "
            f"{len(sections)} answered{f', {refused} refused' if refused else ''}")


def _note(first: str, second: str) -> str:
    return "; ".join(text for text in (first, second) if text)
