"""A mail over the size limit is kept (its headers and text parts, with a note of what was cut)
and its sender told the limit and that nothing was done, whichever inbox it came from; `gm
receive --wait` tells the mail server to try again only when the mail could not be stored at all
(without --wait, the spool stores it: tests/mail/test_spool.py)."""

from __future__ import annotations

import asyncio
import io
import mailbox
import types
from email import message_from_bytes
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from gm.app import App
from gm.cli.main import main
from gm.clock import ManualClock
from gm.config import AppConfig, default_config, load_config
from gm.services.mailtext import body_text
from gm.store.models import InboundMail, InboundStatus, OrderSet
from tests.mail.conftest import Post, secret_of

FRANCE = "france@example.test"


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """SQLite only: these tests are about what is kept and said, not how it is stored (the fuzz tests store cut mails on PostgreSQL too)."""
    return f"sqlite:///{tmp_path / 'gm.db'}"
PHOTO = bytes(range(256)) * (5 * 4096)  # 5 MB of "photo"


def photo_mail(body: str, sender: str = FRANCE, html: bool = False, photo: bytes = PHOTO) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "judge@example.test"
    message["Subject"] = "orders, and a photo of the board"
    message["Message-ID"] = "<photo.1@example.test>"
    if html:
        message.set_content("<html><body><p>" + body.replace("\n", "</p><p>") + "</p></body></html>", subtype="html")
    else:
        message.set_content(body)
    message.add_attachment(photo, maintype="image", subtype="jpeg", filename="board.jpg")
    return message.as_bytes()


def _text(mail: mailbox.MaildirMessage) -> str:
    return mail.get_payload(decode=True).decode()


def stored(post_or_app, mail_id: int | None = None) -> InboundMail:  # type: ignore[no-untyped-def]
    db = post_or_app.world.services.db if hasattr(post_or_app, "world") else post_or_app.db
    with db.sessions() as session:
        query = select(InboundMail).order_by(InboundMail.id.desc())
        return session.get(InboundMail, mail_id) if mail_id else session.scalars(query).first()


def test_a_large_mail_keeps_headers_and_text_and_its_sender_is_told(post: Post) -> None:
    raw = photo_mail(f"SIGNON France g {secret_of('France')}\nA Paris - Burgundy\n")
    assert len(raw) > 5_000_000
    mail_id = post.intake.receive(raw)
    row = stored(post, mail_id)
    limit = post.world.config.max_mail_bytes
    assert row.status == InboundStatus.DONE and len(row.raw) <= limit
    kept = message_from_bytes(row.raw)
    assert kept["Subject"] == "orders, and a photo of the board" and kept["Message-ID"] == "<photo.1@example.test>"
    assert "A Paris - Burgundy" in body_text(kept)
    assert f"{len(raw):,} bytes" in row.cut and "image/jpeg" in row.cut and "board.jpg" in row.cut
    with post.world.services.db.sessions() as session:
        assert session.scalar(select(OrderSet.id)) is None  # nothing in it was done
    (refusal,) = post.mails(to=FRANCE, kind="refusal")
    text = " ".join(refusal.body.split())
    assert f"{limit // 1024} KB" in text and "nothing in it was done" in text
    assert "A Paris - Burgundy" not in text.split("nothing in it was done")[1]


def test_an_html_only_mail_keeps_its_html(post: Post) -> None:
    row = stored(post, post.intake.receive(photo_mail("SIGNON France g x\nA Paris - Burgundy\n", html=True)))
    assert "A Paris - Burgundy" in body_text(message_from_bytes(row.raw))


def test_a_huge_text_part_is_kept_up_to_the_limit(post: Post) -> None:
    message = EmailMessage()
    message["From"] = FRANCE
    message["Subject"] = "a long letter"
    message.set_content("A Paris - Burgundy\n" * 100_000)
    row = stored(post, post.intake.receive(message.as_bytes()))
    limit = post.world.config.max_mail_bytes
    assert len(row.raw) <= limit and body_text(message_from_bytes(row.raw)).startswith("A Paris - Burgundy\n")
    assert "text/plain" in row.cut and "cut" in row.cut
    assert post.mails(to=FRANCE, kind="refusal")


def test_headers_alone_over_the_limit(post: Post) -> None:
    raw = b"From: france@example.test\r\n" + b"X-Junk: " + b"x" * 900_000 + b"\r\n\r\nHELP\r\n"
    row = stored(post, post.intake.receive(raw))
    assert len(row.raw) <= post.world.config.max_mail_bytes and row.raw.startswith(b"From: france@example.test")
    assert row.status == InboundStatus.DONE and post.mails(to=FRANCE, kind="refusal")


def test_the_maildir_inbox_reads_a_large_mail_only_so_far(tmp_path: Path) -> None:
    base = default_config(tmp_path / "home")
    config = AppConfig(**{**base.__dict__, "max_mail_bytes": 64 * 1024})
    config.games_dir.mkdir(parents=True)
    raw = photo_mail("HELP\n")
    config.inbound.path.parent.mkdir(parents=True)
    mailbox.Maildir(str(config.inbound.path), create=True).add(raw)
    app = App(config, clock=ManualClock())
    seen: list[tuple[int, int | None]] = []
    receive = app.intake.receive

    def spy(data: bytes, key: str | None = None, size: int | None = None) -> int | None:
        seen.append((len(data), size))
        return receive(data, key, size)

    app.intake.receive = spy  # type: ignore[method-assign]
    try:
        assert asyncio.run(app.daemon().once()).received == 1
        assert seen == [(config.read_limit, len(raw))]
        row = stored(app)
        assert f"{len(raw):,} bytes" in row.cut and "board.jpg" in row.cut and len(row.raw) <= 64 * 1024
        outbox = list(mailbox.Maildir(str(config.outbound.path), create=False))
        assert len(outbox) == 1 and "64 KB" in _text(outbox[0])
    finally:
        app.close()


# ---- gm receive ---------------------------------------------------------------------------------


def _receive(monkeypatch: pytest.MonkeyPatch, config_file: Path, data: bytes) -> int:
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(data)))
    return main(["--config", str(config_file), "receive", "--wait"])  # handled in this process


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "gm.yaml"
    path.write_text("home: home\njudge_address: judge@example.test\n")
    return path


def test_gm_receive_keeps_a_large_mail_answers_it_and_exits_0(monkeypatch: pytest.MonkeyPatch,
                                                              config_file: Path) -> None:
    raw = b"From alice Mon Jan  5 12:00:00 2026\n" + photo_mail("SIGNON France g x\nA Paris - Burgundy\n")
    assert _receive(monkeypatch, config_file, raw) == 0
    config = load_config(config_file)
    app = App(config)
    try:
        row = stored(app)
        assert row.sender == FRANCE and "board.jpg" in row.cut and row.status == InboundStatus.DONE
    finally:
        app.close()
    (answer,) = list(mailbox.Maildir(str(config.outbound.path), create=False))
    assert answer["To"] == FRANCE and "nothing in it was done" in " ".join(_text(answer).split())
    assert _receive(monkeypatch, config_file, raw) == 0  # the same delivery again: recognised


def test_gm_receive_exits_75_only_when_the_mail_cannot_be_stored(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    (tmp_path / "not-a-directory").write_text("")
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"home: home\ndatabase: sqlite:///{tmp_path}/not-a-directory/gm.db\n")
    assert _receive(monkeypatch, broken, photo_mail("HELP\n")) == 75
    assert _receive(monkeypatch, broken, b"From: a@example.test\r\n\r\nHELP\r\n") == 75


def test_gm_receive_keeps_even_an_empty_input(monkeypatch: pytest.MonkeyPatch, config_file: Path) -> None:
    assert _receive(monkeypatch, config_file, b"") == 0
    app = App(load_config(config_file))
    try:
        row = stored(app)
        assert row.raw == b"" and row.status == InboundStatus.IGNORED and row.error
    finally:
        app.close()



def test_the_refusal_fits_72_columns(post: Post) -> None:
    post.intake.receive(photo_mail("HELP\n"))
    (refusal,) = post.mails(to=FRANCE, kind="refusal")
    assert max(len(line) for line in refusal.body.splitlines()) <= 72


def test_a_mail_whose_lines_end_in_a_bare_cr_keeps_its_headers_whole() -> None:
    from gm.services.oversize import cut_down

    raw = b"From: a@example.test\rMessage-ID: <x\r y@example.test>\rSubject: s\r\r" + b"text line\r" * 1000
    kept = cut_down(raw, len(raw), 4096)
    parsed = message_from_bytes(kept.raw)
    assert (parsed["From"], " ".join(parsed["Message-ID"].split())) == ("a@example.test", "<x y@example.test>")
    assert len(kept.raw) <= 4096 and "text/plain cut to" in kept.note
    headers_only = b"From: a@example.test\r" + b"X-Pad: y\r" * 1000
    assert cut_down(headers_only, len(headers_only), 4096).raw.startswith(b"From: a@example.test\r")
