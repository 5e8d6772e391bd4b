"""What is kept of a mail too large to act on: its headers and its text parts (cut to fit the
limit), never its attachments, and a note for people of what was cut. Never raises."""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import message_from_bytes
from email.message import Message

from gm.services.mailtext import without_nul

_LINE_END = rb"(?:\r\n|\n|\r(?!\n))"  # CRLF, LF, or a bare CR (seen in the wild, and by the fuzz)
_HEADER_END = re.compile(_LINE_END * 2)
_TEXT = ("text/plain", "text/html")


@dataclass(frozen=True)
class Cut:
    raw: bytes  # a message of at most the limit
    note: str  # for people: how large it was, what was kept, what was removed


def cut_down(raw: bytes, size: int, limit: int) -> Cut:
    """``raw`` is the message, or its first bytes when ``size`` (the whole size) is larger."""
    unread = f"; the last {size - len(raw):,} bytes were not read" if size > len(raw) else ""
    head = f"{size:,} bytes, over the limit of {limit:,}: "
    end = _HEADER_END.search(raw)
    header = raw[:end.end()] if end else raw
    if len(header) > limit:
        line_end = max(header.rfind(b"\n", 0, limit - 2), header.rfind(b"\r", 0, limit - 3))
        line_end += header[line_end:line_end + 2] == b"\r\n"
        return Cut(header[:line_end + 1] + b"\r\n" if line_end > 0 else b"", f"{head}kept the headers, cut{unread}")
    try:
        kept, what = _cut(raw, header, limit)
    except Exception:  # noqa: BLE001 - a mail that cannot be taken apart is still kept, in part
        kept, what = header, "could not be taken apart: kept the headers"
    return Cut(kept, without_nul(head + what + unread))


def _cut(raw: bytes, header: bytes, limit: int) -> tuple[bytes, str]:
    message = message_from_bytes(raw)
    room = limit - len(header)
    if not message.is_multipart():
        body = raw[len(header):]
        if message.get_content_type() in _TEXT and message.get_content_disposition() != "attachment":
            return header + body[:room], _kept_text(message.get_content_type(), len(body), room)
        return header, f"kept the headers; removed {_describe(message, len(body))}"
    boundary = message.get_boundary()
    if not boundary:
        return header, "kept the headers; removed a body with no readable parts"
    opening, closing = f"--{boundary}\r\n".encode(), f"--{boundary}--\r\n".encode()
    room -= len(closing)
    body, kept, removed = b"", [], []
    for part in message.walk():
        if part.is_multipart():
            continue
        data = part.as_bytes()
        if part.get_content_type() not in _TEXT or part.get_content_disposition() == "attachment":
            removed.append(_describe(part, len(data)))
            continue
        fits = max(0, room - len(body) - len(opening) - 2)
        if fits <= 0:
            removed.append(_describe(part, len(data)))
            continue
        body += opening + data[:fits] + b"\r\n"
        kept.append(_kept_text(part.get_content_type(), len(data), fits))
    what = "kept the headers" + "".join(f", {k}" for k in kept)
    return header + body + closing, what + (f"; removed {', '.join(removed)}" if removed else "")


def _kept_text(kind: str, length: int, room: int) -> str:
    return f"{kind} ({length:,} bytes)" if length <= room else f"{kind} cut to {room:,} of {length:,} bytes"


def _describe(part: Message, length: int) -> str:
    name = part.get_filename()
    return f"{part.get_content_type()}{f' {name!r}' if name else ''} ({length:,} bytes)"
