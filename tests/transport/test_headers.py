"""The policy every mail gm sends is written with (gm.transport.headers.STRICT): a header that
would break into more is refused, by whichever transport, whatever policy a message was made with."""

from __future__ import annotations

import email
import email.utils
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.transport import PermanentFailure
from gm.transport.headers import STRICT, HeaderRefused, check_headers, wire_bytes
from gm.transport.maildir import MaildirSender

from .helpers import run
from .test_smtp import Handler, outgoing, sender, smtpd  # noqa: F401  (smtpd: a fixture)

AUDITED = "=?utf-8?q?<x1@attacker.test>=0D=0AContent-Type:_text/html=0D=0AX-Injected:_yes?="


def _injected() -> EmailMessage:
    """As Python's default policy makes it: the encoded word decoded into a line end."""
    message = outgoing()
    message["In-Reply-To"] = AUDITED
    return message


@pytest.mark.parametrize("value", [AUDITED, "<a=?utf-8?q?x=0D=0AX-Injected:_yes?=@a.test>", "x\r\nX-Injected: yes",
                                   "x\nX: y", "x\rX: y", "x\x00y", "=?utf-8?q?x=0Ay?="])
def test_a_value_with_a_line_end_is_refused(value: str) -> None:
    for name in ("In-Reply-To", "Subject", "References", "X-GM-Kind"):
        with pytest.raises(HeaderRefused):
            EmailMessage(policy=STRICT)[name] = value


@pytest.mark.parametrize("value", ["a@=?utf-8?q?b=0D=0AX-Injected:_yes?=", "a@=?utf-8?q?x=0Ay?=", "a@b\r\nX: y"])
def test_an_address_that_breaks_is_refused(value: str) -> None:
    message = EmailMessage(policy=STRICT)
    with pytest.raises(HeaderRefused):
        message["To"] = value  # refused here, or when written: its folded lines break
        check_headers(message)


@pytest.mark.parametrize("name", [AUDITED, "=?utf-8?q?x=0Ay?=", "x\r\nX-Injected: yes"])
def test_a_display_name_that_breaks_is_refused(name: str) -> None:
    message = EmailMessage(policy=STRICT)
    with pytest.raises(HeaderRefused):
        message["From"] = email.utils.formataddr((name, "gm@example.test"))
        check_headers(message)


def test_a_message_made_with_another_policy_is_refused_when_written() -> None:
    message = _injected()
    assert b"X-Injected: yes" in message.as_bytes()  # what Python's default policy would send
    with pytest.raises(HeaderRefused):
        wire_bytes(message)
    with pytest.raises(HeaderRefused):
        check_headers(message)


def test_the_maildir_sender_refuses_it_for_good(tmp_path: Path) -> None:
    with pytest.raises(PermanentFailure, match="cannot send this message"):
        run(MaildirSender(tmp_path).send(_injected()))
    assert not list((tmp_path / "new").iterdir())


def test_the_smtp_sender_refuses_it_for_good(smtpd: tuple[Handler, int]) -> None:  # noqa: F811
    handler, port = smtpd
    with pytest.raises(PermanentFailure, match="cannot send this message"):
        run(sender(port).send(_injected()))
    assert handler.received == []


def test_the_smtp_sender_sends_what_the_policy_writes(smtpd: tuple[Handler, int]) -> None:  # noqa: F811
    handler, port = smtpd
    message = outgoing(subject="Ordres d'été " * 12)  # folded, encoded
    run(sender(port).send(message))
    [(_, _, envelope)] = handler.received
    assert envelope.content == wire_bytes(message)  # 8-bit text as it is: the server takes 8BITMIME
    received = email.message_from_bytes(envelope.content, policy=policy.default)
    assert received["Subject"] == "Ordres d'été " * 12 and received.get_content().rstrip() == "Ordres reçus."


# Text of any kind, and encoded words built of line ends, header names and the characters of addresses.
_PIECES = ["a", "=0D", "=0A", "=0D=0A", "_", "X-Injected:", "<", ">", "@", " ", "=3F", "=3D", "\t", "\r\n ", "\n"]
_ENCODED = st.lists(st.sampled_from(_PIECES), max_size=12).map(lambda pieces: f"=?utf-8?q?{''.join(pieces)}?=")
_VALUES = st.one_of(st.text(max_size=300), _ENCODED, st.lists(st.one_of(st.text(max_size=20), _ENCODED), max_size=4)
                    .map(" ".join))


@settings(max_examples=500, deadline=None)
@given(subject=_VALUES, reference=_VALUES, name=_VALUES)
def test_any_text_is_one_header_or_refused(subject: str, reference: str, name: str) -> None:
    message = EmailMessage(policy=STRICT)
    wanted = {"From": f"{name} <gm@example.test>", "To": "alice@example.test", "Subject": subject,
              "In-Reply-To": reference}
    try:
        message["From"] = email.utils.formataddr((name, "gm@example.test"))
        message["To"] = wanted["To"]
        message["Subject"] = subject
        message["In-Reply-To"] = reference
        message.set_content("text\n")
        data = wire_bytes(message)
    except HeaderRefused:
        return
    parsed = email.message_from_bytes(data, policy=policy.default)
    assert sorted(parsed.keys()) == sorted([*wanted, "Content-Type", "Content-Transfer-Encoding", "MIME-Version"])
