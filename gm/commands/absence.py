"""SET ABSENCE and CANCEL ABSENCE: a player away holds the game's deadlines (gm.games.absences).

Dates are read as SET DEADLINE reads them (YYYY-MM-DD, a time HH:MM after it if wanted), in the
player's own zone (SET TIMEZONE; else the game's): an absence from a day starts at its first
minute, an absence to a day ends at its last (the start of the next), so that ``SET ABSENCE
2026-08-01 2026-08-14`` is away for both days and every day between. ``TO`` may stand between the
dates, as the DPjudge writes it. How long an absence is is counted on the player's clock, so a
change of summer time inside it neither lengthens nor shortens it.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.games import absences
from gm.games.lifecycle import GameError, power_named, seat_of
from gm.games.mailer import format_moment, reader_zone, wrap, zone_named
from gm.games.notices import tell_gm
from gm.games.schedule import hold_again
from gm.settings.model import format_duration
from gm.store.models import Game, GameStatus, Seat

_DAY = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:T(\d{1,2}):(\d{2}))?$", re.I)
_TIME = re.compile(r"^(\d{1,2}):(\d{2})$")
USAGE = "SET ABSENCE <from YYYY-MM-DD [HH:MM]> [TO] <to YYYY-MM-DD [HH:MM]>"


def player_zone(ctx: MailContext, seat: Seat) -> str:
    game_zone = ctx.services.settings_of(ctx.game).schedule.zone.key if ctx.game is not None else None
    return reader_zone(seat.player.timezone if seat.player is not None else None, game_zone)


def read_moments(text: str, zone: ZoneInfo) -> tuple[datetime, datetime, timedelta]:
    """The start and end of an absence as written (UTC), and its length on the local clock."""
    words = [w for w in text.split() if w.upper() != "TO"]
    moments: list[datetime] = []
    index = 0
    while index < len(words):
        day = _DAY.match(words[index])
        if day is None:
            raise CommandError(f"{words[index]!r}: write {USAGE}")
        year, month, number, hour, minute = day.groups()
        index += 1
        if hour is None and index < len(words) and _TIME.match(words[index]):
            hour, minute = _TIME.match(words[index]).groups()  # type: ignore[union-attr]
            index += 1
        try:
            when = datetime(int(year), int(month), int(number))
            if hour is not None:
                when = datetime.combine(when.date(), time(int(hour), int(minute)))
            elif moments:  # the last day of the absence is a day away too
                when += timedelta(days=1)
        except ValueError as exc:
            raise CommandError(f"{words[index - 1]!r}: {exc}") from None
        moments.append(when)
    if len(moments) != 2:
        raise CommandError(f"write {USAGE}")
    starts, ends = moments
    return (starts.replace(tzinfo=zone).astimezone(UTC), ends.replace(tzinfo=zone).astimezone(UTC), ends - starts)


def set_absence(ctx: MailContext, seat: Seat, value: str) -> list[str]:
    game = ctx.require_game()
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        raise CommandError(f"{game.name} is {game.status}: an absence holds the deadlines of a game in play")
    zone = player_zone(ctx, seat)
    starts, ends, length = read_moments(value, zone_named(zone))
    try:
        absence = absences.take(ctx.services, ctx.session, game, seat, starts, ends, length)
    except GameError as exc:
        raise CommandError(str(exc)) from None
    span = f"from {format_moment(absence.starts, zone)} to {format_moment(absence.ends, zone)}"
    before = game.deadline
    now = hold_again(ctx.services, ctx.session, game, reason="held for a player's absence")
    rules = ctx.services.settings_of(game).absences
    taken = sum(absences.counted(a) for a in absences.mine(ctx.session, game, seat))
    lines = [wrap(f"Your absence {span} is noted ({taken} of the {rules.per_player} you may take in {game.name}). "
                  "Every deadline of the game that falls inside it is held to its end.")]
    moved = now is not None and now != before
    if moved:
        lines.append(wrap(f"The deadline of this phase moves to {format_moment(now, zone)}; everyone has been "
                          "told that it moved for a player's absence (not whose)."))
    tell_gm(ctx.services, ctx.session, game, subject=f"{game.name}: {seat.power} absent",
            text=f"The player of {seat.power} will be away {span} (game time: "
                 f"{format_moment(absence.starts, _game_zone(ctx, game))} to "
                 f"{format_moment(absence.ends, _game_zone(ctx, game))}). Deadlines inside it are held to its end"
                 + (f"; this phase's now is {format_moment(now, _game_zone(ctx, game))}" if moved else "")
                 + f". To cancel it: CANCEL ABSENCE {seat.power}.")
    ctx.services.audit(ctx.session, game, ctx.actor, "absence", power=seat.power, starts=absence.starts.isoformat(),
                       ends=absence.ends.isoformat(), length=format_duration(length))
    return lines


def _game_zone(ctx: MailContext, game: Game) -> str:
    return ctx.services.settings_of(game).schedule.zone.key


class Cancel(Command):
    name = "CANCEL"
    usage = "CANCEL ABSENCE [<from YYYY-MM-DD>]   (the game master: CANCEL ABSENCE <power> [<from>])"
    summary = ("cancel your absence (the one starting that day, else your next); the deadlines it held are held "
               "no more, but a deadline never comes nearer than a day from now")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game = ctx.require_game()
        what, _, rest = invocation.args.strip().partition(" ")
        if what.upper() != "ABSENCE":
            raise CommandError(f"write {self.usage}")
        words = rest.split()
        day_text = words.pop() if words and _DAY.match(words[-1]) else None
        if ctx.is_gm and ctx.acting_as is None:
            if not words:
                raise CommandError("name the power whose absence to cancel: CANCEL ABSENCE <power> [<from>]")
            power = power_named(game, ctx.services.variant_of(game), " ".join(words))
            seat = seat_of(game, power) if power else None
            if seat is None:
                raise CommandError(f"no power {' '.join(words)!r} in {game.name}")
        else:
            if words:
                raise CommandError(f"write {self.usage}")
            _, power = ctx.require_power()
            seat = ctx.seat if ctx.seat is not None and ctx.seat.power == power else None
            if seat is None:
                raise CommandError("a game master cancels an absence with CANCEL ABSENCE <power>")
        zone = player_zone(ctx, seat) if not ctx.is_gm else _game_zone(ctx, game)
        starting = _day(day_text) if day_text else None
        try:
            absence = absences.to_cancel(ctx.services, ctx.session, game, seat, starting, zone)
        except GameError as exc:
            raise CommandError(str(exc)) from None
        absence.cancelled_at = ctx.now
        ctx.session.flush()
        before = game.deadline
        now = hold_again(ctx.services, ctx.session, game, reason="an absence was cancelled", notice=absences.NOTICE)
        span = f"from {format_moment(absence.starts, zone)} to {format_moment(absence.ends, zone)}"
        ctx.services.audit(ctx.session, game, ctx.actor, "absence-cancelled", power=seat.power,
                           starts=absence.starts.isoformat())
        moved = f" The deadline of this phase is now {format_moment(now, zone)}; everyone has been told." \
            if now is not None and now != before else ""
        if ctx.is_gm and seat.player is not None:
            player_zone_ = player_zone(ctx, seat)
            ctx.services.mailer.queue(
                ctx.session, to=seat.player.email, subject=f"{ctx.services.config.judge_name}: {game.name}: "
                f"your absence is cancelled", template="mail/announcement.txt.j2", kind="absence", game_id=game.id,
                game=game, zone=player_zone_, deadline=game.deadline,
                text=f"The game master of {game.name} has cancelled your absence from "
                     f"{format_moment(absence.starts, player_zone_)} to {format_moment(absence.ends, player_zone_)}: "
                     "it holds the game's deadlines no more.")
            return [wrap(f"The absence of {seat.power} {span} is cancelled; its player has been told.{moved}")]
        if not ctx.is_gm:
            tell_gm(ctx.services, ctx.session, game, subject=f"{game.name}: {seat.power} cancelled an absence",
                    text=f"The player of {seat.power} has cancelled the absence {span}.")
        return [wrap(f"Your absence {span} is cancelled.{moved}")]


def _day(text: str) -> date:
    match = _DAY.match(text)
    assert match is not None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError as exc:
        raise CommandError(f"{text!r}: {exc}") from None
