"""An IMAP mailbox as the inbox (aioimaplib): UID watermark, \\Seen after delivery, bounded IDLE.

One pass: SELECT the mailbox and read its UIDVALIDITY (a change means the UIDs were renumbered:
read everything again, the store recognises what it already has by Message-ID), ``UID SEARCH UID
last+1:*`` (filtered here: the server answers the highest UID even when it is not above last),
then for each new UID in turn: ``UID FETCH uid (UID BODY.PEEK[])`` (with a ``read_limit``:
``(UID RFC822.SIZE BODY.PEEK[]<0.read_limit>)``, and a larger message is delivered with its
size), ``await deliver(raw, key)`` and, only once that returned, save the watermark and set ``\\Seen``. The watermark (in the
database) is what counts; \\Seen is for people looking at the mailbox. If ``deliver`` raises,
the pass stops there and the message is tried again on the next one.

The connection is IMAPS (``tls: ssl``, 993), or plain on 143 turned to TLS by STARTTLS before
the password is sent (``tls: starttls``, as hosted mailboxes offer it; ``_start_tls``), or plain
(``tls: none``, for loopback).

``run`` repeats passes on one connection, between them waiting in IDLE (bounded to
``idle_seconds``, after which it searches anyway) or, when the server has no IDLE, sleeping
``idle_seconds``. aioimaplib's weak spots are guarded against:
every call is bounded by a timeout and abandoned when the connection is lost (``conn_lost_cb``),
one UID per FETCH and only literal items (quoted strings with unbalanced parentheses break its
response grouping), a NOOP before each search (it drops EXISTS that come with other replies),
and any timeout, BYE or lost connection throws the client away: ``run`` reconnects after an
exponential back-off with jitter (1 s doubling up to 1 min, each wait between half and all of
that: deploy/README.md gives the table). The log says the mailbox is away once, at most once a
minute while it stays away, and once when it is back (gm.outages). A message gm cannot take
now (``Deferred``: its database is away) is tried again on the same connection.
"""

from __future__ import annotations

import asyncio
import logging
import random as _random
import re
import ssl
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from aioimaplib import aioimaplib

from gm.config import MailboxConfig
from gm.outages import Part
from gm.transport.base import (
    DEFERRED_WAIT,
    Deferred,
    Deliver,
    InboxUnavailable,
    Watermark,
    WatermarkStore,
    backoff_delay,
    tls_hint,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[Any]]

_UIDVALIDITY = re.compile(rb"\[UIDVALIDITY (\d+)\]")
_FETCH_START = re.compile(rb"^\d+ FETCH \(")
_FETCH_UID = re.compile(rb"[( ]UID (\d+)[ )]")
_FETCH_SIZE = re.compile(rb"[( ]RFC822\.SIZE (\d+)[ )]")


class _Broken(Exception):
    """The connection is unusable (timeout, BYE, lost, refused, unexpected answer): drop it."""


class ImapInbox:
    """The `Inbox` for ``kind: imap``. ``watermarks`` remembers how far it has read, under the
    name ``imap://user@host:port/mailbox`` (`watermark_name`).

    ``sleep`` and ``random`` (the back-off jitter, 0 ≤ x < 1) can be replaced in tests, as can
    the per-command ``timeout`` and the back-off's ``backoff_initial``/``backoff_max``."""

    def __init__(
        self,
        config: MailboxConfig,
        watermarks: WatermarkStore,
        *,
        sleep: Sleep = asyncio.sleep,
        random: Callable[[], float] = _random.random,
        timeout: float = 30.0,
        backoff_initial: float = 1.0,
        backoff_max: float = 60.0,  # once the server is back, mail waits at most a minute more
        read_limit: int | None = None,
    ):
        if config.tls not in ("none", "ssl", "starttls"):
            raise ValueError(f"IMAP inbox: tls must be 'ssl' (IMAPS), 'starttls' or 'none', not {config.tls!r}")
        self.config = config
        self.watermarks = watermarks
        self.timeout = timeout
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.read_limit = read_limit
        self._sleep = sleep
        self._random = random
        port = config.port or (993 if config.tls == "ssl" else 143)
        self.port = port
        # servers may log out a client silent for 30 min (RFC 3501), IDLE or not
        self.idle_seconds = min(max(float(config.idle_seconds), 0.1), 25 * 60.0)
        self.watermark_name = f"imap://{config.username}@{config.host}:{port}/{config.mailbox}"
        #: what ``run`` is doing now: connecting, fetching, idle, polling, waiting (after a failure)
        self.state = "stopped"
        #: connections that got as far as SELECT (for logs and tests)
        self.sessions = 0
        #: the mailbox as there or away, in the log (gm.outages)
        self.health = Part(f"the inbox {self.watermark_name}", log)

    # ---- the Inbox protocol ---------------------------------------------------------------------

    async def drain(self, deliver: Deliver) -> int:
        """One pass on a connection of its own; raises `InboxUnavailable` when the mailbox cannot
        be read, and whatever ``deliver`` raised when that failed."""
        try:
            session = await self._open()
        except _Broken as exc:
            raise InboxUnavailable(f"{self.watermark_name}: {exc}") from exc
        try:
            return await session.deliver_new(deliver)
        except _Broken as exc:
            raise InboxUnavailable(f"{self.watermark_name}: {exc}") from exc
        finally:
            await session.close(logout=True)

    async def run(self, deliver: Deliver) -> None:
        failures = 0
        try:
            while True:
                session: _Session | None = None
                try:
                    self.state = "connecting"
                    session = await self._open()
                    if not self.health.away_now:
                        log.info("%s: connected", self.watermark_name)
                    self.health.back()
                    idle_said = False
                    while True:
                        self.state = "fetching"
                        try:
                            await session.deliver_new(deliver)
                        except Deferred:  # gm's database is away (said by the store): this mail again shortly
                            self.state = "waiting"
                            await self._sleep(DEFERRED_WAIT)
                            continue
                        failures = 0
                        if not idle_said:  # once per connection: every round would be a line each few minutes
                            idle_said = True
                            log.info("%s: waiting for mail %s", self.watermark_name,
                                     f"with IDLE (rounds of {self.idle_seconds:g} s)" if session.can_idle else
                                     f"by polling every {self.idle_seconds:g} s (the server offers no IDLE)")
                        if session.can_idle:
                            self.state = "idle"
                            await session.idle(self.idle_seconds)
                        else:
                            self.state = "polling"
                            await self._sleep(self.idle_seconds)
                except asyncio.CancelledError:
                    raise
                except _Broken as exc:
                    problem = str(exc)
                except Exception as exc:
                    log.exception("%s: reading the mailbox failed", self.watermark_name)
                    problem = f"{type(exc).__name__}: {exc}"
                finally:
                    if session is not None:
                        await session.close(logout=False)
                failures += 1
                delay = backoff_delay(failures, self._random, self.backoff_initial, self.backoff_max)
                # Said once when it goes, at most once a minute while it stays away (gm.outages)
                self.health.away(f"{problem}; reconnecting (attempt {failures + 1} in {delay:.0f} s)",
                                 f"the mail in {self.config.mailbox}")
                self.state = "waiting"
                await self._sleep(delay)
        finally:
            self.state = "stopped"

    async def probe(self) -> str:
        """Log in and select the mailbox, read nothing (``gm check``): what was found, or
        `InboxUnavailable` saying what failed."""
        try:
            session = await self._open()
        except _Broken as exc:
            raise InboxUnavailable(f"{self.watermark_name}: {exc}") from exc
        try:
            tls = f"TLS checked against {self.config.ca_file or 'the system CAs'}, " if self.config.tls == "ssl" else ""
            return (f"{tls}logged in as {self.config.username}, {self.config.mailbox} selected "
                    f"({session.exists} messages), {'IDLE offered' if session.can_idle else 'no IDLE: gm polls'}")
        finally:
            await session.close(logout=True)

    # ---- connecting -----------------------------------------------------------------------------

    def _ssl_context(self) -> ssl.SSLContext | None:
        if self.config.tls == "none":
            return None
        return ssl.create_default_context(cafile=self.config.ca_file)

    async def _open(self) -> _Session:
        lost = asyncio.Event()

        def connection_lost(exc: Exception | None) -> None:
            lost.set()

        try:
            context = self._ssl_context()
        except (OSError, ssl.SSLError) as exc:
            raise _Broken(f"cannot read ca_file {self.config.ca_file!r}: {exc}") from exc
        starttls = self.config.tls == "starttls"
        client = aioimaplib.IMAP4(host=self.config.host, port=self.port, timeout=self.timeout,
                                  conn_lost_cb=connection_lost, ssl_context=None if starttls else context)
        session = _Session(self, client, lost)
        try:
            await session.call(client.wait_hello_from_server())
            if starttls:
                assert context is not None
                await session.call(_start_tls(client, context, self.config.host))
            response = await session.call(client.login(aioimaplib.quoted(self.config.username), self.config.password))
            if response.result != "OK":
                raise _Broken(f"login as {self.config.username!r} refused: {_text(response)}; check the inbound "
                              "username and password")
            response = await session.call(client.select(aioimaplib.quoted(self.config.mailbox)))
            if response.result != "OK":
                raise _Broken(f"cannot select {self.config.mailbox!r}: {_text(response)}")
            session.uidvalidity = _uidvalidity(response)
            session.exists = _exists(response)
        except BaseException:
            await session.close(logout=False)
            raise
        self.sessions += 1
        return session


async def _start_tls(client: aioimaplib.IMAP4, context: ssl.SSLContext, host: str) -> None:
    """STARTTLS (RFC 3501 6.2.1, as hosted mailboxes offer it on port 143), which aioimaplib lacks:
    the command, then the connection's own transport wrapped in TLS (the server's certificate
    checked against ``context`` for ``host``), then the capabilities asked again, as the RFC
    wants. Never a password before: a server that offers no STARTTLS is refused."""
    protocol = client.protocol
    if not client.has_capability("STARTTLS"):
        raise _Broken("the server offers no STARTTLS, and gm sends no password in clear (tls: starttls); "
                      "use tls: ssl (IMAPS, port 993) if the server has it")
    response = await protocol.execute(aioimaplib.Command("STARTTLS", protocol.new_tag(), loop=protocol.loop))
    if response.result != "OK":
        raise _Broken(f"STARTTLS refused: {_text(response)}")
    loop = asyncio.get_running_loop()
    protocol.transport = await loop.start_tls(protocol.transport, protocol, context, server_hostname=host)
    await protocol.capability()


class _Session:
    """One connection, logged in, mailbox selected."""

    def __init__(self, inbox: ImapInbox, client: aioimaplib.IMAP4, lost: asyncio.Event):
        self.inbox = inbox
        self.client = client
        self.lost = lost
        self.uidvalidity = 0
        self.exists = 0  # messages in the mailbox when it was selected

    @property
    def can_idle(self) -> bool:
        return self.client.has_capability("IDLE")

    async def call(self, awaitable: Awaitable[T], timeout: float | None = None) -> T:
        """Await one client call, bounded in time and given up when the connection is lost."""
        if self.lost.is_set():
            raise _Broken("connection lost")
        timeout = self.inbox.timeout if timeout is None else timeout
        task = asyncio.ensure_future(awaitable)
        lost = asyncio.ensure_future(self.lost.wait())
        try:
            await asyncio.wait({task, lost}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            lost.cancel()
            if not task.done():
                task.cancel()
        if not task.cancelled() and task.done():
            try:
                return task.result()
            except (TimeoutError, OSError, aioimaplib.AioImapException) as exc:
                raise _Broken(f"{type(exc).__name__}: {exc}{tls_hint(exc, 'inbound')}") from exc
        if self.lost.is_set():
            raise _Broken("connection lost")
        raise _Broken(f"no answer within {timeout:g} s")

    async def deliver_new(self, deliver: Deliver) -> int:
        inbox = self.inbox
        mark = inbox.watermarks.load(inbox.watermark_name)
        if mark is None or mark.uidvalidity != self.uidvalidity:
            if mark is not None:
                log.warning("%s: UIDVALIDITY changed from %d to %d: reading the whole mailbox again",
                            inbox.watermark_name, mark.uidvalidity, self.uidvalidity)
            mark = Watermark(self.uidvalidity, 0)
            inbox.watermarks.save(inbox.watermark_name, mark)
        delivered = 0
        while True:  # until a search finds nothing new: mail may come while we fetch
            await self.call(self.client.noop())  # brings the server's view of the mailbox up to date
            uids = await self._search(f"UID {mark.last_uid + 1}:*")
            new = sorted(uid for uid in uids if uid > mark.last_uid)
            if not new:
                return delivered
            limit = inbox.read_limit
            items = "(UID BODY.PEEK[])" if limit is None else f"(UID RFC822.SIZE BODY.PEEK[]<0.{limit}>)"
            for uid in new:
                response = await self.call(self.client.uid("fetch", str(uid), items))
                if response.result != "OK":
                    raise _Broken(f"UID FETCH {uid} failed: {_text(response)}")
                raw, size = _fetched_body(response, uid)
                if raw is None:
                    if uid in await self._search(f"UID {uid}"):
                        log.error("%s: cannot read message UID %d (%s); skipped, left unread in the mailbox",
                                  inbox.watermark_name, uid, _text(response))
                    else:
                        log.warning("%s: message UID %d vanished before it was read", inbox.watermark_name, uid)
                else:
                    key = f"imap:{inbox.watermark_name}:{self.uidvalidity}:{uid}"
                    if size is not None and size > len(raw):
                        await deliver(raw, key, size)
                    else:
                        await deliver(raw, key)
                    delivered += 1
                mark = Watermark(self.uidvalidity, uid)
                inbox.watermarks.save(inbox.watermark_name, mark)
                if raw is not None:
                    response = await self.call(self.client.uid("store", str(uid), "+FLAGS.SILENT (\\Seen)"))
                    if response.result != "OK":
                        log.warning("%s: could not set \\Seen on UID %d: %s",
                                    inbox.watermark_name, uid, _text(response))

    async def _search(self, criteria: str) -> list[int]:
        response = await self.call(self.client.uid_search(criteria, charset=None))
        if response.result != "OK":
            raise _Broken(f"UID SEARCH {criteria} failed: {_text(response)}")
        return _search_uids(response)

    async def idle(self, seconds: float) -> None:
        """Wait in IDLE until the server reports a change or ``seconds`` pass."""
        client = self.client
        queue = client.protocol.idle_queue
        while not queue.empty():  # leftovers of an earlier round
            queue.get_nowait()
        idle = await self.call(client.idle_start(timeout=seconds))
        # on an exception the caller drops the connection: no DONE needed then
        while True:
            lines = await self.call(client.wait_server_push(timeout=seconds + self.inbox.timeout),
                                    timeout=seconds + self.inbox.timeout)
            if lines == aioimaplib.STOP_WAIT_SERVER_PUSH:
                break
            if any(isinstance(line, bytes) and line.startswith(b"BYE") for line in lines):
                raise _Broken(f"server said {lines!r}")
            if any(isinstance(line, bytes) and line.endswith((b"EXISTS", b"EXPUNGE")) for line in lines):
                break
            # anything else ("OK Still here", RECENT, FETCH flag changes): keep waiting
        client.idle_done()
        await self.call(idle)

    async def close(self, logout: bool) -> None:
        client = self.client
        if logout and not self.lost.is_set() and client.get_state() in ("AUTH", "SELECTED"):
            try:
                await self.call(client.logout(), timeout=min(5.0, self.inbox.timeout))
            except _Broken:
                pass
        if client._idle_waiter is not None:
            client._idle_waiter.cancel()
        transport = client.protocol.transport
        if transport is not None:
            transport.close()
        pending = [client._client_task, *client.tasks, *client.protocol.tasks]
        for task in pending:
            if not task.done():
                task.cancel()
        for task in pending:
            if task.done() and not task.cancelled():
                task.exception()  # retrieved: no "never retrieved" warnings


def _text(response: Any) -> str:
    lines = [line.decode("utf-8", "replace") if isinstance(line, bytes | bytearray) else str(line)
             for line in response.lines[-2:]]
    return f"{response.result} {' '.join(lines)}".strip()


def _uidvalidity(select_response: Any) -> int:
    for line in select_response.lines:
        if isinstance(line, bytes) and (match := _UIDVALIDITY.search(line)):
            return int(match.group(1))
    raise _Broken("SELECT gave no UIDVALIDITY")


def _exists(select_response: Any) -> int:
    for line in select_response.lines:
        if isinstance(line, bytes) and line.endswith(b" EXISTS") and line.split()[0].isdigit():
            return int(line.split()[0])
    return 0


def _search_uids(response: Any) -> list[int]:
    """UIDs from an untagged SEARCH reply (aioimaplib strips ``* SEARCH``; the last line is the
    tagged reply's text)."""
    uids: list[int] = []
    for line in response.lines[:-1]:
        if isinstance(line, bytes):
            words = line.split()
            if words and words[0] == b"SEARCH":
                words = words[1:]
            if all(word.isdigit() for word in words):
                uids.extend(int(word) for word in words)
    return uids


def _fetched_body(response: Any, uid: int) -> tuple[bytes | None, int | None]:
    """The BODY[] literal of message ``uid`` among a FETCH reply's lines (which may also hold
    unsolicited FETCH replies for other messages, e.g. flag changes), and its RFC822.SIZE when
    that was asked for."""
    groups: list[list[Any]] = []
    for line in response.lines:
        if isinstance(line, bytes) and _FETCH_START.match(line):
            groups.append([line])
        elif groups:
            groups[-1].append(line)
    for group in groups:
        text = b" ".join(part for part in group if isinstance(part, bytes))
        match = _FETCH_UID.search(text)
        literal = next((part for part in group if isinstance(part, bytearray)), None)
        if match and int(match.group(1)) == uid and literal is not None:
            size = _FETCH_SIZE.search(text)
            return bytes(literal), int(size.group(1)) if size else None
    return None, None
