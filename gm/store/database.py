"""Opening the database: engine, connection settings, and the schema brought up to date.

SQLite is the embedded default (WAL journal, and every transaction takes the write lock at
BEGIN, so two processes serialise instead of failing half-way); PostgreSQL works by changing
the URL. The schema is created or upgraded by the Alembic migrations in migrations/.

Every wait is bounded (``Timeouts``): a lock waited for longer than ``lock`` seconds, or a
statement running longer than ``statement`` seconds (PostgreSQL), fails instead of piling up
processes behind it (gm.store.retry says what was waited for).

A connection lost (PostgreSQL restarted, or away) is no fault of the work that met it:
``connection_lost`` tells it from the rest, and the database's ``health`` (gm.outages) says in
the log when it went and when it came back; gm.store.retry runs the work again once it is.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from gm.outages import Part
from gm.store.revisions import MIGRATIONS_DIR, newest_revision

if TYPE_CHECKING:
    from alembic.config import Config

READ_ONLY = "gm_read_only"  # an execution option: the transaction only reads
log = logging.getLogger(__name__)
# PostgreSQL's words for a server that is going or not yet there: connection exceptions (class
# 08), and admin_shutdown, crash_shutdown, cannot_connect_now ("the database system is shutting
# down", "... is starting up").
_AWAY_STATES = ("57P01", "57P02", "57P03")


def connection_lost(exc: BaseException | None) -> str | None:
    """The database's words when ``exc`` (or what caused it) is a connection lost or refused,
    else None. SQLite has no connection to lose: its errors are never this."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, DBAPIError):
            orig = exc.orig
            words = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
            if exc.connection_invalidated:
                return words
            if type(orig).__module__.startswith("psycopg"):
                state = getattr(orig, "sqlstate", None) or ""
                if state.startswith("08") or state in _AWAY_STATES:
                    return words
                if not state and type(orig).__name__ in ("OperationalError", "InterfaceError"):
                    return words  # refused, reset, closed: no state, for no server answered
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


@dataclass(frozen=True)
class Timeouts:
    """Seconds; 0 waits for ever. SQLite knows only the lock wait (its busy timeout)."""

    lock: float = 20.0
    statement: float = 120.0


def make_engine(url: str, echo: bool = False, timeouts: Timeouts = Timeouts()) -> Engine:
    if url.startswith("sqlite"):
        database = url.split("///", 1)[-1]
        if database and database != ":memory:":
            file = Path(database)
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # a file where a folder should be, no right to make it
                raise DatabaseFileError(f"the database's folder {file.parent} cannot be made: {exc.strerror}") from exc
        else:
            file = None
        engine = create_engine(url, echo=echo, connect_args={"timeout": timeouts.lock})
        _sqlite_settings(engine, timeouts)
        if file is not None:
            _name_the_wrong_file(engine, file)
        return engine
    options = f"-c lock_timeout={int(timeouts.lock * 1000)} -c statement_timeout={int(timeouts.statement * 1000)}"
    return create_engine(url, echo=echo, pool_pre_ping=True, connect_args={"options": options})


def _sqlite_settings(engine: Engine, timeouts: Timeouts) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves, below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(timeouts.lock * 1000)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection) -> None:  # type: ignore[no-untyped-def]
        # A transaction that only reads takes no lock (WAL: it reads its snapshot beside a writer)
        connection.exec_driver_sql("BEGIN" if connection.get_execution_options().get(READ_ONLY) else "BEGIN IMMEDIATE")


class DatabaseFileError(Exception):
    """SQLite cannot use one of the database's files; the message names that file."""


# SQLite's own words name the database even when the culprit is its -wal or -shm file (left
# read-only by an earlier run, say), or the directory that holds them.
_FILE_PROBLEMS = ("readonly database", "unable to open database file", "disk I/O error")


def unusable_file(database: Path) -> str | None:
    """Which of the database's files (or their directory) this process cannot write, and why."""
    wrong = [path for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm"))
             if path.exists() and not os.access(path, os.R_OK | os.W_OK)]
    if wrong:
        names = " and ".join(str(path) for path in wrong)
        return (f"{names} {'is' if len(wrong) == 1 else 'are'} not writable by this user (uid {os.getuid()}): fix "
                "the owner or mode (SQLite gives the -wal and -shm files the database's mode when it makes them)")
    if not os.access(database.parent, os.W_OK | os.X_OK):
        return (f"the directory {database.parent} is not writable by this user (uid {os.getuid()}); SQLite makes "
                f"{database.name}-wal and {database.name}-shm beside the database")
    return None


def _name_the_wrong_file(engine: Engine, database: Path) -> None:
    @event.listens_for(engine, "handle_error")
    def _on_error(context: ExceptionContext) -> BaseException | None:
        error = context.original_exception
        if not any(words in str(error) for words in _FILE_PROBLEMS):
            return None
        culprit = unusable_file(database)
        if culprit is None:
            return None
        return DatabaseFileError(f"the database {database} cannot be used ({error}): {culprit}")


def alembic_config(engine: Engine) -> Config:
    from alembic.config import Config  # Alembic is loaded only when the schema is to change or be shown

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["engine"] = engine
    return config


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.execution_options(**{READ_ONLY: True}).connect() as connection:  # waits for no writer
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS_DIR)).get_current_head()


def upgrade(engine: Engine, revision: str = "head") -> None:
    if revision == "head" and _stored_revision(engine) == newest_revision():
        return  # up to date, seen without loading Alembic (every `gm receive` starts here)
    from alembic import command

    if revision == "head" and current_revision(engine) == head_revision():
        return
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    command.downgrade(alembic_config(engine), revision)


def _stored_revision(engine: Engine) -> str | None:
    try:
        with engine.execution_options(**{READ_ONLY: True}).connect() as connection:  # waits for no writer
            rows = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except Exception:  # noqa: BLE001 - no such table yet, or anything else: Alembic decides
        return None
    return rows[0] if len(rows) == 1 else None


def shown(url: str) -> str:
    """The database as the log names it: no password."""
    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001 - not a URL SQLAlchemy reads: name no part of it
        return "the database"
    if parsed.get_backend_name() == "sqlite":
        return f"the database {parsed.database or ':memory:'}"
    return f"the database {parsed.get_backend_name()}://{parsed.host or ''}{f':{parsed.port}' if parsed.port else ''}" \
           f"/{parsed.database or ''}"


class Database:
    """An engine and its session factory; ``unit_of_work()`` is one transaction."""

    def __init__(self, url: str, migrate: bool = True, timeouts: Timeouts = Timeouts()):
        self.url = url
        self.timeouts = timeouts
        self.health = Part(shown(url), log)  # said once when it goes, once when it is back
        self.engine = make_engine(url, timeouts=timeouts)
        if migrate:
            upgrade(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._reading = sessionmaker(self.engine.execution_options(**{READ_ONLY: True}), expire_on_commit=False)

    @contextmanager
    def unit_of_work(self) -> Iterator[Session]:
        try:
            with self.sessions() as session, session.begin():
                yield session
        except Exception as exc:
            self.noticed(exc)
            raise
        self.health.back()

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session that only reads: on SQLite it takes no write lock, so it never waits for a
        writer nor makes one wait (what it reads is one consistent snapshot)."""
        try:
            with self._reading() as session:
                yield session
        except Exception as exc:
            self.noticed(exc)
            raise
        self.health.back()

    def noticed(self, exc: BaseException, waiting: str | None = None) -> str | None:
        """The connection lost that ``exc`` is (told to ``health``), or None."""
        lost = connection_lost(exc)
        if lost is not None:
            self.health.away(lost, waiting)
        return lost

    def dispose(self) -> None:
        self.engine.dispose()
