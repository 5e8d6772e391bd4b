"""A piped mail handed to the running judge: `gm receive` passes what its mail server piped to
the `gm run` on this machine over a local socket, and waits for its answer.

A `gm receive` that handles the mail itself starts a Python with the whole of gm and SQLAlchemy
loaded (over half a second, for every mail); the running judge has all of it loaded already, so
a mail handed over is stored, handled and answered in tens of milliseconds. This side (the client) uses
nothing but the standard library for that reason; the judge's side is gm.transport.handoff_server.

The socket is a file in the judge's home (``SOCKET_NAME``), readable and writable by its owner
only: whoever may write to it may hand the judge a mail, as whoever may run `gm receive` may.
No socket there, or no judge behind it: `gm receive` handles the mail itself, as before. The
judge going away before it answers: the same (a mail it had stored is recognised by its source
key and not handled twice).

One exchange a connection. The client sends a header line, JSON ``{"source_key", "size",
"length"}`` (``size``: the whole mail's, when only its first ``length`` bytes are sent), then
the ``length`` bytes. The judge answers one line: ``done`` (stored and handled, its answers
queued), ``busy <why>`` (stored, not handled: the database was busy) or ``failed <why>`` (not
stored).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

SOCKET_NAME = "gm-receive.sock"
HEADER_LIMIT = 4096
_SUN_PATH_LIMIT = 107  # bytes of a socket's path (sockaddr_un), its final NUL aside


class Outcome(Enum):
    DONE = "done"
    BUSY = "busy"
    FAILED = "failed"


@dataclass(frozen=True)
class Answer:
    outcome: Outcome
    why: str = ""


def socket_path(home: Path) -> Path:
    return home / SOCKET_NAME


def hand_over(path: Path, raw: bytes, source_key: str, size: int | None, timeout: float) -> Answer | None:
    """The judge's answer, or None when there is no judge to take the mail (no socket, nobody
    listening, or the judge went away before answering): then the caller handles it itself."""
    header = json.dumps({"source_key": source_key, "size": size, "length": len(raw)}).encode() + b"\n"
    try:
        with reachable(path) as address, socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(timeout)
            connection.connect(address)
            connection.sendall(header + raw)
            connection.shutdown(socket.SHUT_WR)
            line = connection.makefile("rb").readline(HEADER_LIMIT)
    except TimeoutError:  # the judge holds it still: it may be stored, so nothing else may handle it now
        return Answer(Outcome.BUSY, f"the running gm did not answer within {timeout:g} s")
    except OSError:  # no socket, nobody listening, not ours to use, or the judge gone mid-mail
        return None
    word, _, why = line.decode("utf-8", "replace").strip().partition(" ")
    try:
        return Answer(Outcome(word), why)
    except ValueError:  # no answer at all: the judge went away
        return None


def answers(path: Path) -> bool:
    """Whether a judge listens on ``path`` now."""
    try:
        with reachable(path) as address, socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.connect(address)
            return True
    except OSError:
        return False


@contextlib.contextmanager
def reachable(path: Path) -> Iterator[str]:
    """``path`` as a socket address: a socket's path may be 107 bytes at most, so a longer one is
    reached through its folder opened (/proc/self/fd/N/name, Linux)."""
    if len(os.fsencode(path)) <= _SUN_PATH_LIMIT:
        yield str(path)
        return
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        yield f"/proc/self/fd/{folder}/{path.name}"
    finally:
        os.close(folder)
