"""A sender's claim reads the pending mails in the order it claims them, by ``ix_outbox_queue``:
neither sorting every pending mail due (SQLite by the index it had before) nor walking past every
mail ever sent (PostgreSQL by the primary key), which made a claim cost more with every mail the
judge had sent; and the mails of the same phases it takes with them by their phase, never by
walking every pending mail."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any

import pytest
from sqlalchemy import Connection, event, text

from gm.services.sending import _CLAIMABLE, _SAME_PICTURE
from gm.store.database import make_engine, upgrade
from tests.store.conftest import fresh_postgres_database

NOW = datetime(2026, 12, 6, 12, tzinfo=timezone.utc)


@contextmanager
def explained(connection: Connection, prefix: str) -> Iterator[None]:
    """Every statement run on ``connection`` meanwhile is asked for its plan instead."""
    def explain(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> Any:
        return prefix + statement, parameters

    event.listen(connection, "before_cursor_execute", explain, retval=True)
    try:
        yield
    finally:
        event.remove(connection, "before_cursor_execute", explain)


def fill_outbox(connection: Connection, sent: int, pending: int) -> None:
    """``sent`` mails sent, then ``pending`` due, as a judge's outbox is after many deadlines."""
    connection.execute(text(
        "INSERT INTO outbox (kind, to_address, subject, body, message_id, status, attempts, next_attempt_at,"
        " last_error, created_at, lease_owner, secrets)"
        " SELECT 'results', 'p@example.test', 's', 'b', '<m' || n || '@example.test>',"
        " CASE WHEN n <= :sent THEN 'sent' ELSE 'pending' END, 0, :at, '', :at, '', '[]'"
        " FROM generate_series(1, :total) AS n"), {"sent": sent, "total": sent + pending, "at": NOW})


def test_sqlite_claims_by_the_queue_index_without_sorting(tmp_path) -> None:  # type: ignore[no-untyped-def]
    engine = make_engine(f"sqlite:///{tmp_path / 'gm.db'}")
    upgrade(engine)
    with engine.connect() as connection, explained(connection, "EXPLAIN QUERY PLAN "):
        plan = " | ".join(row[-1] for row in connection.execute(_CLAIMABLE, {"now": NOW, "limit": 10}))
    engine.dispose()
    assert "USING INDEX ix_outbox_queue (status=?)" in plan, plan
    assert "TEMP B-TREE" not in plan, plan  # no sort: the index gives the claim's order


def test_sqlite_finds_a_phase_s_other_mails_by_their_phase_not_by_the_queue(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The mails claimed with the first ones (the same phase's picture): SQLite, which keeps no
    statistics, is left only the index on the phase to choose (PostgreSQL's statistics choose)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'gm.db'}")
    upgrade(engine)
    with engine.connect() as connection, explained(connection, "EXPLAIN QUERY PLAN "):
        plan = " | ".join(row[-1] for row in connection.execute(_SAME_PICTURE, {"now": NOW, "ids": [1, 2, 3]}))
    engine.dispose()
    assert "USING INDEX ix_outbox_attach_phase_id (attach_phase_id=?)" in plan, plan
    assert "ix_outbox_queue" not in plan, plan


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


@pytest.mark.postgres
def test_postgresql_claims_without_passing_the_mail_sent(postgres_url: str) -> None:
    engine = make_engine(postgres_url)
    upgrade(engine)
    with engine.begin() as connection:
        fill_outbox(connection, sent=20_000, pending=30)
        connection.execute(text("ANALYZE outbox"))
    with engine.connect() as connection, explained(connection, "EXPLAIN (ANALYZE, FORMAT JSON) "):
        plan = connection.execute(_CLAIMABLE, {"now": NOW, "limit": 10}).scalar_one()
        connection.rollback()
    engine.dispose()
    nodes = list(walk((plan if isinstance(plan, list) else json.loads(plan))[0]["Plan"]))
    assert any(node.get("Index Name") == "ix_outbox_queue" for node in nodes), nodes
    assert not any(node["Node Type"] == "Sort" for node in nodes), nodes
    assert sum(node.get("Rows Removed by Filter", 0) for node in nodes) == 0, nodes  # no sent mail read


def walk(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", []):
        yield from walk(child)
