"""Whether the database holds any work due, asked with its own driver (sqlite3, psycopg) and a
few SELECTs: no SQLAlchemy, no mapped classes, so a cron tick with nothing to do exits before
loading them (about half a second of a new process's start).

Each question is the one the work itself asks, widened where in doubt: a mail stored and not
yet handled, however recent (the intake waits a minute for another process to handle it); a
game due, as the scheduler selects it; an open power's offer run out, as the openings select
it; an outbound server known to be failing (the tick reports that outage every time); a mail
in the outbox that a sender could claim now, as the outbox's claim selects it; and the digests
of the games made from each settings file. tests/store/test_due.py holds these answers to what
the full tick then does. Anything this look cannot read for certain (a URL of another form, a
schema not at the newest revision, the database away) is answered "cannot tell": the full tick
runs, and says what it finds.
"""

from __future__ import annotations

import os
import sqlite3
from collections import defaultdict
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from gm.settings.files import not_read_yet
from gm.store.revisions import newest_revision
from gm.store.status import GameStatus, InboundStatus, OutboundStatus

SQLITE_PREFIXES = ("sqlite:///", "sqlite+pysqlite:///")
POSTGRESQL_PREFIXES = ("postgresql+psycopg://", "postgresql://")
SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"  # how SQLAlchemy keeps a UTC time in SQLite: its text compares as the time does

# (what is due, the question): ``{p}`` is the driver's parameter mark; a row found means work due.
QUESTIONS = (
    ("a mail stored and not handled", "SELECT 1 FROM inbound_mail WHERE status = {p} LIMIT 1",
     lambda now: (InboundStatus.NEW,)),
    ("a game due", "SELECT 1 FROM games WHERE status = {p} AND due_at <= {p} LIMIT 1",
     lambda now: (GameStatus.ACTIVE, now)),
    ("an open power's offer run out", "SELECT 1 FROM openings WHERE closed_at IS NULL AND offer_until <= {p} LIMIT 1",
     lambda now: (now,)),
    ("the outbound server failing", "SELECT 1 FROM server_health WHERE failing_since IS NOT NULL LIMIT 1",
     lambda now: ()),
    ("mail to send", "SELECT 1 FROM outbox WHERE status = {p} AND next_attempt_at <= {p} "
                     "AND (lease_until IS NULL OR lease_until < {p}) LIMIT 1",
     lambda now: (OutboundStatus.PENDING, now, now)),
)
SOURCES = "SELECT settings_source, settings_digest FROM games WHERE settings_source IS NOT NULL"


class CannotTell(Exception):
    """The look cannot answer for certain; the message says why."""


def work_due(url: str, now: datetime, files: dict[str, str]) -> str:
    """What is due in the database at ``now`` ("" when nothing is), ``files`` being the games
    folder's settings files (their paths as the games keep them, and their digests): a file no
    game was made from, or one changed since, is due. Raises `CannotTell`."""
    with _connected(url) as (connection, mark, time):
        cursor = connection.cursor()
        cursor.execute("SELECT version_num FROM alembic_version")
        if [row[0] for row in cursor.fetchall()] != [newest_revision()]:
            raise CannotTell("the schema is not at the newest revision")
        for what, question, parameters in QUESTIONS:
            cursor.execute(question.format(p=mark), tuple(time(v) if isinstance(v, datetime) else v
                                                           for v in parameters(now)))
            if cursor.fetchone() is not None:
                return what
        cursor.execute(SOURCES)
        made: defaultdict[str, set[str]] = defaultdict(set)
        for source, digest in cursor.fetchall():
            made[source].add(digest)
    unread = not_read_yet(files, made)
    return f"the settings file {unread[0]}, new or changed" if unread else ""


@contextmanager
def _connected(url: str) -> Iterator[tuple[Any, str, Any]]:
    """A read-only connection, its parameter mark and how it takes a time."""
    try:
        if url.startswith(SQLITE_PREFIXES):
            file = url.split(":///", 1)[1]
            if not file or any(c in file for c in "?%") or file == ":memory:":
                raise CannotTell("an SQLite URL this look does not read")
            if not os.path.isfile(file):
                raise CannotTell("no database file yet")
            address = f"file:{quote(os.path.abspath(file))}?mode=ro"
            with closing(sqlite3.connect(address, uri=True, timeout=5)) as connection:
                yield connection, "?", lambda at: at.astimezone(UTC).strftime(SQLITE_TIME)
        elif url.startswith(POSTGRESQL_PREFIXES):
            import psycopg  # only here: about 0.2 s to load

            address = "postgresql://" + url.split("://", 1)[1]
            with psycopg.connect(address, connect_timeout=5, autocommit=True) as connection:
                yield connection, "%s", lambda at: at
        else:
            raise CannotTell("a database this look does not read")
    except CannotTell:
        raise
    except Exception as exc:  # noqa: BLE001 - the driver's error: the full tick meets it and says so
        raise CannotTell(f"{type(exc).__name__}: {exc}") from exc
