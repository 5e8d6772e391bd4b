"""A real mail loop: every player's mailbox (and the GM's) has an auto-responder that answers every
mail gm sends, through real servers on loopback (gm sends over SMTP to the responder, which
answers through Postfix into the judge's Dovecot mailbox, read over IMAP). With the RFC 3834
headers gm ignores the answers; without them the rate limit ends each loop after a bounded
number of mails. Meanwhile one player keeps sending orders: none is lost."""

from __future__ import annotations

import asyncio
import re
import smtplib
import socket
import threading
import time
import uuid
from collections import Counter
from email import message_from_bytes
from email.message import EmailMessage, Message
from email.utils import make_msgid
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from gm.app import App
from gm.clock import ManualClock
from gm.config import AppConfig, MailboxConfig, default_config
from gm.games.lifecycle import find_game
from gm.games.orderbook import latest_set
from gm.store.models import InboundMail
from tests.transport.conftest import mail_stack  # noqa: F401  (the fixture)
from tests.transport.helpers import MailStack

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
RATE = 3  # replies an hour per address: small, so that the loops end soon
pytestmark = pytest.mark.mailserver


class AutoResponder:
    """The SMTP server gm sends to: each mail is answered at once, to the judge, from its recipient."""

    def __init__(self, stack: MailStack, judge: str, declared: bool):
        self.stack, self.judge, self.declared = stack, judge, declared
        self.received: list[tuple[str, Message]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]  # noqa: N802
        message = message_from_bytes(envelope.content)
        for rcpt in envelope.rcpt_tos:
            with self.lock:
                self.received.append((rcpt, message))
            self.answer(rcpt, message)
        return "250 OK"

    def answer(self, rcpt: str, original: Message) -> None:
        reply = EmailMessage()
        reply["From"] = rcpt
        reply["To"] = self.judge
        reply["Subject"] = f"Out of office: {original['Subject']}"
        reply["Message-ID"] = make_msgid(domain="example.test")
        reply["In-Reply-To"] = original["Message-ID"]
        if self.declared:
            reply["Auto-Submitted"] = "auto-replied"
        reply.set_content("I am away until Monday and will read your mail then.")
        with smtplib.SMTP(self.stack.host, self.stack.port("SMTP_PORT"), timeout=10) as smtp:
            smtp.send_message(reply)

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for rcpt, m in self.received if rcpt == address]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _text(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
    return ""


@pytest.mark.parametrize("declared", [False, True], ids=["plain-answers", "auto-submitted-answers"])
def test_auto_responders_cannot_keep_gm_sending(mail_stack: MailStack, tmp_path: Path, declared: bool) -> None:  # noqa: F811
    folder = f"loop{uuid.uuid4().hex[:10]}"
    judge = mail_stack.address("gm", folder)
    responder = AutoResponder(mail_stack, judge, declared)
    controller = Controller(responder, hostname="127.0.0.1", port=_free_port())
    base = default_config(tmp_path / "home")
    config = AppConfig(**{
        **base.__dict__, "judge_address": judge, "sender_rate": RATE,
        "inbound": mail_stack.imap_config("gm", folder, idle_seconds=1),
        "outbound": MailboxConfig(kind="smtp", host="127.0.0.1", port=controller.port),
    })
    config.games_dir.mkdir(parents=True)
    players = "\n".join(f"  - {{email: {p.lower()}@example.test, power: {p}}}" for p in POWERS)
    (config.games_dir / "loop.yaml").write_text(
        "variant: standard\ngm: master@example.test\ndeadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n"
        f"press: white\nplayers:\n{players}\n")

    async def folder_op(name: str) -> None:
        async with mail_stack.imap("gm") as imap:
            await imap.command(name, folder)

    asyncio.run(folder_op("CREATE"))
    controller.start()
    app = App(config, clock=ManualClock())
    daemon = app.daemon()
    france = "france@example.test"

    def orders(secret: str, lines: str) -> None:
        """Mail orders, and run rounds until gm has them."""
        message = EmailMessage()
        message["From"] = france
        message["To"] = judge
        message["Subject"] = "orders"
        message["Message-ID"] = make_msgid(domain="example.test")
        message.set_content(f"SIGNON France loop {secret}\n{lines}\n")
        with smtplib.SMTP(mail_stack.host, mail_stack.port("SMTP_PORT"), timeout=10) as smtp:
            smtp.send_message(message)
        deadline = time.monotonic() + 30
        while not stored(message["Message-ID"]):
            assert time.monotonic() < deadline, "the orders did not reach gm"
            asyncio.run(daemon.once())

    def stored(message_id: str) -> bool:
        with app.db.sessions() as session:
            return session.scalar(select(InboundMail.id).where(InboundMail.message_id == message_id)) is not None

    def rounds(count: int) -> None:
        for _ in range(count):
            asyncio.run(daemon.once())

    def until_quiet(within: float = 90.0, span: float = 3.0) -> None:
        """Rounds until nothing has come in or gone out for ``span`` seconds: a reply may wait that
        long in the mail server's queue on a loaded machine."""
        start = time.monotonic()
        last_heard = start
        while time.monotonic() - last_heard < span:
            assert time.monotonic() - start < within, "gm and the auto-responders are still mailing each other"
            report = asyncio.run(daemon.once())
            if report.received or report.sent:
                last_heard = time.monotonic()
            time.sleep(0.2)

    try:
        rounds(1)  # the game is created and started: mails to everyone, each answered
        (joined,) = [m for m in responder.to(france) if "joined" in m["Subject"]]
        secret = re.search(r"^    (\S+)\s*$", _text(joined), re.M).group(1)
        orders(secret, "A Paris - Burgundy")
        orders(secret, "A Marseilles - Spain")  # while the loops run
        until_quiet()
        orders(secret, "F Brest - Mid-Atlantic\nA Paris - Picardy")  # after they ended
        until_quiet()

        with app.db.sessions() as session:
            lines = latest_set(session, find_game(session, "loop"), "France").lines
        assert sorted(lines) == ["A MAR - SPA", "A PAR - PIC", "F BRE - MAO"]  # no order lost

        kinds = {address: Counter(m["X-GM-Kind"] for m in responder.to(address))
                 for address in {rcpt for rcpt, _ in responder.received}}
        for address, sent in kinds.items():
            answers = sent["reply"] + sent["refusal"] + sent["map"]
            if declared:  # the answers are ignored: gm answers only the player's own mails
                assert answers == (3 if address == france else 0) and sent["paused"] == 0, (address, sent)
            else:  # each loop ends at the rate limit and one notice
                assert answers <= RATE and sent["paused"] == 1, (address, sent)
        if not declared:
            assert len(kinds) == len(POWERS) + 1  # every player and the GM had a loop
        assert len(responder.received) <= (len(POWERS) + 1) * (RATE + 1) + 20  # + the game's own announcements
    finally:
        controller.stop()
        app.close()
        asyncio.run(folder_op("DELETE"))
