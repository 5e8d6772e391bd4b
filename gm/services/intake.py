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
  next run (``DatabaseBusy``), never shunted. A lost database connection is no fault of the
  mail either: each step is run again once the database is back, and the mail is left new
  (``DatabaseAway``) when it stays away.
* A message whose handling fails otherwise is "shunted": kept with the error, the
  administrator told; ``gm unshunt ID`` runs it again. Nothing is ever lost. The log says a
  mail was shunted only once that is recorded.

The mail's row is gm.store.inbound's (stored, locked, marked handled, shunted, unshunted). The
answer's steps are functions a test can call alone: ``read_commands``, ``ignored``,
``refused_whole``, ``run``.
"""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass
from datetime import timedelta
from email.message import Message
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gm.commands.base import Invocation, MailContext, Section
from gm.commands.reader import read_invocations
from gm.games.context import Services
from gm.games.mailer import wrap
from gm.games.notices import tell_gm
from gm.services.arrival import Arrival, arrive, parse_message
from gm.services.authresults import authenticated
from gm.services.mail_rules import reason_to_ignore
from gm.services.mailtext import body_text, readable_lines
from gm.services.masking import mask_raw
from gm.services.replying import Addressee, outbox_mark, queue_reply, reply_first
from gm.store import inbound
from gm.store.models import InboundStatus
from gm.store.database import connection_lost
from gm.store.retry import DatabaseAway, DatabaseBusy, in_transaction

if TYPE_CHECKING:  # every command's module: loaded when a mail is first read, not by a cron tick with no mail
    from gm.commands.registry import CommandTable

log = logging.getLogger(__name__)
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
        self._table = table

    @property
    def table(self) -> CommandTable:
        """Every command, made when first asked for."""
        if self._table is None:
            from gm.commands.registry import CommandTable

            self._table = CommandTable()
        return self._table

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
        mail = inbound.Incoming(arrival.sender, arrival.subject, arrival.raw, arrival.source_key,
                                arrival.message_id, arrival.content_digest, arrival.cut)
        def insert(session: Session) -> tuple[int, int | None]:
            connection = session.connection()
            inbound_id = inbound.store(connection, mail, self.services.clock.now())
            earlier = (inbound.earlier_with_message_id(connection, inbound_id, arrival.message_id)
                       if arrival.message_id else None)
            return inbound_id, earlier

        try:  # a connection lost on the way is tried again; a commit that went through is then seen before
            inbound_id, earlier = in_transaction(self.services.db, "storing a mail", insert, conflicts=False)
        except IntegrityError:  # the same Message-ID and content, or mailbox position: seen before
            log.info("duplicate delivery of %s ignored", arrival.message_id or arrival.source_key)
            return None
        if earlier is not None:
            log.info("mail %s reuses the Message-ID %s of mail %s with other content: handled as a mail of its own",
                     inbound_id, arrival.message_id, earlier)
        return inbound_id

    def _finish(self, arrival: Arrival) -> None:
        """A mail delivered again that was stored but never handled (the process died between
        the two, or gave up waiting) is handled now: the redelivery is what the inbox offers
        for that."""
        unfinished = in_transaction(self.services.db, "a mail delivered again", lambda session: inbound.unfinished(
            session, arrival.source_key, arrival.message_id, arrival.content_digest), reading=True)
        if unfinished is not None:
            self.handle(unfinished)

    def handle_left_unhandled(self, limit: int = 100) -> int:
        """Handle the mails stored a while ago and never handled (their process died, or left
        them for later); the number handled. Each is taken by one process (skip locked)."""
        before = self.services.clock.now() - UNHANDLED_AFTER
        handled = 0
        while handled < limit:
            waiting = in_transaction(self.services.db, "mails left unhandled",
                                     lambda session: inbound.left_unhandled(session, before), reading=True)
            if waiting is None:
                break
            log.info("mail %s was stored and never handled: handling it now", waiting)
            self.handle(waiting)
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
        except Exception as exc:  # noqa: BLE001 - whatever went wrong, the mail is kept and a person told
            lost = connection_lost(exc)
            if lost is not None:  # no fault of the mail: left new
                raise DatabaseAway(f"mail {inbound_id}: the database is away ({lost}); left for the next run") from exc
            self.shunt(inbound_id, traceback.format_exc())
            return
        if handled is not None:
            log.info("mail %s %s: %s%s", inbound_id, handled.status, handled.outcome,
                     f"; {handled.note}" if handled.note else "; reply queued" if handled.status == InboundStatus.DONE else "")

    def _handle_in(self, session: Session, inbound_id: int, message: Message | None) -> Handled | None:
        # Locked: a mail handled by two processes at once is acted on once.
        connection = session.connection()
        row = inbound.lock(connection, inbound_id)
        if row is None or row.status != InboundStatus.NEW:
            return None
        handled = self._answer(session, row, message or parse_message(row.raw))
        masked = mask_raw(row.raw, handled.secrets)  # no secret kept in clear once it served
        inbound.mark_handled(connection, inbound_id, handled.status, handled.note, self.services.clock.now(),
                             masked if masked != row.raw else None)
        self.services.faults.point("intake-before-commit")
        return handled

    def _answer(self, session: Session, row: Row[Any], message: Message) -> Handled:
        """The four steps, each a function of its own: read the commands (for the secrets they
        carry, masked whatever happens next), ignore, refuse whole, run."""
        invocations = read_commands(self.table, message)
        secrets = secrets_written(self.table, invocations)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("mail %s from %s: %s", row.id, row.sender or "(no sender)", commands_said(invocations, secrets))
        return (ignored(self.services, row, message, secrets)
                or refused_whole(self.services, session, row, secrets)
                or run(self.services, session, self.table, row, message, invocations, secrets))

    # -- when handling fails ----------------------------------------------------------

    def shunt(self, inbound_id: int, error: str) -> None:
        """Said in the log once it is recorded: a shunt that could not be (the database away)
        leaves the mail new, and raises ``DatabaseAway``."""
        def record(session: Session) -> None:
            shunted = inbound.shunt(session, inbound_id, error, self.services.clock.now())
            tell_gm(self.services, session, None, subject=f"mail {inbound_id} shunted",
                    text=f"The mail {inbound_id} from {shunted.sender or '(no sender)'} ({shunted.subject!r}) could "
                         f"not be handled and is kept. Fix the cause, then run: gm unshunt {inbound_id}\n\n{error}")

        in_transaction(self.services.db, f"shunting mail {inbound_id}", record)
        log.error("mail %s shunted: %s", inbound_id, error.strip().splitlines()[-1])

    def unshunt(self, inbound_id: int) -> bool:
        with self.services.db.unit_of_work() as session:
            if not inbound.unshunt(session, inbound_id):
                return False
        self.handle(inbound_id)
        return True


# -- the steps of answering a mail, each alone ------------------------------------------

def read_commands(table: CommandTable, message: Message) -> list[Invocation]:
    """Read: what the mail asks for, its text (quotes and signature left out) as commands."""
    return read_invocations(readable_lines(body_text(message)), table.spellings, table.bodied, table.misspelt)


def commands_said(invocations: list[Invocation], secrets: tuple[str, ...]) -> str:
    """The mail's commands for a DEBUG line: each line as written (orders each) with its secrets
    masked, and of a command's body (press, settings) only how long it is."""
    said = []
    for invocation in invocations:
        if not invocation.name:  # orders: each line is a command
            lines = [line.strip() for line in invocation.body or [invocation.text]]
        else:
            lines = [invocation.text.strip() + (f" [{len(invocation.body)} lines]" if invocation.body else "")]
        for line in lines:
            for secret in sorted(secrets, key=len, reverse=True):
                if secret:
                    line = line.replace(secret, "***")
            said.append(line)
    return " | ".join(said) if said else "no commands"


def secrets_written(table: CommandTable, invocations: list[Invocation]) -> tuple[str, ...]:
    """The secrets the commands carry (a SIGNON's password): masked in the mail kept."""
    found: list[str] = []
    for invocation in invocations:
        command = table.find(invocation.name)
        if command is not None:
            found += command.secrets(invocation)
    return tuple(found)


def ignored(services: Services, row: Row[Any], message: Message, secrets: tuple[str, ...] = ()) -> Handled | None:
    """Ignore: mail gm must never answer (auto-replies, bounces, lists, its own) is kept and
    left unanswered; None for any other mail."""
    why = reason_to_ignore(message, services.config.judge_address, services.mailer.is_own_message_id)
    if not why:
        return None
    return Handled(InboundStatus.IGNORED, why, secrets, f"from {row.sender or '(no sender)'}")


def refused_whole(services: Services, session: Session, row: Row[Any], secrets: tuple[str, ...] = ()) -> Handled | None:
    """Refuse whole: a mail too large to read (kept cut down) does nothing, and its sender is
    told so; None for a mail read whole."""
    if not row.cut:
        return None
    limit = services.config.max_mail_bytes // 1024
    section = Section([], [wrap(
        f"Your mail is larger than the {limit} KB this judge reads, so nothing in it was done: "
        "no orders, press or other commands were read. Please send them again as plain text, "
        f"without attachments.\n\n(Received: {row.cut}.)")], ok=False)
    held = queue_reply(services, session, _addressee(row), [section])
    return Handled(InboundStatus.DONE, _note(f"too large: {row.cut}", held), secrets, f"from {row.sender}, refused whole")


def run(services: Services, session: Session, table: CommandTable, row: Row[Any], message: Message,
        invocations: list[Invocation], secrets: tuple[str, ...] = ()) -> Handled:
    """Run: the commands, each answered in a section of one reply (the reply queued in the
    same transaction as what they changed)."""
    ctx = MailContext(services=services, session=session, sender=row.sender, now=services.clock.now(),
                      received_at=row.received_at, inbound_id=row.id, message_id=row.message_id,
                      authenticated=authenticated(message, services.config.authserv_id))
    mark = outbox_mark(session)
    if invocations:
        from gm.commands.runner import run_commands

        sections = run_commands(ctx, table, invocations)
    else:
        sections = [Section([], ["No commands found in your mail. Send HELP for the list of commands."], ok=False)]
    held = queue_reply(services, session, _addressee(row), sections, attach=ctx.attach, secrets=ctx.revealed)
    if not held:
        reply_first(session, row.sender, mark)
    return Handled(InboundStatus.DONE, held, secrets, _outcome(ctx, sections))


def _addressee(row: Row[Any]) -> Addressee:
    return Addressee(row.sender, row.message_id, row.subject, row.received_at, refused_whole=bool(row.cut))


def _outcome(ctx: MailContext, sections: list[Section]) -> str:
    """What the log says of a handled mail: never a line of it (it may hold a secret)."""
    game = ctx.game
    who = f" ({ctx.power})" if ctx.power else " (GM)" if ctx.is_gm else ""
    refused = sum(not section.ok for section in sections)
    return (f"from {ctx.sender}, {f'game {game.name}{who}' if game is not None else 'no game'}: "
            f"{len(sections)} answered{f', {refused} refused' if refused else ''}")


def _note(first: str, second: str) -> str:
    return "; ".join(text for text in (first, second) if text)
