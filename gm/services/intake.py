"""Incoming mail: stored raw first, then read and acted on in one transaction, then answered.

* Each message is kept as it came (``inbound_mail``) before anything is decided; the same
  message delivered twice (same Message-ID, or same mailbox position) is acted on once.
* Mail gm must never answer (auto-replies, bounces, lists, its own) is kept and ignored.
* A message whose handling fails is "shunted": kept with the error, the administrator told;
  ``gm unshunt ID`` runs it again. Nothing is ever lost.
* Every other mail gets one reply, a section per command, within the same transaction as the
  changes it made (the reply is a row in the outbox).
"""

from __future__ import annotations

import logging
import traceback
from datetime import timedelta
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gm.commands.base import CommandError, Invocation, MailContext, Section
from gm.commands.reader import ORDERS, read_invocations
from gm.commands.registry import CommandTable
from gm.games.context import Services
from gm.games.notices import tell_gm
from gm.services.mail_rules import reason_to_ignore
from gm.services.mailtext import body_text, readable_lines, sender_address
from gm.store.models import InboundMail, InboundStatus, OutboundMail

log = logging.getLogger(__name__)
REPLY_KINDS = ("reply", "refusal", "map")


def parse_message(raw: bytes) -> Message:
    """The compat32 parser: much faster than policy.default, and all we need (text parts are
    decoded by gm.services.mailtext, encoded headers by ``header_text``)."""
    return message_from_bytes(raw)


def header_text(message: Message, name: str) -> str:
    value = message.get(name)
    if value is None:
        return ""
    try:
        return str(make_header(decode_header(str(value))))
    except (UnicodeDecodeError, LookupError, ValueError):
        return str(value)


class Intake:
    def __init__(self, services: Services, table: CommandTable | None = None):
        self.services = services
        self.table = table or CommandTable()

    # -- the transport's entry points ------------------------------------------------

    async def deliver(self, raw: bytes, source_key: str) -> None:
        """For inboxes: returns once the message is stored and handled (or shunted)."""
        self.receive(raw, source_key)

    def receive(self, raw: bytes, source_key: str | None = None) -> int | None:
        """Store and handle one message; its id, or None when it was seen before."""
        try:
            message: Message | None = parse_message(raw)
        except Exception:  # noqa: BLE001 - a message we cannot even parse is still kept
            message = None
        inbound_id = self.store(raw, source_key, message)
        if inbound_id is not None:
            self.handle(inbound_id, message)
        return inbound_id

    def store(self, raw: bytes, source_key: str | None, message: Message | None = None) -> int | None:
        message_id = sender = subject = ""
        if message is not None:
            message_id = str(message.get("Message-ID", "")).strip()[:998]
            sender = sender_address(message)
            subject = header_text(message, "Subject")[:500]
        try:
            with self.services.db.unit_of_work() as session:
                row = InboundMail(message_id=message_id or None, source_key=source_key, sender=sender,
                                  subject=subject, raw=raw, status=InboundStatus.NEW,
                                  received_at=self.services.clock.now())
                session.add(row)
                session.flush()
                return row.id
        except IntegrityError:  # the same Message-ID or mailbox position: seen before
            log.info("duplicate delivery of %s ignored", message_id or source_key)
            return None

    def handle(self, inbound_id: int, message: Message | None = None) -> None:
        try:
            with self.services.db.unit_of_work() as session:
                row = session.get(InboundMail, inbound_id)
                if row is None or row.status != InboundStatus.NEW:
                    return
                row.status, row.error = self._answer(session, row, message or parse_message(row.raw))
                row.processed_at = self.services.clock.now()
                self.services.faults.point("intake-before-commit")
        except Exception:  # noqa: BLE001 - whatever went wrong, the mail is kept and a person told
            self.shunt(inbound_id, traceback.format_exc())

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

    # -- reading and answering -----------------------------------------------------

    def _answer(self, session: Session, row: InboundMail, message: Message) -> tuple[str, str]:
        services = self.services
        config = services.config
        ignore = reason_to_ignore(message, config.judge_address, services.mailer.is_own_message_id)
        if ignore:
            return InboundStatus.IGNORED, ignore
        sender = row.sender
        if self._replies_this_hour(session, sender) >= config.sender_rate:
            return InboundStatus.IGNORED, f"rate limit: {config.sender_rate} replies an hour to {sender}"
        if len(row.raw) > config.max_mail_bytes:
            self._reply(session, row, message, [Section([], [
                f"Your mail is {len(row.raw) // 1024} KB; this judge reads mails of up to "
                f"{config.max_mail_bytes // 1024} KB. Please send your commands as plain text, "
                "without attachments."], ok=False)], kind="refusal")
            return InboundStatus.DONE, "too large"
        ctx = MailContext(services=services, session=session, sender=sender, now=services.clock.now(),
                          inbound_id=row.id, message_id=row.message_id, authenticated=_authenticated(message))
        invocations = read_invocations(readable_lines(body_text(message)), self.table.spellings, self.table.bodied,
                                       self.table.misspelt)
        if not invocations:
            sections = [Section([], ["No commands found in your mail. Send HELP for the list of commands."], ok=False)]
        else:
            sections = [self._run(ctx, invocation) for invocation in invocations]
        self._reply(session, row, message, sections, attach=ctx.attach)
        return InboundStatus.DONE, ""

    def _run(self, ctx: MailContext, invocation: Invocation) -> Section:
        command = self.table.find(invocation.name)
        assert command is not None
        echo = command.echo(invocation)
        # A failed command undoes only itself: commands that change the store run in a savepoint.
        savepoint = None if command.read_only else ctx.session.begin_nested()
        try:
            if invocation.name == ORDERS and ctx.power is None:
                raise CommandError(self._not_orders(invocation))
            lines = command.run(ctx, invocation)
            if savepoint is not None:
                savepoint.commit()
            return Section(echo, lines)
        except CommandError as exc:
            if savepoint is not None:
                savepoint.rollback()
            return Section(echo, [f"ERROR: {exc}"], ok=False)
        finally:
            for action in ctx.keep:
                action()
            ctx.keep.clear()

    def _not_orders(self, invocation: Invocation) -> str:
        """Lines read before any SIGNON: a misspelt command, or orders without a power."""
        word = invocation.text.split()[0].upper().rstrip(":")
        if self.table.closest(word) and word not in ("A", "F"):
            return self.table.unknown(word)
        return "orders need a power: SIGNON <power> <game> <secret> first (HELP lists the commands)"

    def _replies_this_hour(self, session: Session, sender: str) -> int:
        since = self.services.clock.now() - timedelta(hours=1)
        return session.scalar(select(func.count()).select_from(OutboundMail).where(
            OutboundMail.to_address == sender, OutboundMail.kind.in_(REPLY_KINDS),
            OutboundMail.created_at >= since)) or 0

    def _reply(self, session: Session, row: InboundMail, message: Message, sections: list[Section],
               kind: str = "reply", attach: dict | None = None) -> None:
        subject = header_text(message, "Subject").strip() or "your mail"
        if not subject.lower().startswith("re:"):
            subject = f"Re: {subject}"
        phase_id = game_id = None
        if attach and "map" in attach:
            game_id, phase_id = attach["map"]["game"], attach["map"]["phase"]
            kind = "map"
        self.services.mailer.queue(
            session, to=row.sender, subject=subject[:200], template="mail/reply.txt.j2", kind=kind,
            game_id=game_id, attach_phase_id=phase_id, in_reply_to=row.message_id,
            sections=sections, received=row.received_at,
        )


def _authenticated(message: Message) -> bool:
    """A passing DKIM or SPF verdict in an Authentication-Results header (RFC 8601)."""
    for value in message.get_all("Authentication-Results", []):
        text = str(value).lower()
        if "dkim=pass" in text or "spf=pass" in text:
            return True
    return False
