"""`gm run` keeps reading and answering mail while a big deadline's results go out: the event loop
only waits, and every database step, every adjudication and every picture runs elsewhere
(gm.runtime.daemon). Checked by where the work runs, not by how long it takes."""

from __future__ import annotations

import asyncio
import mailbox
import time
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

import gm.games.pictures as pictures
import gm.runtime.scheduler as scheduler_module
from gm.runtime.daemon import Daemon
from gm.services.drawing import Here
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
    watch(scheduler_module, "process")
    watch(pictures, "draw")
    return found


def test_mail_is_read_and_answered_while_a_big_deadline_is_sent(world: World, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(GAMES):
        world.write_game(f"g{n}", game_file())
    world.tick()
    services = world.services
    inbox_path = tmp_path / "inbox"
    mailbox.Maildir(inbox_path, create=True)
    sender = SlowSender()
    dispatcher = Dispatcher(services, sender, drawer=Here(services.catalog))
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
        running = asyncio.create_task(daemon.run(tick_seconds=0.2, send_seconds=0.1))
        try:
            await _until(lambda: any(m["X-GM-Kind"] == "results" for _, m in sender.sent))
            help_mail = EmailMessage()
            help_mail["From"], help_mail["To"], help_mail["Subject"] = "someone@example.test", "judge@example.test", "help"
            help_mail["Message-ID"] = "<help-during-drain@example.test>"
            help_mail.set_content("HELP\n")
            mailbox.Maildir(inbox_path, create=False).add(help_mail.as_bytes())
            await _until(lambda: any(m["To"] == "someone@example.test" for _, m in sender.sent))
        finally:
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)

    asyncio.run(scenario())
    results = [at for at, m in sender.sent if m["X-GM-Kind"] == "results"]
    assert len(results) == GAMES * 8
    assert answered and answered[0] < results[-1]  # read, handled and its answer queued mid-drain
    assert sum(at > answered[0] for at in results) >= 8  # a game's results, at least, still went after it
    assert on_the_loop == []


async def _until(condition: Any, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)
