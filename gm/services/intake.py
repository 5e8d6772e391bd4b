"""Incoming mail: stored raw first, then read and acted on in one transaction, then answered.

* Each message is kept as it came (``inbound_mail``) before anything is decided; the same
  message delivered twice (same Message-ID, or same mailbox position) is acted on once. A mail
  over ``max_mail_bytes`` is kept cut down to its headers and text parts, with a note of what
  was cut, and refused: nothing in it is done, and its sender is told so.
* Mail gm must never answer (auto-replies, bounces, lists, its own) is kept and ignored.
* A message whose handling fails is "shunted": kept with the error, the administrator told;
  ``gm unshunt ID`` runs it again. Nothing is ever lost.
* Every other mail is handled in full, and answered with one reply, a section per command,
  within the same transaction as the changes it made (the reply is a row in the outbox). The
  reply policy (gm.services.reply_policy) may hold a reply back, never what the mail did.
"""

from __future__ import annotations

import logging
import traceback
from email import message_from_bytes
from email.parser import BytesHeaderParser
from email.header import decode_header, make_header
from email.message import Message
from typing import Any

from sqlalchemy import Row, bindparam, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gm.commands.base import CommandError, Invocation, MailContext, Section
from gm.commands.echo import count_lines
from gm.commands.reader import ORDERS, read_invocations
from gm.commands.registry import CommandTable
from gm.games.context import Services
from gm.games.mailer import format_moment, wrap
from gm.games.notices import tell_gm
from gm.services.mail_rules import reason_to_ignore
from gm.services.mailtext import body_text, readable_lines, sender_address, without_nul
from gm.services.oversize import cut_down
from gm.services.reply_policy import PAUSED, REFUSAL, ReplyFacts, Verdict, decide
from gm.store.models import InboundMail, InboundStatus, Player

log = logging.getLogger(__name__)
SIGNON = "SIGNON"
# Built once: building a statement costs more than running it (docs/design/performance.md).
_INBOUND = InboundMail.__table__
_INBOUND_INSERT = insert(_INBOUND)
_INBOUND_LOCKED = select(_INBOUND).where(_INBOUND.c.id == bindparam("id")).with_for_update()
_INBOUND_HANDLED = (update(_INBOUND).where(_INBOUND.c.id == bindparam("mail"))
                    .values(status=bindparam("new_status"), error=bindparam("new_error"),
                            processed_at=bindparam("handled_at")))


def parse_message(raw: bytes) -> Message:
    """The compat32 parser: much faster than policy.default, and all we need (text parts are
    decoded by gm.services.mailtext, encoded headers by ``header_text``)."""
    return message_from_bytes(raw)


def _headers_of(raw: bytes) -> Message | None:
    try:
        return BytesHeaderParser().parsebytes(raw)
    except Exception:  # noqa: BLE001 - then the cut copy's headers are all there is
        return None


def header_text(message: Message, name: str) -> str:
    value = message.get(name)
    if value is None:
        return ""
    try:
        return without_nul(str(make_header(decode_header(str(value)))))
    except (UnicodeDecodeError, LookupError, ValueError):
        return without_nul(str(value))


class Intake:
    def __init__(self, services: Services, table: CommandTable | None = None):
        self.services = services
        self.table = table or CommandTable()

    # -- the transport's entry points ------------------------------------------------

    async def deliver(self, raw: bytes, source_key: str, size: int | None = None) -> None:
        """For inboxes: returns once the message is stored and handled (or shunted)."""
        self.receive(raw, source_key, size)

    def receive(self, raw: bytes, source_key: str | None = None, size: int | None = None) -> int | None:
        """Store and handle one message (``size``: the whole message's, when ``raw`` is only its
        first part); its id, or None when it was seen before."""
        size = max(size or 0, len(raw))
        cut = ""
        delivered: Message | None = None
        if size > self.services.config.max_mail_bytes:
            delivered = _headers_of(raw)  # its identity as delivered: the cut copy may lose or refold it
            kept = cut_down(raw, size, self.services.config.max_mail_bytes)
            raw, cut = kept.raw, kept.note
        try:
            message: Message | None = parse_message(raw)
        except Exception:  # noqa: BLE001 - a message we cannot even parse is still kept
            message = None
        inbound_id = self.store(raw, source_key, message, cut, delivered)
        if inbound_id is None:
            self._finish(source_key, delivered or message)
            return None
        self.handle(inbound_id, message)
        return inbound_id

    def store(self, raw: bytes, source_key: str | None, message: Message | None = None, cut: str = "",
              delivered: Message | None = None) -> int | None:
        """``delivered``: the headers of the mail as delivered, when ``raw`` is a cut-down copy."""
        message_id, sender, subject = identity(delivered or message)
        try:
            with self.services.db.unit_of_work() as session:  # a plain INSERT: nothing else is written
                stored = session.connection().execute(_INBOUND_INSERT, {
                    "message_id": message_id or None, "source_key": source_key, "sender": sender,
                    "subject": subject, "raw": raw, "cut": cut, "status": InboundStatus.NEW, "error": "",
                    "received_at": self.services.clock.now(), "processed_at": None})
                return int(stored.inserted_primary_key[0])
        except IntegrityError:  # the same Message-ID or mailbox position: seen before
            log.info("duplicate delivery of %s ignored", message_id or source_key)
            return None

    def _finish(self, source_key: str | None, message: Message | None) -> None:
        """A mail delivered again that was stored but never handled (the process died between
        the two) is handled now: the redelivery is what the inbox offers for that."""
        message_id = identity(message)[0]
        keys = [InboundMail.source_key == source_key] if source_key else []
        keys += [InboundMail.message_id == message_id] if message_id else []
        if not keys:
            return
        with self.services.db.sessions() as session:
            unfinished = session.scalars(select(InboundMail.id).where(
                or_(*keys), InboundMail.status == InboundStatus.NEW)).first()
        if unfinished is not None:
            self.handle(unfinished)

    def handle(self, inbound_id: int, message: Message | None = None) -> None:
        try:
            with self.services.db.unit_of_work() as session:
                # locked: a mail handled by two processes at once is acted on once. Read and
                # marked done with plain statements: the mail's row is never an object to flush.
                connection = session.connection()
                row = connection.execute(_INBOUND_LOCKED, {"id": inbound_id}).first()
                if row is None or row.status != InboundStatus.NEW:
                    return
                status, error = self._answer(session, row, message or parse_message(row.raw))
                connection.execute(_INBOUND_HANDLED, {"mail": inbound_id, "new_status": status, "new_error": error,
                                                      "handled_at": self.services.clock.now()})
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

    def _answer(self, session: Session, row: Row[Any], message: Message) -> tuple[str, str]:
        services = self.services
        config = services.config
        ignore = reason_to_ignore(message, config.judge_address, services.mailer.is_own_message_id)
        if ignore:
            return InboundStatus.IGNORED, ignore
        if row.cut:
            limit = config.max_mail_bytes // 1024
            sections = [Section([], [wrap(
                f"Your mail is larger than the {limit} KB this judge reads, so nothing in it was done: "
                "no orders, press or other commands were read. Please send them again as plain text, "
                f"without attachments.\n\n(Received: {row.cut}.)")], ok=False)]
            return InboundStatus.DONE, _note(f"too large: {row.cut}", self._reply(session, row, message, sections))
        ctx = MailContext(services=services, session=session, sender=row.sender, now=services.clock.now(),
                          inbound_id=row.id, message_id=row.message_id, authenticated=_authenticated(message))
        invocations = self.commands_in(message)
        if not invocations:
            sections = [Section([], ["No commands found in your mail. Send HELP for the list of commands."], ok=False)]
        else:
            sections = self._run_all(ctx, invocations)
        return InboundStatus.DONE, _note("", self._reply(session, row, message, sections, attach=ctx.attach))

    def commands_in(self, message: Message) -> list[Invocation]:
        """What the mail asks for: its text (quotes and signature left out) as commands."""
        return read_invocations(readable_lines(body_text(message)), self.table.spellings, self.table.bodied,
                                self.table.misspelt)

    def _run_all(self, ctx: MailContext, invocations: list[Invocation]) -> list[Section]:
        """Every command runs; once the reply is long, the answers of commands that changed
        nothing are only counted (a thousand LISTs get a reply of reasonable length)."""
        sections: list[Section] = []
        unshown = 0
        for invocation in invocations:
            command = self.table.find(invocation.name)
            assert command is not None
            full = ctx.budget.full
            section = self._run(ctx, invocation)
            if full and section.ok and command.read_only:
                unshown += 1
                continue
            ctx.budget.answered(len(section.lines))
            sections.append(section)
        if unshown:
            sections.append(Section([], [wrap(f"({unshown:,} more {'command' if unshown == 1 else 'commands'} "
                                              "answered, answers not shown: this reply is long enough already.)")]))
        return sections

    def _run(self, ctx: MailContext, invocation: Invocation) -> Section:
        command = self.table.find(invocation.name)
        assert command is not None
        echo = command.echo(invocation)
        # A failed command undoes only itself: commands that change the store run in a savepoint.
        savepoint = None if command.read_only else ctx.session.begin_nested()
        try:
            if invocation.name == ORDERS and ctx.power is None:
                echo = invocation.body  # the lines refused, shown with the reason
                raise CommandError(self._not_orders(invocation))
            lines = command.run(ctx, invocation)
            if savepoint is not None:
                savepoint.commit()
            return self._section(ctx, echo, lines, True, invocation.name)
        except CommandError as exc:
            if savepoint is not None:
                savepoint.rollback()
            return self._section(ctx, echo, [f"ERROR: {exc}"], False, invocation.name)
        finally:
            for action in ctx.keep:
                action()
            ctx.keep.clear()

    @staticmethod
    def _section(ctx: MailContext, echo: list[str], lines: list[str], ok: bool, name: str) -> Section:
        """The echo bounded: a failed command's own line is always shown."""
        shown, unshown = ctx.budget.echoed(echo, keep_first=not ok)
        if unshown:
            reason = "" if ok else ", refused for the same reason"
            lines = [f"({count_lines(unshown, 'more')} not shown{reason}.)", *lines]
        return Section(shown, lines, ok, command=name)

    def _not_orders(self, invocation: Invocation) -> str:
        """Lines read before any SIGNON: a misspelt command, or orders without a power."""
        word = invocation.text.split()[0].upper().rstrip(":")
        if self.table.closest(word) and word not in ("A", "F"):
            return self.table.unknown(word)
        return "orders need a power: SIGNON <power> <game> <secret> first (HELP lists the commands)"

    def _reply(self, session: Session, row: Row[Any], message: Message, sections: list[Section],
               attach: dict | None = None) -> str:
        """Queue the reply, unless the reply policy holds it back; what was held back and why."""
        refusal = bool(row.cut) or all(not s.ok for s in sections) or any(
            s.command == SIGNON and not s.ok for s in sections)
        facts = ReplyFacts(self.services, session, row.sender, refusal)
        verdict, reason = decide(facts)
        if verdict is Verdict.NOTICE:
            self._pause_notice(session, row, message, facts)
        if verdict is not Verdict.SEND:
            return f"reply withheld: {reason}"
        subject = _reply_subject(message)
        kind = REFUSAL if refusal else "reply"
        phase_id = game_id = None
        if attach and "map" in attach:
            game_id, phase_id = attach["map"]["game"], attach["map"]["phase"]
            kind = "map"
        self.services.mailer.queue(
            session, to=row.sender, subject=subject, template="mail/reply.txt.j2", kind=kind,
            game_id=game_id, attach_phase_id=phase_id, in_reply_to=row.message_id,
            sections=sections, received=row.received_at,
        )
        return ""

    def _pause_notice(self, session: Session, row: Row[Any], message: Message, facts: ReplyFacts) -> None:
        player = session.scalars(select(Player).where(Player.email == row.sender)).first()
        self.services.mailer.queue(
            session, to=row.sender, subject=_reply_subject(message), template="mail/paused.txt.j2", kind=PAUSED,
            in_reply_to=row.message_id, rate=facts.rate, subject_read=header_text(message, "Subject").strip(),
            until=format_moment(facts.resumes_at, player.timezone if player else "UTC"),
        )


def identity(message: Message | None) -> tuple[str, str, str]:
    """Message-ID, sender and subject, as far as they can be read ("" where not)."""
    if message is None:
        return "", "", ""
    try:
        # Unfolded: a mail server may fold a long Message-ID differently on each delivery.
        message_id = " ".join(without_nul(str(message.get("Message-ID", ""))).split())
        return message_id[:998], sender_address(message)[:254], header_text(message, "Subject")[:500]
    except Exception:  # noqa: BLE001 - headers too broken to read: stored all the same
        return "", "", ""


def _reply_subject(message: Message) -> str:
    subject = header_text(message, "Subject").strip() or "your mail"
    return (subject if subject.lower().startswith("re:") else f"Re: {subject}")[:200]


def _note(first: str, second: str) -> str:
    return "; ".join(text for text in (first, second) if text)


def _authenticated(message: Message) -> bool:
    """A passing DKIM or SPF verdict in an Authentication-Results header (RFC 8601)."""
    for value in message.get_all("Authentication-Results", []):
        text = str(value).lower()
        if "dkim=pass" in text or "spf=pass" in text:
            return True
    return False
