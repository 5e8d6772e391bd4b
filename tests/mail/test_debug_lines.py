"""--log-level DEBUG says each mail's commands as written (never a secret: a SIGNON's is masked,
of press only how long it is) and each decision of the scheduler about a game that is due."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from tests.mail.conftest import Post, secret_of


def test_debug_shows_each_mails_commands_never_a_secret(post: Post, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="gm.services.intake")
    mail = post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nA PAR - BUR\nF BRE - MAO\n"
                                            "PRESS TO England\nsecret plans\nENDPRESS\n")
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert said == [f"mail {mail} from france@example.test: SIGNON France g *** | A PAR - BUR | F BRE - MAO | "
                    "PRESS TO England [1 lines]"], said
    assert secret_of("France") not in caplog.text and "secret plans" not in caplog.text


def test_debug_shows_each_decision_of_the_scheduler(post: Post, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="gm.runtime.scheduler")
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert any(line.startswith("game g S1901M: deadline ") and "processed now: the deadline passed" in line
               for line in said), said
