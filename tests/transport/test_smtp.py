"""The SMTP sender: against an in-process aiosmtpd (AUTH, answers chosen per test) and against
the real Postfix of scripts/start-mail-stack (STARTTLS and implicit TLS with AUTH, relaying)."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from gm.config import MailboxConfig
from gm.transport import PermanentFailure, ServerFailure, TemporaryFailure
from gm.transport.imap import ImapInbox
from gm.transport.smtp import SmtpSender

from .helpers import MailStack, MemoryWatermarks, Recorder, drain_once_delivered, run


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def outgoing(to: str = "alice@example.test", subject: str = "Spring 1901 results") -> EmailMessage:
    message = EmailMessage()
    message["From"] = "gm@example.test"
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = f"<{time.time_ns()}@example.test>"
    message.set_content("Ordres reçus.\n")
    return message


class Handler:
    """Records what arrives; answers RCPT/DATA as the test says."""

    def __init__(self) -> None:
        self.received: list[Any] = []
        self.rcpt_answers: dict[str, str] = {}  # address -> reply instead of 250
        self.data_answer: str | None = None

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # type: ignore[no-untyped-def]
        answer = self.rcpt_answers.get(address)
        if answer:
            return answer
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        if self.data_answer:
            return self.data_answer
        self.received.append((session.authenticated, session.auth_data, envelope))
        return "250 Message accepted"


def authenticator(server, session, envelope, mechanism, auth_data):  # type: ignore[no-untyped-def]
    ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (b"gm", b"secret")
    return AuthResult(success=ok, handled=False, auth_data=auth_data)


@pytest.fixture
def smtpd() -> Iterator[tuple[Handler, int]]:
    handler = Handler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, authenticator=authenticator,
                            auth_require_tls=False, auth_required=False)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def sender(port: int, **changes: Any) -> SmtpSender:
    values: dict[str, Any] = {"kind": "smtp", "host": "127.0.0.1", "port": port, "tls": "none"}
    values.update(changes)
    return SmtpSender(MailboxConfig(**values), timeout=5.0)


def test_sends_with_auth(smtpd: tuple[Handler, int]) -> None:
    handler, port = smtpd
    run(sender(port, username="gm", password="secret").send(outgoing()))
    [(authenticated, login, envelope)] = handler.received
    assert authenticated and login.login == b"gm"
    assert envelope.mail_from == "gm@example.test" and envelope.rcpt_tos == ["alice@example.test"]
    assert b"Subject: Spring 1901 results" in envelope.content


def test_sends_without_auth_when_no_username(smtpd: tuple[Handler, int]) -> None:
    handler, port = smtpd
    run(sender(port).send(outgoing()))
    [(authenticated, _, _)] = handler.received
    assert not authenticated


def test_wrong_password_is_temporary(smtpd: tuple[Handler, int]) -> None:
    _, port = smtpd
    with pytest.raises(TemporaryFailure, match="authentication"):
        run(sender(port, username="gm", password="wrong").send(outgoing()))


def test_4xx_is_temporary_5xx_permanent(smtpd: tuple[Handler, int]) -> None:
    handler, port = smtpd
    handler.data_answer = "451 4.3.0 Try again later"
    with pytest.raises(TemporaryFailure, match="451"):
        run(sender(port).send(outgoing()))
    handler.data_answer = "554 5.6.0 Message rejected"
    with pytest.raises(PermanentFailure, match="554"):
        run(sender(port).send(outgoing()))
    assert handler.received == []


def test_refused_recipients(smtpd: tuple[Handler, int]) -> None:
    handler, port = smtpd
    handler.rcpt_answers = {"nobody@example.test": "550 5.1.1 No such user", "busy@example.test": "450 4.2.1 Busy"}
    with pytest.raises(PermanentFailure, match="No such user"):
        run(sender(port).send(outgoing(to="nobody@example.test")))
    with pytest.raises(TemporaryFailure, match="Busy"):
        run(sender(port).send(outgoing(to="busy@example.test")))
    # accepted for one, refused for the other: sending again would duplicate it for the first
    with pytest.raises(PermanentFailure, match="nobody@example.test"):
        run(sender(port).send(outgoing(to="alice@example.test, nobody@example.test")))
    assert len(handler.received) == 1


def test_no_server_is_temporary() -> None:
    with pytest.raises(TemporaryFailure):
        run(sender(free_port()).send(outgoing()))


def test_unknown_tls_setting_is_refused() -> None:
    with pytest.raises(ValueError, match="tls"):
        SmtpSender(MailboxConfig(kind="smtp", tls="maybe"))


# ---- the real Postfix -------------------------------------------------------------------------------

def postfix(stack: MailStack, tls: str, **changes: Any) -> SmtpSender:
    ports = {"starttls": "SUBMISSION_PORT", "ssl": "SMTPS_PORT", "none": "SMTP_PORT"}
    values: dict[str, Any] = {"kind": "smtp", "host": stack.host, "port": stack.port(ports[tls]), "tls": tls,
                              "ca_file": stack.ca_file}
    if tls != "none":
        values.update(username=stack.address("gm"), password=stack.password("gm"))
    values.update(changes)
    return SmtpSender(MailboxConfig(**values), timeout=10.0)


@pytest.mark.mailserver
@pytest.mark.parametrize("tls", ["starttls", "ssl"])
def test_postfix_submission_reaches_the_imap_inbox(mail_stack: MailStack, folder: str, recorder: Recorder,
                                                   tls: str) -> None:
    message = outgoing(to=mail_stack.address("gm", folder), subject=f"Via {tls}")
    box = ImapInbox(mail_stack.imap_config("gm", folder), MemoryWatermarks(), timeout=5.0)

    async def scenario() -> None:
        await postfix(mail_stack, tls).send(message)
        deadline = time.monotonic() + 30
        while not recorder.got:  # Postfix queues it first, then hands it to Dovecot
            assert time.monotonic() < deadline, "the message did not arrive"
            await drain_once_delivered(box, recorder)
            if not recorder.got:
                await asyncio.sleep(0.05)

    run(scenario(), timeout=60)
    [(_, raw)] = recorder.got
    assert f"Subject: Via {tls}".encode() in raw
    assert message["Message-ID"].encode() in raw


@pytest.mark.mailserver
def test_postfix_refusals(mail_stack: MailStack) -> None:
    # the MX port relays nothing to other domains: gm is not allowed to send there (a configuration fix)
    with pytest.raises(ServerFailure, match="Relay access denied"):
        run(postfix(mail_stack, "none").send(outgoing(to="someone@elsewhere.invalid")))
    # submission wants AUTH
    with pytest.raises(TemporaryFailure, match="authentication"):
        run(postfix(mail_stack, "starttls", password="wrong").send(outgoing(to=mail_stack.address("alice"))))
