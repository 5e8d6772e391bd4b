"""Whether the outbound mail server takes mail, as every gm process sees it (one row).

While the server refuses for a reason a configuration fix cures (gm.transport.ServerFailure),
no mail is tried until the next try is due (1, 2, 5, then every 5 minutes: soon enough once it
is fixed, rarely enough not to hammer a broken server), no mail is given up, and the
administrator is told once per outage, with the error: in the log at once, and by a mail that
goes out as soon as the server takes mail again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.mailer import format_moment
from gm.games.notices import tell_gm
from gm.store.models import OutboundMail, OutboundStatus, ServerHealth
from gm.store.retry import in_transaction

log = logging.getLogger(__name__)
OUTBOUND = "outbound"
SERVER_RETRY = (timedelta(minutes=1), timedelta(minutes=2), timedelta(minutes=5))  # then every 5 minutes


@dataclass(frozen=True)
class Outage:
    since: datetime
    error: str
    next_try_at: datetime | None


def outage(services: Services) -> Outage | None:
    """The outbound server's outage, if it has one."""
    with services.db.reading() as session:
        health = session.get(ServerHealth, OUTBOUND)
        if health is None or health.failing_since is None:
            return None
        return Outage(health.failing_since, health.last_error, health.next_try_at)


def server_failed(services: Services, error: str) -> Outage:
    return in_transaction(services.db, "the outbound server's health",
                          lambda session: _record_failure(services, session, error))


def _record_failure(services: Services, session: Session, error: str) -> Outage:
    now = services.clock.now()
    health = _locked(session)
    health.failures += 1
    health.failing_since = health.failing_since or now
    health.last_error = error
    health.next_try_at = now + SERVER_RETRY[min(health.failures, len(SERVER_RETRY)) - 1]
    if health.told:
        log.warning("the outbound mail server still takes no mail: %s", error)
        return Outage(health.failing_since, error, health.next_try_at)
    health.told = True
    log.error("the outbound mail server takes no mail: %s; every mail waits (next try at %s)",
              error, format_moment(health.next_try_at, "UTC"))
    tell_gm(services, session, None, subject="outgoing mail is waiting",
            text=f"Since {format_moment(now, 'UTC')} the outbound mail server takes no mail from gm:\n\n"
                 f"    {error}\n\nNo mail is given up: each waits, and is sent once the server takes mail again "
                 "(tried again after 1, 2 and 5 minutes, then every 5 minutes; `gm outbox --retry-now` tries at "
                 "once). This mail itself could only go once that was fixed.")
    return Outage(health.failing_since, error, health.next_try_at)


def server_works(services: Services) -> None:
    """A mail went out: an outage is over."""
    in_transaction(services.db, "the outbound server's health", lambda session: _record_recovery(services, session))


def _record_recovery(services: Services, session: Session) -> None:
    health = _locked(session)
    if health.failing_since is None:
        return
    waiting = session.scalar(select(func.count()).select_from(OutboundMail).where(
        OutboundMail.status == OutboundStatus.PENDING))
    away = services.clock.now() - health.failing_since
    log.info("the outbound mail server takes mail again, after %s (it did not since %s): sending the %d mails "
             "that waited", _span(away), format_moment(health.failing_since, "UTC"), (waiting or 0) + 1)
    health.failing_since = health.next_try_at = None
    health.failures = 0
    health.told = False


def try_now(services: Services) -> None:
    """The administrator says the server is fixed: the next drain tries at once."""
    def clear(session: Session) -> None:
        _locked(session).next_try_at = None

    in_transaction(services.db, "the outbound server's health", clear)


def _span(gone: timedelta) -> str:
    minutes = int(gone.total_seconds() // 60)
    return f"{minutes} min" if minutes else f"{int(gone.total_seconds())} s"


def _locked(session: Session) -> ServerHealth:
    health = session.get(ServerHealth, OUTBOUND, with_for_update=True)
    if health is None:
        health = ServerHealth(name=OUTBOUND, failures=0, last_error="", told=False)
        session.add(health)
    return health
