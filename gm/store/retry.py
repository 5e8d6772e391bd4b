"""One unit of work run again when another process got in its way, and bounded waits.

Several gm processes share one database. On PostgreSQL two of them can meet in ways a retry
cures: a deadlock (two mails locking two games in opposite orders), a serialization failure,
a stale version of a game's row, or two inserts of the same new row (two JOINs from one new
address). Such a unit of work is rolled back whole and run again from the start, so nothing is
shunted for a concurrent change. A wait that reached its bound (the lock or statement timeout
of the configuration) is not tried again here: the work is left for the next run and the
caller is told what was waited for (``DatabaseBusy``).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from gm.store.database import Database

log = logging.getLogger(__name__)
T = TypeVar("T")

CONFLICTS = {"40001": "a serialization failure", "40P01": "a deadlock", "23505": "a row inserted at the same time"}
WAITS = {"55P03": "a lock", "57014": "a statement"}  # lock_timeout, statement_timeout


class DatabaseBusy(Exception):
    """A unit of work gave up waiting; it is left for the next run. The message says for what."""


def conflict(exc: BaseException) -> str | None:
    """What about ``exc`` makes running the work again worth it, or None."""
    if isinstance(exc, StaleDataError):
        return "a row changed by another process"
    if isinstance(exc, DBAPIError):
        state = getattr(exc.orig, "sqlstate", None)
        if state in CONFLICTS:
            return CONFLICTS[state]
        if isinstance(exc, IntegrityError) and "UNIQUE constraint failed" in str(exc.orig):
            return CONFLICTS["23505"]  # SQLite's words for it
    return None


def waited(exc: BaseException) -> str | None:
    """What a wait that reached its bound was for (from the database's own words), or None."""
    if not isinstance(exc, DBAPIError):
        return None
    state = getattr(exc.orig, "sqlstate", None)
    if state in WAITS:
        diagnostic = getattr(exc.orig, "diag", None)
        context = (getattr(diagnostic, "context", None) or "").strip().splitlines()
        first = str(exc.orig).strip().splitlines()[0]
        return f"{WAITS[state]} ({first}{'; ' + context[0] if context else ''})"
    if "database is locked" in str(exc.orig):  # SQLite's busy timeout ran out
        return "the database's write lock (another process kept it)"
    return None


def in_transaction(db: Database, what: str, work: Callable[[Session], T], attempts: int = 5,
                   sleep: Callable[[float], None] = time.sleep) -> T:
    """``work`` in one transaction, run again (up to ``attempts`` times in all) after a conflict
    with another process; ``what`` names the work for messages ("mail 17", "game g1")."""
    for attempt in range(1, attempts + 1):
        try:
            with db.unit_of_work() as session:
                return work(session)
        except Exception as exc:
            reason = conflict(exc)
            wait = waited(exc)
            if wait is not None:
                raise DatabaseBusy(f"{what}: gave up waiting for {wait}; left for the next run") from exc
            if reason is None:
                raise
            if attempt == attempts:
                if reason == CONFLICTS["23505"]:
                    raise  # the same row every time is no race but a fault: shunted, not tried for ever
                raise DatabaseBusy(f"{what}: met {reason} {attempts} times in a row; left for the next run") from exc
            log.info("%s met %s; running it again (attempt %d)", what, reason, attempt + 1)
            sleep(random.uniform(0.005, 0.05) * attempt)  # apart, so two retrying processes do not meet again
    raise AssertionError("unreachable")


@contextmanager
def or_left_for_later(what: str, busy: list[str]) -> Iterator[None]:
    """Work that gave up waiting (``DatabaseBusy``, or a bounded wait outside ``in_transaction``)
    is noted in ``busy`` and logged, not raised: the next run takes it up."""
    try:
        yield
        return
    except DatabaseBusy as exc:
        note = str(exc)
    except DBAPIError as exc:
        wait = waited(exc)
        if wait is None:
            raise
        note = f"{what}: gave up waiting for {wait}; left for the next run"
    log.warning("%s", note)
    busy.append(note)
