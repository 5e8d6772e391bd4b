"""SET PASSWORD, SET ADDRESS, SET TIMEZONE, SET ABSENCE (and SET DEADLINE for the GM); CONFIRM ADDRESS."""

from __future__ import annotations

import re
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gm.commands import gm_actions
from gm.commands.absence import set_absence
from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.commands.secrecy import nearest
from gm.games import addresses
from gm.games.lifecycle import GameError
from gm.games.mailer import format_moment, reader_zone, wrap
from gm.games.passwords import hash_secret
from gm.mailsyntax import mail_address
from gm.settings.reader import parse_duration
from gm.store.models import Player

_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2}))?$")


class Set(Command):
    name = "SET"
    usage = ("SET PASSWORD <new> | SET ADDRESS <new address> | SET TIMEZONE <zone> | SET ABSENCE <from> [TO] <to> | "
             "SET DEADLINE <when>")
    summary = ("change your secret or time zone, or move to another address (done when a code mailed there is sent "
               "back from it with CONFIRM); SET ABSENCE YYYY-MM-DD [HH:MM] TO YYYY-MM-DD [HH:MM]: away, every deadline "
               "inside it is held to its end (as long and as often as the game allows); the GM: the game master "
               "secret and deadline")

    secret_forms = ("SET PASSWORD", "SET SECRET")
    KINDS = ("PASSWORD", "SECRET", "ADDRESS", "TIMEZONE", "ZONE", "ABSENCE", "DEADLINE")

    def secrets(self, invocation: Invocation) -> list[str]:
        """The new secret; a word within the suggester's reach of PASSWORD is read as it
        (``SET PASWORD x`` is refused, its secret masked as SET PASSWORD's)."""
        what, _, value = invocation.args.partition(" ")
        kind = what.upper()
        secret = kind in ("PASSWORD", "SECRET") or (
            kind not in self.KINDS and nearest(f"SET {kind}", self.secret_forms) is not None)
        return [value.strip()] if secret and value.strip() else []

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        what, _, value = invocation.args.partition(" ")
        value = value.strip()
        handler = {
            "PASSWORD": self.password, "SECRET": self.password, "ADDRESS": self.address,
            "TIMEZONE": self.timezone, "ZONE": self.timezone, "ABSENCE": self.absence, "DEADLINE": self.deadline,
        }.get(what.upper())
        if handler is None or not value:
            raise CommandError(f"write {self.usage}")
        return handler(ctx, value)

    def _player(self, ctx: MailContext) -> Player:
        ctx.require_game()
        # ctx.power: a current seat of the game signed on to (never a GM's, never one left)
        if ctx.is_gm or ctx.power is None or ctx.seat is None or ctx.seat.player is None:
            raise CommandError("sign on as a power first")
        return ctx.seat.player

    def password(self, ctx: MailContext, value: str) -> list[str]:
        game = ctx.require_game()
        if len(value) < 6:
            raise CommandError("a secret needs at least 6 characters")
        if ctx.is_gm:
            game.gm_secret_hash = hash_secret(value)
            ctx.services.audit(ctx.session, game, ctx.sender, "gm-secret-changed")
            return [f"The game master secret of {game.name} is changed."]
        self._player(ctx)
        assert ctx.seat is not None
        ctx.seat.secret_hash = hash_secret(value)
        ctx.services.audit(ctx.session, game, ctx.sender, "secret-changed", power=ctx.seat.power)
        return [f"The secret of {ctx.seat.power} in {game.name} is changed."]

    def address(self, ctx: MailContext, value: str) -> list[str]:
        """Asked for here, done when the new address confirms (gm.games.addresses); the answer is
        the same whether or not the address is known to this judge."""
        player = self._player(ctx)
        new = value.strip().lower()
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", new) or mail_address(new) is None:
            raise CommandError(f"{value!r} is not a plain mail address (as name@example.org)")
        if new == player.email:
            raise CommandError(f"{new} is your address already")
        try:
            asked = addresses.request(ctx.services, ctx.session, player, new)
        except GameError as exc:
            raise CommandError(str(exc)) from None
        until = format_moment(asked.until, self._zone(ctx, player))
        return [wrap(
            f"A code to confirm the change is on its way to {new}. From {new}, send the line CONFIRM "
            f"ADDRESS <code> by {until}; until then the judge writes to you here, at {player.email}. "
            "The change takes every game you play on this judge: " + (", ".join(asked.games) or "none") + ". "
            "If no code arrives, that address cannot be used here (it may be mistyped, or in use already).")]

    @staticmethod
    def _zone(ctx: MailContext, player: Player) -> str:
        return reader_zone(player.timezone, ctx.services.settings_of(ctx.game).schedule.zone.key if ctx.game else None)

    def timezone(self, ctx: MailContext, value: str) -> list[str]:
        player = self._player(ctx)
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise CommandError(f"unknown time zone {value!r} (write e.g. Europe/Rome, America/New_York)") from None
        player.timezone = value
        return [f"Times are shown to you in {value} from now on."]

    def absence(self, ctx: MailContext, value: str) -> list[str]:
        self._player(ctx)
        assert ctx.seat is not None
        return set_absence(ctx, ctx.seat, value)

    def deadline(self, ctx: MailContext, value: str) -> list[str]:
        game = ctx.require_gm()
        zone = ctx.services.settings_of(game).schedule.zone
        try:
            if value.startswith("+"):
                by = _duration(value[1:])
                new = gm_actions.extend(ctx.services, ctx.session, game, ctx.actor, by=by)
            else:
                new = gm_actions.extend(ctx.services, ctx.session, game, ctx.actor, deadline=_date(value, zone, time(21, 0)))
        except GameError as exc:
            raise CommandError(str(exc)) from None
        if game.deadline is not None and game.deadline != new:
            return [wrap(f"The deadline of {game.name} is now {format_moment(game.deadline, zone.key)}: "
                         f"{format_moment(new, zone.key)} falls inside a player's absence, and is held to its end "
                         "(CANCEL ABSENCE <power> cancels one).")]
        return [f"The deadline of {game.name} is now {format_moment(new, zone.key)}."]


def _date(text: str, zone: ZoneInfo, default: time) -> datetime:
    match = _DATE.match(text.strip())
    if not match:
        raise CommandError(f"{text!r}: write a date as YYYY-MM-DD (and a time as HH:MM)")
    year, month, day, hour, minute = match.groups()
    at = time(int(hour), int(minute)) if hour else default
    try:
        return datetime(int(year), int(month), int(day), at.hour, at.minute, tzinfo=zone).astimezone(UTC)
    except ValueError as exc:
        raise CommandError(f"{text!r}: {exc}") from None


def _duration(text: str) -> timedelta:
    found = parse_duration(text)
    if found is None:
        raise CommandError(f"{text!r} is not a duration (write e.g. +2d, +12h)")
    return found


class Confirm(Command):
    name = "CONFIRM"
    usage = "CONFIRM ADDRESS <code>"
    secret_forms = ("CONFIRM ADDRESS", "CONFIRM")
    summary = "from your new address, with the code mailed there: move your games to it (after SET ADDRESS)"

    def secrets(self, invocation: Invocation) -> list[str]:
        return invocation.args.split()[-1:]

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        words = invocation.args.split()
        if words and words[0].upper() == "ADDRESS":
            words = words[1:]
        if len(words) != 1:
            raise CommandError(f"write {self.usage}")
        try:
            player, old, games = addresses.confirm(ctx.services, ctx.session, ctx.sender, words[0])
        except GameError as exc:
            raise CommandError(str(exc)) from None
        return [wrap(f"Your address is now {player.email} (it was {old}); the judge writes to you here from now "
                     "on. The games moved: " + (", ".join(games) or "none") + ".")]
