"""A web action is a mail: the same commands, run the same way, in one unit of work.

What a player or the GM does on the web (orders, press, WAIT, DRAW, the GM's commands; an
observer's press to the GM) is fed to the command layer exactly as the intake feeds a mail's
commands: in one transaction (``in_transaction``: run again whole after a conflict with another
process), the game's row locked first, as a SIGNON locks it, so that a phase is processed wholly
before or wholly after the action (docs/delivery.md); then ``run_commands`` with a
``MailContext`` entered as the session's seat (or as the game master, or as an observer), and
the reply queued to the seat's registered address, which confirms the action by mail.

Each action is stored as an inbound mail (gm.store.inbound: its sender the seat's address, a
``web:`` source key, its text as a mail would carry it, and ``Auto-Submitted``, so that the mail
intake never acts on it), handled and marked done in that same transaction. Order sets and
press refer to it as they refer to a mail, so a ROLLBACK treats web orders as mailed ones, and
an audit entry (``web-action``) names the session and keeps the answer shown on the page.

The session is checked again inside the transaction, after the game's lock: a session ended
(sign-off, WEB SIGNOFF, a new secret or address, the seat left) acts on nothing.
"""

from __future__ import annotations

import logging
import secrets
import traceback
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage

from sqlalchemy.orm import Session

from gm.commands.base import Invocation, MailContext, Section
from gm.commands.registry import CommandTable
from gm.commands.runner import run_commands
from gm.games.context import Services
from gm.games.lifecycle import lock_game
from gm.games.notices import tell_gm
from gm.games.web_access import admit, session_problem
from gm.services.intake import secrets_written
from gm.services.masking import mask_raw
from gm.services.replying import Addressee, queue_reply
from gm.store import inbound
from gm.store.models import InboundStatus, WebRole, WebSession
from gm.store.retry import DatabaseBusy, in_transaction

log = logging.getLogger(__name__)
POSTS_PER_HOUR = 120  # actions a seat (or GM) may post an hour


@dataclass(frozen=True)
class Actor:
    """Who acts: a signed-in session (gm.games.web_access)."""

    session_id: int
    game_id: int
    role: str
    seat_id: int | None
    address: str

    @property
    def limit_key(self) -> str:
        return f"seat:{self.seat_id}" if self.seat_id is not None else f"{self.role}:{self.game_id}:{self.address}"


@dataclass(frozen=True)
class Done:
    inbound_id: int
    sections: list[Section]

    @property
    def ok(self) -> bool:
        return all(section.ok for section in self.sections)


class ActionRefused(Exception):
    """Nothing was done: the session no longer allows it, or a limit was reached."""


class RateLimited(ActionRefused):
    def __init__(self, until: datetime):
        super().__init__(f"{POSTS_PER_HOUR} actions an hour have been posted from this seat")
        self.until = until


def answer_lines(sections: list[Section]) -> list[str]:
    """The sections as the reply mail shows them (templates/mail/reply.txt.j2)."""
    lines: list[str] = []
    for section in sections:
        if lines:
            lines.append("")
        lines += [f"> {line}" for line in section.echo]
        lines += section.lines
    return lines


def act(services: Services, table: CommandTable, actor: Actor, subject: str, invocations: list[Invocation]) -> Done:
    """Run ``invocations`` as ``actor`` (see the module's docstring)."""
    if actor.role == WebRole.OBSERVER and any(i.name != "PRESS" for i in invocations):
        raise ActionRefused("an observer reads the game and writes to its game master; only its players and GM "
                            "act in it")
    text = mail_text(table, invocations)
    key = f"web:{actor.session_id}:{secrets.token_hex(12)}"
    try:
        return in_transaction(services.db, f"web action of {actor.address}",
                              lambda session: _act_in(services, table, actor, subject, invocations, text, key, session))
    except (ActionRefused, DatabaseBusy):
        raise  # nothing was done, and the reader is told why
    except Exception:
        _shunt(services, actor, subject, text, key, traceback.format_exc())
        raise


def _act_in(services: Services, table: CommandTable, actor: Actor, subject: str, invocations: list[Invocation],
            text: str, key: str, session: Session) -> Done:
    game = lock_game(session, actor.game_id)  # as a SIGNON locks it: before or after a phase, never during
    row = session.get(WebSession, actor.session_id)
    problem = session_problem(services, game, row) if game is not None else "the game is gone"
    if problem is not None:
        raise ActionRefused(problem)
    assert game is not None and row is not None
    until = admit(services, session, "post", [actor.limit_key], POSTS_PER_HOUR)
    if until is not None:
        raise RateLimited(until)
    now = services.clock.now()
    raw = _as_mail(services, actor, subject, text)
    connection = session.connection()
    inbound_id = inbound.store(connection, inbound.Incoming(actor.address, subject, raw, key), now)
    ctx = MailContext(services=services, session=session, sender=actor.address, now=now, received_at=now,
                      inbound_id=inbound_id, authenticated=True)
    seat = next((s for s in game.seats if s.id == actor.seat_id), None)
    ctx.enter(game, seat, as_gm=actor.role == WebRole.GM)
    if actor.role == WebRole.OBSERVER:
        ctx.observer = actor.address.lower()  # its press: to the GM alone (gm.commands.press)
    sections = run_commands(ctx, table, invocations)
    # The confirmation by mail: the reply a mail with these commands would get, to the seat's address.
    withheld = queue_reply(services, session, Addressee(actor.address, None, subject, now), sections,
                           attach=ctx.attach, secrets=ctx.revealed)
    masked = mask_raw(raw, secrets_written(table, invocations))
    inbound.mark_handled(connection, inbound_id, InboundStatus.DONE, withheld, now, masked if masked != raw else None)
    services.audit(session, game, actor.address, "web-action", inbound=inbound_id, web_session=actor.session_id,
                   role=actor.role, seat=actor.seat_id, commands=[i.name or "orders" for i in invocations],
                   answer=answer_lines(sections))
    row.last_seen_at = now
    log.info("web action %s from %s, game %s: %d answered, %d refused", inbound_id, actor.address, game.name,
             len(sections), sum(not s.ok for s in sections))
    return Done(inbound_id, sections)


def _as_mail(services: Services, actor: Actor, subject: str, text: str) -> bytes:
    """The action as the mail it stands for (kept for the record; never handled as a mail)."""
    message = EmailMessage()
    message["From"] = actor.address
    message["To"] = services.config.judge_address
    message["Subject"] = subject
    message["Auto-Submitted"] = "auto-generated (gm web)"  # the intake ignores it, should it ever be handed one
    message["X-Gm-Web-Session"] = str(actor.session_id)
    message.set_content(text + "\n")
    return bytes(message)


def _shunt(services: Services, actor: Actor, subject: str, text: str, key: str, error: str) -> None:
    """A bug: nothing was done; the action is kept with the error and the administrator told."""
    log.error("web action from %s failed: %s", actor.address, error.strip().splitlines()[-1])
    with services.db.unit_of_work() as session:
        inbound.record_shunted(session.connection(), inbound.Incoming(actor.address, subject,
                                                                      _as_mail(services, actor, subject, text), key),
                               error, services.clock.now())
        tell_gm(services, session, None, subject="a web action failed",
                text=f"A web action from {actor.address} ({subject!r}) failed and nothing in it was done; it is kept "
                     f"among the shunted mails (source {key}). The player was told to try again.\n\n{error}")


def mail_text(table: CommandTable, invocations: list[Invocation]) -> str:
    """The commands as a mail would write them."""
    lines: list[str] = []
    for invocation in invocations:
        command = table.find(invocation.name)
        if invocation.name:
            lines.append(invocation.text)
        lines += invocation.body
        if command is not None and command.takes_body:
            lines.append("ENDPRESS")
    return "\n".join(lines)
