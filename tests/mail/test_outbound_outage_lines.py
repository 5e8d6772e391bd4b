"""The outbound server away, in the log: once when it goes (with the server's words), at most
once a try while it stays away (tries 1, 2, 5 minutes apart), once when it is back with how long
it was away and how many mails waited."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest

from gm.config import MailboxConfig
from gm.services import outbox_admin
from gm.services.sending import Dispatcher
from gm.transport.smtp import SmtpSender
from tests.mail.conftest import Post
from tests.mail.test_promises import Refusing, _pending, refusing  # noqa: F401  (fixture)


def test_the_outbound_server_away_is_said_when_it_goes_and_when_it_is_back(
        post: Post, refusing: tuple[Refusing, int], caplog: pytest.LogCaptureFixture) -> None:  # noqa: F811
    server, port = refusing
    services = post.world.services
    dispatcher = Dispatcher(services, SmtpSender(MailboxConfig(kind="smtp", host="127.0.0.1", port=port), timeout=5))
    caplog.set_level(logging.INFO, logger="gm.services.outbound_health")
    waiting = len(_pending(post))
    asyncio.run(dispatcher.drain())
    for _ in range(3):
        post.world.clock.advance(timedelta(seconds=30))
        asyncio.run(dispatcher.drain())  # not tried before its time: nothing said
    post.world.clock.advance(timedelta(minutes=2))
    asyncio.run(dispatcher.drain())  # tried again, refused again
    server.fixed = True
    outbox_admin.retry_now(services)
    asyncio.run(dispatcher.drain())
    said = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "gm.services.outbound_health"]
    # tried after 1 minute and after 2 more: a line each, none between
    assert [level for level, _ in said] == ["ERROR", "WARNING", "WARNING", "INFO"], said
    assert said[0][1].startswith("the outbound mail server takes no mail: ") and "530 5.7.0" in said[0][1]
    assert said[3][1].startswith("the outbound mail server takes mail again, after 3 min (it did not since ")
    assert said[3][1].endswith(f"sending the {waiting + 1} mails that waited")  # an alert for the administrator too
