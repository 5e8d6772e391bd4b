"""The first step of a mail's way in: what arrived, as it will be stored.

Nothing here can fail on a mail, however broken: a message that cannot be parsed is still
kept, with what could be read of its identity.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesHeaderParser

from gm.mailsyntax import message_id
from gm.services.mailtext import sender_address, without_nul
from gm.services.oversize import cut_down

# What tells two deliveries of one mail from two mails that share a Message-ID: the headers its
# writer set and its body, not the trace headers each delivery adds (Received, Delivered-To).
_WRITER_HEADERS = ("From", "Subject", "Date")
REPLACED_DOMAIN = "replaced.invalid"  # of a Message-ID gm would not repeat (``checked_message_id``)


@dataclass(frozen=True)
class Arrival:
    raw: bytes  # as delivered, or cut down to its headers and text (``cut`` says what went)
    source_key: str | None  # where the transport found it (a mailbox position, a pipe's digest)
    message: Message | None  # None: it could not be parsed at all
    message_id: str
    sender: str
    subject: str
    content_digest: str
    cut: str = ""


def arrive(raw: bytes, source_key: str | None, size: int | None, max_bytes: int) -> Arrival:
    """``size``: the whole message's, when ``raw`` is only its first part."""
    size = max(size or 0, len(raw))
    digest = content_digest(raw)
    cut = ""
    delivered: Message | None = None
    if size > max_bytes:
        delivered = _headers_of(raw)  # its identity as delivered: the cut copy may lose or refold it
        kept = cut_down(raw, size, max_bytes)
        raw, cut = kept.raw, kept.note
    try:
        message: Message | None = parse_message(raw)
    except Exception:  # noqa: BLE001 - a message we cannot even parse is still kept
        message = None
    message_id, sender, subject = identity(delivered or message)
    return Arrival(raw, source_key, message, message_id, sender, subject, digest, cut)


def parse_message(raw: bytes) -> Message:
    """The compat32 parser: much faster than policy.default, and all we need (text parts are
    decoded by gm.services.mailtext, encoded headers by ``header_text``)."""
    return message_from_bytes(raw)


def content_digest(raw: bytes) -> str:
    """The same for every delivery of one mail (line ends, trailing blanks and trace headers
    aside), different when its writer changed its text, subject or date."""
    text = raw.replace(b"\r\n", b"\n")
    head, _, body = text.partition(b"\n\n")
    headers = _headers_of(head + b"\n\n")
    digest = hashlib.sha256()
    for name in _WRITER_HEADERS:
        digest.update(_unfolded(headers, name).encode("utf-8", "surrogateescape") + b"\0")
    digest.update(b"\n".join(line.rstrip() for line in body.split(b"\n")).rstrip())
    return digest.hexdigest()


def _unfolded(headers: Message | None, name: str) -> str:
    try:
        return " ".join(str(headers.get(name, "")).split()) if headers is not None else ""
    except Exception:  # noqa: BLE001 - a header too broken to read counts as empty
        return ""


def _headers_of(raw: bytes) -> Message | None:
    try:
        return BytesHeaderParser().parsebytes(raw)
    except Exception:  # noqa: BLE001 - then the cut copy's headers are all there is
        return None


def header_text(message: Message, name: str) -> str:
    value = message.get(name)
    if value is None:
        return ""
    try:
        return without_nul(str(make_header(decode_header(str(value)))))
    except (UnicodeDecodeError, LookupError, ValueError):
        return without_nul(str(value))


def identity(message: Message | None) -> tuple[str, str, str]:
    """Message-ID, sender and subject, as far as they can be read ("" where not)."""
    if message is None:
        return "", "", ""
    try:
        # Unfolded: a mail server may fold a long Message-ID differently on each delivery.
        message_id = " ".join(without_nul(str(message.get("Message-ID", ""))).split())
        return checked_message_id(message_id), sender_address(message), header_text(message, "Subject")[:500]
    except Exception:  # noqa: BLE001 - headers too broken to read: stored all the same
        return "", "", ""


def checked_message_id(written: str) -> str:
    """The Message-ID as written when it is a plain ``msg-id`` (gm.mailsyntax), else one of the
    judge's own made from it: a reply names it (In-Reply-To), so nothing else may pass, and the
    same one for every delivery of the mail, which is how a redelivery is recognised. Its
    domain is reserved (``.invalid``): never anyone's mail, nor gm's own (``<gm.``)."""
    if not written:
        return ""
    kept = message_id(written)
    if kept is not None:
        return kept
    digest = hashlib.sha256(written.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return f"<{digest}@{REPLACED_DOMAIN}>"
