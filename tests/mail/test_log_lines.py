"""What the log says of mail and games: one line per event, with the game and what
became of it, and never a line of the mail (a SIGNON secret is in it)."""

from __future__ import annotations

import logging
import re

import pytest

from gm.transport import TemporaryFailure

from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import World, game_file


def _said(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(record.getMessage() for record in caplog.records)


def test_each_mail_handled_says_from_whom_which_game_and_what_became_of_it(
        post: Post, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    mail = post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nA PAR - BUR\n")
    assert f"mail {mail} done: from france@example.test, game g (France): 2 answered; reply queued" in _said(caplog)
    mail = post.send("italy@example.test", "SIGNON Italy g wrong-secret-4711\nA ROM H\n")
    assert f"mail {mail} done: from italy@example.test, no game: 2 answered, 2 refused; reply queued" in _said(caplog)
    post.send("master@example.test", f"SIGNON GM g {GM_SECRET}\nPREVIEW\n")
    assert "game g (GM): 2 answered; reply queued" in _said(caplog)
    post.send("stranger@example.test", "HELP\n", Auto_Submitted="auto-replied")
    assert "ignored: from stranger@example.test; " in _said(caplog)
    for record in caplog.records:
        for secret in (secret_of("France"), GM_SECRET, "wrong-secret-4711"):
            assert secret not in record.getMessage()


def test_a_game_created_or_changed_from_its_settings_file_is_one_line(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    path = world.write_game("g", game_file(players=3))
    world.tick()
    assert f"game g created from {path} (standard, GM master@example.test)" in _said(caplog)
    caplog.clear()
    world.tick()
    assert "game g" not in _said(caplog)  # unchanged: nothing to say
    world.write_game("g", game_file(players=3).replace("reminders: [24h]", "reminders: [12h]"))
    world.tick()
    assert f"game g: settings from {path} in force" in _said(caplog)


def test_a_mail_deferred_says_why_and_when_next_and_says_so_when_it_goes(
        post: Post, caplog: pytest.LogCaptureFixture) -> None:
    from datetime import timedelta

    from tests.mail.test_sending import FakeSender, _drain

    caplog.set_level(logging.INFO)
    post.send("france@example.test", "HELP\n")
    sender = FakeSender()
    sender.fail = TemporaryFailure("452 4.2.2 mailbox full")
    _drain(post, sender)  # the game's own mails wait too
    assert re.search(r"mail \d+ to france@example.test deferred: 452 4.2.2 mailbox full; next try at "
                     r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", _said(caplog)), _said(caplog)
    sender.fail = None
    post.world.clock.advance(timedelta(minutes=2))
    assert _drain(post, sender) > 0
    assert re.search(r"sent mail \d+ \(reply\) to france@example.test, after 1 failed tries", _said(caplog))
