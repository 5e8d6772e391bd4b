"""A game's coming deadlines as an iCalendar feed (RFC 5545), for any calendar program to
subscribe to: ``/games/<game>/deadlines.ics`` (gm.web.pages).

- The deadline of the phase in play, exactly as the mails give it (held by absences, moved by
  the game master), marked CONFIRMED.
- The next phase's deadline, marked TENTATIVE, only where the schedule makes it certain: the
  phase in play runs to its own deadline (early processing off, no grace), and each kind of
  phase that may come next (retreats, builds, the next movement) is due at a time of day
  (``every day at 21:00``) that gives them all one moment. A deadline so long after a phase
  starts hangs on when the phase before is processed; it is left out rather than guessed.

Each event's UID is the game's and the phase's number in it (a stable one per phase, whichever
phase it turns out to be: a calendar updates the event when the deadline moves or the tentative
one is confirmed, never adds a second), its SEQUENCE the number of times the deadline moved in
the phase. Times are written in the game's time zone, with its VTIMEZONE.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from icalendar import Calendar, Event
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gm.domain.phases import Phase, PhaseKind
from gm.games.context import Services
from gm.settings.schedule import next_deadline, rule_for
from gm.store.models import AuditEntry, Game, GameStatus

PRODUCT = "-//gm//Diplomacy deadlines//EN"


def deadlines_ics(services: Services, session: Session, game: Game, page_url: str) -> bytes:
    """The feed of ``game``'s coming deadlines (``page_url``: the game's page, linked from each)."""
    settings = services.settings_of(game)
    zone = settings.schedule.zone
    calendar = Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", f"{game.name}: deadlines")
    calendar.add("x-wr-timezone", zone.key)
    now = services.clock.now()
    for uid, title, due, confirmed, moved in coming(services, session, game):
        event = Event()
        event.add("uid", f"{uid}@{_domain(services)}")
        event.add("dtstamp", now)
        event.add("dtstart", due.astimezone(zone))  # no DTEND: a moment (RFC 5545, 3.6.1)
        event.add("summary", f"{game.name}: {title} due")
        event.add("status", "CONFIRMED" if confirmed else "TENTATIVE")
        event.add("sequence", moved)
        event.add("transp", "TRANSPARENT")  # a deadline takes no one's time
        event.add("url", page_url)
        event.add("description", (f"Orders for {title} in {game.name} are due." if confirmed else
                                  f"If {game.name} runs to its deadline, {title} will be due then.")
                  + f" {page_url}")
        calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar.to_ical()


def coming(services: Services, session: Session, game: Game) -> list[tuple[str, str, datetime, bool, int]]:
    """(uid, phase title, deadline, confirmed, times moved) of each coming deadline."""
    if game.status != GameStatus.ACTIVE or game.deadline is None or not game.phase:
        return []
    variant = services.variant_of(game)
    phase = variant.calendar.parse(game.phase)
    moved = session.scalar(select(func.count(AuditEntry.id)).where(
        AuditEntry.game_id == game.id, AuditEntry.action == "deadline-changed",
        AuditEntry.at >= (game.phase_started_at or game.deadline))) or 0
    # by the phase's number in the game, whatever phase it turns out to be
    # confirmed: a SEQUENCE above the tentative event's of the same phase
    found = [(f"{game.name}-phase-{game.phase_seq}", variant.title(phase), game.deadline, True, 1 + int(moved))]
    following = _next_deadline(services, game, phase)
    if following is not None:
        title, due = following
        found.append((f"{game.name}-phase-{game.phase_seq + 1}", title, due, False, 0))
    return found


def _next_deadline(services: Services, game: Game, phase: Phase) -> tuple[str, datetime] | None:
    """The next phase's deadline where the schedule makes it certain (see the module): the
    phase's title (each that may come next), and the deadline."""
    settings = services.settings_of(game)
    if settings.early.enabled or settings.grace or game.deadline is None:
        return None
    variant = services.variant_of(game)
    start = game.deadline + timedelta(seconds=1)  # it runs to its deadline; the next starts after it
    candidates = []
    step = variant.calendar.following(phase)
    for _ in range(12):  # the phases that may come next, up to the next movement phase
        candidates.append(step)
        if step.kind is PhaseKind.MOVEMENT:
            break
        step = variant.calendar.following(step)
    if any(rule_for(settings.schedule, step.kind).daily_at is None for step in candidates):
        return None
    moments = {next_deadline(settings.schedule, step.kind, start) for step in candidates}
    if len(moments) != 1:
        return None
    if len(candidates) > 1:
        return "the next phase (" + " or ".join(variant.title(s) for s in candidates) + ")", moments.pop()
    return variant.title(candidates[0]), moments.pop()


def _domain(services: Services) -> str:
    return services.config.judge_address.rpartition("@")[2] or "gm.invalid"
