"""The IMAP inbox against a real Dovecot (scripts/start-mail-stack): each message delivered
once, \\Seen and the watermark only after ``deliver`` returned, UIDVALIDITY, IDLE, reconnects."""

from __future__ import annotations

import asyncio
import email
import logging
import re
import time
from email import policy
from pathlib import Path

import pytest

from gm.store.database import Database
from gm.store.mailboxes import DatabaseWatermarks
from gm.transport import InboxUnavailable, Watermark
from gm.transport.imap import ImapInbox, _fetched_body, _search_uids

from .helpers import MailStack, MemoryWatermarks, Recorder, message, run

mailserver = pytest.mark.mailserver


def inbox(stack: MailStack, folder: str, watermarks=None, user: str = "gm", read_limit: int | None = None,  # type: ignore[no-untyped-def]
          **changes) -> ImapInbox:
    return ImapInbox(stack.imap_config(user, folder, **changes), watermarks or MemoryWatermarks(),
                     timeout=5.0, backoff_initial=0.05, backoff_max=0.5, read_limit=read_limit)


async def stop(task: asyncio.Task) -> None:  # type: ignore[type-arg]
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass


async def until(condition, within: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


@mailserver
def test_drain_delivers_each_message_once_in_order(mail_stack: MailStack, folder: str, recorder: Recorder) -> None:
    sent = [message(f"Order {n}") for n in range(3)]
    for raw in sent:
        mail_stack.lmtp("gm", folder, raw)
    box = inbox(mail_stack, folder)

    async def scenario() -> None:
        assert await box.drain(recorder) == 3
        assert await box.drain(recorder) == 0
        async with mail_stack.imap("gm") as imap:
            validity = await imap.select(folder)
            assert recorder.keys == [f"imap:{box.watermark_name}:{validity}:{uid}" for uid in (1, 2, 3)]
            assert all("\\Seen" in flags for flags in (await imap.flags(folder)).values())

    run(scenario())
    for (_, raw), original in zip(recorder.got, sent, strict=True):
        assert raw.endswith(original)  # Dovecot adds Return-Path, Delivered-To and Received on top
    assert box.watermarks.load(box.watermark_name) == Watermark(box.watermarks.load(box.watermark_name).uidvalidity, 3)


@mailserver
def test_seen_and_watermark_only_after_deliver_returned(mail_stack: MailStack, folder: str) -> None:
    mail_stack.lmtp("gm", folder, message("One"))
    mail_stack.lmtp("gm", folder, message("Two"))
    marks = MemoryWatermarks()
    box = inbox(mail_stack, folder, marks)
    seen_during: list[tuple[str, set[str], int]] = []

    async def deliver(raw: bytes, key: str) -> None:
        uid = int(key.rsplit(":", 1)[1])
        async with mail_stack.imap("gm") as imap:
            flags = (await imap.flags(folder))[uid]
        seen_during.append((key, flags, marks.load(box.watermark_name).last_uid))

    async def scenario() -> None:
        assert await box.drain(deliver) == 2
        async with mail_stack.imap("gm") as imap:
            return await imap.flags(folder)

    after = run(scenario())
    assert [(flags, mark) for _, flags, mark in seen_during] == [(set(), 0), (set(), 1)]
    assert after == {1: {"\\Seen"}, 2: {"\\Seen"}}


@mailserver
def test_a_failing_deliver_leaves_the_message_for_the_next_pass(mail_stack: MailStack, folder: str,
                                                                recorder: Recorder) -> None:
    for n in range(3):
        mail_stack.lmtp("gm", folder, message(f"Message {n}"))
    box = inbox(mail_stack, folder)
    recorder.fail_on = {2}

    async def scenario() -> None:
        with pytest.raises(RuntimeError, match="on purpose"):
            await box.drain(recorder)
        assert box.watermarks.load(box.watermark_name).last_uid == 1
        async with mail_stack.imap("gm") as imap:
            assert await imap.flags(folder) == {1: {"\\Seen"}, 2: set(), 3: set()}
        assert await box.drain(recorder) == 2

    run(scenario())
    assert [key.rsplit(":", 1)[1] for key in recorder.keys] == ["1", "2", "3"]


@mailserver
def test_the_watermark_counts_not_the_seen_flag_and_survives_a_new_inbox(
        mail_stack: MailStack, folder: str, recorder: Recorder, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'gm.db'}"
    mail_stack.lmtp("gm", folder, message("First"))
    mail_stack.lmtp("gm", folder, message("Second"))

    async def first() -> None:
        db = Database(url)
        assert await inbox(mail_stack, folder, DatabaseWatermarks(db)).drain(recorder) == 2
        db.dispose()
        async with mail_stack.imap("gm") as imap:
            await imap.unseen(folder)  # someone reads and unmarks them in a mail program

    async def second() -> None:
        db = Database(url)
        box = inbox(mail_stack, folder, DatabaseWatermarks(db))
        assert await box.drain(recorder) == 0
        mail_stack.lmtp("gm", folder, message("Third"))
        assert await box.drain(recorder) == 1
        db.dispose()

    run(first())
    run(second())
    assert [key.rsplit(":", 1)[1] for key in recorder.keys] == ["1", "2", "3"]


@mailserver
def test_a_new_uidvalidity_reads_the_mailbox_again(mail_stack: MailStack, folder: str, recorder: Recorder) -> None:
    sent = [message("Kept"), message("Also kept")]
    marks = MemoryWatermarks()

    async def scenario() -> tuple[int, int]:
        async with mail_stack.imap("gm") as imap:
            await imap.command("CREATE", folder)
            for raw in sent:
                await imap.append(folder, raw)
            before = await imap.select(folder)
        assert await inbox(mail_stack, folder, marks).drain(recorder) == 2
        async with mail_stack.imap("gm") as imap:  # the mailbox is made anew: UIDs start again
            await imap.command("DELETE", folder)
            await imap.command("CREATE", folder)
            for raw in sent:
                await imap.append(folder, raw)
            after = await imap.select(folder)
        assert await inbox(mail_stack, folder, marks).drain(recorder) == 2
        return before, after

    before, after = run(scenario())
    assert before != after
    name = inbox(mail_stack, folder, marks).watermark_name
    assert recorder.keys == [f"imap:{name}:{before}:1", f"imap:{name}:{before}:2",
                             f"imap:{name}:{after}:1", f"imap:{name}:{after}:2"]
    assert [raw for _, raw in recorder.got] == sent * 2


@mailserver
def test_idle_wakes_up_on_new_mail(mail_stack: MailStack, folder: str, recorder: Recorder) -> None:
    mail_stack.lmtp("gm", folder, message("Before"))
    box = inbox(mail_stack, folder, idle_seconds=60)

    async def scenario() -> float:
        task = asyncio.create_task(box.run(recorder))
        try:
            await recorder.arrived(1)
            await until(lambda: box.state == "idle")
            await asyncio.sleep(0.2)
            start = time.monotonic()
            mail_stack.lmtp("gm", folder, message("During IDLE"))
            await recorder.arrived(2, within=5)
            return time.monotonic() - start
        finally:
            await stop(task)

    latency = run(scenario())
    assert latency < 2.0
    assert box.sessions == 1


@mailserver
def test_polls_when_the_server_has_no_idle(mail_stack: MailStack, folder: str, recorder: Recorder,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from gm.transport import imap as imap_module

    monkeypatch.setattr(imap_module._Session, "can_idle", property(lambda self: False))
    mail_stack.lmtp("gm", folder, message("Before"))
    box = inbox(mail_stack, folder, idle_seconds=1)

    async def scenario() -> None:
        task = asyncio.create_task(box.run(recorder))
        try:
            await recorder.arrived(1)
            await until(lambda: box.state == "polling")  # the fetch that delivered mail 1 ends first
            mail_stack.lmtp("gm", folder, message("While polling"))
            assert await recorder.arrived(2, within=10) < 5.0  # polled every second; slack for a busy machine
        finally:
            await stop(task)

    run(scenario())


@mailserver
def test_reconnects_after_the_server_drops_the_connection(mail_stack: MailStack, folder: str, recorder: Recorder,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="gm.transport.imap")
    mail_stack.lmtp("dave", folder, message("Before"))
    box = inbox(mail_stack, folder, user="dave", idle_seconds=60)

    async def scenario() -> None:
        task = asyncio.create_task(box.run(recorder))
        try:
            await recorder.arrived(1)
            await until(lambda: box.state == "idle")
            await asyncio.to_thread(mail_stack.doveadm, "kick", mail_stack.address("dave"))
            await until(lambda: box.sessions >= 2 and box.state == "idle")
            mail_stack.lmtp("dave", folder, message("After"))
            await recorder.arrived(2, within=5)
        finally:
            await stop(task)

    run(scenario())
    assert [key.rsplit(":", 1)[1] for key in recorder.keys] == ["1", "2"]
    said = [record.getMessage().removeprefix(f"{box.watermark_name}: ") for record in caplog.records]
    assert said[:2] == ["connected", "waiting for mail with IDLE (rounds of 60 s)"], said  # once per connection
    # the outage once when it goes, once when it is back (gm.outages)
    assert any(re.fullmatch(rf"the inbox {re.escape(box.watermark_name)} is away: .*; reconnecting \(attempt 2 in "
                            r"\d+ s\); .*", line) for line in said), said
    assert any(re.fullmatch(rf"the inbox {re.escape(box.watermark_name)} is back after \d+ s; what waited goes on "
                            rf"now: the mail in {folder}", line) for line in said), said
    assert said.count("waiting for mail with IDLE (rounds of 60 s)") == 2


@mailserver
def test_run_retries_a_failed_deliver(mail_stack: MailStack, folder: str, recorder: Recorder) -> None:
    mail_stack.lmtp("gm", folder, message("Once"))
    box = inbox(mail_stack, folder, idle_seconds=60)
    recorder.fail_on = {1}

    async def scenario() -> None:
        task = asyncio.create_task(box.run(recorder))
        try:
            await recorder.arrived(1)
        finally:
            await stop(task)

    run(scenario())
    assert recorder.calls == 2 and len(recorder.got) == 1


@mailserver
def test_awkward_subjects_do_not_break_fetching(mail_stack: MailStack, folder: str, recorder: Recorder) -> None:
    subjects = ["Turn 1 :(", "((( unbalanced", "quote \" and ) paren", "Ünïcødé: Москва ( 東京",
                "=?utf-8?q?encoded_=28_paren?=", "plain"]
    sent = [message(subject, body=f"body of {subject} ((\r\n") for subject in subjects]
    for raw in sent:
        mail_stack.lmtp("gm", folder, raw)

    async def scenario() -> None:
        async with mail_stack.imap("gm") as imap:  # arranged by APPEND as well
            await imap.append(folder, message("appended :( ü"))
        assert await inbox(mail_stack, folder).drain(recorder) == len(sent) + 1

    run(scenario())
    for (_, raw), original in zip(recorder.got, sent, strict=False):
        assert raw.endswith(original)
    got = [str(email.message_from_bytes(raw, policy=policy.default)["Subject"]) for _, raw in recorder.got]
    assert got[:4] == subjects[:4]
    assert got[4] == "encoded ( paren"
    assert got[-1] == "appended :( ü"


@mailserver
def test_imaps_with_the_servers_certificate(mail_stack: MailStack, folder: str, recorder: Recorder) -> None:
    mail_stack.lmtp("gm", folder, message("Over TLS"))
    box = inbox(mail_stack, folder, tls="ssl", port=mail_stack.port("IMAPS_PORT"), ca_file=mail_stack.ca_file)
    assert run(box.drain(recorder)) == 1

    untrusted = inbox(mail_stack, folder, tls="ssl", port=mail_stack.port("IMAPS_PORT"))  # system CAs only
    with pytest.raises(InboxUnavailable, match="CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
        run(untrusted.drain(recorder))


@mailserver
def test_unreachable_or_refused_mailbox_raises_inbox_unavailable(mail_stack: MailStack, folder: str,
                                                                  recorder: Recorder) -> None:
    mail_stack.lmtp("gm", folder, message("x"))
    with pytest.raises(InboxUnavailable, match="login"):
        run(inbox(mail_stack, folder, password="wrong").drain(recorder))
    with pytest.raises(InboxUnavailable, match="select"):
        run(inbox(mail_stack, folder + "-missing").drain(recorder))
    with pytest.raises(InboxUnavailable, match="Connection refused|Errno"):
        run(inbox(mail_stack, folder, port=1).drain(recorder))
    assert recorder.got == []


@mailserver
def test_run_keeps_trying_while_the_server_is_unreachable(mail_stack: MailStack, folder: str,
                                                          recorder: Recorder) -> None:
    delays: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        delays.append(seconds)
        if len(delays) >= 6:
            raise asyncio.CancelledError
        await asyncio.sleep(0)

    config = mail_stack.imap_config("gm", folder, port=1)
    box = ImapInbox(config, MemoryWatermarks(), sleep=fake_sleep, random=lambda: 1.0, timeout=2.0)

    async def scenario() -> None:
        with pytest.raises(asyncio.CancelledError):
            await box.run(recorder)

    run(scenario())
    assert delays == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0]


# ---- parsing aioimaplib's replies (no server) ---------------------------------------------------

class _Reply:
    def __init__(self, lines: list[object]) -> None:
        self.result = "OK"
        self.lines = lines


def test_search_uids() -> None:
    assert _search_uids(_Reply([b"3 4 17", b"Search completed (0.001 + 0.000 secs)."])) == [3, 4, 17]
    assert _search_uids(_Reply([b"", b"Search completed."])) == []
    assert _search_uids(_Reply([b"Search completed."])) == []


def test_fetched_body_picks_the_literal_of_the_asked_uid() -> None:
    lines = [b"1 FETCH (UID 7 FLAGS (\\Seen))", b"2 FETCH (UID 9 BODY[] {5}", bytearray(b"hello"), b")",
             b"Fetch completed."]
    assert _fetched_body(_Reply(lines), 9) == (b"hello", None)
    assert _fetched_body(_Reply(lines), 7) == (None, None)
    after = [b"2 FETCH (BODY[] {3}", bytearray(b"abc"), b" UID 9)", b"Fetch completed."]
    assert _fetched_body(_Reply(after), 9) == (b"abc", None)
    assert _fetched_body(_Reply([b"Fetch completed."]), 9) == (None, None)
    partial = [b"2 FETCH (UID 9 RFC822.SIZE 5000000 BODY[]<0> {3}", bytearray(b"abc"), b")", b"Fetch completed."]
    assert _fetched_body(_Reply(partial), 9) == (b"abc", 5_000_000)


@mailserver
def test_a_large_message_is_read_only_up_to_the_read_limit(mail_stack: MailStack, folder: str) -> None:
    big = message("A photo", body=("y" * 998 + "\r\n") * 3000)  # about 3 MB
    small = message("Orders")
    mail_stack.lmtp("gm", folder, big)
    mail_stack.lmtp("gm", folder, small)
    box = inbox(mail_stack, folder, read_limit=100_000)
    got: list[tuple[bytes, int | None]] = []

    async def deliver(raw: bytes, key: str, size: int | None = None) -> None:
        got.append((raw, size))

    assert run(box.drain(deliver)) == 2
    (first, size), (second, no_size) = got
    assert len(first) == 100_000 and size is not None and size > len(big) and b"Subject: A photo" in first
    assert second.endswith(small) and no_size is None


def test_an_unknown_tls_mode_is_refused_for_imap() -> None:
    from gm.config import MailboxConfig

    with pytest.raises(ValueError, match="'ssl' \\(IMAPS\\), 'starttls' or 'none'"):
        ImapInbox(MailboxConfig(kind="imap", tls="maybe"), MemoryWatermarks())
    assert ImapInbox(MailboxConfig(kind="imap", tls="starttls"), MemoryWatermarks()).port == 143
