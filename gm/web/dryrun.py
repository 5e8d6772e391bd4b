"""Commands tried without their effects: what the order box answers while the player types.

The order box must answer in the same words as a mail reply, so it runs the very command a mail
runs (``Orders``), in a session that reads the database and drops every write: the plain
INSERTs and UPDATEs commands make on the session's connection, and the ORM's flushes. Nothing is
ever written, no lock is taken (on SQLite a reading transaction takes none), and the transaction
is rolled back when the session closes.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session
from sqlalchemy.sql.dml import UpdateBase


class _NoRows:
    """What a dropped write returns, for the few callers that look."""

    rowcount = 0
    inserted_primary_key = (None,)

    def scalar(self) -> None:
        return None

    def first(self) -> None:
        return None


class _ReadingConnection:
    def __init__(self, connection: Any):
        self._connection = connection

    def execute(self, statement: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(statement, UpdateBase):
            return _NoRows()
        return self._connection.execute(statement, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


class DrySession(Session):
    """A session whose writes go nowhere (see the module's docstring)."""

    def flush(self, objects: Any = None) -> None:
        return None

    def connection(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return _ReadingConnection(super().connection(*args, **kwargs))

    def execute(self, statement: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if isinstance(statement, UpdateBase):
            return _NoRows()
        return super().execute(statement, *args, **kwargs)

    def commit(self) -> None:
        raise RuntimeError("a dry run never commits")
