"""Limits on guessing secrets, per address and per seat.

Every wrong secret is logged (audit ``signon-failed``, with the seat). Within an hour, after
`MAX_FAILED_PER_ADDRESS` failures from one address, or `MAX_FAILED_PER_SEAT` at one seat from
any addresses, secrets are no longer checked: the answer is the same whether the secret was
right or not, so many addresses cannot guess more than one. The seat's holder is never locked
out by others: from the holder's own address only that address's limit counts. When a seat
reaches its limit, its holder and the GM are told, once a day at most: how many failures, from
which addresses, and when.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, select

from gm.commands.base import CommandError, MailContext
from gm.games.mailer import format_moment, reader_zone
from gm.games.notices import tell_gm
from gm.store.models import AuditEntry, Game, Seat

MAX_FAILED_PER_ADDRESS = 5  # an hour
MAX_FAILED_PER_SEAT = 10  # an hour, from any addresses
REPORT_EVERY = timedelta(days=1)
HOUR = timedelta(hours=1)
GM_SEAT = "GM"


@dataclass(frozen=True)
class Target:
    """The seat a secret is tried for: a power's, or the game master's (``GM_SEAT``)."""

    game: Game
    name: str  # the power, or GM_SEAT
    holder: str | None  # the address it belongs to (None: a vacant seat)
    seat: Seat | None = None  # a power's seat

    @property
    def title(self) -> str:
        return f"the game master of {self.game.name}" if self.name == GM_SEAT else f"{self.name} in {self.game.name}"


def refuse_guessers(ctx: MailContext, secret: str, stored: str, target: Target) -> None:
    """Raise without checking the secret when there were too many failures (a secret this judge
    has accepted before, from the seat's own address, is no guess; from any other address it is
    refused like the rest, or the difference would tell that it is right)."""
    if ctx.sender == target.holder and ctx.services.secrets.known(secret, stored):
        return
    since = ctx.now - HOUR
    from_address = ctx.session.scalar(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.action == "signon-failed", AuditEntry.actor == ctx.sender, AuditEntry.at >= since)) or 0
    if from_address >= MAX_FAILED_PER_ADDRESS:
        raise CommandError("too many wrong secrets from this address in the last hour; try again later")
    if ctx.sender != target.holder and len(_failures(ctx, target, since)) >= MAX_FAILED_PER_SEAT:
        ctx.keep.append(lambda: ctx.services.audit(ctx.session, target.game, ctx.sender, "signon-refused",
                                                   power=target.name))
        raise CommandError(f"too many wrong secrets for {target.title} in the last hour; try again later")


def record_failure(ctx: MailContext, target: Target) -> None:
    """Log a wrong secret (kept even though the command fails) and report a guessed-at seat."""
    ctx.keep.append(lambda: _record(ctx, target))


def _record(ctx: MailContext, target: Target) -> None:
    ctx.services.audit(ctx.session, target.game, ctx.sender, "signon-failed", power=target.name)
    failures = _failures(ctx, target, ctx.now - HOUR)
    if len(failures) < MAX_FAILED_PER_SEAT or _reported(ctx, target):
        return
    ctx.services.audit(ctx.session, target.game, "system", "signon-guessing-reported", power=target.name)
    _report(ctx, target, failures)


def _failures(ctx: MailContext, target: Target, since) -> list[AuditEntry]:  # type: ignore[no-untyped-def]
    rows = ctx.session.scalars(select(AuditEntry).where(
        AuditEntry.action == "signon-failed", AuditEntry.game_id == target.game.id, AuditEntry.at >= since)
        .order_by(AuditEntry.at, AuditEntry.id))
    return [row for row in rows if row.details.get("power") == target.name]


def _reported(ctx: MailContext, target: Target) -> bool:
    rows = ctx.session.scalars(select(AuditEntry).where(
        AuditEntry.action == "signon-guessing-reported", AuditEntry.game_id == target.game.id,
        AuditEntry.at >= ctx.now - REPORT_EVERY))
    return any(row.details.get("power") == target.name for row in rows)


def _report(ctx: MailContext, target: Target, failures: list[AuditEntry]) -> None:
    services, game = ctx.services, target.game
    addresses = {row.actor for row in failures}

    def text(zone: str) -> str:
        listed = "\n".join(f"  {format_moment(row.at, zone)}  {row.actor}" for row in failures)
        return (f"{len(failures)} sign-ons as {target.title} failed with a wrong secret in the last hour, "
                f"from {len(addresses)} {'address' if len(addresses) == 1 else 'addresses'}:\n\n{listed}\n\n"
                f"Someone may be guessing the secret. For the next hour, sign-ons as {target.title} are "
                "refused unchecked from any address but its own. No wrong secret was accepted; if you "
                "think the secret is known, change it: sign on from your own address and send "
                "SET PASSWORD <new secret>.")

    gm_zone = services.settings_of(game).schedule.zone.key
    tell_gm(services, ctx.session, game, subject=f"{game.name}: wrong secrets for {target.title}", text=text(gm_zone))
    seat = target.seat
    if seat is None or seat.player is None:
        return
    services.mailer.queue(
        ctx.session, to=seat.player.email, subject=f"{services.config.judge_name}: {game.name}: wrong secrets for {seat.power}",
        template="mail/announcement.txt.j2", kind="security", game_id=game.id, game=game,
        zone=reader_zone(seat.player.timezone, gm_zone), deadline=None, text=text(reader_zone(seat.player.timezone, gm_zone)),
    )
