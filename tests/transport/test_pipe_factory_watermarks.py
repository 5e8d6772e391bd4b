"""One message on stdin (gm receive), choosing the transport by configuration, and the IMAP
watermarks in the database."""

from __future__ import annotations

import hashlib
import io
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from gm.clock import ManualClock
from gm.config import ConfigError, MailboxConfig
from gm.store.database import Database
from gm.store.mailboxes import DatabaseWatermarks
from gm.store.models import MailboxState
from gm.transport import Watermark
from gm.transport.factory import make_inbox, make_sender
from gm.transport.imap import ImapInbox
from gm.transport.maildir import MaildirInbox, MaildirSender
from gm.transport.pipe import read_message
from gm.transport.smtp import SmtpSender

from .helpers import MemoryWatermarks, message

# ---- pipe -----------------------------------------------------------------------------------------


def test_reads_the_message_as_it_is() -> None:
    raw = message("Orders :(", body="F Lon - Nth\r\n" * 100)
    piped = read_message(io.BytesIO(raw), 1 << 20)
    assert piped.raw == raw and piped.size == len(raw) and not piped.cut


def test_drops_an_mbox_envelope_line() -> None:
    raw = message("x")
    assert read_message(io.BytesIO(b"From alice@example.test Mon Jan  5 12:00:00 2026\n" + raw), 1 << 20).raw == raw
    # a header "From:" is the message itself
    assert read_message(io.BytesIO(raw), 1 << 20).raw.startswith(b"From: alice")


def test_keeps_the_first_bytes_of_a_large_message_and_reads_it_all() -> None:
    raw = message("x", body="y" * 5000)
    assert read_message(io.BytesIO(raw), len(raw)).raw == raw
    stream = io.BytesIO(raw)
    piped = read_message(stream, 100)
    assert piped.raw == raw[:100] and piped.size == len(raw) and piped.cut
    assert stream.read() == b""  # drained: the mail server sees its pipe read to the end
    assert piped.source_key == read_message(io.BytesIO(raw), len(raw)).source_key  # all bytes count
    one_line = read_message(io.BytesIO(b"x" * 100), 10)
    assert one_line.raw == b"x" * 10 and one_line.size == 100
    big = read_message(io.BytesIO(b"From a@b Mon Jan  5 12:00:00 2026\n" + b"z" * 200_000), 70_000)
    assert big.raw == b"z" * 70_000 and big.size == 200_000


def test_an_empty_input_is_read_as_it_is() -> None:
    assert read_message(io.BytesIO(b""), 100).raw == b""
    assert read_message(io.BytesIO(b"From a@b Mon Jan  5 12:00:00 2026\n\n"), 100).raw == b"\n"


def test_source_key_is_the_hash_of_the_bytes() -> None:
    raw = message("x")
    assert read_message(io.BytesIO(raw), 1 << 20).source_key == "pipe:" + hashlib.sha256(raw).hexdigest()
    assert read_message(io.BytesIO(raw), 10).source_key == "pipe:" + hashlib.sha256(raw).hexdigest()
    assert read_message(io.BytesIO(raw + b"\r\n"), 1 << 20).source_key != read_message(io.BytesIO(raw), 1 << 20).source_key


# ---- factory --------------------------------------------------------------------------------------


def test_factory_chooses_by_kind(tmp_path: Path) -> None:
    marks = MemoryWatermarks()
    assert isinstance(make_inbox(MailboxConfig(kind="maildir", path=tmp_path), marks), MaildirInbox)
    assert isinstance(make_inbox(MailboxConfig(kind="imap", tls="ssl"), marks), ImapInbox)
    assert isinstance(make_sender(MailboxConfig(kind="maildir", path=tmp_path)), MaildirSender)
    assert isinstance(make_sender(MailboxConfig(kind="smtp", tls="starttls")), SmtpSender)
    for bad in (lambda: make_inbox(MailboxConfig(kind="smtp"), marks),
                lambda: make_inbox(MailboxConfig(kind="maildir", path=None), marks),
                lambda: make_inbox(MailboxConfig(kind="imap", tls="sometimes"), marks),
                lambda: make_sender(MailboxConfig(kind="imap")),
                lambda: make_sender(MailboxConfig(kind="smtp", tls="sometimes"))):
        with pytest.raises(ConfigError):
            bad()


def test_default_ports() -> None:
    marks = MemoryWatermarks()
    assert ImapInbox(MailboxConfig(kind="imap", tls="ssl"), marks).port == 993
    assert ImapInbox(MailboxConfig(kind="imap"), marks).port == 143
    assert SmtpSender(MailboxConfig(kind="smtp", tls="ssl")).port == 465
    assert SmtpSender(MailboxConfig(kind="smtp", tls="starttls")).port == 587
    assert SmtpSender(MailboxConfig(kind="smtp", tls="starttls", port=2525)).port == 2525
    name = ImapInbox(MailboxConfig(kind="imap", username="gm@x.test", host="mail.x.test", port=993,
                                   mailbox="Orders"), marks).watermark_name
    assert name == "imap://gm@x.test@mail.x.test:993/Orders"


# ---- watermarks in the database ---------------------------------------------------------------


def test_database_watermarks(tmp_path: Path) -> None:
    clock = ManualClock(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))
    db = Database(f"sqlite:///{tmp_path / 'gm.db'}")
    marks = DatabaseWatermarks(db, clock)
    assert marks.load("imap://a") is None
    marks.save("imap://a", Watermark(7, 3))
    marks.save("imap://b", Watermark(1, 1))
    assert marks.load("imap://a") == Watermark(7, 3)
    marks.save("imap://a", Watermark(7, 2))  # never backwards within one UIDVALIDITY
    assert marks.load("imap://a") == Watermark(7, 3)
    clock.set(datetime(2026, 1, 6, tzinfo=UTC))
    marks.save("imap://a", Watermark(9, 0))  # a new UIDVALIDITY starts again
    assert marks.load("imap://a") == Watermark(9, 0)
    db.dispose()

    again = Database(f"sqlite:///{tmp_path / 'gm.db'}")
    assert DatabaseWatermarks(again).load("imap://a") == Watermark(9, 0)
    with again.unit_of_work() as session:
        row = session.scalars(select(MailboxState).where(MailboxState.mailbox == "imap://a")).one()
        assert row.updated_at == datetime(2026, 1, 6, tzinfo=UTC)
    again.dispose()
