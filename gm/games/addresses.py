"""A player's move to another address: asked for from the old one (SET ADDRESS), done only when
a mail from the new one gives the code mailed there (CONFIRM ADDRESS).

An address already used on this judge (another player's, a game master's or an observer's, the
judge's own) is never taken: no code is sent there, and the player gets the same answer as for
any other address, so SET ADDRESS cannot tell whether an address plays here. A move takes every
game the player plays here; the player is told which, before and after, and so is each game's
master.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.lifecycle import GameError
from gm.games.mailer import format_moment, reader_zone
from gm.games.notices import tell_gm
from gm.games.passwords import hash_secret, new_secret, verify_secret
from gm.store.models import AddressChange, Game, GameStatus, Observer, Player, Seat

CONFIRM_WITHIN = timedelta(days=3)
REQUESTS_A_DAY = 3  # codes mailed for one player in a day: no mail bombing through the judge
WRONG_CODES = 5  # a request is given up after this many wrong codes


@dataclass(frozen=True)
class Requested:
    new_address: str
    until: datetime
    games: list[str]  # "g (France)", the games the move takes


def games_of(session: Session, player: Player) -> list[str]:
    """The games a player plays here, as "g (France)", a game not over first."""
    seats = session.scalars(select(Seat).join(Game).where(Seat.player_id == player.id, Seat.left_at.is_(None))
                            .order_by(Game.status == GameStatus.FINISHED, Game.name)).all()
    return [f"{seat.game.name} ({seat.power or (seat.preference + ', asked for' if seat.preference else 'no power yet')})"
            for seat in seats]


def in_use(services: Services, session: Session, address: str, player: Player) -> bool:
    """Whether the address is someone else's here: a player's, a game master's, an observer's,
    the judge's or its administrator's."""
    config = services.config
    if address in (config.judge_address.lower(), config.admin_address.lower()):
        return True
    if session.scalar(select(Player.id).where(Player.email == address, Player.id != player.id)) is not None:
        return True
    if session.scalar(select(Observer.id).where(Observer.address == address).limit(1)) is not None:
        return True
    for game in session.scalars(select(Game)):
        settings = services.settings_of(game)
        if address in (settings.gm.lower(), *(o.lower() for o in settings.observers)):
            return True
    return False


def request(services: Services, session: Session, player: Player, address: str) -> Requested:
    """Ask to move ``player`` to ``address``: a code is mailed there unless it is in use (the
    answer is the same either way). A request before it is withdrawn."""
    now = services.clock.now()
    asked = session.scalar(select(func.count()).select_from(AddressChange).where(
        AddressChange.player_id == player.id, AddressChange.requested_at >= now - timedelta(days=1))) or 0
    if asked >= REQUESTS_A_DAY:
        raise GameError(f"{REQUESTS_A_DAY} address changes were asked for in the last day; ask again tomorrow")
    for pending in _pending(session, now, player_id=player.id):
        pending.done_at = now
    until = now + CONFIRM_WITHIN
    games = games_of(session, player)
    code = new_secret()
    # Stored even for an address in use (its code is mailed nowhere): the count of requests, and
    # the store, look the same either way.
    session.add(AddressChange(player_id=player.id, new_address=address, code_hash=hash_secret(code),
                              requested_at=now, expires_at=until, wrong_codes=0))
    if in_use(services, session, address, player):
        services.audit(session, None, player.email, "address-change-refused", new=address)
    else:
        services.audit(session, None, player.email, "address-change-asked", new=address)
        services.mailer.queue(
            session, to=address, subject=f"{services.config.judge_name}: confirm your new address",
            template="mail/confirm_address.txt.j2", kind="confirm-address", code=code, secrets=[code],
            until=format_moment(until, reader_zone(player.timezone)),
        )
    return Requested(address, until, games)


def confirm(services: Services, session: Session, sender: str, code: str) -> tuple[Player, str, list[str]]:
    """The move asked for to ``sender``, done when ``code`` is the one mailed there: the player,
    the address it had, the games moved."""
    now = services.clock.now()
    pending = _pending(session, now, address=sender)
    change = next((c for c in pending if verify_secret(code, c.code_hash)), None)
    if change is None:
        for wrong in pending:
            wrong.wrong_codes += 1
            if wrong.wrong_codes >= WRONG_CODES:
                wrong.done_at = now
        raise GameError(f"no address change waits for {sender} with this code (a code works once, from the "
                        f"address it was mailed to, for {CONFIRM_WITHIN.days} days)")
    change.done_at = now
    player = session.get(Player, change.player_id)
    assert player is not None
    if in_use(services, session, sender, player):  # taken meanwhile
        raise GameError(f"{sender} is in use on this judge now, so the address could not change")
    old = player.email
    player.email = sender
    games = games_of(session, player)
    services.audit(session, None, old, "address-changed", new=sender)
    listed = ", ".join(games) or "none now"
    services.mailer.queue(
        session, to=old, subject=f"{services.config.judge_name}: your address has changed",
        template="mail/gm_alert.txt.j2", kind="security", game=None,
        text=f"Your address on this judge is now {sender}, as asked from this address and confirmed from "
             f"that one. Mail from {old} no longer counts for your games: {listed}. If you did not ask for "
             "this, someone knows your secret and reads that address: write to your game master.",
    )
    for seat in session.scalars(select(Seat).where(Seat.player_id == player.id, Seat.left_at.is_(None))):
        tell_gm(services, session, seat.game, subject=f"{seat.game.name}: {seat.power} has a new address",
                text=f"The player of {seat.power or 'a seat'} in {seat.game.name} now receives mail at {sender} "
                     f"(it was {old}), asked for from the old address and confirmed from the new one. If the "
                     "game's settings file lists its players, change the address there too.")
    return player, old, games


def _pending(session: Session, now: datetime, *, player_id: int | None = None,
             address: str | None = None) -> list[AddressChange]:
    query = select(AddressChange).where(AddressChange.done_at.is_(None), AddressChange.expires_at > now)
    if player_id is not None:
        query = query.where(AddressChange.player_id == player_id)
    if address is not None:
        query = query.where(AddressChange.new_address == address)
    return list(session.scalars(query.order_by(AddressChange.id)))
