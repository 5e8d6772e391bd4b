"""The judge's side of gm.transport.handoff: `gm run` takes the mails `gm receive` hands over on
its socket, each stored and handled as its inbox's are, and answers each in one line."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path

from gm.transport.handoff import HEADER_LIMIT, Answer, Outcome, answers, reachable

log = logging.getLogger(__name__)

# (raw, source_key, size or None) -> None once stored and handled; raises as Intake.receive does
Receive = Callable[[bytes, str, "int | None"], Awaitable[None]]
Classify = Callable[[BaseException], Answer]  # an exception of ``receive`` as the answer to give


class HandoffServer:
    """The judge's side: takes mails handed over on ``path`` while it serves."""

    def __init__(self, path: Path, receive: Receive, classify: Classify, read_limit: int,
                 then: Callable[[], Awaitable[None]]):
        self.path = path
        self.receive = receive
        self.classify = classify
        self.read_limit = read_limit
        self.then = then  # after each mail is answered (a deadline it made due, its answers sent)
        self._inode: int | None = None  # of the socket file made: removed at the end if still ours

    async def serve(self) -> None:
        try:
            server = await self._listen()
        except OSError as exc:
            log.info("gm receive hands no mail to this gm run: %s", exc)
            return
        log.info("taking mails from gm receive on %s", self.path)
        try:
            async with server:
                await server.serve_forever()
        finally:
            with contextlib.suppress(OSError):
                if self.path.stat().st_ino == self._inode:  # ours, not a later judge's
                    self.path.unlink()

    async def _listen(self) -> asyncio.AbstractServer:
        if answers(self.path):
            raise OSError(f"another gm run takes them on {self.path}")
        # Made under a name of its own, made the owner's only, then put in place: nobody else can
        # connect at any moment (the umask is the whole process's, and other threads write files).
        making = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with contextlib.suppress(FileNotFoundError):
                making.unlink()
            with reachable(making) as address:
                listener.bind(address)
            making.chmod(0o600)
            making.replace(self.path)  # over one left by a judge that is gone
            self._inode = self.path.stat().st_ino
            listener.listen()
            return await asyncio.start_unix_server(self._take, sock=listener, limit=HEADER_LIMIT)
        except BaseException:
            listener.close()
            with contextlib.suppress(OSError):
                making.unlink()
            raise

    async def _take(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            try:
                read = await self._read(reader)
                if read is None:  # nothing sent: another judge looking whether this one listens
                    return
                raw, source_key, size = read
            except (ValueError, KeyError, TypeError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
                log.warning("a mail handed over by gm receive could not be read: %s", exc)
                await _answer(writer, Answer(Outcome.FAILED, f"unreadable hand-over ({exc})"))
                return
            try:
                await self.receive(raw, source_key, size)
            except Exception as exc:  # noqa: BLE001 - gm receive says it to the mail server
                answer = self.classify(exc)
                log.warning("a mail handed over by gm receive: %s %s", answer.outcome.value, answer.why)
            else:
                answer = Answer(Outcome.DONE)
            await _answer(writer, answer)
        finally:
            writer.close()
        await self.then()

    async def _read(self, reader: asyncio.StreamReader) -> tuple[bytes, str, int | None] | None:
        try:
            line = await reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as exc:
            if not exc.partial:
                return None
            raise
        header = json.loads(line)
        length, size, source_key = int(header["length"]), header["size"], str(header["source_key"])
        if not 0 <= length <= self.read_limit or not source_key:
            raise ValueError(f"a mail of {length} bytes (at most {self.read_limit} are taken)")
        return await reader.readexactly(length), source_key, None if size is None else int(size)


async def _answer(writer: asyncio.StreamWriter, answer: Answer) -> None:
    why = " ".join(answer.why.split())  # one line
    writer.write(f"{answer.outcome.value} {why}".rstrip().encode() + b"\n")
    with contextlib.suppress(ConnectionError):
        await writer.drain()


