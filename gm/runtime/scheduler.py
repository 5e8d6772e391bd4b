"""Everything that is due, done once: reminders, late notices and lists, processing at
deadlines, and the offers of open powers passed on when a standby's time to answer is over.

``tick`` is safe to run from several processes at once: each game is advanced in its own
transaction that locks the game row (PostgreSQL) or the database (SQLite) and checks again
that the game is still due; a mail's commands lock the same row, so a phase is processed
wholly before or wholly after them. The due games are taken in two passes: the first passes
over a game another transaction holds (PostgreSQL's SKIP LOCKED), so two processes ticking at
once share the games instead of each waiting on the one the other is processing; the second
takes those passed over that are still due (one query: most were the other process's, and are
done by then), waiting for their locks (a game held by a mail's commands is processed after
them), so a tick still does all that was due when it began. The offers of open powers are
passed on the same way. A game whose lock is not had in time is left for the next tick
(``TickReport.busy`` says so).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.games import openings
from gm.games.context import Services
from gm.services.settings_files import SettingsFiles
from gm.store.models import Game, GameStatus, Opening, SeatStatus, WebRole
from gm.store.retry import DatabaseBusy, in_transaction, said
from gm.games.mailer import reader_zone

log = logging.getLogger(__name__)


@dataclass
class TickReport:
    processed: list[str] = field(default_factory=list)  # "game PHASE"
    reminded: list[str] = field(default_factory=list)
    refused_settings: list[str] = field(default_factory=list)
    busy: list[str] = field(default_factory=list)  # work left for the next tick, and why


AMONG_AT_ONCE = 5000  # keys a "still due" query names at a time (a driver takes at most 65,535 parameters)


def in_two_passes(keys: list[int], one: Callable[[int, bool], bool],
                  still_due: Callable[[list[int]], list[int]]) -> None:
    """``one(key, skip_held)`` for each key, passing over those whose game another transaction
    holds (``one`` says False), then for those passed over that are ``still_due``, waiting for
    their games (a game another process held was mostly done by it meanwhile: not locked and
    read again only to find that)."""
    passed = [key for key in keys if not one(key, True)]
    if not passed:
        return
    due = {key for start in range(0, len(passed), AMONG_AT_ONCE)
           for key in still_due(passed[start:start + AMONG_AT_ONCE])}
    for key in passed:
        if key in due:
            one(key, False)


class Scheduler:
    def __init__(self, services: Services):
        self.services = services
        self.settings_files = SettingsFiles(services)

    def tick(self, report: TickReport | None = None) -> TickReport:
        """Everything due, done; ``report`` (filled in as it is done) says what."""
        report = report if report is not None else TickReport()
        synced = self.settings_files.sync()
        report.refused_settings += synced.refused
        report.busy += synced.busy
        in_two_passes(self.due_games(), lambda game_id, skip_held: self._advance_one(game_id, skip_held, report),
                      self.due_games)
        in_two_passes(self.due_openings(),
                      lambda opening_id, skip_held: self._pass_offer_one(opening_id, skip_held, report),
                      self.due_openings)
        return report

    def _advance_one(self, game_id: int, skip_held: bool, report: TickReport) -> bool:
        """One game advanced in a transaction of its own; False: passed over (``skip_held``)."""
        try:
            done = in_transaction(self.services.db, f"game {game_id}",
                                  lambda session: self.advance(session, game_id, skip_held=skip_held))
        except DatabaseBusy as exc:  # left for the next tick, not taken again in this one
            said(exc)
            report.busy.append(str(exc))
            done = TickReport()
        if done is None:
            return False
        report.reminded += done.reminded  # reported once committed: a unit of work run again reports once
        report.processed += done.processed
        self.services.faults.point("after-commit")
        return True

    def _pass_offer_one(self, opening_id: int, skip_held: bool, report: TickReport) -> bool:
        """One open power's offer passed on in a transaction of its own; False: passed over."""
        try:
            return in_transaction(self.services.db, f"open power {opening_id}",
                                  lambda session: self.pass_offer(session, opening_id, skip_held=skip_held))
        except DatabaseBusy as exc:  # left for the next tick, not taken again in this one
            said(exc)
            report.busy.append(str(exc))
            return True

    def due_openings(self, among: list[int] | None = None) -> list[int]:
        """The openings whose offer is over now (of ``among``, when given)."""
        with self.services.db.reading() as session:
            return openings.due(session, self.services.clock.now(), among)

    def pass_offer(self, session: Session, opening_id: int, *, skip_held: bool = False) -> bool:
        """A standby's time to answer for an open power is over: the next one's turn, or everyone's.
        False: its game was not locked (``skip_held``: another transaction holds it), nothing done."""
        from gm.games.lifecycle import lock_game

        found = session.get(Opening, opening_id)
        if found is None:
            return True  # another process got here first
        game = lock_game(session, found.game_id, skip_held=skip_held)
        if game is None:
            return not skip_held
        opening = session.get(Opening, opening_id, populate_existing=True)
        now = self.services.clock.now()
        if opening is None or opening.offer_until is None or opening.offer_until > now:
            return True  # another process got here first
        openings.advance(self.services, session, game, opening)
        return True

    def due_games(self, among: list[int] | None = None) -> list[int]:
        """The games due now, the first due first (of ``among``, when given)."""
        query = select(Game.id).where(Game.status == GameStatus.ACTIVE, Game.due_at <= self.services.clock.now())
        if among is not None:
            query = query.where(Game.id.in_(among))
        with self.services.db.reading() as session:
            return list(session.scalars(query.order_by(Game.due_at)))

    def advance(self, session: Session, game_id: int, *, skip_held: bool = False) -> TickReport | None:
        """One game's due work, in the caller's transaction; what was done. None: the game was not
        locked (``skip_held``: another transaction holds it, or it is gone), nothing done."""
        # Loaded with the first game due: a cron tick with nothing due loads neither the adjudicator
        # nor the games' rules (bench/startup.py).
        from gm.games.lifecycle import lock_game
        from gm.games.orderbook import late_powers
        from gm.games.schedule import refresh_due
        from gm.services.processing import process

        done = TickReport()
        game = lock_game(session, game_id, skip_held=skip_held)
        if game is None and skip_held:
            log.debug("game %s: held by another transaction; taken again after the others", game_id)
            return None
        now = self.services.clock.now()
        if game is None or not is_due(self.services, game, now):
            log.debug("game %s: no longer due (another process advanced it)", game_id)
            return done  # another process got here first
        self._remind(session, game, done.reminded)
        deadline = game.deadline
        assert deadline is not None
        late = late_powers(self.services, game)
        settings = self.services.settings_of(game)
        early = (
            settings.early.enabled and game.orders_complete_at is not None and not late
            and now >= game.orders_complete_at + settings.early.delay
            and not any(s.wait_seq == game.phase_seq for s in game.seats if s.left_at is None)
        )
        state = (f"game {game.name} {game.phase}: deadline {deadline.isoformat(sep=' ', timespec='seconds')}, "
                 f"late {', '.join(late) or 'none'}")
        if now >= deadline and late and settings.grace and not (game.notices or {}).get("late_sent"):
            self._late_notices(session, game, late)
            refresh_due(self.services, game)
            log.debug("%s: late notices sent, the grace of %s runs; next look at %s", state, settings.grace,
                      game.due_at)
        else:
            late_sent = (game.notices or {}).get("late_sent", False)
            grace_over = now >= deadline + (settings.grace if late_sent else timedelta(0))
            requested = (game.notices or {}).get("process_now", False)
            if requested or early or (now >= deadline and (not late or grace_over)):
                why = ("processing asked for" if requested else "every order in (early processing)" if early
                       else "the deadline passed" + (", grace over" if late else ""))
                log.debug("%s: processed now: %s", state, why)
                done.processed.append(f"{game.name} {game.phase}")
                process(self.services, session, game)
            else:
                refresh_due(self.services, game)
                log.debug("%s: not yet (%s); next look at %s", state, "grace runs" if late_sent else
                          "the deadline is ahead" if now < deadline else "waiting", game.due_at)
        return done

    def _remind(self, session: Session, game: Game, reminded: list[str]) -> None:
        settings = self.services.settings_of(game)
        now = self.services.clock.now()
        deadline = game.deadline
        if deadline is None:
            return
        notices = dict(game.notices or {})
        sent = list(notices.get("reminded", []))
        due = [r for r in settings.reminders
               if int(r.total_seconds()) not in sent and deadline - r <= now < deadline
               and deadline - r > (game.phase_started_at or now)]
        if not due:
            return
        from gm.games.lifecycle import seat_of
        from gm.games.orderbook import late_powers

        late = late_powers(self.services, game)
        for before in due:
            sent.append(int(before.total_seconds()))
        for power in late:
            seat = seat_of(game, power)
            if seat is None or seat.player is None or seat.status != SeatStatus.ACTIVE:
                continue
            zone = reader_zone(seat.player.timezone, self.services.settings_of(game).schedule.zone.key)
            self.services.mailer.queue(
                session, to=seat.player.email, subject=f"{self.services.config.judge_name}: {game.name} orders due",
                template="mail/reminder.txt.j2", kind="reminder", game_id=game.id,
                game=game, seat=seat, zone=zone, deadline=game.deadline, now=now,
            )
            reminded.append(f"{game.name} {power}")
        notices["reminded"] = sent
        game.notices = notices

    def _late_notices(self, session: Session, game: Game, late: list[str]) -> None:
        from gm.games.lifecycle import seat_of
        from gm.games.notices import recipients
        from gm.settings.model import LatePolicy

        settings = self.services.settings_of(game)
        assert game.deadline is not None
        notices = dict(game.notices or {})
        notices["late_sent"] = True
        game.notices = notices
        until = game.deadline + settings.grace
        everyone = settings.late is LatePolicy.EVERYONE
        named = [power if (seat := seat_of(game, power)) is not None and seat.player is not None
                 else f"{power} (no player)" for power in late]
        told = set()
        for power in late:
            seat = seat_of(game, power)
            if seat is None or seat.player is None:
                continue
            told.add(seat.player.email.lower())
            self.services.mailer.queue(
                session, to=seat.player.email, subject=f"{self.services.config.judge_name}: {game.name} orders late",
                template="mail/late.txt.j2", kind="late", game_id=game.id,
                game=game, seat=seat, zone=reader_zone(seat.player.timezone, settings.schedule.zone.key),
                until=until, late=named if everyone else [],
            )
        # The late list (late: everyone): the other players and observers; the game master always.
        title = self.services.variant_of(game).title(self.services.position_of(game).phase)
        for recipient in recipients(self.services, game):
            if recipient.address.lower() in told or not (everyone or recipient.role == WebRole.GM):
                continue
            self.services.mailer.queue(
                session, to=recipient.address, subject=f"{self.services.config.judge_name}: {game.name}: "
                f"late: {', '.join(late)}", template="mail/late_list.txt.j2", kind="late-list", game_id=game.id,
                game=game, zone=recipient.zone, until=until, late=named, title=title)
        self.services.audit(session, game, "system", "late", powers=late)


def is_due(services: Services, game: Game, now: datetime) -> bool:
    return game.status == GameStatus.ACTIVE and game.due_at is not None and game.due_at <= now
