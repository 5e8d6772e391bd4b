"""What an operator reads: --log-file gets what stderr gets (fatal start-up errors too), a
secrets file every user may read is a WARNING at every start, an SMTP reply is described by
what its code means, and `gm tick` that stops says what it did before."""

from __future__ import annotations

import asyncio
import mailbox
import socket
import sqlite3
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy.exc import OperationalError

from gm.cli.main import main
from gm.config import MailboxConfig
from gm.transport import ServerFailure
from gm.transport.smtp import SmtpSender, meaning


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _config(tmp_path: Path, extra: str = "", database: str | None = None) -> Path:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    for box in ("inbox", "outbox"):
        mailbox.Maildir(home / box, create=True)
    path = tmp_path / "gm.yaml"
    path.write_text(f"home: {home}\ndatabase: {database or f'sqlite:///{home}/gm.db'}\n"
                    "judge_address: judge@example.test\n"
                    f"inbound: {{kind: maildir, path: {home / 'inbox'}}}\n"
                    f"outbound: {{kind: maildir, path: {home / 'outbox'}}}\n{extra}", encoding="utf-8")
    return path


def _gm(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gm.cli.main", *args], capture_output=True, text=True, timeout=120)


def test_a_fatal_error_at_start_is_in_the_log_file_too(tmp_path: Path) -> None:
    log = tmp_path / "gm.log"
    config = _config(tmp_path, database=f"postgresql+psycopg://gm@127.0.0.1:{_free_port()}/gm")
    done = _gm("--config", str(config), "--log-file", str(log), "tick")
    assert done.returncode == 75
    said = "gm tick: cannot use the database: connection failed:"
    assert said in done.stderr and said in log.read_text(), (done.stderr, log.read_text())
    assert "CRITICAL gm: gm tick: cannot use the database" in log.read_text()

    broken = tmp_path / "broken.yaml"
    broken.write_text("database: [\n", encoding="utf-8")
    done = _gm("--config", str(broken), "--log-file", str(log), "tick")
    assert done.returncode != 0 and f"gm: {broken}" in done.stderr
    assert done.stderr.strip() in log.read_text()


def test_a_secrets_file_others_may_read_is_a_warning_at_every_start(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets"
    secrets.write_text("GM_DB_PASSWORD=x\n", encoding="utf-8")
    secrets.chmod(0o644)
    config = _config(tmp_path, extra=f"secrets_file: {secrets}\n")
    log = tmp_path / "gm.log"
    for _ in range(2):
        assert _gm("--config", str(config), "--log-file", str(log), "tick").returncode == 0
    warned = [line for line in log.read_text().splitlines() if "is readable by every user" in line]
    assert len(warned) == 2 and all(" WARNING gm.config: secrets_file " in line for line in warned), warned
    secrets.chmod(0o640)
    assert _gm("--config", str(config), "--log-file", str(log), "tick").returncode == 0
    assert len([line for line in log.read_text().splitlines() if "is readable by every user" in line]) == 2


class _Refuses:
    def __init__(self, answer: str) -> None:
        self.answer = answer

    async def handle_MAIL(self, server, session, envelope, address, options):  # type: ignore[no-untyped-def]
        return self.answer


@pytest.mark.parametrize(("answer", "said", "not_said"), [
    ("421 4.7.0 Try again later, closing connection", "the server is not available now", "judge_address"),
    ("530 5.7.0 Authentication required", "the server requires authentication", "judge_address"),
    ("553 5.7.1 Sender address rejected: not owned by user", "check judge_address", "password"),
])
def test_a_refused_sender_is_described_by_what_its_code_means(answer: str, said: str, not_said: str) -> None:
    port = _free_port()
    controller = Controller(_Refuses(answer), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = "judge@example.test", "a@example.test", "x"
        message.set_content("x\n")
        with pytest.raises(ServerFailure) as refused:
            asyncio.run(SmtpSender(MailboxConfig(kind="smtp", host="127.0.0.1", port=port, tls="none"),
                                   timeout=5).send(message))
    finally:
        controller.stop()
    assert said in str(refused.value) and not_said not in str(refused.value), str(refused.value)


def test_reply_codes_mean_what_rfc_5321_says() -> None:
    assert meaning(452) == "the server is short of storage for now (or took too many recipients)"
    assert meaning(550, "5.7.1 Relaying denied") == ("refused by the server (no such mailbox, or its policy); a "
                                                     "matter of the server's security or policy")
    assert meaning(599) == "refused"


def test_tick_says_what_it_did_before_it_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path)
    note = EmailMessage()
    note["From"], note["To"], note["Subject"] = "alice@example.test", "judge@example.test", "hello"
    note["Message-ID"] = "<hello.1@example.test>"
    note.set_content("HELP\n")
    mailbox.Maildir(tmp_path / "home" / "inbox", create=False).add(bytes(note))

    async def full_disk(self: Any, *args: Any, **kwargs: Any) -> None:
        raise OperationalError("UPDATE outbound_mail", {}, sqlite3.OperationalError("database or disk is full"))

    monkeypatch.setattr("gm.services.sending.Dispatcher.drain", full_disk)
    assert main(["--config", str(config), "tick"]) == 75
    err = capsys.readouterr().err
    assert ("gm tick: cannot use the database: database or disk is full; before that it received 1 mails" in err), err
    assert "nothing was done" not in err
