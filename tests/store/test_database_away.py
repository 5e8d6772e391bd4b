"""A lost database connection is no fault of the work that met it: the unit of work is run
again once the database answers, left for the next run (``DatabaseAway``) when it stays away;
the log says so once when it goes and once when it is back (gm.outages)."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from gm.outages import Part
from gm.store.database import Database, Timeouts, connection_lost
from gm.store.retry import DatabaseAway, in_transaction
from tests.store.conftest import fresh_postgres_database


@pytest.fixture
def postgres() -> Iterator[Database]:
    with fresh_postgres_database() as url:
        db = Database(url, timeouts=Timeouts(lock=5))
        try:
            yield db
        finally:
            db.dispose()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.postgres
def test_a_connection_ended_by_the_server_is_run_again_and_said_once(
        postgres: Database, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    runs: list[int] = []

    def ended_once(session) -> int:  # type: ignore[no-untyped-def]
        runs.append(1)
        if len(runs) == 1:  # the server ends this very connection (as a restart does), mid-transaction
            session.execute(text("SELECT pg_terminate_backend(pg_backend_pid())"))
        return int(session.execute(text("SELECT 41 + 1")).scalar_one())

    assert in_transaction(postgres, "mail 17", ended_once, sleep=lambda _: None) == 42 and len(runs) == 2
    said = [r.getMessage() for r in caplog.records if r.name == "gm.store.database"]
    assert len(said) == 2, said
    assert said[0].startswith(f"{postgres.health.name} is away: terminating connection due to administrator command")
    assert said[1].startswith(f"{postgres.health.name} is back after 0 s; what waited goes on now: mail 17")
    assert "Traceback" not in caplog.text and "password" not in said[0]


def test_a_database_that_stays_away_leaves_the_work_for_the_next_run(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    db = Database(f"postgresql+psycopg://gm:secret@127.0.0.1:{_closed_port()}/gm", migrate=False)
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    with pytest.raises(DatabaseAway, match=r"^mail 3: the database postgresql://127\.0\.0\.1:\d+/gm is away "
                                           r"\(connection failed: .*\); left for the next run$"):
        in_transaction(db, "mail 3", lambda session: session.execute(text("SELECT 1")), sleep=sleep,
                       clock=lambda: now[0], patience=20)
    assert 20 <= now[0] <= 22  # waited for as long as its patience, in waits of at most 2 s
    assert [r.levelname for r in caplog.records] == ["WARNING"]  # said once, however many tries
    db.dispose()


def test_sqlite_errors_are_never_a_lost_connection(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = Database(f"sqlite:///{tmp_path / 'gm.db'}")
    with pytest.raises(IntegrityError) as raised:
        with db.unit_of_work() as session:
            session.execute(text("INSERT INTO alembic_version VALUES ((SELECT version_num FROM alembic_version))"))
    assert connection_lost(raised.value) is None
    db.dispose()


def test_an_outage_is_said_once_when_it_goes_once_a_minute_and_once_when_back(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    now = [0.0]
    part = Part("the database postgresql://db:5432/gm", logging.getLogger("test.outages"), clock=lambda: now[0])
    for second in range(150):  # three loops meeting it every second, for two and a half minutes
        now[0] = second
        for what in ("mail 4", "the deadlines", "sending"):
            part.away("connection refused", what)
    now[0] = 151
    part.back()
    part.back()  # said once
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        "the database postgresql://db:5432/gm is away: connection refused; the work that needs it waits (nothing is "
        "lost), tried again until it is back",
        "the database postgresql://db:5432/gm still away after 60 s: connection refused; waiting: mail 4, the "
        "deadlines, sending",
        "the database postgresql://db:5432/gm still away after 2 min 0 s: connection refused; waiting: mail 4, the "
        "deadlines, sending",
        "the database postgresql://db:5432/gm is back after 2 min 31 s; what waited goes on now: mail 4, the deadlines, "
        "sending",
    ]
