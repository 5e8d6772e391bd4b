"""Sending through an SMTP server (aiosmtplib): plain, STARTTLS or implicit TLS, AUTH when a
username is configured, the server certificate checked against ``ca_file`` when one is given
(else against the system's CAs).

What the server says is sorted for the outbox: try again later (`TemporaryFailure`: no
connection, timeout, 4xx, failed authentication — a configuration fix makes those go through)
or give up (`PermanentFailure`: 5xx, refused recipient). A message accepted for some recipients
and refused for others counts as permanent too: sending it again would duplicate it for the
others.
"""

from __future__ import annotations

import ssl
from email.message import EmailMessage

import aiosmtplib

from gm.config import MailboxConfig
from gm.transport.base import PermanentFailure, TemporaryFailure

DEFAULT_PORTS = {"none": 25, "starttls": 587, "ssl": 465}


def _by_code(code: int, what: str) -> Exception:
    if 400 <= code < 500:
        return TemporaryFailure(what)
    if 500 <= code < 600:
        return PermanentFailure(what)
    return TemporaryFailure(what)  # not a reply code: a broken connection or a confused server


class SmtpSender:
    """The `Sender` for ``kind: smtp``."""

    def __init__(self, config: MailboxConfig, *, timeout: float = 60.0, local_hostname: str | None = None):
        if config.tls not in DEFAULT_PORTS:
            raise ValueError(f"SMTP: tls must be one of {sorted(DEFAULT_PORTS)}, not {config.tls!r}")
        self.config = config
        self.timeout = timeout
        self.local_hostname = local_hostname
        self.port = config.port or DEFAULT_PORTS[config.tls]

    @property
    def server(self) -> str:
        return f"{self.config.host}:{self.port}"

    async def send(self, message: EmailMessage) -> None:
        config = self.config
        try:
            errors, _reply = await aiosmtplib.send(
                message,
                hostname=config.host,
                port=self.port,
                username=config.username or None,
                password=config.password if config.username else None,
                local_hostname=self.local_hostname,
                timeout=self.timeout,
                use_tls=config.tls == "ssl",
                start_tls=config.tls == "starttls",  # never an unasked-for upgrade on "none"
                cert_bundle=config.ca_file if config.tls != "none" else None,
            )
        except aiosmtplib.SMTPRecipientsRefused as exc:
            refusals = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
            if exc.recipients and all(400 <= r.code < 500 for r in exc.recipients):
                raise TemporaryFailure(f"{self.server} refused for now: {refusals}") from exc
            raise PermanentFailure(f"{self.server} refused: {refusals}") from exc
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise TemporaryFailure(f"{self.server}: authentication as {config.username!r} failed "
                                   f"({exc.code} {exc.message}); check the outbound username and password") from exc
        except aiosmtplib.SMTPResponseException as exc:
            raise _by_code(exc.code, f"{self.server}: {exc.code} {exc.message}") from exc
        except (aiosmtplib.SMTPException, OSError, ssl.SSLError) as exc:  # connection, timeout, TLS, no AUTH
            raise TemporaryFailure(f"{self.server}: {type(exc).__name__}: {exc}") from exc
        except ValueError as exc:  # no recipients, an address that cannot be sent safely
            raise PermanentFailure(f"cannot send this message: {exc}") from exc
        if errors:
            refusals = "; ".join(f"{address}: {r.code} {r.message}" for address, r in errors.items())
            raise PermanentFailure(f"{self.server} refused some recipients (the others got it): {refusals}")
