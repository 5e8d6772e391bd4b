"""Nothing of a mail gm answers reaches its reply's headers unchecked: mails written byte by byte
with every header trick, handled, their replies written by the outbox's own transport (a
Maildir) and parsed back: only the judge's headers, In-Reply-To the mail's own Message-ID when
it is a plain one, else the judge's reference."""

from __future__ import annotations

import asyncio
import email
import re
from email import policy
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import select

from gm.services.sending import Dispatcher
from gm.store.models import InboundMail, InboundStatus, OutboundMail, OutboundStatus
from gm.transport.maildir import MaildirSender
from tests.mail.conftest import Post, secret_of

JUDGE_HEADERS = {"from", "to", "subject", "date", "message-id", "auto-submitted", "x-gm-kind", "in-reply-to",
                 "references", "mime-version", "content-type", "content-transfer-encoding"}
INJECTED = "=0D=0AContent-Type:_text/html=0D=0AX-Injected:_yes"
BREAK = "=?utf-8?q?x" + INJECTED + "?="  # an encoded word that decodes to a line end and headers
REPLACED = re.compile(r"<[0-9a-f]{32}@[a-z.-]+\.invalid>")  # the judge's reference for a Message-ID it does not keep
DOUBLE = "=?utf-8?q?=3D=3Futf-8=3Fq=3Fx=3D0D=3D0AX-Injected=3A=5Fyes=3F=3D?="  # decodes to BREAK's kind


def _raw(sender: str, message_id: str, *, subject: str = "orders", extra: str = "", power: str = "France") -> bytes:
    """A mail as it arrives: its header lines exactly as written here."""
    head = (f"From: {sender}\r\nTo: judge@example.test\r\nSubject: {subject}\r\n"
            f"Message-ID: {message_id}\r\n{extra}")
    return (head + f"\r\nSIGNON {power} g {secret_of(power)}\r\nSTATUS\r\n").encode("utf-8", "surrogateescape")


TRICKS: list[tuple[str, bytes]] = [
    ("the audit's Message-ID", _raw("france@example.test", f"=?utf-8?q?<x1@attacker.test>{INJECTED}?=")),
    ("an encoded word inside a msg-id", _raw("france@example.test", f"<a{BREAK}@attacker.test>")),
    ("a Message-ID folded around its encoded words",
     _raw("france@example.test", f"<x2@attacker.test>\r\n =?utf-8?q?{INJECTED[3:]}?=")),
    ("In-Reply-To and References", _raw("france@example.test", "<plain.1@example.test>",
                                        extra=f"In-Reply-To: {BREAK}\r\nReferences: <r@x.test> {BREAK}\r\n")),
    ("a Subject that decodes to headers", _raw("france@example.test", "<plain.2@example.test>", subject=BREAK)),
    ("a Subject encoded twice", _raw("france@example.test", "<plain.3@example.test>", subject=DOUBLE)),
    ("a display name that decodes to headers",
     _raw(f"{BREAK} <france@example.test>", "<plain.4@example.test>")),
    ("a quoted display name with encoded words",
     _raw(f'"{BREAK}" <england@example.test>', "<plain.5@example.test>", power="England")),
    ("a bare CR and LF in headers", _raw("france@example.test", "<plain.6@example.test>\rX-Injected: yes",
                                         subject="orders\nX-Injected: yes")),
    ("an overlong Subject", _raw("france@example.test", "<plain.7@example.test>", subject="Long " * 400)),
    ("an overlong Message-ID", _raw("france@example.test", "<" + "x" * 1200 + "@example.test>")),
    ("a Message-ID with a comment", _raw("france@example.test", "<plain.8@example.test> (c" + BREAK + ")")),
    ("an address with an encoded word", _raw(f"France <france@{BREAK}>", "<plain.9@example.test>")),
    ("a quoted address", _raw('"france\r\n X-Injected: yes"@example.test', "<plain.10@example.test>")),
]


def test_every_reply_has_only_the_judges_headers(post: Post, tmp_path: Path) -> None:
    handled = [post.intake.receive(raw) for _, raw in TRICKS]
    assert all(handled)  # each stored and handled
    with post.world.services.db.sessions() as session:
        ids = {row.id: row.message_id for row in session.scalars(select(InboundMail))}
    queued = post.mails()
    assert queued and all("\r" not in m.subject and "\n" not in m.subject for m in queued)

    outbox = tmp_path / "outbox"
    assert asyncio.run(Dispatcher(post.world.services, MaildirSender(outbox)).drain()).sent == len(queued)
    assert all(m.status == OutboundStatus.SENT for m in post.mails())  # none refused: all made safe first
    written = [file.read_bytes() for file in sorted((outbox / "new").iterdir())]
    assert len(written) == len(queued)
    own = set(ids.values())
    answered: list[str] = []
    for data in written:
        lines = data.split(b"\n\n", 1)[0].split(b"\n")
        assert not [line for line in lines if line.lower().startswith((b"x-injected", b"content-type: text/html"))]
        reply = email.message_from_bytes(data, policy=policy.default)
        assert {name.lower() for name in reply.keys()} <= JUDGE_HEADERS, reply.keys()
        assert reply.get_content_type() in ("text/plain", "multipart/mixed")  # a start mail carries its map
        assert "\r" not in str(reply["Subject"]) and "\n" not in str(reply["Subject"])
        if reply["X-GM-Kind"] == "reply":
            assert reply.get_content_type() == "text/plain"
            answered.append(reply["To"])
            assert reply["In-Reply-To"].strip() in own and reply["References"] == reply["In-Reply-To"]
    # Each mail with a plain From answered; those without kept and left unanswered (no To of theirs).
    assert sorted(answered) == ["england@example.test"] + ["france@example.test"] * (len(TRICKS) - 3)
    # A msg-id as RFC 5322 writes it is kept; anything else is the judge's reference.
    assert {message_id for message_id in ids.values() if not REPLACED.fullmatch(message_id)} == {
        f"<plain.{n}@example.test>" for n in range(1, 8)} | {"<plain.9@example.test>", "<plain.10@example.test>"}


def test_a_redelivered_mail_with_a_bad_message_id_is_known(post: Post) -> None:
    raw = TRICKS[0][1]
    assert post.intake.receive(raw, "first") is not None
    assert post.intake.receive(raw, "second") is None  # the same replacement, the same content
    other = raw.replace(b"STATUS", b"HELP")
    assert post.intake.receive(other, "third") is not None  # the same bad id, another mail


def test_a_replacement_is_never_taken_for_the_judges_own_mail(post: Post) -> None:
    mailer = post.world.services.mailer
    replaced = post.intake.receive(TRICKS[0][1])
    with post.world.services.db.sessions() as session:  # a mail of the judge's, come back through a loop
        sent = session.scalars(select(OutboundMail.message_id).order_by(OutboundMail.id)).first()
    own = post.intake.receive(_raw("france@example.test", sent))
    with post.world.services.db.sessions() as session:
        row, looped = session.get(InboundMail, replaced), session.get(InboundMail, own)
    assert REPLACED.fullmatch(row.message_id) and not mailer.is_own_message_id(row.message_id)
    assert row.status == InboundStatus.DONE  # answered
    assert looped.status == InboundStatus.IGNORED and looped.error == "our own mail"  # the loop check still holds


def test_a_row_queued_before_the_checks_is_still_written_safely(post: Post, tmp_path: Path) -> None:
    """A reply queued by an older gm with the audit's Message-ID: sent without In-Reply-To."""
    post.intake.receive(_raw("france@example.test", "<plain.1@example.test>"))
    with post.world.services.db.unit_of_work() as session:
        mail = session.scalars(select(OutboundMail).where(OutboundMail.kind == "reply")).one()
        mail.in_reply_to = f"=?utf-8?q?<x1@attacker.test>{INJECTED}?="
        mail.subject = "Re: " + BREAK
    asyncio.run(Dispatcher(post.world.services, MaildirSender(tmp_path)).drain())
    written = [email.message_from_bytes(file.read_bytes(), policy=policy.default)
               for file in (tmp_path / "new").iterdir()]
    [reply] = [message for message in written if message["X-GM-Kind"] == "reply"]
    assert {name.lower() for name in reply.keys()} <= JUDGE_HEADERS and reply["In-Reply-To"] is None
    assert reply["Subject"].startswith("Re: = ?utf-8?q?x")


def test_a_mail_to_an_address_that_is_not_plain_is_set_aside(post: Post) -> None:
    with post.world.services.db.unit_of_work() as session:
        post.world.services.mailer.queue(session, to=f"x@{BREAK}", subject="hello", template="mail/gm_alert.txt.j2",
                                         kind="notice", game=None, text="hello")
    sent: list[EmailMessage] = []

    class Capture:
        async def send(self, message: EmailMessage) -> None:
            sent.append(message)

    asyncio.run(Dispatcher(post.world.services, Capture()).drain())
    with post.world.services.db.sessions() as session:
        mail = session.scalars(select(OutboundMail).where(OutboundMail.kind == "notice")).one()
    assert mail.status == OutboundStatus.FAILED and "not a plain mail address" in mail.last_error
    assert all(m["To"] != mail.to_address for m in sent)  # the administrator is told, by a mail of its own
