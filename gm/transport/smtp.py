"""Sending through an SMTP server (aiosmtplib): plain, STARTTLS or implicit TLS, AUTH when a
username is configured, the server certificate checked against ``ca_file`` when one is given
(else against the system's CAs).

What the server says is sorted for the outbox by whose fault it is:

* the server's or gm's configuration (`ServerFailure`: every mail waits for a fix, none is
  given up): no connection, a timeout, TLS, authentication failed or required (530, 5.7.0),
  relaying refused, the sender (MAIL FROM) refused, 421 (service not available);
* this message, for now (`TemporaryFailure`): any other 4xx;
* this message, for good (`PermanentFailure`): any other 5xx, a refused recipient. A message
  accepted for some recipients and refused for others counts as permanent too: sending it again
  would duplicate it for the others.
"""

from __future__ import annotations

import re
import ssl
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

import aiosmtplib

from gm.config import MailboxConfig
from gm.transport.base import PermanentFailure, ServerFailure, TemporaryFailure, tls_hint
from gm.transport.headers import wire_bytes

DEFAULT_PORTS = {"none": 25, "starttls": 587, "ssl": 465}
# Refusals that say gm may not send through this server at all, whatever the message.
_NOT_ALLOWED = re.compile(r"\b5\.7\.0\b|relay|authenticat|auth required|not logged in|sender address rejected", re.I)


# What a reply code means (RFC 5321, section 4.2.3; RFC 3463 for the enhanced codes' classes).
_MEANINGS = {
    421: "the server is not available now (closing the connection: busy, restarting, or limiting gm)",
    450: "the mailbox is not available now", 451: "the server failed to process it, for now",
    452: "the server is short of storage for now (or took too many recipients)",
    454: "the server cannot do this now (TLS or authentication unavailable)",
    500: "the server did not understand a command", 501: "the server refused a command's arguments",
    503: "the server expected other commands first", 504: "a parameter the server does not take",
    530: "the server requires authentication", 534: "the server wants a stronger authentication mechanism",
    535: "the username or password was refused", 550: "refused by the server (no such mailbox, or its policy)",
    551: "the recipient is not local to the server", 552: "the server's storage for it is exceeded",
    553: "the address is not allowed", 554: "the transaction failed (refused by the server's policy)",
}
_WHAT_TO_CHECK = {
    421: "gm tries again by itself; if it lasts, look at the server's log",
    530: "check the outbound username and password (and tls: some servers offer AUTH only after STARTTLS)",
    534: "check the outbound tls setting: some servers take passwords only over TLS",
    535: "check the outbound username and password",
    553: "check judge_address: the server may let gm send only as its login's address",
}


def meaning(code: int, message: str = "") -> str:
    """What an SMTP reply means, by its code (and its enhanced status code, when given)."""
    found = _MEANINGS.get(code)
    if found is None:
        found = {4: "refused for now", 5: "refused"}.get(code // 100, "an unexpected answer")
    if re.search(r"\b[45]\.7\.\d+\b", message) and code not in (530, 534, 535):
        found += "; a matter of the server's security or policy"
    return found


def is_configuration(code: int, message: str) -> bool:
    return code in (421, 530) or bool(_NOT_ALLOWED.search(message))


def _by_code(code: int, what: str) -> Exception:
    if is_configuration(code, what):
        return ServerFailure(what)
    if 400 <= code < 500:
        return TemporaryFailure(what)
    if 500 <= code < 600:
        return PermanentFailure(what)
    return ServerFailure(what)  # not a reply code: a broken connection or a confused server


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

    async def probe(self) -> str:
        """Connect, start TLS and log in as configured, send nothing (``gm check``): what was
        found, or `ServerFailure` saying what failed."""
        config = self.config
        client = aiosmtplib.SMTP(hostname=config.host, port=self.port, local_hostname=self.local_hostname,
                                 timeout=self.timeout, use_tls=config.tls == "ssl",
                                 start_tls=config.tls == "starttls",
                                 cert_bundle=config.ca_file if config.tls != "none" else None)
        try:
            await client.connect()
            found = [f"TLS ({config.tls}) checked against {config.ca_file or 'the system CAs'}"
                     if config.tls != "none" else "no TLS"]
            if config.username:
                await client.login(config.username, config.password)
                found.append(f"logged in as {config.username}")
            else:
                found.append("no login (no username configured)")
            await client.quit()
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise ServerFailure(f"{self.server}: authentication as {config.username!r} failed ({exc.code} "
                                f"{exc.message}); check the outbound username and password") from exc
        except (aiosmtplib.SMTPException, OSError, ssl.SSLError) as exc:
            raise ServerFailure(f"{self.server}: {type(exc).__name__}: {exc}{tls_hint(exc, 'outbound')}") from exc
        finally:
            client.close()
        return ", ".join(found)

    async def send(self, message: EmailMessage) -> None:
        config = self.config
        client = aiosmtplib.SMTP(
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
        try:
            sender, recipients = _envelope(message)
            async with client:
                errors, _reply = await _send_written(client, message, sender, recipients)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            refusals = "; ".join(f"{r.recipient}: {r.code} {r.message} ({meaning(r.code, r.message)})"
                                 for r in exc.recipients)
            if exc.recipients and all(is_configuration(r.code, r.message) for r in exc.recipients):
                raise ServerFailure(f"{self.server} refuses to take mail from gm: {refusals}; check the outbound "
                                    "host, port, tls, username and password") from exc
            if exc.recipients and all(400 <= r.code < 500 for r in exc.recipients):
                raise TemporaryFailure(f"{self.server} refused for now: {refusals}") from exc
            raise PermanentFailure(f"{self.server} refused: {refusals}") from exc
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise ServerFailure(f"{self.server}: authentication as {config.username!r} failed "
                                f"({exc.code} {exc.message}); check the outbound username and password") from exc
        except aiosmtplib.SMTPSenderRefused as exc:  # every mail has this sender: all wait
            hint = _WHAT_TO_CHECK.get(exc.code, "check judge_address and the outbound username and password"
                                      if exc.code >= 500 else "gm tries again by itself")
            raise ServerFailure(f"{self.server} did not take the sender {exc.sender!r}: {exc.code} {exc.message} "
                                f"({meaning(exc.code, exc.message)}); {hint}") from exc
        except aiosmtplib.SMTPResponseException as exc:
            raise _by_code(exc.code, f"{self.server}: {exc.code} {exc.message} ({meaning(exc.code, exc.message)})") \
                from exc
        except (aiosmtplib.SMTPException, OSError, ssl.SSLError) as exc:  # connection, timeout, TLS, no AUTH
            raise ServerFailure(f"{self.server}: {type(exc).__name__}: {exc}{tls_hint(exc, 'outbound')}") from exc
        except ValueError as exc:  # no recipients, a header that would break (HeaderRefused)
            raise PermanentFailure(f"cannot send this message: {exc}") from exc
        if errors:
            refusals = "; ".join(f"{address}: {r.code} {r.message} ({meaning(r.code, r.message)})"
                                 for address, r in errors.items())
            raise PermanentFailure(f"{self.server} refused some recipients (the others got it): {refusals}")


def _envelope(message: EmailMessage) -> tuple[str, list[str]]:
    """MAIL FROM and RCPT TO, from the message's From and To (gm writes no Cc or Bcc)."""
    sender = parseaddr(str(message.get("From", "")))[1]
    recipients = [address for _, address in getaddresses([str(v) for v in message.get_all("To", [])]) if address]
    if not sender or not recipients:
        raise ValueError("a message needs a From and a To address")
    return sender, recipients


async def _send_written(client: aiosmtplib.SMTP, message: EmailMessage, sender: str,
                        recipients: list[str]) -> tuple[dict[str, aiosmtplib.SMTPResponse], str]:
    """The message as ``wire_bytes`` writes it (aiosmtplib would write it with its own policy):
    8-bit text as it is where the server takes it (8BITMIME), else encoded to 7 bits."""
    if client.is_ehlo_or_helo_needed:
        try:
            await client.ehlo()
        except aiosmtplib.SMTPHeloError:
            await client.helo()
    eight_bit = client.supports_extension("8BITMIME")
    data = wire_bytes(message, cte_type="8bit" if eight_bit else "7bit")
    return await client.sendmail(sender, recipients, data, mail_options=["BODY=8BITMIME"] if eight_bit else [])
