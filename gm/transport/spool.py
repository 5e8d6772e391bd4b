"""The spool: where `gm receive` leaves a piped mail when no `gm run` takes it, for a process of
its own to store, handle and answer. The mail server's pipe then ends once the mail is safe on
disk (about a tenth of a second) instead of after the whole of gm is loaded (over half a second
of processor time for every mail).

A mail is written under tmp/, flushed to the disk and renamed into new/, as a Maildir does: a
file in new/ is always whole. Each file is one line of JSON (the source key, and the whole mail's
size when only its first part was kept, as gm.transport.pipe read it) and then the mail's bytes.
Files are taken oldest first (their names begin with the time they were written); a file is
removed once the intake returned for it (stored and handled, or known already). A failure leaves
it, and every file after it, for the next round, as the other inboxes do.

One process at a time takes them: the one holding the lock of the ``.taking`` file. Taking a
mail twice would be harmless (the intake knows it again by its source key) but wasteful. A
process that finds the lock held leaves its mail to the holder, which looks again after it lets
go: the mail was in new/ before that look. Only the standard library here: `gm receive` uses it
before anything else is loaded.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the contracts' module loads ssl: a cron tick's first look does without it
    from gm.transport.base import Deliver

log = logging.getLogger(__name__)

SPOOL_NAME = "spool"
LOCK_NAME = ".taking"
HEADER_LIMIT = 4096


def spool_path(home: Path) -> Path:
    return home / SPOOL_NAME


@dataclass(frozen=True)
class Spooled:
    raw: bytes
    source_key: str
    size: int | None  # the whole mail's, when ``raw`` is only its first part


class Unreadable(ValueError):
    """A file in new/ that is not a spooled mail (written by something else)."""


class Spool:
    def __init__(self, path: Path):
        self.path = path

    def put(self, raw: bytes, source_key: str, size: int | None) -> Path:
        """Writes the mail, on the disk when this returns; raises `OSError` when it cannot."""
        self._make()
        name = f"{time.time_ns():020d}.{os.getpid()}.{os.urandom(4).hex()}"
        writing, target = self.path / "tmp" / name, self.path / "new" / name
        header = json.dumps({"source_key": source_key, "size": size}).encode() + b"\n"
        handle = os.open(writing, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            try:
                with os.fdopen(handle, "wb", closefd=False) as stream:
                    stream.write(header + raw)
                os.fsync(handle)
            finally:
                os.close(handle)
            os.rename(writing, target)
        except BaseException:
            with contextlib.suppress(OSError):
                writing.unlink()
            raise
        folder = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(folder)  # the rename itself on the disk
        finally:
            os.close(folder)
        return target

    def waiting(self) -> list[Path]:
        """The mails left, oldest first (none when there is no spool yet)."""
        try:
            names = sorted(entry.name for entry in os.scandir(self.path / "new")
                           if not entry.name.startswith(".") and entry.is_file())
        except FileNotFoundError:
            return []
        return [self.path / "new" / name for name in names]

    @staticmethod
    def read(file: Path) -> Spooled:
        """Raises `Unreadable` for a file that is no spooled mail, `FileNotFoundError` for one
        taken meanwhile."""
        data = file.read_bytes()
        line, newline, raw = data.partition(b"\n")
        try:
            if not newline or len(line) > HEADER_LIMIT:
                raise ValueError("no header line")
            header = json.loads(line)
            source_key, size = str(header["source_key"]), header["size"]
            if not source_key or not (size is None or isinstance(size, int)):
                raise ValueError(f"a header of another form: {line[:200]!r}")
        except (ValueError, KeyError, TypeError) as exc:
            raise Unreadable(f"{file}: not a spooled mail ({exc})") from exc
        return Spooled(raw, source_key, size)

    async def drain(self, deliver: Deliver) -> int:
        """Delivers the mails left now, oldest first, and how many; stops at (and raises) the
        first failure of ``deliver``. A file that is no spooled mail is set aside in unreadable/,
        kept as it is, and said in the log."""
        delivered = 0
        for file in self.waiting():
            try:
                mail = self.read(file)
            except FileNotFoundError:
                continue
            except Unreadable as exc:
                self._set_aside(file, exc)
                continue
            if mail.size is None:
                await deliver(mail.raw, mail.source_key)
            else:
                await deliver(mail.raw, mail.source_key, mail.size)
            file.unlink(missing_ok=True)
            delivered += 1
        return delivered

    async def take_all(self, deliver: Deliver) -> int:
        """``drain`` while this process holds the lock (none when another does: it takes them),
        then a look after letting go, for a mail left to this process meanwhile."""
        delivered = 0
        while True:
            with self.taking() as mine:
                if not mine:
                    return delivered
                delivered += await self.drain(deliver)
            if not self.waiting():
                return delivered

    @contextlib.contextmanager
    def taking(self) -> Iterator[bool]:
        """Whether this process got the lock (held until the block ends); never waits for it."""
        self._make()
        handle = os.open(self.path / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            yield True
        finally:
            os.close(handle)  # lets go of the lock

    def _make(self) -> None:
        """The spool's folders, its owner's only (a mail may carry a password)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for folder in (self.path, self.path / "tmp", self.path / "new"):
            folder.mkdir(mode=0o700, exist_ok=True)

    def _set_aside(self, file: Path, why: Exception) -> None:
        aside = self.path / "unreadable"
        aside.mkdir(mode=0o700, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            os.replace(file, aside / file.name)
            log.error("%s; kept in %s", why, aside)
