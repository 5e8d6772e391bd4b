"""`gm run` keeps reading and answering mail while a big deadline's results go out: the event loop
only waits, and every database step, every adjudication and every picture runs elsewhere
(gm.runtime.daemon). Checked by where the work runs; and, with the pictures drawn in worker
processes as `gm run` draws them, by how late the loop wakes a task that asks to run every 10 ms:
never 100 ms late."""

from __future__ import annotations

import asyncio
import mailbox
import time
from collections.abc import Coroutine
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

import gm.games.pictures as pictures
import gm.services.processing as processing
from gm.runtime.daemon import Daemon
from gm.services.drawing import Here, Workers
from gm.services.sending import Dispatcher
from gm.transport.maildir import MaildirInbox
from tests.store.conftest import World, game_file

GAMES = 12


class SlowSender:
    """An SMTP server that takes 10 ms a mail; notes when each mail was handed over."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, EmailMessage]] = []

    async def send(self, message: EmailMessage) -> None:
        await asyncio.sleep(0.01)
        self.sent.append((time.perf_counter(), message))


def _on_the_loop(monkeypatch: pytest.MonkeyPatch, engine: Any) -> list[str]:
    """Every database connection taken, adjudication and picture begun on an event loop's thread."""
    found: list[str] = []

    def note(name: str) -> None:
        try:
            asyncio.get_running_loop()
            found.append(name)
        except RuntimeError:
            pass  # a worker thread: no loop runs here

    def watch(owner: Any, name: str) -> None:
        original = getattr(owner, name)

        def watched(*args: Any, **kwargs: Any) -> Any:
            note(name)
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, watched)

    event.listen(engine, "checkout", lambda *_: note("a database connection"))
    watch(processing, "process")  # the scheduler takes it from there at each game due
    watch(pictures, "draw")
    return found


def test_mail_is_read_and_answered_while_a_big_deadline_is_sent(world: World, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    sent, answered, on_the_loop = _big_deadline(world, tmp_path, monkeypatch, Here(world.services.catalog))
    _answered_mid_drain(sent, answered)
    assert on_the_loop == []


@pytest.mark.slow
def test_the_event_loop_is_never_blocked_100_ms_while_a_big_deadline_is_sent(world: World, tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    lateness: list[float] = []
    workers = Workers(2)
    try:
        sent, answered, on_the_loop = _big_deadline(world, tmp_path, monkeypatch, workers, during=_heartbeat(lateness))
    finally:
        workers.close()
    _answered_mid_drain(sent, answered)
    assert on_the_loop == []
    assert len(lateness) > 50  # it beat throughout the drain
    assert max(lateness) < 0.1, f"the loop was blocked for {max(lateness) * 1000:.0f} ms"


def _big_deadline(world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawer: Any,
                  during: Coroutine[Any, Any, None] | None = None) -> tuple[list[tuple[float, EmailMessage]], list[float], list[str]]:
    """The daemon sending GAMES games' results, a HELP mail arriving once the first went, and
    ``during`` running beside the daemon: the mails sent with when, when the HELP was handled,
    and what ran on the loop's thread."""
    for n in range(GAMES):
        world.write_game(f"g{n}", game_file())
    world.tick()
    services = world.services
    inbox_path = tmp_path / "inbox"
    mailbox.Maildir(inbox_path, create=True)
    sender = SlowSender()
    dispatcher = Dispatcher(services, sender, drawer=drawer)
    asyncio.run(dispatcher.drain(limit=10_000))  # the start mails
    sender.sent.clear()
    world.clock.advance(timedelta(hours=49))  # every game falls due
    answered: list[float] = []
    receive = world.app.intake.receive

    def receive_and_note(*args: Any) -> Any:
        done = receive(*args)
        answered.append(time.perf_counter())
        return done

    monkeypatch.setattr(world.app.intake, "receive", receive_and_note)
    on_the_loop = _on_the_loop(monkeypatch, services.db.engine)
    daemon = Daemon(MaildirInbox(inbox_path, poll_seconds=0.05), world.app.intake, world.app.scheduler, dispatcher)

    async def scenario() -> None:
        running = [asyncio.create_task(daemon.run(tick_seconds=0.2, send_seconds=0.1))]
        if during is not None:
            running.append(asyncio.create_task(during))
        try:
            await _until(lambda: any(m["X-GM-Kind"] == "results" for _, m in sender.sent))
            help_mail = EmailMessage()
            help_mail["From"], help_mail["To"], help_mail["Subject"] = "someone@example.test", "judge@example.test", "help"
            help_mail["Message-ID"] = "<help-during-drain@example.test>"
            help_mail.set_content("HELP\n")
            mailbox.Maildir(inbox_path, create=False).add(help_mail.as_bytes())
            await _until(lambda: any(m["To"] == "someone@example.test" for _, m in sender.sent)
                         and sum(m["X-GM-Kind"] == "results" for _, m in sender.sent) == GAMES * 8)
        finally:
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)

    asyncio.run(scenario())
    return sender.sent, answered, on_the_loop


def _answered_mid_drain(sent: list[tuple[float, EmailMessage]], answered: list[float]) -> None:
    results = [at for at, m in sent if m["X-GM-Kind"] == "results"]
    assert len(results) == GAMES * 8
    assert answered and answered[0] < results[-1]  # read, handled and its answer queued mid-drain
    assert sum(at > answered[0] for at in results) >= 8  # a game's results, at least, still went after it


async def _heartbeat(lateness: list[float], beat: float = 0.01) -> None:
    """Asks to run every ``beat`` seconds, noting how late the loop woke it each time."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + beat
        await asyncio.sleep(beat)
        lateness.append(loop.time() - due)


async def _until(condition: Any, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)
