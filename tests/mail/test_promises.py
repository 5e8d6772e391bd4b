"""What gm confirms, it does, each promise on its own: a mail read after its phase
was processed counts for the next one and says so; a Message-ID reused for other content is
another mail; a server that takes no mail for a reason a fix cures loses nothing, is told once
and reported by `gm tick`; failed mails are listed and sent again; a claimed mail is sent by one
process only."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from gm.config import MailboxConfig
from gm.services import outbox_admin
from gm.services.arrival import arrive
from gm.services.sending import Dispatcher
from gm.store.models import InboundMail, OutboundMail, OutboundStatus, ServerHealth
from gm.transport import PermanentFailure
from gm.transport.smtp import SmtpSender
from tests.mail.conftest import Post, secret_of
from tests.mail.test_sending import FakeSender

FRANCE = "france@example.test"


def _orders_mail(body: str, message_id: str = "<late.1@example.test>") -> bytes:
    return (f"From: {FRANCE}\r\nTo: judge@example.test\r\nSubject: orders\r\nMessage-ID: {message_id}\r\n\r\n"
            f"SIGNON France g {secret_of('France')}\r\n{body}\r\n").encode()


def test_a_mail_read_after_its_phase_was_processed_counts_for_the_next_and_says_so(post: Post) -> None:
    mail_id = post.intake.store(arrive(_orders_mail("A PAR - BUR"), "late", None, 1 << 20))  # arrived...
    post.world.clock.advance(timedelta(hours=49))
    assert post.world.tick().processed == ["g S1901M"]  # ...the phase was processed before it was read
    assert mail_id is not None
    post.intake.handle(mail_id)
    reply = " ".join(post.reply(FRANCE).split())
    assert ("Note: Spring 1901 movement was adjudicated while your mail waited to be read; what it asks "
            "counts for Fall 1901 movement.") in reply
    assert "Current orders for France in g, Fall 1901 movement:" in reply
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nSTATUS\n")  # one that came after: no note
    assert "was adjudicated while" not in post.reply(FRANCE)


def test_a_message_id_reused_for_other_content_is_another_mail(post: Post) -> None:
    first = post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nA PAR H\n", message_id="<same@example.test>")
    second = post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nA PAR - BUR\n", message_id="<same@example.test>")
    assert first is not None and second is not None and first != second
    assert "= Army Paris -> Burgundy" in post.reply(FRANCE)
    again = post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nA PAR - BUR\n", message_id="<same@example.test>")
    assert again is None  # the same mail delivered again
    with post.world.services.db.sessions() as session:
        assert len(session.scalars(select(InboundMail.id).where(InboundMail.message_id == "<same@example.test>")).all()) == 2


class Refusing:
    """An SMTP server that wants authentication gm is not configured for, until it is fixed."""

    def __init__(self) -> None:
        self.fixed = False
        self.received: list[Any] = []

    async def handle_MAIL(self, server, session, envelope, address, options):  # type: ignore[no-untyped-def]
        if not self.fixed:
            return "530 5.7.0 Authentication required"
        envelope.mail_from = address
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        self.received.append(envelope)
        return "250 Message accepted"


@pytest.fixture
def refusing() -> Iterator[tuple[Refusing, int]]:
    handler = Refusing()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def _pending(post: Post) -> list[OutboundMail]:
    with post.world.services.db.sessions() as session:
        return list(session.scalars(select(OutboundMail).where(OutboundMail.status == OutboundStatus.PENDING)))


def test_authentication_required_loses_no_mail_and_the_admin_is_told_once(post: Post, refusing: tuple[Refusing, int]) -> None:
    server, port = refusing
    services = post.world.services
    dispatcher = Dispatcher(services, SmtpSender(MailboxConfig(kind="smtp", host="127.0.0.1", port=port), timeout=5))
    waiting = len(_pending(post))
    drained = asyncio.run(dispatcher.drain())
    assert drained.sent == 0 and drained.outage is not None and "530" in drained.outage.error
    assert len(_pending(post)) == waiting + 1  # every mail waits, and one alert for the administrator
    alerts = [m for m in _pending(post) if m.kind == "gm-alert" and m.to_address == "postmaster@localhost"]
    assert len(alerts) == 1 and "530 5.7.0 Authentication required" in " ".join(alerts[0].body.split())
    post.world.clock.advance(timedelta(seconds=30))
    assert asyncio.run(dispatcher.drain()).outage is not None  # not tried again before its time
    post.world.clock.advance(timedelta(minutes=2))
    asyncio.run(dispatcher.drain())  # tried, refused again: still nothing given up, no second alert
    assert not [m for m in _pending(post) if m.status == OutboundStatus.FAILED]
    assert len([m for m in _pending(post) if m.kind == "gm-alert"]) == 1
    server.fixed = True
    outbox_admin.retry_now(services)  # the operator fixed it: gm outbox --retry-now
    drained = asyncio.run(dispatcher.drain())
    assert drained.outage is None and drained.sent == waiting + 1 and not _pending(post)
    with services.db.sessions() as session:
        health = session.get(ServerHealth, "outbound")
        assert health is not None and health.failing_since is None and not health.told


def test_failed_mails_are_listed_and_sent_again_on_request(post: Post) -> None:
    services = post.world.services
    sender = FakeSender()
    sender.fail = PermanentFailure("550 5.1.1 no such user")
    asyncio.run(Dispatcher(services, sender).drain())
    failed = [e for e in outbox_admin.troubled(services) if e.status == OutboundStatus.FAILED]
    assert failed and all("550 5.1.1" in e.error for e in failed)
    sender.fail = None
    chosen = outbox_admin.resend(services, [failed[0].id, 999_999])
    assert chosen == [failed[0].id]
    assert asyncio.run(Dispatcher(services, sender).drain()).sent >= 1
    assert failed[0].id not in [e.id for e in outbox_admin.troubled(services) if e.status == OutboundStatus.FAILED]


def test_a_mail_claimed_by_one_process_is_not_sent_by_another(post: Post) -> None:
    services = post.world.services
    first, second = Dispatcher(services, FakeSender(), owner="one"), Dispatcher(services, FakeSender(), owner="two")
    claimed = first._claim(5)
    assert len(claimed) == 5 and not set(claimed) & set(second._claim(500))
    post.world.clock.advance(timedelta(seconds=services.config.outbox_lease + 1))  # the first died holding them
    assert set(claimed) <= set(second._claim(500))
    assert asyncio.run(first._send_one(claimed[0], {})) == 0  # its claim was taken over: it sends nothing


def test_the_mails_of_a_phase_are_claimed_together_so_one_process_draws_its_picture(post: Post) -> None:
    services = post.world.services
    first, second = Dispatcher(services, FakeSender(), owner="one"), Dispatcher(services, FakeSender(), owner="two")
    asyncio.run(first.drain())  # the set-up's mails, which carry no picture
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()  # Spring 1901's results, each with its picture
    with services.db.sessions() as session:
        pictured = set(session.scalars(select(OutboundMail.id).where(OutboundMail.attach_phase_id.is_not(None),
                                                                     OutboundMail.status == OutboundStatus.PENDING)))
    assert len(pictured) >= 8
    claimed = first._claim(3)
    assert pictured <= set(claimed) and claimed == sorted(claimed)
    assert not pictured & set(second._claim(500))


def test_a_mail_that_cannot_be_built_is_set_aside_and_the_others_go(post: Post, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    services = post.world.services
    sender = FakeSender()
    dispatcher = Dispatcher(services, sender)
    build = dispatcher.build
    broken = _pending(post)[0].id

    def build_or_break(session, mail, pictures, undrawn=None):  # type: ignore[no-untyped-def]
        if mail.id == broken:
            raise ValueError("a header that cannot be written")
        return build(session, mail, pictures, undrawn)

    monkeypatch.setattr(dispatcher, "build", build_or_break)
    others = len(_pending(post)) - 1
    drained = asyncio.run(dispatcher.drain())
    with services.db.sessions() as session:
        aside = session.get(OutboundMail, broken)
        assert aside is not None and aside.status == OutboundStatus.FAILED and "could not be built" in aside.last_error
    alerts = [m for m in sender.sent if m["X-GM-Kind"] == "gm-alert"]
    assert drained.sent == others + 1 and not _pending(post)  # every other mail, and the alert about it
    assert len(alerts) == 1 and f"gm outbox --resend {broken}" in " ".join(alerts[0].get_content().split())


def test_a_picture_that_cannot_be_drawn_leaves_its_mail_without_it_saying_so(post: Post, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import gm.games.pictures as pictures

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise ValueError("a non-XML character '\\x1b'")

    monkeypatch.setattr(pictures, "start_png", broken)
    sender = FakeSender()
    asyncio.run(Dispatcher(post.world.services, sender).drain())
    starts = [m for m in sender.sent if m["X-GM-Kind"] == "start"]
    assert len(starts) == 8 and not any(m.is_multipart() for m in starts)
    assert all("The map picture could not be drawn for this mail" in m.get_content() for m in starts)
    alerts = [m for m in sender.sent if m["X-GM-Kind"] == "gm-alert"]
    assert len(alerts) == 1 and "non-XML character" in alerts[0].get_content()  # once for the picture, not once a mail
