"""One message on standard input, as a mail server hands it to a program (``| gm receive`` in an
alias or .forward file: the classic judges' installation).

Some delivery agents put an mbox envelope line (``From sender date``) before the message; it is
not part of the message and is removed (no header can start that way: a header name ends in a
colon). The source key is the hash of the bytes, so a delivery repeated by the mail server is
recognised.
"""

from __future__ import annotations

import hashlib
from typing import BinaryIO


class PipeError(Exception):
    """The input is not a message gm can take (the caller should exit with EX_DATAERR)."""


class MessageTooLarge(PipeError):
    def __init__(self, limit_bytes: int):
        super().__init__(f"message larger than {limit_bytes} bytes")
        self.limit_bytes = limit_bytes


class EmptyMessage(PipeError):
    def __init__(self) -> None:
        super().__init__("no message on standard input")


def read_message(stream: BinaryIO, limit_bytes: int) -> bytes:
    """Read the whole message from ``stream``; `MessageTooLarge` past ``limit_bytes`` (counted
    without an envelope line), `EmptyMessage` if there is nothing."""
    first = stream.readline(limit_bytes + 1)
    if first.startswith(b"From ") and first.endswith(b"\n"):
        first = b""  # the mbox envelope line
    chunks = [first]
    size = len(first)
    while size <= limit_bytes:
        chunk = stream.read(min(65536, limit_bytes + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit_bytes:
        raise MessageTooLarge(limit_bytes)
    raw = b"".join(chunks)
    if not raw.strip():
        raise EmptyMessage()
    return raw


def source_key(raw: bytes) -> str:
    return f"pipe:{hashlib.sha256(raw).hexdigest()}"
