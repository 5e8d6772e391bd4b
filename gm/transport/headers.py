"""How every mail gm sends is written: with ``STRICT``, a policy that refuses a header that would
break into lines of its own instead of writing it.

Python's email package decodes an encoded word (``=?utf-8?q?...?=``) in whatever value a
header is given, even inside an address or a Message-ID, and writes what it decoded, line ends
and all: a value from someone else's mail could add headers of its own. gm checks such values
before they become headers (gm.mailsyntax, gm.games.plaintext); ``STRICT`` is the last word,
as Python 3.13's ``verify_generated_headers`` (which this Python may lack) would be: a value
with a control character, as given or once decoded, is refused when it is set, and a header
whose folded lines have a line end not followed by a space or a tab is refused when it is
written. The transports write with it (``wire_bytes``), whatever policy a message was made with.
"""

from __future__ import annotations

import io
import re
from email.generator import BytesGenerator
from email.message import Message
from email.policy import EmailPolicy
from typing import Any

# A line end that does not continue the header (RFC 5322 folding: CRLF then a space or tab).
_NEW_LINE = re.compile(r"\r\n(?![ \t])|\r(?![\n \t])|\n(?![ \t])")
_NEW_LINE_BYTES = re.compile(rb"\r\n(?![ \t])|\r(?![\n \t])|\n(?![ \t])")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # a tab is white space; nothing else below a space is


class HeaderRefused(ValueError):
    """A header that would not be written as one header: the mail cannot be made as it is."""


class StrictPolicy(EmailPolicy):
    """``email.policy.SMTP`` that refuses what would break a header (see the module's words)."""

    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if isinstance(value, str) and _CONTROL.search(value):
            raise HeaderRefused(f"{name}: a control character in {value!r}")
        try:
            stored = super().header_store_parse(name, value)
        except ValueError as exc:  # the email package's own refusals (a line end in an address's part)
            raise HeaderRefused(f"{name}: {exc}") from exc
        if _CONTROL.search(str(stored[1])):  # an encoded word in it decoded to one
            raise HeaderRefused(f"{name}: {value!r} decodes to a control character")
        return stored

    def fold(self, name: str, value: Any) -> str:
        folded = super().fold(name, value)
        if not folded.endswith(self.linesep) or _NEW_LINE.search(folded.removesuffix(self.linesep)):
            raise HeaderRefused(f"{name}: written as more than one header: {folded!r}")
        return folded

    def fold_binary(self, name: str, value: Any) -> bytes:
        folded = super().fold_binary(name, value)
        end = self.linesep.encode("ascii")
        if not folded.endswith(end) or _NEW_LINE_BYTES.search(folded.removesuffix(end)):
            raise HeaderRefused(f"{name}: written as more than one header: {folded!r}")
        return folded


STRICT = StrictPolicy(linesep="\r\n")  # email.policy.SMTP's settings


def wire_bytes(message: Message, *, linesep: str = "\r\n", cte_type: str = "8bit") -> bytes:
    """``message`` as it is sent (``linesep``: "\\n" for a file), written with ``STRICT``:
    raises ``HeaderRefused`` for a header that would break."""
    buffer = io.BytesIO()
    BytesGenerator(buffer, policy=STRICT.clone(linesep=linesep, cte_type=cte_type)).flatten(message)
    return buffer.getvalue()


def check_headers(message: Message) -> None:
    """Raises ``HeaderRefused`` unless every header of ``message`` and of its parts would be
    written as one header by ``STRICT`` (the headers alone: no body is written)."""
    for part in message.walk():
        for name, value in part.raw_items():
            STRICT.fold(name, value)
