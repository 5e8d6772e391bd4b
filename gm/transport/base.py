"""The transport contracts (see the package docstring)."""

from __future__ import annotations

import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Protocol


class Deliver(Protocol):
    def __call__(self, raw: bytes, source_key: str, size: int | None = None) -> Awaitable[None]:
        """Store and act on one message. ``size`` is given only when ``raw`` is the first part of a
        larger message (an inbox reads no more than its read limit): the whole message's size."""
        ...


class TemporaryFailure(Exception):
    """Sending this message failed for now (a 4xx for it, a full mailbox): try it again later."""


class ServerFailure(TemporaryFailure):
    """The server takes no mail now, for a reason that is not the message's and that a fix of
    the server or of gm's configuration cures (no connection, TLS, authentication, relaying
    refused, the sender refused): every message waits, none is given up."""


class PermanentFailure(Exception):
    """Sending this message can never succeed (a 5xx for it, a refused recipient): give up and
    tell someone."""


class InboxUnavailable(Exception):
    """``drain`` could not reach or read the mailbox (connection, login, timeout); ``run``
    retries such failures by itself."""


class Deferred(Exception):
    """``deliver`` or the watermark store could not take the message now (gm's database is
    away): the message stays where it is and is tried again shortly. The inbox says nothing of
    it; whoever raised it has said what is away."""


DEFERRED_WAIT = 1.0  # seconds an inbox waits before it tries a deferred message again (the store waited already)


@dataclass(frozen=True)
class Watermark:
    uidvalidity: int
    last_uid: int


class WatermarkStore(Protocol):
    """Where an IMAP inbox remembers how far it has read (a database table in gm)."""

    def load(self, mailbox: str) -> Watermark | None: ...

    def save(self, mailbox: str, watermark: Watermark) -> None: ...


class Inbox(Protocol):
    async def run(self, deliver: Deliver) -> None:
        """Fetch and deliver messages until cancelled (a daemon's loop)."""
        ...

    async def drain(self, deliver: Deliver) -> int:
        """Deliver every message waiting now, then return how many (for `gm tick`)."""
        ...


class Sender(Protocol):
    async def send(self, message: EmailMessage) -> None: ...


def backoff_delay(failures: int, random: Callable[[], float], initial: float = 1.0, cap: float = 300.0) -> float:
    """How long to wait after the ``failures``-th failure in a row (1, 2, ...): exponential from
    ``initial`` up to ``cap``, with jitter (between half and all of it) so that many clients
    kept apart by one outage do not come back at the same instant."""
    base = min(cap, initial * 2.0 ** min(max(failures, 1) - 1, 60))
    return base * (0.5 + 0.5 * random())


def tls_hint(exc: BaseException, side: str) -> str:
    """What the operator can do about ``exc``, when it is a certificate this side did not trust
    ("" otherwise); ``side`` names the configuration's section (inbound, outbound)."""
    if isinstance(exc, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in str(exc):
        return (f"; the server's certificate is not trusted: set {side} ca_file to the certificate of the CA that "
                "signed it (or to the server's own certificate, if it signed itself), and host to a name the "
                "certificate is for")
    return ""
