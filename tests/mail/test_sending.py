"""The outbox dispatcher: headers that prevent loops, pictures, retries, permanent failures."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from email.message import EmailMessage

from sqlalchemy import select

from gm.games.lifecycle import find_game
from gm.games.pictures import start_png
from gm.render import render_phase_png
from gm.services.sending import Dispatcher
from gm.store.models import OutboundMail, OutboundStatus
from gm.transport import PermanentFailure, TemporaryFailure
from tests.mail.conftest import Post, secret_of


class FakeSender:
    """Records what it is given; fails as told (the transport itself is tested in tests/transport)."""

    def __init__(self) -> None:
        self.sent: list[EmailMessage] = []
        self.fail: Exception | None = None

    async def send(self, message: EmailMessage) -> None:
        if self.fail is not None:
            raise self.fail
        self.sent.append(message)


def _drain(post: Post, sender: FakeSender) -> int:
    return asyncio.run(Dispatcher(post.world.services, sender).drain()).sent


def _status(post: Post, to: str) -> list[OutboundMail]:
    with post.world.services.db.sessions() as session:
        return list(session.scalars(select(OutboundMail).where(OutboundMail.to_address == to)))


def test_every_mail_says_it_is_automatic_and_whose_it_is(post: Post) -> None:
    post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nSTATUS\n", message_id="<asked@example.test>")
    sender = FakeSender()
    assert _drain(post, sender) > 0
    reply = next(m for m in sender.sent if m["To"] == "france@example.test" and m["Subject"].startswith("Re:"))
    assert reply["Auto-Submitted"] == "auto-replied" and reply["In-Reply-To"] == "<asked@example.test>"
    assert post.world.services.mailer.is_own_message_id(reply["Message-ID"])
    assert all(m["Auto-Submitted"] in ("auto-replied", "auto-generated") for m in sender.sent)
    assert _drain(post, sender) == 0  # each mail once


def test_results_carry_the_map_and_map_requests_get_one(post: Post) -> None:
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()
    post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nMAP\n")
    sender = FakeSender()
    _drain(post, sender)
    results = [m for m in sender.sent if "results" in m["Subject"]]
    assert len(results) == 8
    for message in results:
        (picture,) = [p for p in message.iter_attachments() if p.get_content_type() == "image/png"]
        assert picture.get_filename() == "g-S1901M.png" and picture.get_content().startswith(b"\x89PNG")
    (answer,) = [m for m in sender.sent if m["Subject"].startswith("Re:")]
    assert [p.get_content_type() for p in answer.iter_attachments()] == ["image/png"]


def test_a_temporary_failure_is_tried_again_later(post: Post) -> None:
    sender = FakeSender()
    sender.fail = TemporaryFailure("421 try later")
    _drain(post, sender)
    mail = _status(post, "france@example.test")[0]
    assert mail.status == OutboundStatus.PENDING and mail.attempts == 1 and "421" in mail.last_error
    assert _drain(post, sender) == 0  # not due again yet
    sender.fail = None
    post.world.clock.advance(timedelta(minutes=2))
    assert _drain(post, sender) > 0
    assert _status(post, "france@example.test")[0].status == OutboundStatus.SENT


def test_a_permanent_failure_is_recorded_and_the_gm_told(post: Post) -> None:
    sender = FakeSender()
    sender.fail = PermanentFailure("550 no such user")
    _drain(post, sender)
    mail = _status(post, "france@example.test")[0]
    assert mail.status == OutboundStatus.FAILED and "550" in mail.last_error
    alerts = [m for m in _status(post, "master@example.test") if m.kind == "gm-alert"]
    assert any("france@example.test" in m.body for m in alerts)
    admin = [m for m in _status(post, "postmaster@localhost") if m.kind == "gm-alert"]
    assert admin and "master@example.test" in admin[0].body  # the GM's own mail failed: the administrator hears
    sender.fail = PermanentFailure("550 the GM is gone too")
    _drain(post, sender)  # alerts about failed alerts are not sent: no loops
    assert len([m for m in _status(post, "master@example.test") if m.kind == "gm-alert"]) == len(alerts)


def test_a_mail_that_keeps_failing_is_given_up(post: Post) -> None:
    sender = FakeSender()
    sender.fail = TemporaryFailure("connection refused")
    for _ in range(20):
        _drain(post, sender)
        post.world.clock.advance(timedelta(hours=3))
    assert _status(post, "france@example.test")[0].status == OutboundStatus.FAILED


def test_the_start_mail_carries_the_starting_position_even_once_the_game_has_moved_on(post: Post) -> None:
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()  # Spring 1901 is processed before the start mails go out
    sender = FakeSender()
    _drain(post, sender)
    starts = [m for m in sender.sent if m["X-GM-Kind"] == "start"]
    assert len(starts) == 8
    services = post.world.services
    with services.db.sessions() as session:
        game = find_game(session, "g")
        assert game is not None and game.phase != "S1901M"
        drawn = start_png(services, session, game)
        variant = services.variant_of(game)
    assert drawn == render_phase_png(variant, variant.initial_position())
    for message in starts:
        (picture,) = [p for p in message.iter_attachments() if p.get_content_type() == "image/png"]
        assert picture.get_filename() == "g-start.png" and picture.get_content() == drawn
