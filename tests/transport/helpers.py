"""Helpers for the mail transport tests: running coroutines, making messages, reaching the
test mail servers (MailStack, Imap), a recording ``deliver``, watermarks in memory."""

from __future__ import annotations

import asyncio
import shlex
import smtplib
import subprocess
import uuid
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from aioimaplib import aioimaplib

from gm.config import MailboxConfig
from gm.transport import InboxUnavailable
from gm.transport.imap import ImapInbox

T = TypeVar("T")


def run(awaitable: Awaitable[T], timeout: float = 20.0) -> T:
    """Run a coroutine from a plain test, bounded in time."""

    async def bounded() -> T:
        return await asyncio.wait_for(awaitable, timeout)

    return asyncio.run(bounded())


def message(subject: str = "Hello", body: str = "Orders follow.\r\n", *, sender: str = "alice@example.test",
            to: str = "gm@example.test", message_id: str | None = None) -> bytes:
    """A small message, CRLF line ends, headers as given (UTF-8 goes out unencoded)."""
    message_id = message_id or f"<{uuid.uuid4().hex}@example.test>"
    text = (f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n"
            f"Date: Mon, 05 Jan 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{body}")
    return text.encode("utf-8")


@dataclass
class MailStack:
    env: dict[str, str]
    host: str = field(init=False)

    def __post_init__(self) -> None:
        self.host = self.env.get("MAIL_HOST", "127.0.0.1")

    def port(self, name: str) -> int:
        return int(self.env[name])

    @property
    def domain(self) -> str:
        return self.env.get("MAIL_DOMAIN", "example.test")

    @property
    def ca_file(self) -> str:
        return self.env["MAIL_CA_FILE"]

    def password(self, user: str) -> str:
        pairs = dict(item.split(":", 1) for item in self.env["MAIL_USERS"].split())
        return pairs[user]

    def address(self, user: str, folder: str | None = None) -> str:
        return f"{user}+{folder}@{self.domain}" if folder else f"{user}@{self.domain}"

    def imap_config(self, user: str, folder: str, **changes: Any) -> MailboxConfig:
        values: dict[str, Any] = {"kind": "imap", "host": self.host, "port": self.port("IMAP_PORT"),
                                  "username": self.address(user), "password": self.password(user),
                                  "mailbox": folder, "idle_seconds": 30}
        values.update(changes)
        return MailboxConfig(**values)

    def lmtp(self, user: str, folder: str, raw: bytes, sender: str = "alice@example.test") -> None:
        """Deliver straight into ``user``'s ``folder`` (made on first use) through Dovecot's LMTP."""
        with smtplib.LMTP(self.host, self.port("LMTP_PORT"), timeout=10) as lmtp:
            refused = lmtp.sendmail(sender, [self.address(user, folder)], raw)
        assert not refused, refused

    def doveadm(self, *args: str) -> str:
        result = subprocess.run(["doveadm", "-c", self.env["DOVECOT_CONF"], *args],
                                capture_output=True, text=True, timeout=20, check=False)
        assert result.returncode == 0, result.stderr
        return result.stdout

    def imap(self, user: str) -> Imap:
        return Imap(self, user)


class Imap:
    """A plain aioimaplib session for looking at and arranging a mailbox from a test."""

    def __init__(self, stack: MailStack, user: str):
        self.stack = stack
        self.user = user
        self.client: aioimaplib.IMAP4 | None = None

    async def __aenter__(self) -> Imap:
        self.client = aioimaplib.IMAP4(self.stack.host, self.stack.port("IMAP_PORT"), timeout=10)
        await self.client.wait_hello_from_server()
        response = await self.client.login(self.stack.address(self.user), self.stack.password(self.user))
        assert response.result == "OK", response
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.client is not None
        try:
            await asyncio.wait_for(self.client.logout(), 5)
        except Exception:  # noqa: BLE001, S110 - the server may have gone already
            pass
        if self.client.protocol.transport is not None:
            self.client.protocol.transport.close()
        await asyncio.sleep(0)  # let the transport close before a test's event loop ends

    async def command(self, name: str, *args: str) -> Any:
        assert self.client is not None
        response = await asyncio.wait_for(self.client.protocol.simple_command(name, *args), 10)
        assert response.result == "OK", (name, args, response)
        return response

    async def append(self, folder: str, raw: bytes) -> None:
        assert self.client is not None
        response = await self.client.append(raw, mailbox=folder)
        assert response.result == "OK", response

    async def select(self, folder: str) -> int:
        """Select ``folder``; returns its UIDVALIDITY."""
        assert self.client is not None
        response = await self.client.select(folder)
        assert response.result == "OK", response
        for line in response.lines:
            if isinstance(line, bytes) and b"[UIDVALIDITY " in line:
                return int(line.split(b"[UIDVALIDITY ", 1)[1].split(b"]", 1)[0])
        raise AssertionError(response)

    async def flags(self, folder: str) -> dict[int, set[str]]:
        """UID -> flags of every message in ``folder``."""
        assert self.client is not None
        await self.select(folder)
        response = await self.client.uid("fetch", "1:*", "(UID FLAGS)")
        assert response.result == "OK", response
        result: dict[int, set[str]] = {}
        for line in response.lines[:-1]:
            if isinstance(line, bytes) and b"FLAGS (" in line:
                uid = int(line.split(b"UID ", 1)[1].split()[0].rstrip(b")"))
                flags = line.split(b"FLAGS (", 1)[1].split(b")", 1)[0].decode().split()
                result[uid] = set(flags)
        return result

    async def unseen(self, folder: str, uid: str = "1:*") -> None:
        assert self.client is not None
        await self.select(folder)
        response = await self.client.uid("store", uid, "-FLAGS.SILENT (\\Seen)")
        assert response.result == "OK", response


def read_env(path: Path) -> dict[str, str]:
    env: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        words = shlex.split(line, comments=True)
        if words and words[0] == "export":
            words = words[1:]
        for word in words:
            name, _, value = word.partition("=")
            env[name] = value
    return env


class Recorder:
    """A ``deliver`` that records what it got (and can be told to fail)."""

    def __init__(self) -> None:
        self.got: list[tuple[str, bytes]] = []
        self.fail_on: set[int] = set()  # raise on these calls (1, 2, ...)
        self.calls = 0

    async def __call__(self, raw: bytes, key: str, size: int | None = None) -> None:
        self.calls += 1
        if self.calls in self.fail_on:
            raise RuntimeError(f"deliver failed on purpose (call {self.calls})")
        self.got.append((key, raw))

    @property
    def keys(self) -> list[str]:
        return [key for key, _ in self.got]

    async def arrived(self, count: int, within: float = 10.0) -> float:
        """Wait until ``count`` messages were delivered; returns how long that took."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        while len(self.got) < count:
            if loop.time() - start > within:
                raise AssertionError(f"only {len(self.got)} of {count} messages arrived within {within} s")
            await asyncio.sleep(0.01)
        return loop.time() - start


class MemoryWatermarks:
    def __init__(self) -> None:
        self.marks: dict[str, Any] = {}

    def load(self, mailbox: str) -> Any:
        return self.marks.get(mailbox)

    def save(self, mailbox: str, watermark: Any) -> None:
        self.marks[mailbox] = watermark


async def drain_once_delivered(box: ImapInbox, deliver: Recorder) -> int:
    """``box.drain``, where a folder the mail server has not yet made is nothing delivered yet: a
    folder of its own comes into being with its first mail, which the server delivers after it
    accepted the mail, on its own time."""
    try:
        return await box.drain(deliver)
    except InboxUnavailable as exc:
        if "doesn't exist" not in str(exc):
            raise
        return 0
