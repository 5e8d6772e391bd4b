"""One unit of work run again when another process got in its way, and bounded waits.

Several gm processes share one database. On PostgreSQL two of them can meet in ways a retry
cures: a deadlock (two mails locking two games in opposite orders), a serialization failure,
a stale version of a game's row, or two inserts of the same new row (two JOINs from one new
address). Such a unit of work is rolled back whole and run again from the start, so nothing is
shunted for a concurrent change. A wait that reached its bound (the lock or statement timeout
of the configuration) is not tried again here: the work is left for the next run and the
caller is told what was waited for (``DatabaseBusy``).

A connection lost or refused (PostgreSQL restarting, or away) is no fault of the work either:
it is run again, after waits growing to two seconds, for as long as ``lock_timeout`` (a bounded
wait like the others; ``patience`` says otherwise); if the database is still away then, the
work is left for the next run (``DatabaseAway``: a mail stays new, never shunted). The log says
so once for the whole process (gm.outages), not once for each unit of work that waited.
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

from gm.store.database import Database, connection_lost

log = logging.getLogger(__name__)
T = TypeVar("T")

CONFLICTS = {"40001": "a serialization failure", "40P01": "a deadlock", "23505": "a row inserted at the same time"}
WAITS = {"55P03": "a lock", "57014": "a statement"}  # lock_timeout, statement_timeout


class DatabaseBusy(Exception):
    """A unit of work gave up waiting; it is left for the next run. The message says for what."""


class DatabaseAway(DatabaseBusy):
    """The database stayed away (its connection lost or refused) for as long as the unit of
    work waited: left for the next run. The database's ``health`` has said so in the log."""


AWAY_STEPS = (0.2, 0.5, 1.0, 2.0)  # the waits between two tries while the database is away, then 2 s


def reconnect_wait(tries: int) -> float:
    return AWAY_STEPS[min(tries, len(AWAY_STEPS)) - 1]


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
                   sleep: Callable[[float], None] = time.sleep, *, conflicts: bool = True, reading: bool = False,
                   patience: float | None = None, clock: Callable[[], float] = time.monotonic) -> T:
    """``work`` in one transaction, run again (up to ``attempts`` times in all) after a conflict
    with another process (``conflicts=False``: a conflict is raised, as for a plain INSERT that
    tells a duplicate by it), and while the database is away for up to ``patience`` seconds
    (default: the lock timeout; ``math.inf``: until it is back); ``what`` names the work for
    messages ("mail 17", "game g1"). ``reading``: a transaction that only reads."""
    patience = (db.timeouts.lock or float("inf")) if patience is None else patience
    away_since: float | None = None
    away_tries = 0
    attempt = 1
    while True:
        try:
            with (db.reading() if reading else db.unit_of_work()) as session:
                return work(session)
        except Exception as exc:
            lost = connection_lost(exc)
            if lost is not None:
                db.health.away(lost, what)
                now = clock()
                away_since = now if away_since is None else away_since
                if now - away_since >= patience:
                    raise DatabaseAway(f"{what}: {db.health.name} is away ({lost}); left for the next run") from exc
                away_tries += 1
                sleep(reconnect_wait(away_tries))
                continue
            reason = conflict(exc) if conflicts else None
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
            attempt += 1


def said(exc: DatabaseBusy) -> None:
    """Log work left for the next run, unless the database's outage has said it already."""
    if not isinstance(exc, DatabaseAway):
        log.warning("%s", exc)


@contextmanager
def or_left_for_later(what: str, busy: list[str]) -> Iterator[None]:
    """Work that gave up waiting (``DatabaseBusy``, or a bounded wait outside ``in_transaction``)
    is noted in ``busy`` and logged, not raised: the next run takes it up."""
    try:
        yield
        return
    except DatabaseBusy as exc:
        said(exc)
        busy.append(str(exc))
        return
    except DBAPIError as exc:
        wait = waited(exc)
        if wait is None:
            lost = connection_lost(exc)
            if lost is None:
                raise
            busy.append(f"{what}: the database is away ({lost}); left for the next run")
            return
        note = f"{what}: gave up waiting for {wait}; left for the next run"
    log.warning("%s", note)
    busy.append(note)
