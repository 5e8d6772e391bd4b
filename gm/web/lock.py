"""Which gm process of one home serves the web (gm.web.server): the one that holds an exclusive
lock on a file in the home. Apart from the server, so that `gm check` asks without loading it."""

from __future__ import annotations

import fcntl
import os
import socket
from pathlib import Path

LOCK_FILE = "web-server.lock"  # in the home: held by the one gm process of this host that serves the web


class WebLock:
    """Which gm process of one home serves the web: the one that holds an exclusive lock on a
    file (released by the system when that process ends, however it ends), the file naming it."""

    def __init__(self, path: Path):
        self.path = path
        self._handle: int | None = None

    def take(self) -> bool:
        """True once this process holds the lock (it keeps it until it ends)."""
        if self._handle is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            return False
        os.ftruncate(handle, 0)
        os.pwrite(handle, f"gm process {os.getpid()} on {socket.gethostname()}\n".encode(), 0)
        self._handle = handle
        return True

    def holder(self) -> str | None:
        """Who holds the lock now ("gm process 5120 on judge1"), or None when no process does."""
        if self._handle is not None:
            return f"this gm process ({os.getpid()})"
        try:
            handle = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return None
        try:
            try:
                fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return self.path.read_text(encoding="utf-8").strip() or "another gm process"
            fcntl.flock(handle, fcntl.LOCK_UN)
            return None
        finally:
            os.close(handle)
