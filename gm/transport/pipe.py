"""One message on standard input, as a mail server hands it to a program (``| gm receive`` in an
alias or .forward file: the classic judges' installation).

Some delivery agents put an mbox envelope line (``From sender date``) before the message; it is
not part of the message and is removed (no header can start that way: a header name ends in a
colon). Everything is read, however large (a mail server must see its pipe drained), but only
the first ``read_limit`` bytes are kept; the rest is only counted. The source key is the hash of
all the bytes, so a delivery repeated by the mail server is recognised.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import BinaryIO

CHUNK = 65536


@dataclass(frozen=True)
class PipedMessage:
    raw: bytes  # the message, or its first read_limit bytes
    size: int  # the whole message's size
    source_key: str

    @property
    def cut(self) -> bool:
        return self.size > len(self.raw)


def read_message(stream: BinaryIO, read_limit: int) -> PipedMessage:
    """Read ``stream`` to its end, keeping at most ``read_limit`` bytes (counted without an
    envelope line). An empty input is a message too: the reader decides what it is."""
    digest = hashlib.sha256()
    first = stream.readline(read_limit + 1)
    if first.startswith(b"From ") and first.endswith(b"\n"):
        first = b""  # the mbox envelope line
    digest.update(first)
    kept = [first]
    size = kept_size = len(first)
    while chunk := stream.read(CHUNK):
        digest.update(chunk)
        size += len(chunk)
        if kept_size < read_limit:
            kept.append(chunk[:read_limit - kept_size])
            kept_size += len(kept[-1])
    raw = b"".join(kept)[:read_limit]
    return PipedMessage(raw, size, f"pipe:{digest.hexdigest()}")
