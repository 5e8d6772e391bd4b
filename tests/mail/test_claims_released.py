"""A drain that stops because the server takes no mail leaves no mail claimed, even a claim its
reader was committing at that moment (it is waited for, then released with the rest)."""

from __future__ import annotations

import asyncio
import time

import pytest

from gm.services.drawing import Here
from gm.services.sending import CLAIM, Dispatcher
from gm.store.models import OutboundMail
from gm.transport import ServerFailure
from tests.mail.conftest import Post
from tests.mail.test_pictures_drawn_elsewhere import _busy
from tests.mail.test_sending import FakeSender


def test_a_claim_committed_while_the_drain_gives_up_is_released(post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    _busy(post)
    services = post.world.services
    with services.db.sessions() as session:
        assert session.query(OutboundMail).count() > CLAIM  # a second claim is made
    claim = Dispatcher._claim

    def slow_after_the_first(self: Dispatcher, count: int) -> list[int]:
        if self._leases:  # the first claim's mails are out: the server fails on the first of them meanwhile
            time.sleep(0.5)
        return claim(self, count)

    monkeypatch.setattr(Dispatcher, "_claim", slow_after_the_first)
    sender = FakeSender()
    sender.fail = ServerFailure("connection refused")
    drained = asyncio.run(Dispatcher(services, sender, drawer=Here(services.catalog)).drain())
    assert drained.outage is not None and drained.sent == 0
    with services.db.sessions() as session:
        held = [(m.id, m.lease_owner) for m in session.query(OutboundMail) if m.lease_owner or m.lease_until]
    assert held == []
