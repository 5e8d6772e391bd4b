"""Every mail gm sends has a Message-ID made from what the mail is (its game and phase, kind,
recipient, the mail it answers, and how many such mails came before it), so the mails made
again after a backup is restored (the players' mails read again, the phase processed again)
carry the Message-IDs they had: a mail client keeps one copy of each."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from gm.store.models import OutboundMail
from tests.mail.conftest import Post, secret_of


def _signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def _play(post: Post) -> None:
    """What the players do after the backup: orders, press, a second order mail; the deadline
    passes and the phase is processed (results to everyone)."""
    post.send("france@example.test", _signon("France") + "A PAR - BUR\nF BRE - MAO\n", message_id="<p1@example.test>")
    post.send("germany@example.test", _signon("Germany") + "PRESS TO England\nHello\nENDPRESS\n",
              message_id="<p2@example.test>")
    post.send("germany@example.test", _signon("Germany") + "PRESS TO England\nAgain\nENDPRESS\n",
              message_id="<p3@example.test>")
    post.send("france@example.test", _signon("France") + "A MAR - SPA\n", message_id="<p4@example.test>")
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()


def _made_after(post: Post, last: int) -> list[tuple[str, str, str]]:
    with post.world.services.db.reading() as session:
        return [(mail.message_id, mail.kind, mail.to_address) for mail in session.scalars(
            select(OutboundMail).where(OutboundMail.id > last).order_by(OutboundMail.id))]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # a restore is a copy of the file here
def test_the_mails_made_again_after_a_restore_carry_the_message_ids_they_had(post: Post, tmp_path: Path) -> None:
    world = post.world
    database = Path(world.config.database_url.split("///", 1)[1])
    with world.services.db.reading() as session:
        last = max(session.scalars(select(OutboundMail.id)))
    moment = world.clock.now()
    world.app.db.dispose()
    backup = tmp_path / "backup.db"
    shutil.copy(database, backup)  # the WAL is checkpointed when the last connection closes

    _play(post)
    first = _made_after(post, last)
    kinds = {kind for _, kind, _ in first}
    assert {"reply", "press", "results"} <= kinds, kinds
    assert len({mid for mid, _, _ in first}) == len(first)  # each its own, the two press mails to England too

    world.app.db.dispose()
    for leftover in (Path(f"{database}-wal"), Path(f"{database}-shm")):
        leftover.unlink(missing_ok=True)
    shutil.copy(backup, database)  # restored
    world.clock.set(moment)
    _play(post)  # the players' mails read again (the inbox gave them again), the deadline passes again
    again = _made_after(post, last)
    assert again == first
