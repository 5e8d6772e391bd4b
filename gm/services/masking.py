"""Secrets out of what gm keeps: the secrets a mail's commands carry (SIGNON, SET PASSWORD,
CONFIRM ADDRESS) are masked in its stored copy once it is handled, and a secret gm mailed is
masked in the outbox's copy once the mail went. Everything else of a mail is kept as it came:
only the bytes of the secret change, and in a base64 or quoted-printable text part only that
part's encoded text. A secret is masked here as a reply's quotes mask it (gm.commands.secrecy)."""

from __future__ import annotations

import base64
import quopri
import re
from collections.abc import Iterable
from email import message_from_bytes
from email.message import Message

from gm.commands.secrecy import MASK, longest_first, mask_text

__all__ = ["MASK", "mask_raw", "mask_text"]


def mask_raw(raw: bytes, secrets: Iterable[str]) -> bytes:
    wanted = longest_first(secrets)
    if not wanted:
        return raw
    for secret in wanted:
        raw = re.sub(rb"(?<![\w-])" + re.escape(secret.encode("utf-8")) + rb"(?![\w-])", MASK.encode(), raw)
    try:
        message = message_from_bytes(raw)
        parts = [p for p in message.walk() if not p.is_multipart()]
    except Exception:  # noqa: BLE001 - a mail too broken to take apart keeps what the byte search did
        return raw
    for part in parts:
        raw = _mask_encoded(raw, part, wanted)
    return raw


def _mask_encoded(raw: bytes, part: Message, secrets: list[str]) -> bytes:
    """A base64 or quoted-printable part whose decoded text holds a secret, encoded again
    without it, in place."""
    encoding = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
    if encoding not in ("base64", "quoted-printable"):
        return raw
    try:
        charset = part.get_content_charset() or "utf-8"
        decoded = part.get_payload(decode=True)
        if not isinstance(decoded, bytes):
            return raw
        text = decoded.decode(charset, errors="surrogateescape")
        masked = mask_text(text, secrets)
        if masked == text:
            return raw
        payload = str(part.get_payload())
        line_end = "\r\n" if "\r\n" in payload else "\n"
        body = masked.encode(charset, errors="surrogateescape")
        if encoding == "base64":
            again = base64.encodebytes(body).decode("ascii").replace("\n", line_end)
        else:
            again = quopri.encodestring(body).decode("ascii").replace("\n", line_end)
        return raw.replace(payload.encode("ascii", "surrogateescape"), again.encode("ascii"), 1)
    except (LookupError, ValueError, UnicodeError):
        return raw
