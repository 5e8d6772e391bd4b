"""A short game played entirely by mail, through real servers: players write to the judge
through Postfix, which delivers into Dovecot; the judge reads its mailbox over IMAP and answers
over SMTP to a real SMTP receiver (aiosmtpd). Sign-ons, orders with mistakes and corrections,
press, a deadline, and the results (with the map) reach every player."""

from __future__ import annotations

import asyncio
import re
import smtplib
import socket
import time
import uuid
from datetime import timedelta
from email import message_from_bytes
from email.message import EmailMessage, Message
from email.utils import make_msgid
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from gm.app import App
from gm.clock import ManualClock
from gm.config import AppConfig, MailboxConfig, default_config
from tests.transport.conftest import mail_stack  # noqa: F401  (the fixture)
from tests.transport.helpers import MailStack

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
pytestmark = pytest.mark.mailserver


class Catcher:
    """The players' side of SMTP: every mail the judge sends arrives here."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], Message]] = []

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]  # noqa: N802
        self.mails.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        return [m for rcpts, m in self.mails if address in rcpts]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _text(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
    return ""


@pytest.fixture
def catcher() -> Catcher:
    handler = Catcher()
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    handler.port = controller.port  # type: ignore[attr-defined]
    yield handler
    controller.stop()


def test_a_short_game_by_mail(mail_stack: MailStack, catcher: Catcher, database_url: str, tmp_path: Path) -> None:  # noqa: F811
    folder = f"e2e{uuid.uuid4().hex[:10]}"
    judge = mail_stack.address("gm", folder)  # the judge's mailbox: a folder of its own on the real server
    base = default_config(tmp_path / "home")
    config = AppConfig(**{
        **base.__dict__,
        "database_url": database_url,
        "judge_address": judge,
        "inbound": mail_stack.imap_config("gm", folder, idle_seconds=2),
        "outbound": MailboxConfig(kind="smtp", host="127.0.0.1", port=catcher.port),  # type: ignore[attr-defined]
    })
    config.games_dir.mkdir(parents=True)
    players = "\n".join(f"  - {{email: {p.lower()}@example.test, power: {p}}}" for p in POWERS)
    (config.games_dir / "e2e.yaml").write_text(
        "variant: standard\ngm: master@example.test\ndeadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n"
        f"early: false\npress: white\nplayers:\n{players}\n")
    async def create_folder() -> None:
        async with mail_stack.imap("gm") as imap:
            await imap.command("CREATE", folder)

    asyncio.run(create_folder())
    clock = ManualClock()
    app = App(config, clock=clock)
    daemon = app.daemon()
    sent = 0

    def mail(power: str, body: str) -> None:
        nonlocal sent
        message = EmailMessage()
        message["From"] = f"{power.lower()}@example.test"
        message["To"] = judge
        message["Subject"] = f"{power} orders"
        message["Message-ID"] = make_msgid(domain="example.test")
        message.set_content(body)
        with smtplib.SMTP(mail_stack.host, mail_stack.port("SMTP_PORT"), timeout=10) as smtp:
            smtp.send_message(message)  # through Postfix, like any mail from outside
        sent += 1

    def rounds_until(received: int, within: float = 30.0) -> None:
        got, deadline = 0, time.monotonic() + within
        while got < received:
            assert time.monotonic() < deadline, f"only {got} of {received} mails reached the judge"
            got += asyncio.run(daemon.once()).received
            if got < received:
                time.sleep(0.3)

    try:
        asyncio.run(daemon.once())  # reads the settings file, creates and starts the game
        secrets = {}
        for power in POWERS:
            (joined,) = [m for m in catcher.to(f"{power.lower()}@example.test") if "joined" in m["Subject"]]
            secrets[power] = re.search(r"^    (\S+)\s*$", _text(joined), re.M).group(1)
            assert catcher.to(f"{power.lower()}@example.test")[-1]["Auto-Submitted"] == "auto-generated"
        orders = {
            "Austria": "A Vienna - Galicia\nA Budapest - Serbia\nF Trieste - Albania",
            "England": "F London - North Sea\nF Edinburgh - Norwegian Sea\nA Liverpool - Yorkshire",
            "France": "A Paris - Burgandi\nA Marseilles - Spain\nF Brest - Mid-Atlantic",  # one misspelt
            "Germany": "A Berlin - Kiel\nA Munich - Ruhr\nF Kiel - Denmark",
            "Italy": "A Venice - Piedmont\nA Rome - Venice\nF Naples - Ionian Sea",
            "Russia": "A Moscow - Ukraine\nA Warsaw - Galicia\nF Sevastopol - Black Sea\nF StP/sc - Bothnia",
            "Turkey": "A Constantinople - Bulgaria\nA Smyrna - Constantinople\nF Ankara - Black Sea",
        }
        for power, lines in orders.items():
            mail(power, f"SIGNON {power} e2e {secrets[power]}\n{lines}\n")
        mail("France", f"SIGNON France e2e {secrets['France']}\nPRESS TO England\nChannel stays empty?\nENDPRESS\n")
        rounds_until(sent)
        france = [_text(m) for m in catcher.to("france@example.test") if m["Subject"].startswith("Re:")]
        assert any("did you mean Burgundy" in text for text in france)
        assert any("Still without orders: Army Paris" in text for text in france)
        mail("France", f"SIGNON France e2e {secrets['France']}\nA Paris - Burgundy\n")  # the correction
        rounds_until(1)
        correction = _text(catcher.to("france@example.test")[-1])
        assert "    = Army Paris -> Burgundy" in correction and "Still without orders" not in correction
        press = [m for m in catcher.to("england@example.test") if "press" in m["Subject"]]
        assert press and "Channel stays empty?" in _text(press[0]) and "france@example.test" not in _text(press[0])
        assert all(m["In-Reply-To"] for m in catcher.to("france@example.test") if m["Subject"].startswith("Re:"))

        clock.advance(timedelta(hours=48, minutes=1))  # the deadline
        report = asyncio.run(daemon.once())
        assert report.tick.processed == ["e2e S1901M"]
        for power in POWERS:
            (results,) = [m for m in catcher.to(f"{power.lower()}@example.test") if "results" in m["Subject"]]
            body = _text(results)
            assert "France:    Army Paris -> Burgundy" in body
            assert "Germany:   Army Munich -> Ruhr" in body
            assert "The next phase of e2e is Fall 1901 movement" in body
            pictures = [p for p in results.walk() if p.get_content_type() == "image/png"]
            assert pictures and pictures[0].get_payload(decode=True).startswith(b"\x89PNG")
        assert [m for m in catcher.to("master@example.test") if "results" in m["Subject"]]
    finally:
        app.close()

        async def delete_folder() -> None:
            async with mail_stack.imap("gm") as imap:
                await imap.command("DELETE", folder)

        asyncio.run(delete_folder())
