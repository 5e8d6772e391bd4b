"""The Maildir inbox and outbox (no server needed)."""

from __future__ import annotations

import asyncio
import email
import mailbox
import os
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from gm.transport import InboxUnavailable
from gm.transport.maildir import MaildirInbox, MaildirSender

from .helpers import Recorder, message, run


def drop(maildir: Path, name: str, raw: bytes, sub: str = "new", mtime: float | None = None) -> Path:
    for part in ("tmp", "new", "cur"):
        (maildir / part).mkdir(parents=True, exist_ok=True)
    path = maildir / sub / name
    path.write_bytes(raw)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def test_delivers_new_and_unseen_cur_oldest_first_then_marks_seen(tmp_path: Path, recorder: Recorder) -> None:
    box_path = tmp_path / "inbox"
    drop(box_path, "200.B.host", message("second"), mtime=2_000_000_000)
    drop(box_path, "100.A.host", message("first"), mtime=1_000_000_000)
    drop(box_path, "300.C.host:2,F", message("flagged, unseen"), sub="cur", mtime=2_100_000_000)
    drop(box_path, "050.D.host:2,S", message("already seen"), sub="cur", mtime=900_000_000)
    inbox = MaildirInbox(box_path)

    assert run(inbox.drain(recorder)) == 3
    assert recorder.keys == [f"maildir:{box_path}:100.A.host", f"maildir:{box_path}:200.B.host",
                             f"maildir:{box_path}:300.C.host"]
    assert b"Subject: first" in recorder.got[0][1]
    assert sorted(os.listdir(box_path / "cur")) == ["050.D.host:2,S", "100.A.host:2,S", "200.B.host:2,S",
                                                    "300.C.host:2,FS"]
    assert os.listdir(box_path / "new") == []
    assert run(inbox.drain(recorder)) == 0


def test_a_failing_deliver_leaves_the_file(tmp_path: Path, recorder: Recorder) -> None:
    drop(tmp_path, "1.A.host", message("one"), mtime=1_000_000_000)
    drop(tmp_path, "2.B.host", message("two"), mtime=1_000_000_001)
    recorder.fail_on = {2}
    inbox = MaildirInbox(tmp_path)
    with pytest.raises(RuntimeError, match="on purpose"):
        run(inbox.drain(recorder))
    assert os.listdir(tmp_path / "new") == ["2.B.host"]
    assert run(inbox.drain(recorder)) == 1
    assert [key.rsplit(":", 1)[1] for key in recorder.keys] == ["1.A.host", "2.B.host"]


def test_makes_a_missing_maildir(tmp_path: Path, recorder: Recorder) -> None:
    inbox = MaildirInbox(tmp_path / "a" / "b")
    assert run(inbox.drain(recorder)) == 0
    assert sorted(os.listdir(tmp_path / "a" / "b")) == ["cur", "new", "tmp"]


def test_a_folder_that_cannot_be_read_is_an_unavailable_inbox(tmp_path: Path, recorder: Recorder) -> None:
    """gm tick then says so and exits 75, as for an IMAP server it cannot reach."""
    (tmp_path / "inbox").write_text("a file where the folder should be")
    with pytest.raises(InboxUnavailable, match=r"inbox: cannot be read \(Not a directory: .*inbox/tmp\)"):
        run(MaildirInbox(tmp_path / "inbox").drain(recorder))


def test_run_picks_up_new_files_and_retries_failures(tmp_path: Path, recorder: Recorder) -> None:
    inbox = MaildirInbox(tmp_path, poll_seconds=0.02, random=lambda: 0.0)
    recorder.fail_on = {1}

    async def scenario() -> None:
        task = asyncio.create_task(inbox.run(recorder))
        try:
            await asyncio.sleep(0.05)
            drop(tmp_path, "1.A.host", message("later"))
            await recorder.arrived(1, within=5)  # the first try fails, the back-off is 0.5 s
        finally:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    run(scenario())
    assert recorder.calls == 2


def test_the_outbox_writes_readable_messages(tmp_path: Path) -> None:
    outbox = tmp_path / "outbox"
    sent = EmailMessage()
    sent["From"] = "gm@example.test"
    sent["To"] = "alice@example.test"
    sent["Subject"] = "Résultats du printemps 1901 :("
    sent["Message-ID"] = "<r1@example.test>"
    sent.set_content("A Vie - Bud.\nÜmlaut.\n")
    run(MaildirSender(outbox).send(sent))
    run(MaildirSender(outbox).send(sent))

    files = sorted((outbox / "new").iterdir())
    assert len(files) == 2
    parsed = email.message_from_bytes(files[0].read_bytes(), policy=policy.default)
    assert parsed["Subject"] == "Résultats du printemps 1901 :("
    assert parsed.get_content() == "A Vie - Bud.\nÜmlaut.\n"
    assert len(mailbox.Maildir(outbox, create=False)) == 2


def test_the_outbox_feeds_the_inbox(tmp_path: Path, recorder: Recorder) -> None:
    sent = EmailMessage()
    sent["From"] = "gm@example.test"
    sent["To"] = "alice@example.test"
    sent["Subject"] = "Round trip"
    sent.set_content("ok\n")
    run(MaildirSender(tmp_path).send(sent))
    assert run(MaildirInbox(tmp_path).drain(recorder)) == 1
    assert email.message_from_bytes(recorder.got[0][1], policy=policy.default)["Subject"] == "Round trip"


def test_the_outbox_reports_a_write_failure_as_temporary(tmp_path: Path) -> None:
    from gm.transport import TemporaryFailure

    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    sent = EmailMessage()
    sent["To"] = "alice@example.test"
    sent.set_content("x\n")
    with pytest.raises(TemporaryFailure):
        run(MaildirSender(blocker / "outbox").send(sent))
