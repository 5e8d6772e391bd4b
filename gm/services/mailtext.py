"""What a person wrote in a mail: the text part (any charset; HTML turned into text), without
quoted replies, signatures, or anything after SIGNOFF. Attachments are ignored."""

from __future__ import annotations

import html
import re
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from gm.mailsyntax import mail_address

_QUOTE_HEADER = re.compile(r"^\s*(On .+ wrote:|-----\s*Original Message\s*-----|From: .+)\s*$", re.I)


def without_nul(text: str) -> str:
    """Text as gm keeps it: a NUL means nothing in a mail, and PostgreSQL cannot store one."""
    return text.replace("\x00", "")


def sender_address(message: Message) -> str:
    """The From address, lower case; "" when there is none, or none that is plain
    (gm.mailsyntax): gm writes to it, so it must be nothing but an address."""
    _, address = parseaddr(str(message.get("From", "")))
    return mail_address(address) or ""


def recipients(message: Message) -> list[str]:
    pairs = getaddresses([str(v) for v in message.get_all("To", []) + message.get_all("Cc", [])])
    return [a.lower() for _, a in pairs if a]


def body_text(message: Message) -> str:
    """The readable text: text/plain preferred, else HTML as text; other parts ignored."""
    plain = html_part = None
    parts = message.walk() if message.is_multipart() else [message]
    for part in parts:
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and plain is None:
            plain = _decoded(part)
        elif kind == "text/html" and html_part is None:
            html_part = _decoded(part)
    if plain is not None and plain.strip():
        return without_nul(plain)
    if html_part is not None:
        return without_nul(html_to_text(html_part))
    return without_nul(plain or "")


def _decoded(part: Message) -> str:
    if isinstance(part, EmailMessage):
        try:
            return str(part.get_content())
        except (LookupError, ValueError, AssertionError):
            pass
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("utf-8", errors="replace")


class _TextExtractor(HTMLParser):
    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "pre", "blockquote", "table"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.quote = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:  # type: ignore[type-arg]
        if tag in ("script", "style", "head"):
            self.skip += 1
        elif tag == "blockquote":
            self.quote += 1
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head"):
            self.skip = max(0, self.skip - 1)
        elif tag == "blockquote":
            self.quote = max(0, self.quote - 1)
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip and not self.quote:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    try:
        parts = _extract(markup)
    except AssertionError:  # html.parser's answer to some broken declarations ("<![" and junk)
        parts = _extract(markup.replace("<!", "&lt;!"))  # read them as text instead
    text = html.unescape("".join(parts))
    return "\n".join(line.strip() for line in text.splitlines())


def _extract(markup: str) -> list[str]:
    extractor = _TextExtractor()
    extractor.feed(markup)
    extractor.close()
    return extractor.parts


def readable_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of what counts: quoted replies, signatures and text after
    SIGNOFF are dropped; blank lines are kept (they end PRESS bodies' paragraphs)."""
    lines = []
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        stripped = line.strip()
        if line.rstrip() == "--" or line == "-- ":
            break  # a signature follows
        if stripped.upper() in ("SIGNOFF", "SIGN OFF", "ENDORDERS") or _QUOTE_HEADER.match(line):
            break
        if stripped.startswith(">"):
            continue
        lines.append((number, line.rstrip()))
    return lines
