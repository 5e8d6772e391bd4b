"""The intake's steps, each called alone (read, ignore, refuse whole, run), and the inbound mail
row's one owner (gm.store.inbound): stored, locked, marked handled, shunted, unshunted."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from email.message import EmailMessage, Message
from typing import Any

import pytest
from sqlalchemy import Row, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gm.commands.registry import CommandTable
from gm.services.intake import ignored, read_commands, refused_whole, run, secrets_written
from gm.store import inbound
from gm.store.models import InboundMail, InboundStatus, OutboundMail
from tests.mail.conftest import GM_SECRET, Post, secret_of

FRANCE = "france@example.test"
TABLE = CommandTable()


def _message(body: str, sender: str = FRANCE, **headers: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "judge@example.test"
    message["Subject"] = "orders"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return message


@contextmanager
def _row(post: Post, message: Message, cut: str = "") -> Iterator[tuple[Session, Row[Any]]]:
    """The mail kept and locked, in a unit of work of its own."""
    services = post.world.services
    with services.db.unit_of_work() as session:
        connection = session.connection()
        kept = inbound.Incoming(FRANCE, "orders", bytes(message), cut=cut)
        row = inbound.lock(connection, inbound.store(connection, kept, services.clock.now()))
        assert row is not None
        yield session, row


def _replies(post: Post) -> list[OutboundMail]:
    """The answers to France's mails (not the game's own mail to France)."""
    return [m for m in post.mails(to=FRANCE) if m.kind in ("reply", "refusal")]


def test_read_finds_the_commands_and_the_secrets_they_carry() -> None:
    message = _message(f"SIGNON France g {secret_of('France')}\nA PAR - BUR\n\n> SIGNON Germany g quoted\n-- \nme\n")
    invocations = read_commands(TABLE, message)
    assert [i.name for i in invocations] == ["SIGNON", ""]  # the orders, and no quoted command
    assert secrets_written(TABLE, invocations) == (secret_of("France"),)
    assert read_commands(TABLE, _message("> quoted only\n")) == []


def test_ignore_takes_what_gm_must_never_answer_and_nothing_else(post: Post) -> None:
    auto = _message("I am away", Auto_Submitted="auto-replied")
    with _row(post, auto) as (_, row):
        handled = ignored(post.world.services, row, auto, ("s3cret",))
    assert handled is not None and handled.status == InboundStatus.IGNORED and handled.secrets == ("s3cret",)
    assert handled.note and "france@example.test" in handled.outcome
    plain = _message("HELP")
    with _row(post, plain) as (_, row):
        assert ignored(post.world.services, row, plain) is None
    assert _replies(post) == []  # ignoring answers nothing


def test_refuse_whole_answers_a_mail_cut_down_and_only_such_a_mail(post: Post) -> None:
    message = _message("A PAR H")
    with _row(post, message) as (session, row):
        assert refused_whole(post.world.services, session, row) is None
    assert _replies(post) == []
    with _row(post, message, cut="an attachment of 5 MB") as (session, row):
        handled = refused_whole(post.world.services, session, row)
    assert handled is not None and handled.status == InboundStatus.DONE
    assert handled.note.startswith("too large: an attachment of 5 MB")
    (reply,) = _replies(post)
    words = " ".join(reply.body.split())
    assert "so nothing in it was done" in words and "(Received: an attachment of 5 MB.)" in words


def test_run_answers_each_command_in_one_reply(post: Post) -> None:
    message = _message(f"SIGNON France g {secret_of('France')}\nA PAR - BUR\n")
    with _row(post, message) as (session, row):
        handled = run(post.world.services, session, TABLE, row, message, read_commands(TABLE, message))
    assert handled.status == InboundStatus.DONE and "game g (France)" in handled.outcome
    (reply,) = _replies(post)
    assert "Signed on as France in g" in reply.body and "Army Paris -> Burgundy" in reply.body
    empty = _message("thanks!")
    with _row(post, empty) as (session, row):
        run(post.world.services, session, TABLE, row, empty, [])
    assert "No commands found in your mail" in _replies(post)[-1].body


def test_the_row_from_kept_to_handled(post: Post) -> None:
    services = post.world.services
    now = services.clock.now()
    mail = inbound.Incoming(FRANCE, "orders", b"raw s3cret", "test:1", "<a@example.test>", "digest")
    with services.db.unit_of_work() as session:
        connection = session.connection()
        first = inbound.store(connection, mail, now)
        assert inbound.earlier_with_message_id(connection, first, "<a@example.test>") is None
    with pytest.raises(IntegrityError), services.db.unit_of_work() as session:  # the same delivery again
        inbound.store(session.connection(), mail, now)
    with services.db.unit_of_work() as session:
        other = inbound.store(session.connection(), inbound.Incoming(FRANCE, "orders", b"corrected", "test:2",
                                                                     "<a@example.test>", "other digest"), now)
        assert inbound.earlier_with_message_id(session.connection(), other, "<a@example.test>") == first
    with services.db.reading() as session:
        assert inbound.unfinished(session, "test:1", None, "") == first
        assert inbound.unfinished(session, None, "<a@example.test>", "digest") == first
        assert inbound.unfinished(session, None, None, "") is None
        assert inbound.left_unhandled(session, now - timedelta(minutes=1)) is None  # too recent
        assert inbound.left_unhandled(session, now) == first
    with services.db.unit_of_work() as session:
        connection = session.connection()
        row = inbound.lock(connection, first)
        assert row is not None and row.status == InboundStatus.NEW and row.raw == b"raw s3cret"
        inbound.mark_handled(connection, first, InboundStatus.DONE, "held back", now, b"raw ****")
    with services.db.reading() as session:
        kept = session.get(InboundMail, first)
        assert kept is not None and (kept.status, kept.error, kept.raw) == (InboundStatus.DONE, "held back", b"raw ****")
        assert inbound.unfinished(session, "test:1", None, "") is None


def test_a_row_shunted_and_unshunted(post: Post) -> None:
    services = post.world.services
    now = services.clock.now()
    with services.db.unit_of_work() as session:
        kept = inbound.store(session.connection(), inbound.Incoming("gm@example.test", "help", b"HELP"), now)
    with services.db.unit_of_work() as session:
        assert not inbound.unshunt(session, kept)  # not shunted
        assert inbound.shunt(session, kept, "Traceback: boom", now) == inbound.Shunted("gm@example.test", "help")
    with services.db.unit_of_work() as session:
        assert inbound.unshunt(session, kept)
        assert not inbound.unshunt(session, kept)
        assert not inbound.unshunt(session, kept + 100)  # no such mail
    with services.db.unit_of_work() as session:
        failed = inbound.record_shunted(session.connection(), inbound.Incoming(FRANCE, "web", b"A PAR H", "web:1:x"),
                                        "Traceback: web", now)
    with services.db.reading() as session:
        rows = {r.id: (r.status, r.error) for r in session.scalars(select(InboundMail))}
    assert rows[kept] == (InboundStatus.NEW, "") and rows[failed] == (InboundStatus.SHUNTED, "Traceback: web")


def test_the_intake_still_answers_by_its_steps(post: Post) -> None:
    post.send("gm@example.test", f"SIGNON Master g {GM_SECRET}\nHELP\n", Auto_Submitted="auto-replied")
    assert post.mails(to="gm@example.test") == []
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nA PAR H\n")
    assert "Army Paris HOLD" in post.reply(FRANCE)
    with post.world.services.db.reading() as session:
        kept = list(session.scalars(select(InboundMail).order_by(InboundMail.id)))
    assert [m.status for m in kept] == [InboundStatus.IGNORED, InboundStatus.DONE]
    assert all(secret_of("France").encode() not in m.raw and GM_SECRET.encode() not in m.raw for m in kept)
