"""A cron tick's first look (gm.runtime.idle, gm.store.due) finds work due exactly when the tick's
own parts would do something: the scheduler's games and openings due, the outbox's claim, the
inbox folder's waiting files, the settings files' sync; and where it widens (a mail stored and
not handled, the outbound server failing) the whole tick runs. States are varied by hypothesis
over the rows the real parts read."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, text, update

from gm.config import AppConfig, MailboxConfig
from gm.games import openings
from gm.runtime.idle import what_is_due
from gm.store.models import Game, InboundMail, Opening, OutboundMail, Seat, ServerHealth
from gm.store.status import GameStatus, InboundStatus, OutboundStatus
from gm.transport.maildir import MaildirInbox
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

EXAMPLES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# Moments around now: the boundaries are where a look and the real query could part.
OFFSETS = st.sampled_from([None, -3600.0, -1e-6, 0.0, 1e-6, 3600.0])


class Taken:
    """A transport that keeps what it is handed."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def send(self, message: EmailMessage) -> None:
        self.messages.append(message)


def _look(world: World) -> str:
    return what_is_due(world.config, world.clock.now())


def _sent(world: World) -> int:
    taken = Taken()
    asyncio.run(world.app.dispatcher(taken).drain())
    return len(taken.messages)


def _at(world: World, offset: float | None):  # type: ignore[no-untyped-def]
    return None if offset is None else world.clock.now() + timedelta(seconds=offset)


@pytest.fixture
def judge(world: World) -> World:
    """A started standard game, its start mails sent, the inbox folder made: nothing due."""
    MaildirInbox(world.config.inbound.path).waiting()  # makes the folder, as the first tick does
    world.write_game("g", game_file())
    world.tick()
    _sent(world)
    return world


def test_a_judge_with_nothing_due_is_seen_idle_and_its_whole_tick_does_nothing(judge: World) -> None:
    assert _look(judge) == ""
    assert asyncio.run(judge.app.daemon().once()).done() == "did nothing"


@EXAMPLES
@given(status=st.sampled_from([GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED, GameStatus.FINISHED]),
       due=OFFSETS)
def test_a_game_is_due_when_the_scheduler_would_take_it(judge: World, status: str, due: float | None) -> None:
    with judge.services.db.unit_of_work() as session:
        session.execute(update(Game).values(status=status, due_at=_at(judge, due)))
    assert (_look(judge) == "a game due") == bool(judge.app.scheduler.due_games())
    assert _look(judge) in ("", "a game due")


@EXAMPLES
@given(until=OFFSETS, closed=st.booleans())
def test_an_open_power_is_due_when_the_scheduler_would_pass_its_offer_on(judge: World, until: float | None,
                                                                        closed: bool) -> None:
    with judge.services.db.unit_of_work() as session:
        seat = session.scalars(select(Seat)).first()
        assert seat is not None
        opening = session.scalars(select(Opening)).first() or Opening(
            game_id=seat.game_id, power_key=seat.power_key, seat_id=seat.id, reason="resigned",
            opened_at=judge.clock.now())
        opening.offer_until = _at(judge, until)
        opening.closed_at = judge.clock.now() if closed else None
        session.add(opening)
    with judge.services.db.reading() as session:
        due = openings.due(session, judge.clock.now())
    assert (_look(judge) == "an open power's offer run out") == bool(due)


@EXAMPLES
@given(status=st.sampled_from([OutboundStatus.PENDING, OutboundStatus.SENT, OutboundStatus.FAILED]),
       attempt=OFFSETS.filter(lambda o: o is not None), lease=OFFSETS)
def test_mail_is_due_when_a_sender_would_claim_it(judge: World, status: str, attempt: float,
                                                  lease: float | None) -> None:
    with judge.services.db.unit_of_work() as session:
        if session.scalar(select(OutboundMail.id).limit(1)) is None:
            judge.services.mailer.queue(session, to="austria@example.test", subject="s", template="mail/reply.txt.j2",
                                        kind="reply", body="b\n")
        session.execute(update(OutboundMail).values(status=status, next_attempt_at=_at(judge, attempt),
                                                    lease_until=_at(judge, lease), lease_owner="another"))
    looked = _look(judge)
    assert (looked == "mail to send") == bool(_sent(judge))
    assert looked in ("", "mail to send")


def test_a_mail_stored_and_not_handled_is_due_however_recent(judge: World) -> None:
    with judge.services.db.unit_of_work() as session:
        session.add(InboundMail(message_id="<m@example.test>", sender="a@example.test", raw=b"Subject: x\n\nHELP\n",
                                status=InboundStatus.NEW, received_at=judge.clock.now()))
    assert _look(judge) == "a mail stored and not handled"
    with judge.services.db.unit_of_work() as session:
        session.execute(update(InboundMail).values(status=InboundStatus.DONE))
    assert _look(judge) == ""


def test_the_outbound_server_failing_is_due_the_tick_reports_it(judge: World) -> None:
    with judge.services.db.unit_of_work() as session:
        session.add(ServerHealth(name="outbound", failing_since=judge.clock.now(), next_try_at=judge.clock.now()
                                 + timedelta(hours=1), last_error="refused"))
    assert _look(judge) == "the outbound server failing"
    assert asyncio.run(judge.app.daemon().once()).problems()  # what cron must hear of, every tick


@pytest.mark.parametrize("name, due", [("new/1.host", True), ("cur/2.host:2,", True), ("cur/3.host:2,S", False),
                                       ("cur/4.host:2,FS", False), ("new/.hidden", False)])
def test_mail_in_the_inbox_folder_is_due_as_the_inbox_would_deliver_it(judge: World, name: str, due: bool) -> None:
    inbox = judge.config.inbound.path
    assert inbox is not None
    (inbox / name).write_bytes(b"Subject: x\n\nHELP\n")
    assert bool(MaildirInbox(inbox).waiting()) is due
    assert _look(judge) == ("mail in the inbox" if due else "")


def test_a_settings_file_new_or_changed_is_due_until_the_tick_reads_it(judge: World) -> None:
    path = judge.write_game("h", game_file(players=3))
    assert _look(judge) == f"the settings file {path}, new or changed"
    judge.tick()
    _sent(judge)
    assert _look(judge) == ""
    path.write_text(game_file(players=3, extra="press: none\n"), encoding="utf-8")
    assert _look(judge) == f"the settings file {path}, new or changed"
    judge.tick()
    _sent(judge)
    assert _look(judge) == ""
    path.write_text("variant: [\n", encoding="utf-8")  # refused, and read again at every tick, as before
    judge.tick()
    assert _sent(judge) == 1  # the GM told
    assert _look(judge).startswith("the settings file")


def test_what_the_look_cannot_read_runs_the_whole_tick(judge: World, tmp_path: Path) -> None:
    with judge.services.db.unit_of_work() as session:
        session.execute(text("UPDATE alembic_version SET version_num = 'older'"))
    assert _look(judge).startswith("the database not read (the schema is not at the newest revision")
    elsewhere = AppConfig(**{**judge.config.__dict__, "database_url": f"sqlite:///{tmp_path / 'none.db'}"})
    assert what_is_due(elsewhere, judge.clock.now()) == "the database not read (no database file yet)"
    on_a_server = AppConfig(**{**judge.config.__dict__, "inbound": MailboxConfig(kind="imap", host="mail.test")})
    assert what_is_due(on_a_server, judge.clock.now()) == "an inbox on a server: only reading it tells"


def test_a_tick_with_nothing_due_loads_neither_the_store_nor_an_event_loop(tmp_path: Path) -> None:
    config = tmp_path / "gm.yaml"
    config.write_text(f"home: {tmp_path / 'home'}\njudge_address: judge@example.test\n")
    tick = ("import sys; from gm.cli import main\n"
            f"assert main.main(['--config', {str(config)!r}, 'tick']) == 0\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'asyncio', 'jinja2', 'psycopg') "
            "or m.startswith(('gm.app', 'gm.store.models', 'gm.services', 'gm.runtime.scheduler'))))")

    def loaded() -> str:
        done = subprocess.run([sys.executable, "-c", tick], capture_output=True, text=True, check=True)
        return done.stdout.strip().splitlines()[-1]

    assert "sqlalchemy" in loaded()  # the first: no database yet, made by the whole tick
    assert loaded() == "[]"
