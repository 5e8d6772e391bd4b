"""No secret is kept in clear once it has served: a mail's SIGNON, SET PASSWORD
and CONFIRM ADDRESS secrets are masked in its stored copy once it is handled, whatever its
encoding; a secret gm mails (a JOIN's, a game master's) is masked in the outbox once sent."""

from __future__ import annotations

import asyncio
import base64
from email.message import EmailMessage

from gm.services.sending import Dispatcher
from gm.store.models import InboundMail, OutboundMail
from tests.mail.conftest import Post, secret_of
from tests.mail.test_sending import FakeSender
from tests.variants.by_mail import secret_in

FRANCE = "france@example.test"


def _stored(post: Post, mail_id: int | None) -> bytes:
    assert mail_id is not None
    with post.world.services.db.sessions() as session:
        row = session.get(InboundMail, mail_id)
        assert row is not None
        return row.raw


def test_the_secrets_of_a_mail_are_masked_in_its_stored_copy_and_nothing_else(post: Post) -> None:
    secret = secret_of("France")
    mail_id = post.send(FRANCE, f"SIGNON France g {secret}\nSET PASSWORD another-secret-9\nA PAR H\n")
    raw = _stored(post, mail_id)
    assert secret.encode() not in raw and b"another-secret-9" not in raw
    assert b"SIGNON France g ****\nSET PASSWORD ****\nA PAR H" in raw.replace(b"\r\n", b"\n")
    assert b"Subject: orders" in raw  # the rest as it came
    assert "= Army Paris HOLD" in post.reply(FRANCE)  # done before it was masked
    wrong = post.send(FRANCE, "SIGNON France g guessed-wrong-1\n")
    assert b"guessed-wrong-1" not in _stored(post, wrong)  # a wrong secret may be a typo of the right one


def test_a_base64_mail_is_masked_inside_its_encoding(post: Post) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = FRANCE, "judge@example.test", "orders"
    message["Message-ID"] = "<base64.1@example.test>"
    message.set_content(f"SIGNON France g {secret_of('France')}\nA PAR - BUR\n", cte="base64")
    raw = bytes(message)
    assert b"Content-Transfer-Encoding: base64" in raw and secret_of("France").encode() not in raw
    mail_id = post.intake.receive(raw)
    stored = _stored(post, mail_id)
    payload = stored.split(b"\n\n", 1)[1] if b"\r\n\r\n" not in stored else stored.split(b"\r\n\r\n", 1)[1]
    assert base64.b64decode(payload) == b"SIGNON France g ****\nA PAR - BUR\n"
    assert post.intake.receive(raw) is None  # delivered again: still the same mail (its digest is of what came)


def test_a_secret_gm_mails_is_masked_in_the_outbox_once_sent(post: Post) -> None:
    world = post.world
    world.write_game("h", "variant: standard\ngm: master@example.test\n")
    world.tick()
    post.send("newcomer@example.test", "JOIN h France\n")
    secret = secret_in(post.reply("newcomer@example.test"))
    with world.services.db.sessions() as session:
        created = session.query(OutboundMail).filter_by(kind="created").order_by(OutboundMail.id.desc()).first()
        assert created is not None and created.secrets and created.secrets[0] in created.body  # until it is sent
    sender = FakeSender()
    asyncio.run(Dispatcher(world.services, sender).drain())
    delivered = [m for m in sender.sent if m["To"] == "newcomer@example.test"]
    assert delivered and secret in delivered[0].get_content()  # the player got it
    with world.services.db.sessions() as session:
        for mail in session.query(OutboundMail).filter(OutboundMail.kind.in_(("reply", "created", "joined"))):
            assert not mail.secrets and secret not in mail.body
        created = session.get(OutboundMail, created.id)
        assert "SIGNON GM h ****" in created.body
