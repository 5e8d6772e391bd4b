"""The outbox with a drawer (gm.services.drawing, as `gm run` has): the same mails with the same
pictures as when they are drawn in the thread that reads each mail; drawn in worker processes
too; a picture that cannot be drawn still leaves its mail without it, saying so, once told."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pytest

from gm.services.drawing import Here, Workers
from gm.services.sending import Dispatcher
from tests.mail.conftest import Post, secret_of
from tests.mail.test_sending import FakeSender


def _busy(post: Post) -> None:
    """Start mails, a phase's results and a MAP reply waiting in the outbox."""
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()
    post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nMAP\nMAP CHART\n")


def _pictures(sent: list[EmailMessage]) -> dict[tuple[str, str], list[tuple[str, bytes]]]:
    found = {}
    for message in sent:
        parts = [(p.get_filename(), p.get_content()) for p in message.iter_attachments()]
        found[(message["To"], message["Subject"])] = parts
    return found


def test_a_drawer_gives_the_mails_and_pictures_drawn_in_the_reading_thread(post: Post) -> None:
    _busy(post)
    services = post.world.services
    here, elsewhere = FakeSender(), FakeSender()
    # the same mails claimed twice: first drawn in the reading thread, then (sent again) by a drawer
    asyncio.run(Dispatcher(services, here).drain())
    with services.db.unit_of_work() as session:
        from sqlalchemy import update

        from gm.store.models import OutboundMail, OutboundStatus
        session.execute(update(OutboundMail).values(status=OutboundStatus.PENDING, lease_until=None, lease_owner=""))
    asyncio.run(Dispatcher(services, elsewhere, drawer=Here(services.catalog)).drain())
    assert len(here.sent) == len(elsewhere.sent) > 8
    assert [(m["To"], m["Subject"]) for m in here.sent] == [(m["To"], m["Subject"]) for m in elsewhere.sent]
    assert [m.get_body(("plain",)).get_content() for m in here.sent if m["X-GM-Kind"] in ("results", "map")] == \
           [m.get_body(("plain",)).get_content() for m in elsewhere.sent if m["X-GM-Kind"] in ("results", "map")]
    assert _pictures(here.sent) == _pictures(elsewhere.sent)
    assert any(len(p) == 1 for p in _pictures(elsewhere.sent).values())  # the results' board, the MAP's


@pytest.mark.slow
def test_worker_processes_draw_the_pictures(post: Post) -> None:
    _busy(post)
    sender = FakeSender()
    workers = Workers(2)
    try:
        asyncio.run(Dispatcher(post.world.services, sender, drawer=workers).drain())
    finally:
        workers.close()
    results = [m for m in sender.sent if "results" in m["Subject"]]
    assert len(results) == 8
    pictures = {p.get_content() for m in results for p in m.iter_attachments()}
    assert len(pictures) == 1 and next(iter(pictures)).startswith(b"\x89PNG")


class Broken:
    async def draw(self, picture: Any) -> bytes:
        raise ValueError("a non-XML character '\\x1b'")


def test_a_picture_a_drawer_cannot_draw_leaves_its_mails_without_it_saying_so(post: Post) -> None:
    _busy(post)
    sender = FakeSender()
    asyncio.run(Dispatcher(post.world.services, sender, drawer=Broken()).drain())
    results = [m for m in sender.sent if "results" in m["Subject"]]
    assert len(results) == 8 and not any(m.is_multipart() for m in results)
    assert all("The map picture could not be drawn for this mail" in m.get_content() for m in results)
    alerts = [m for m in sender.sent if m["X-GM-Kind"] == "gm-alert"]
    assert alerts and all("non-XML character" in a.get_content() for a in alerts)
    named = [next(w for w in a.get_content().split() if w.endswith(".png")) for a in alerts]
    assert len(named) == len(set(named)) < len(results)  # once for each picture, not once a mail


def test_mails_read_ahead_are_released_when_the_server_takes_no_mail(post: Post) -> None:
    from gm.store.models import OutboundMail
    from gm.transport import ServerFailure

    _busy(post)
    services = post.world.services
    sender = FakeSender()
    sender.fail = ServerFailure("connection refused")
    drained = asyncio.run(Dispatcher(services, sender, drawer=Here(services.catalog)).drain())
    assert drained.outage is not None and drained.sent == 0
    with services.db.sessions() as session:
        assert all(m.lease_owner == "" and m.lease_until is None for m in session.query(OutboundMail))
