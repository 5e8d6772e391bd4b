"""The last step of a mail's way in: its one reply, a section per command, into the outbox
(in the mail's transaction), unless the reply policy holds it back."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from gm.commands.base import Section
from gm.games.context import Services
from gm.games.mailer import format_moment, queued_in
from gm.services.reply_policy import PAUSED, REFUSAL, ReplyFacts, Verdict, decide
from gm.store.models import OutboundMail, Player

SIGNON = "SIGNON"
_OUTBOX = OutboundMail.__table__


@dataclass(frozen=True)
class Addressee:
    """Whom a reply goes to, and what it answers."""

    sender: str
    message_id: str | None
    subject: str  # the subject as written ("" when none)
    received_at: datetime
    refused_whole: bool = False  # nothing in the mail was read (too large)


def queue_reply(services: Services, session: Session, to: Addressee, sections: list[Section],
                attach: dict[str, Any] | None = None, secrets: list[str] | None = None) -> str:
    """Queue the reply (``secrets``: ones it gives out, masked in the outbox once it is sent);
    what was held back and why ("" when nothing was)."""
    refusal = to.refused_whole or all(not s.ok for s in sections) or any(
        s.command == SIGNON and not s.ok for s in sections)
    facts = ReplyFacts(services, session, to.sender, refusal)
    verdict, reason = decide(facts)
    if verdict is Verdict.NOTICE:
        _pause_notice(services, session, to, facts)
    if verdict is not Verdict.SEND:
        return f"reply withheld: {reason}"
    kind = REFUSAL if refusal else "reply"
    phase_id = game_id = None
    if attach and "map" in attach:
        game_id, phase_id = attach["map"]["game"], attach["map"]["phase"]
        kind = "map"
    services.mailer.queue(
        session, to=to.sender, subject=reply_subject(to.subject), template="mail/reply.txt.j2", kind=kind,
        game_id=game_id, attach_phase_id=phase_id, in_reply_to=to.message_id, secrets=secrets,
        sections=sections, received=to.received_at,
    )
    return ""


def _pause_notice(services: Services, session: Session, to: Addressee, facts: ReplyFacts) -> None:
    player = session.scalars(select(Player).where(Player.email == to.sender)).first()
    services.mailer.queue(
        session, to=to.sender, subject=reply_subject(to.subject), template="mail/paused.txt.j2", kind=PAUSED,
        in_reply_to=to.message_id, rate=facts.rate, subject_read=to.subject.strip(),
        until=format_moment(facts.resumes_at, player.timezone if player else "UTC"),
    )


def reply_subject(subject: str) -> str:
    subject = subject.strip() or "your mail"
    return (subject if subject.lower().startswith("re:") else f"Re: {subject}")[:200]


def outbox_mark(session: Session) -> int:
    """How many mails the mail's transaction queued before its commands run (``reply_first``)."""
    return len(queued_in(session))


def reply_first(session: Session, sender: str, mark: int) -> None:
    """The reply goes out before the other mails its commands queued to its sender (mails go
    out in the order queued): a JOIN that fills a game answers with the player's secret before
    the start mail that assumes it. Those mails are queued again after the reply, unchanged."""
    ours = queued_in(session)[mark:]  # never a mail another process committed meanwhile (it may be sent already)
    if len(ours) < 2:
        return
    rows = [dict(row) for row in session.execute(
        select(_OUTBOX).where(_OUTBOX.c.message_id.in_(ours), _OUTBOX.c.to_address == sender)
        .order_by(_OUTBOX.c.id)).mappings()]
    if len(rows) < 2:
        return
    later = rows[:-1]  # the last one queued is the reply
    session.execute(delete(_OUTBOX).where(_OUTBOX.c.id.in_([row["id"] for row in later])))
    for row in later:
        del row["id"]
    session.execute(insert(_OUTBOX), later)
