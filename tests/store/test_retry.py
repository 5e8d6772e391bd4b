"""A unit of work is run again after a conflict with another process, and only then."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import insert, text
from sqlalchemy.orm.exc import StaleDataError

from gm.store.database import Database
from gm.store.models import Player
from gm.store.retry import DatabaseBusy, in_transaction


def test_a_concurrent_insert_is_run_again_and_a_fault_is_not_tried_for_ever(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = Database(f"sqlite:///{tmp_path / 'gm.db'}")
    runs: list[int] = []

    def insert_once_taken(session) -> str:  # type: ignore[no-untyped-def]
        runs.append(1)
        if len(runs) == 1:  # another process inserted the row meanwhile: this one meets it
            with db.unit_of_work() as other:
                other.execute(insert(Player).values(email="a@example.test", name="", timezone="", preferences={},
                                                    created_at=datetime.now(UTC)))
            session.execute(insert(Player).values(email="a@example.test", name="", timezone="", preferences={},
                                                  created_at=datetime.now(UTC)))
        return "done"

    assert in_transaction(db, "test", insert_once_taken, sleep=lambda _: None) == "done" and len(runs) == 2

    def always_the_same_row(session) -> None:  # type: ignore[no-untyped-def]
        session.execute(insert(Player).values(email="a@example.test", name="", timezone="", preferences={},
                                              created_at=datetime.now(UTC)))

    with pytest.raises(Exception, match="UNIQUE constraint failed"):  # a fault: shunted by intake, not left
        in_transaction(db, "test", always_the_same_row, attempts=3, sleep=lambda _: None)
    db.dispose()


def test_a_deadlock_every_time_is_left_for_the_next_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = Database(f"sqlite:///{tmp_path / 'gm.db'}")

    def stale(session) -> None:  # type: ignore[no-untyped-def]
        session.execute(text("SELECT 1"))
        raise StaleDataError("UPDATE statement on table 'games' expected to update 1 row(s); 0 were matched")

    with pytest.raises(DatabaseBusy, match="a row changed by another process 3 times"):
        in_transaction(db, "game g1", stale, attempts=3, sleep=lambda _: None)
    db.dispose()
