"""A local Maildir as inbox and as outbox (the embedded default: no mail server needed).

Inbox: every message in new/, and in cur/ without the S (seen) flag, is delivered, oldest first;
once ``deliver`` returned it is moved to cur/ with the S flag (``name:2,S``), so the next pass
skips it. Its source key is ``maildir:<path>:<unique name>``, the file name without the flags
(which stays the same when a mail program moves or flags it). Of a file larger than
``read_limit`` only that much is read, and delivered with the file's size.

Outbox: `MaildirSender` drops each outgoing message as a file into a Maildir (with the stdlib's
``mailbox.Maildir``) for a person, a test or another program to pick up.
"""

from __future__ import annotations

import asyncio
import logging
import mailbox
import os
import random as _random
from collections.abc import Awaitable, Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from gm.transport.base import (
    DEFERRED_WAIT,
    Deferred,
    Deliver,
    InboxUnavailable,
    PermanentFailure,
    ServerFailure,
    backoff_delay,
)
from gm.transport.headers import HeaderRefused, wire_bytes
from gm.transport.maildir_files import INFO_SEPARATOR, split_name, waiting

log = logging.getLogger(__name__)


class MaildirInbox:
    """The `Inbox` for ``kind: maildir`` (made when missing). ``run`` looks every
    ``poll_seconds``; ``sleep`` and ``random`` (back-off jitter) can be replaced in tests."""

    def __init__(
        self,
        path: Path | str,
        *,
        poll_seconds: float = 1.0,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        random: Callable[[], float] = _random.random,
        read_limit: int | None = None,
    ):
        self.path = Path(path).absolute()
        self.poll_seconds = poll_seconds
        self.read_limit = read_limit
        self._sleep = sleep
        self._random = random

    def _ensure(self) -> None:
        for sub in ("tmp", "new", "cur"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)

    def waiting(self) -> list[Path]:
        """The files not yet done, oldest first."""
        self._ensure()
        return waiting(self.path)

    def source_key(self, file: Path) -> str:
        return f"maildir:{self.path}:{split_name(file.name)[0]}"

    async def drain(self, deliver: Deliver) -> int:
        """Deliver what is waiting now; stops at (and raises) the first failure of ``deliver``;
        raises `InboxUnavailable` when the folder cannot be read."""
        delivered = 0
        try:
            waiting = self.waiting()
        except OSError as exc:  # not a directory, not readable by this user
            raise InboxUnavailable(f"{self.path}: cannot be read ({exc.strerror}: {exc.filename})") from exc
        for file in waiting:
            try:
                raw, size = self._read(file)
            except FileNotFoundError:  # taken by another reader meanwhile
                continue
            if size is None:
                await deliver(raw, self.source_key(file))
            else:
                await deliver(raw, self.source_key(file), size)
            self._mark_seen(file)
            delivered += 1
        return delivered

    def _read(self, file: Path) -> tuple[bytes, int | None]:
        """The file's bytes, or its first ``read_limit`` bytes and its size."""
        with file.open("rb") as stream:
            if self.read_limit is None:
                return stream.read(), None
            raw = stream.read(self.read_limit + 1)
            if len(raw) <= self.read_limit:
                return raw, None
            return raw[:self.read_limit], os.fstat(stream.fileno()).st_size

    def _mark_seen(self, file: Path) -> None:
        unique, flags = split_name(file.name)
        target = self.path / "cur" / f"{unique}{INFO_SEPARATOR}2,{''.join(sorted(set(flags) | {'S'}))}"
        try:
            os.replace(file, target)
        except FileNotFoundError:
            log.warning("%s: %s was moved away meanwhile", self.path, file.name)

    async def run(self, deliver: Deliver) -> None:
        failures = 0
        log.info("%s: waiting for mail, looking every %g s", self.path, self.poll_seconds)
        while True:
            try:
                await self.drain(deliver)
                failures = 0
                await self._sleep(self.poll_seconds)
            except asyncio.CancelledError:
                raise
            except Deferred:  # gm's database is away: said by whoever raised it
                await self._sleep(max(self.poll_seconds, DEFERRED_WAIT))
            except Exception:
                failures += 1
                log.exception("%s: delivering a message failed; trying again later", self.path)
                await self._sleep(max(self.poll_seconds, backoff_delay(failures, self._random, 1.0, 60.0)))


class MaildirSender:
    """The `Sender` for ``kind: maildir``: each message becomes a file in new/ of ``path``."""

    def __init__(self, path: Path | str):
        self.path = Path(path).absolute()

    async def send(self, message: EmailMessage) -> None:
        try:
            self.deliver_file(message)
        except OSError as exc:  # a full disk, a wrong path or mode: nothing can go until it is fixed
            raise ServerFailure(f"cannot write into {self.path}: {exc}") from exc
        except HeaderRefused as exc:
            raise PermanentFailure(f"cannot send this message: {exc}") from exc

    def deliver_file(self, message: EmailMessage) -> str:
        """Write ``message`` into the Maildir; returns its key (the file's unique name)."""
        for sub in ("tmp", "new", "cur"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)
        return mailbox.Maildir(self.path, create=False).add(wire_bytes(message, linesep="\n"))
