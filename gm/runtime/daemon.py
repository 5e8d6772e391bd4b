"""The running judge: the inbox loop, the scheduler loop and the outbox loop, together.

``once()`` does one round of each (what `gm tick` runs from cron); ``run()`` keeps all three
going (what `gm run` runs under systemd). Everything they share goes through the database, so
any number of `gm tick`, `gm receive` and `gm run` processes may run side by side.

The event loop only waits: handling a mail, a scheduler tick (adjudicating every game due) and
every database step of the outbox run in worker threads, and `gm run` draws the pictures in
worker processes (gm.services.drawing), so mail is read and answered while a big deadline's
results are drawn and sent.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from gm.runtime.scheduler import Scheduler, TickReport
from gm.services.intake import Intake
from gm.services.sending import Dispatcher, Drained
from gm.store.retry import DatabaseBusy, or_left_for_later, said
from gm.transport import Deferred, Deliver, Inbox, InboxUnavailable
from gm.transport.handoff import Answer, Outcome
from gm.transport.handoff_server import HandoffServer
from gm.transport.spool import Spool

log = logging.getLogger(__name__)


class Serves(Protocol):
    """Something `gm run` serves beside its loops until stopped (gm.web.server.WebServer)."""

    async def serve(self) -> None: ...


@dataclass
class RoundReport:
    received: int = 0
    tick: TickReport = field(default_factory=TickReport)
    drained: Drained = field(default_factory=Drained)
    busy: list[str] = field(default_factory=list)  # work left for the next round, and why

    @property
    def sent(self) -> int:
        return self.drained.sent

    def done(self) -> str:
        """What this round did, in words ("received 2 mails, processed g1 S1901M, sent 9 mails")."""
        parts = [f"received {self.received} mails"] if self.received else []
        parts += [f"processed {', '.join(self.tick.processed)}"] if self.tick.processed else []
        parts += [f"sent {self.sent} mails"] if self.sent else []
        return ", ".join(parts) if parts else "did nothing"

    def problems(self) -> list[str]:
        """What an operator must hear of (cron mails what `gm tick` writes on stderr)."""
        found = [*self.busy, *self.tick.busy]
        if self.drained.busy:
            found.append(self.drained.busy)
        if self.drained.outage is not None:
            found.append(f"outgoing mail waits: the outbound server takes no mail ({self.drained.outage.error}); "
                         "fix it, then run `gm outbox --retry-now`")
        return found


class Daemon:
    def __init__(self, inbox: Inbox, intake: Intake, scheduler: Scheduler, dispatcher: Dispatcher,
                 servers: Callable[[], Sequence[Serves]] = tuple, handoff: Path | None = None,
                 spool: Spool | None = None):
        self.inbox = inbox
        self.intake = intake
        self.scheduler = scheduler
        self.dispatcher = dispatcher
        self.servers = servers  # made and served beside the loops by `gm run` only (the web, when configured)
        self.handoff = handoff  # where `gm run` takes the mails `gm receive` hands over (gm.transport.handoff)
        self.spool = spool  # where `gm receive` leaves them when no `gm run` takes them (gm.transport.spool)
        self._wake_sender = asyncio.Event()
        self._ticking = asyncio.Lock()  # one scheduler tick at a time (the mail's and the timer's)

    async def once(self, report: RoundReport | None = None) -> RoundReport:
        """One round of each loop; a part that gave up waiting for the database is noted in the
        report and left for the next round, the others still run. ``report`` is filled in as the
        work is done (what was done before an error is known)."""
        report = report if report is not None else RoundReport()

        async def take(raw: bytes, source_key: str, size: int | None = None) -> None:
            await self._take(raw, source_key, size)
            report.received += 1

        await self._read("the inbox", self.inbox.drain(take), report)
        await self._read("the spool", self._take_spooled(take), report)
        await asyncio.to_thread(self._handle_left_unhandled, report)
        with or_left_for_later("the deadlines", report.busy):
            await asyncio.to_thread(self.scheduler.tick, report.tick)
        with or_left_for_later("sending", report.busy):
            await self.dispatcher.drain(drained=report.drained)
        return report

    @staticmethod
    async def _read(what: str, reading: Awaitable[object], report: RoundReport) -> None:
        """``reading`` (the inbox's or the spool's mail delivered) done; what it could not do is
        noted in ``report``, and its mail waits where it is (or stored) for the next round."""
        try:
            with or_left_for_later(f"reading {what}", report.busy):
                await reading
        except Deferred as exc:  # the database stayed away (or busy)
            report.busy.append(str(exc))
        except (InboxUnavailable, OSError) as exc:  # the deadlines and the outbox do not wait for the mail
            log.warning("%s unavailable: %s", what, exc)
            report.busy.append(f"{what} could not be read ({exc}); its mail waits there for the next run")

    async def _take_spooled(self, take: Deliver) -> None:
        """The mails `gm receive` left in the spool, unless its own process takes them now."""
        if self.spool is not None and self.spool.waiting():
            await self.spool.take_all(take)

    def _handle_left_unhandled(self, report: RoundReport) -> None:
        with or_left_for_later("mails left unhandled", report.busy):
            self.intake.handle_left_unhandled()

    async def run(self, tick_seconds: float = 30.0, send_seconds: float = 5.0) -> None:
        workers = None
        if self.dispatcher.drawer is None:
            from gm.services.drawing import Workers
            workers = self.dispatcher.drawer = Workers()
        # What lives when the daemon starts (modules, variants, templates) lives as long as it:
        # frozen, out of the collector's sight. A full collection holds the loop for as long as
        # it takes to look at every object, 60 ms or more for a judge's start-up objects alone.
        gc.collect()
        gc.freeze()
        try:
            await asyncio.gather(
                self.inbox.run(self._deliver),
                self._every(tick_seconds, self._tick),
                self._every(send_seconds, self._send, wake=self._wake_sender),
                *(server.serve() for server in self.servers()),
                *([self._handoff_server(self.handoff).serve()] if self.handoff else []),
            )
        finally:
            gc.unfreeze()
            if workers is not None:
                self.dispatcher.drawer = None
                await asyncio.to_thread(workers.close)

    async def _receive(self, raw: bytes, source_key: str, size: int | None = None) -> None:
        """The intake's ``deliver``, in a worker thread (raises as it does)."""
        await asyncio.to_thread(self.intake.receive, raw, source_key, size)

    async def _take(self, raw: bytes, source_key: str, size: int | None = None) -> None:
        """The inbox's ``deliver``: a mail the database cannot take now (away, or busy) is
        ``Deferred`` (said already by the database's health, or by the intake)."""
        try:
            await self._receive(raw, source_key, size)
        except DatabaseBusy as exc:
            said(exc)
            raise Deferred(str(exc)) from exc

    async def _deliver(self, raw: bytes, source_key: str, size: int | None = None) -> None:
        await self._take(raw, source_key, size)
        await self._after_mail()

    def _handoff_server(self, path: Path) -> HandoffServer:
        return HandoffServer(path, self._receive, _handoff_answer, self.intake.services.config.read_limit,
                             then=self._after_mail)

    async def _after_mail(self) -> None:
        """After a mail is handled: a PROCESS or the last orders may make a phase due at once, and
        its answer goes within seconds."""
        try:
            await self._schedule()
        except Exception as exc:  # noqa: BLE001 - the mail is handled; the timer's tick runs the deadlines again
            if not self._expected(exc, "the deadlines"):
                log.exception("the deadlines after a mail failed; trying again later")
        self._wake_sender.set()

    def _expected(self, exc: BaseException, what: str) -> bool:
        """Whether ``exc`` is the database away or busy, which the database's health (or the
        work that gave up waiting) has said already: no traceback for it."""
        if isinstance(exc, DatabaseBusy):
            said(exc)
            return True
        return self.intake.services.db.noticed(exc, what) is not None

    async def _send(self) -> None:
        """Drain the outbox; again at once while each drain stops at its limit (a big deadline)."""
        while (await self.dispatcher.drain()).more:
            pass

    async def _tick(self) -> None:
        try:
            await self._take_spooled(self._deliver)
        except Deferred:  # said by whoever raised it: the spool keeps the mail for the next tick
            pass
        await asyncio.to_thread(self._handle_left_unhandled, RoundReport())
        await self._schedule()

    async def _schedule(self) -> None:
        async with self._ticking:
            report = await asyncio.to_thread(self.scheduler.tick)
        for line in report.processed:
            log.info("processed %s", line)
        if report.processed or report.reminded:
            self._wake_sender.set()

    async def _every(self, seconds: float, action, wake: asyncio.Event | None = None) -> None:  # type: ignore[no-untyped-def]
        while True:
            try:
                result = action()
                if asyncio.iscoroutine(result):
                    await result
            except Exception as exc:  # noqa: BLE001 - a daemon loop logs and goes on
                name = getattr(action, "__name__", str(action)).strip("_")
                if not self._expected(exc, _LOOPS.get(name, name)):
                    log.exception("%s failed; trying again later", name)
            if wake is None:
                await asyncio.sleep(seconds)
                continue
            try:
                await asyncio.wait_for(wake.wait(), timeout=seconds)
            except TimeoutError:
                pass
            wake.clear()


_LOOPS = {"tick": "the deadlines", "send": "sending"}  # what each loop's work is called in the log


def _handoff_answer(exc: BaseException) -> Answer:
    """What `gm receive` tells its mail server of a mail the intake raised on, as when it
    handles the mail itself (gm.cli.mail_cmd)."""
    if isinstance(exc, DatabaseBusy):  # stored; a redelivery or the next round handles it
        return Answer(Outcome.BUSY, str(exc))
    return Answer(Outcome.FAILED, f"cannot store the mail now: {exc}")
