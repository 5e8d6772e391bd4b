"""An ordinary hosted mailbox as gm's inbox and outbox: IMAP with STARTTLS on the plain port and
SMTP submission with STARTTLS, each with an (app) password, against the loopback Dovecot and
Postfix. Dovecot treats a client from 127.0.0.2 as a hosted provider treats everyone
(scripts/start-mail-stack): it says LOGINDISABLED and takes no password before STARTTLS; these
tests connect from there."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from gm.config import MailboxConfig
from gm.transport import InboxUnavailable
from gm.transport.imap import ImapInbox
from gm.transport.smtp import SmtpSender

from .helpers import MailStack, MemoryWatermarks, Recorder, drain_once_delivered, message, run

mailserver = pytest.mark.mailserver
ELSEWHERE = "127.0.0.2"  # not the server's own address: not "local", so not secure without TLS


@pytest.fixture
def from_elsewhere(mail_stack: MailStack, monkeypatch: pytest.MonkeyPatch) -> None:
    """Connections to the test IMAP server leave from 127.0.0.2, as from another machine."""
    original = asyncio.BaseEventLoop.create_connection
    imap = (mail_stack.host, mail_stack.port("IMAP_PORT"))

    async def create_connection(self: Any, factory: Any, host: Any = None, port: Any = None, **kwargs: Any) -> Any:
        if (host, port) == imap and kwargs.get("local_addr") is None:
            kwargs["local_addr"] = (ELSEWHERE, 0)
        return await original(self, factory, host, port, **kwargs)

    monkeypatch.setattr(asyncio.BaseEventLoop, "create_connection", create_connection)


def hosted(stack: MailStack, folder: str, **changes: Any) -> ImapInbox:
    config = stack.imap_config("gm", folder, **{"tls": "starttls", "ca_file": stack.ca_file, **changes})
    return ImapInbox(config, MemoryWatermarks(), timeout=5.0, backoff_initial=0.05, backoff_max=0.5)


@mailserver
def test_the_server_takes_no_password_in_clear_from_there(mail_stack: MailStack, folder: str, recorder: Recorder,
                                                          from_elsewhere: None) -> None:
    with pytest.raises(InboxUnavailable, match="refused|LOGIN"):
        run(hosted(mail_stack, folder, tls="none").drain(recorder))


@mailserver
def test_imap_with_starttls_reads_the_mailbox(mail_stack: MailStack, folder: str, recorder: Recorder,
                                              from_elsewhere: None) -> None:
    mail_stack.lmtp("gm", folder, message("Orders by a hosted mailbox"))
    box = hosted(mail_stack, folder)
    assert box.port == mail_stack.port("IMAP_PORT")
    assert run(box.drain(recorder)) == 1
    assert b"Orders by a hosted mailbox" in recorder.got[0][1]
    assert run(box.drain(recorder)) == 0


@mailserver
def test_starttls_checks_the_servers_certificate(mail_stack: MailStack, folder: str, recorder: Recorder,
                                                 from_elsewhere: None, tmp_path: Any) -> None:
    with pytest.raises(InboxUnavailable, match="(?i)certificate"):
        run(hosted(mail_stack, folder, ca_file=None).drain(recorder))  # the system's CAs know no test certificate


def test_a_server_without_starttls_is_never_sent_the_password() -> None:
    heard: list[bytes] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] plain only\r\n")
        while line := await reader.readline():
            heard.append(line)
            tag = line.split(b" ", 1)[0]
            if b"CAPABILITY" in line.upper():
                writer.write(b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n" + tag + b" OK done\r\n")
            else:
                writer.write(tag + b" OK fine\r\n")
            await writer.drain()

    async def scenario() -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = await asyncio.start_server(serve, "127.0.0.1", port)
        try:
            config = MailboxConfig(kind="imap", host="127.0.0.1", port=port, tls="starttls", username="gm@example.test",
                                   password="app-password-1234")
            box = ImapInbox(config, MemoryWatermarks(), timeout=2.0)
            with pytest.raises(InboxUnavailable, match="offers no STARTTLS"):
                await box.drain(Recorder())
        finally:
            server.close()
            await server.wait_closed()

    run(scenario())
    assert not any(b"LOGIN" in line.upper() or b"app-password" in line for line in heard), heard


@mailserver
def test_smtp_submission_with_starttls_and_a_password_reaches_the_player(mail_stack: MailStack, folder: str,
                                                                         recorder: Recorder) -> None:
    from email.message import EmailMessage

    sender = SmtpSender(MailboxConfig(kind="smtp", host=mail_stack.host, port=mail_stack.port("SUBMISSION_PORT"),
                                      tls="starttls", ca_file=mail_stack.ca_file, username=mail_stack.address("gm"),
                                      password=mail_stack.password("gm")), timeout=10.0)
    mail = EmailMessage()
    mail["From"] = mail_stack.address("gm")
    mail["To"] = mail_stack.address("alice", folder)
    mail["Subject"] = "Spring 1901 results"
    mail["Message-ID"] = "<hosted-submission@example.test>"
    mail.set_content("Results.\n")
    run(sender.send(mail))
    box = ImapInbox(mail_stack.imap_config("alice", folder), MemoryWatermarks(), timeout=5.0)

    async def arrived() -> int:
        deadline = asyncio.get_running_loop().time() + 30
        while asyncio.get_running_loop().time() < deadline:
            if await drain_once_delivered(box, recorder):
                return 1
            await asyncio.sleep(0.25)
        return 0

    assert run(arrived(), timeout=60) == 1
    assert b"Spring 1901 results" in recorder.got[0][1]


@mailserver
def test_a_judge_on_a_hosted_mailbox_answers_a_friend(mail_stack: MailStack, folder: str, from_elsewhere: None,
                                                      tmp_path: Any) -> None:
    """gm on one's own computer (SQLite, the embedded defaults) with an ordinary mailbox: a friend's
    mail read by IMAP with STARTTLS, the answer sent by submission with STARTTLS and a password."""
    import smtplib
    from email.message import EmailMessage

    from gm.app import App
    from gm.config import AppConfig, default_config

    judge, friend = mail_stack.address("gm", folder), mail_stack.address("alice", folder)
    base = default_config(tmp_path / "home")
    config = AppConfig(**{
        **base.__dict__, "judge_address": judge,
        "inbound": mail_stack.imap_config("gm", folder, tls="starttls", ca_file=mail_stack.ca_file, idle_seconds=1),
        "outbound": MailboxConfig(kind="smtp", host=mail_stack.host, port=mail_stack.port("SUBMISSION_PORT"),
                                  tls="starttls", ca_file=mail_stack.ca_file, username=mail_stack.address("gm"),
                                  password=mail_stack.password("gm")),
    })
    config.games_dir.mkdir(parents=True)
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = friend, judge, "what is on?"
    mail["Message-ID"] = f"<friend-{folder}@example.test>"
    mail.set_content("LIST\n")
    with smtplib.SMTP(mail_stack.host, mail_stack.port("SMTP_PORT"), timeout=10) as smtp:
        smtp.send_message(mail)
    app = App(config)
    answers = Recorder()
    box = ImapInbox(mail_stack.imap_config("alice", folder, tls="starttls", ca_file=mail_stack.ca_file),
                    MemoryWatermarks(), timeout=5.0)  # the friend's own hosted mailbox

    async def loop() -> None:
        daemon = app.daemon()
        deadline = asyncio.get_running_loop().time() + 60
        while asyncio.get_running_loop().time() < deadline:
            await daemon.once()
            if await drain_once_delivered(box, answers):
                return
            await asyncio.sleep(0.25)

    try:
        run(loop(), timeout=90)
    finally:
        app.close()
    assert answers.got, "no answer reached the friend"
    assert b"There are no games on this judge." in answers.got[0][1]
