"""PostgreSQL restarted under real `gm run` daemons (a server of the test's own, with durable
settings: `pg_ctl restart -m fast` and `-m immediate`) while players' mails are stored,
handled, phases processed and their mails sent through an SMTP server.

A lost connection is no fault of a mail: afterwards every mail is stored once, handled (none
shunted, no "shunted" in any log), answered once; and since no process died, none of the mails
the SMTP server accepted came twice (counted by Message-ID at the server). The daemons are
never restarted: they ride the outages out.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Iterator
from email import message_from_bytes
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from gm.store.models import Game, InboundMail, InboundStatus, OutboundMail, OutboundStatus
from tests.races.judge import Judge
from tests.races.own_postgres import OwnPostgres, free_port
from tests.races.test_races import REPLY_KINDS, _orders

PHASES = 3


class Capture:
    """The outbound SMTP server: keeps every message it accepted."""

    def __init__(self) -> None:
        self.received: list[Any] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        with self.lock:
            self.received.append(message_from_bytes(envelope.content))
        return "250 Message accepted"

    def message_ids(self) -> Counter[str]:
        with self.lock:
            return Counter(str(message["Message-ID"]) for message in self.received)


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[OwnPostgres]:
    server = OwnPostgres.start()
    try:
        yield server
    finally:
        server.purge()


@pytest.fixture
def smtp() -> Iterator[tuple[Capture, int]]:
    capture = Capture()
    port = free_port()
    controller = Controller(capture, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield capture, port
    finally:
        controller.stop()


def _judge(tmp_path: Path, own_postgres: OwnPostgres, smtp_port: int) -> Judge:
    judge = Judge(tmp_path / "judge", own_postgres.new_database())
    judge.config_file.write_text(judge.config_file.read_text().replace(
        f"outbound: {{kind: maildir, path: {judge.outbox}}}\n",
        f"outbound: {{kind: smtp, host: 127.0.0.1, port: {smtp_port}, tls: none}}\n"), encoding="utf-8")
    return judge


def _settled(judge: Judge) -> tuple[list[int], list[int]]:
    with judge.app().db.reading() as session:
        new = session.scalars(select(InboundMail.id).where(InboundMail.status == InboundStatus.NEW)).all()
        pending = session.scalars(select(OutboundMail.id).where(OutboundMail.status == OutboundStatus.PENDING)).all()
    return list(new), list(pending)


def _unfinished(judge: Judge) -> str:
    """What the database holds of mails not finished: for a failure's message."""
    with judge.app().db.reading() as session:
        mails = session.execute(select(InboundMail.id, InboundMail.sender, InboundMail.status, InboundMail.received_at)
                                .where(InboundMail.status != InboundStatus.DONE)).all()
        game = session.execute(select(Game.phase_seq, Game.status, Game.due_at, Game.orders_complete_at, Game.deadline)).all()
        replies = [m.body[:400] for m in session.scalars(select(OutboundMail).where(OutboundMail.kind.in_(REPLY_KINDS)))]
    judge.close()
    return f"mails not done: {mails}, piped: {dict(judge.piped)}, game {game}, replies {replies}"


def _died(daemons: list[Any], logs: list[Path]) -> str:
    return "a daemon died:\n" + "\n".join(
        f"exit {d.returncode}: {d.stderr.read().decode(errors='replace')[-2000:]}\n{log.read_text()[-3000:]}"
        for d, log in zip(daemons, logs) if d.poll() is not None)


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(240)
@pytest.mark.parametrize("delivery", ["inbox", "pipe"])
def test_postgresql_restarted_under_the_daemons_loses_and_repeats_nothing(
        own_postgres: OwnPostgres, smtp: tuple[Capture, int], tmp_path: Path, delivery: str) -> None:
    """``delivery``: the players' mails dropped into the inbox folder the daemons read, or piped
    to `gm receive` as a mail server does (handed over to a daemon, or handled alone when none
    answers; tried again on exit 75), several at once, while the database restarts."""
    capture, port = smtp
    judge = _judge(tmp_path, own_postgres, port)
    rng = random.Random(40)
    logs = [tmp_path / f"daemon{i}.log" for i in (1, 2)]
    daemons = []
    restarts: Counter[str] = Counter()
    pipes = ThreadPoolExecutor(max_workers=4)
    try:
        judge.start_game()
        daemons = [judge.spawn("--log-file", str(log), "run", "--interval", "1") for log in logs]
        modes = iter(["fast", "immediate"] * 20)

        def restart() -> None:
            mode = next(modes)
            judge.close()  # the test's own connections must not keep anything either
            own_postgres.restart(mode)
            restarts[mode] += 1

        for _ in range(PHASES if delivery == "inbox" else 2):
            seq, orders = _orders(judge, rng)
            judge.close()
            powers = sorted(orders)
            piped = []
            for number, power in enumerate(powers):
                raw = judge.mail(power, "\n".join(orders[power]), meant_for=seq)
                if delivery == "inbox":
                    judge.drop(raw)
                else:
                    piped.append(pipes.submit(judge.pipe, raw))
                if number == len(powers) // 2:
                    time.sleep(rng.uniform(0.0, 0.4))
                    restart()  # while the first mails are being stored and handled
            for pipe in piped:
                pipe.result()  # each taken at last (exit 0), however many times it was told to try again
            time.sleep(rng.uniform(0.3, 1.0))
            restart()  # the last orders in: while the phase is processed, or its results sent
            deadline = time.monotonic() + 60
            while judge.game_phase()[0] == seq:
                assert time.monotonic() < deadline, f"phase {seq} was never processed ({_unfinished(judge)}): " + "".join(
                    log.read_text()[-4000:] for log in logs)
                assert all(d.poll() is None for d in daemons), _died(daemons, logs)
                time.sleep(0.2)
            restart()  # while the results go out
        deadline = time.monotonic() + 60
        while True:
            new, pending = _settled(judge)
            if not new and not pending and judge.unread_in_inbox() == 0:
                break
            assert time.monotonic() < deadline, f"never settled: {len(new)} new, {len(pending)} pending mails"
            time.sleep(0.5)
        assert all(d.poll() is None for d in daemons), _died(daemons, logs)
    finally:
        pipes.shutdown(cancel_futures=True)
        for daemon in daemons:
            daemon.terminate()
        for daemon in daemons:
            try:
                daemon.wait(timeout=30)
            except Exception:  # noqa: BLE001 - killed below
                daemon.kill()
        judge.close()

    with judge.app().db.reading() as session:
        inbound = list(session.scalars(select(InboundMail)))
        outbox = list(session.scalars(select(OutboundMail)))
    judge.close()
    said = "".join(log.read_text(encoding="utf-8") for log in logs)

    assert restarts["fast"] >= 3 and restarts["immediate"] >= 3, restarts
    stored = Counter(mail.message_id for mail in inbound)
    assert sorted(stored) == sorted(judge.sent_mails) and set(stored.values()) == {1}
    assert Counter(mail.status for mail in inbound) == {InboundStatus.DONE: len(inbound)}, [
        (mail.id, mail.status, mail.error[-300:]) for mail in inbound if mail.status != InboundStatus.DONE]
    assert "shunted" not in said
    replies = Counter(mail.in_reply_to for mail in outbox if mail.kind in REPLY_KINDS)
    assert replies == Counter({mail.message_id: 1 for mail in inbound})
    assert all(mail.status == OutboundStatus.SENT for mail in outbox)
    accepted = capture.message_ids()
    assert set(accepted) == {mail.message_id for mail in outbox}
    assert [mid for mid, count in accepted.items() if count > 1] == []  # no process died: no second copy
    assert "Traceback" not in said, said[-3000:]
    assert " is away: " in said and " is back after " in said  # the daemons did meet the restarts
    print(f"{len(inbound)} mails in, {len(outbox)} out, restarts {dict(restarts)}, piped {dict(judge.piped)}")


class StopsTheDatabase(Capture):
    """An SMTP server that accepts the first mail only once PostgreSQL is down: the sender has
    handed the mail over and cannot record it. PostgreSQL comes back a few seconds later."""

    def __init__(self, server: OwnPostgres, away: float) -> None:
        super().__init__()
        self.server = server
        self.away = away
        self.stopped = threading.Event()
        self.started_again = threading.Event()

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        if not self.stopped.is_set():
            self.stopped.set()
            self.server.stop()  # before the 250: the mail is accepted while the database is away

            def later() -> None:
                time.sleep(self.away)
                self.server.start_again()
                self.started_again.set()
            threading.Thread(target=later, daemon=True).start()
        return await super().handle_DATA(server, session, envelope)


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(180)
def test_a_mail_accepted_while_the_database_is_away_is_recorded_by_its_sender_and_sent_once(
        own_postgres: OwnPostgres, tmp_path: Path) -> None:
    handler = StopsTheDatabase(own_postgres, away=6.0)
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    judge = _judge(tmp_path, own_postgres, port)
    # A claim renewed before sending holds lock_timeout + 10 s: 12 s here, run out well before the end
    judge.config_file.write_text(judge.config_file.read_text().replace("lock_timeout: 15", "lock_timeout: 2"),
                                 encoding="utf-8")
    logs = [tmp_path / f"daemon{i}.log" for i in (1, 2)]
    daemons = []
    try:
        judge.start_game()  # the joined and start mails wait in the outbox
        judge.close()
        daemons = [judge.spawn("--log-file", str(log), "run", "--interval", "1") for log in logs]
        assert handler.started_again.wait(60), "no mail was sent"
        deadline = time.monotonic() + 60
        while _settled(judge)[1]:
            assert time.monotonic() < deadline, "the outbox was never sent"
            time.sleep(0.5)
        judge.close()
        time.sleep(14)  # longer than any claim: a mail left unrecorded would go again by now
        assert all(d.poll() is None for d in daemons), _died(daemons, logs)
    finally:
        for daemon in daemons:
            daemon.terminate()
        for daemon in daemons:
            daemon.wait(timeout=30)
        controller.stop()
    with judge.app().db.reading() as session:
        outbox = list(session.scalars(select(OutboundMail)))
    judge.close()
    said = "".join(log.read_text(encoding="utf-8") for log in logs)
    first = str(handler.received[0]["Message-ID"])
    accepted = handler.message_ids()
    assert accepted[first] == 1 and set(accepted.values()) == {1}, accepted
    assert set(accepted) == {mail.message_id for mail in outbox}
    assert all(mail.status == OutboundStatus.SENT and mail.attempts == 1 for mail in outbox)
    assert " is away: " in said and " is back after " in said and "Traceback" not in said, said[-3000:]


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(180)
def test_a_database_away_for_30_seconds_is_a_few_lines_in_the_log(own_postgres: OwnPostgres, tmp_path: Path) -> None:
    """Once when it goes (naming the database, with its error), once when it is back (how long,
    what waited), nothing in between but what a minute brings: no traceback, no line per try."""
    judge = Judge(tmp_path / "judge", own_postgres.new_database())
    log = tmp_path / "daemon.log"
    daemon = None
    try:
        judge.start_game()
        judge.close()
        daemon = judge.spawn("--log-file", str(log), "run", "--interval", "1")
        deadline = time.monotonic() + 60
        while "waiting for mail" not in (log.read_text() if log.exists() else "") or _settled(judge)[1]:
            assert time.monotonic() < deadline, "the daemon never settled"
            time.sleep(0.3)
        judge.close()
        time.sleep(2)
        before = len(log.read_text().splitlines())
        own_postgres.stop()
        deadline = time.monotonic() + 10
        while " is away: " not in "\n".join(log.read_text().splitlines()[before:]):
            assert time.monotonic() < deadline, "the daemon never noticed the database gone"
            time.sleep(0.1)
        time.sleep(30)  # away 30 s from when it noticed: the span it logs is 30 s and what the restart takes
        own_postgres.start_again()
        time.sleep(5)  # every loop has met the database again
        assert daemon.poll() is None, _died([daemon], [log])
    finally:
        if daemon is not None:
            daemon.terminate()
            daemon.wait(timeout=30)
        judge.close()
    lines = log.read_text(encoding="utf-8").splitlines()[before:]
    during = lines[:lines.index(next(line for line in lines if "SIGTERM" in line))]
    assert 2 <= len(during) <= 5, during
    assert re.search(r"WARNING gm.store.database: the database postgresql://127.0.0.1:\d+/gm_restart_\w+ is away: ",
                     during[0]), during
    assert re.search(r"INFO gm.store.database: the database .* is back after 3\d s; what waited goes on now: ",
                     during[-1]), during
    assert not any("Traceback" in line or "ERROR" in line for line in during), during
