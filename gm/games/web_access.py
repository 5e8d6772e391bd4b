"""Who may use a game's web pages beyond what everyone sees (docs/web.md): one-time sign-in
links mailed to a seat's registered address (or the GM's, or an observer's), the sessions they
start, and the rate limits on asking for them.

A link or session is for one role in one game: a seat's player, the game master, or an
observer. It carries a *grant*: a hash of what it was given for (the seat, its player, the
player's address and secret; the GM's address and secret; the observer's address). Whenever it
is used the grant is worked out again from the game as it stands; a changed secret or address,
a seat left (resigned, ejected, replaced) or an observer gone (struck from the settings, or
UNOBSERVE) no longer matches, so the link or session is refused. Tokens are kept only by their SHA-256.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gm.config import WebConfig
from gm.games.context import Services
from gm.games.lifecycle import current_seats, power_named
from gm.games.observers import observers_of
from gm.store.models import Game, Seat, WebKey, WebLink, WebRequest, WebRole, WebSession

HOUR = timedelta(hours=1)
KEY_NAME = "signing"


class AccessRefused(Exception):
    """A link or session that does not (or no longer) work; the message is for its holder."""


@dataclass(frozen=True)
class Holder:
    """Whom a link or session is for."""

    game_id: int
    role: str  # WebRole
    address: str  # where its link is mailed
    seat_id: int | None = None
    power: str | None = None

    @property
    def label(self) -> str:
        return {WebRole.GM: "the game master", WebRole.OBSERVER: "an observer"}.get(self.role, self.power or "?")


def web_config(services: Services) -> WebConfig:
    return services.config.web or WebConfig()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


# -- whom a game's links are for ---------------------------------------------------------------

def holders(services: Services, game: Game) -> list[Holder]:
    """Every role of the game that may sign in: its current seats with a player, its GM, its observers."""
    found = [Holder(game.id, WebRole.PLAYER, seat.player.email, seat.id, seat.power)
             for seat in current_seats(game) if seat.player is not None and seat.power]
    settings = services.settings_of(game)
    found.append(Holder(game.id, WebRole.GM, settings.gm.lower()))
    found += [Holder(game.id, WebRole.OBSERVER, address) for address in observers_of(services, game)]
    return found


def holders_named(services: Services, game: Game, who: str) -> list[Holder]:
    """Whom a request for a link names: a power, "GM", or an address (each role it has)."""
    text = who.strip()
    everyone = holders(services, game)
    if "@" in text:
        return [h for h in everyone if h.address == text.lower()]
    if text.upper() in ("GM", "MASTER", "GAMEMASTER", "GAME MASTER"):
        return [h for h in everyone if h.role == WebRole.GM]
    power = power_named(game, services.variant_of(game), text) if text else None
    return [h for h in everyone if h.role == WebRole.PLAYER and h.power == power] if power else []


def holder_of_seat(game: Game, seat: Seat) -> Holder:
    assert seat.player is not None
    return Holder(game.id, WebRole.PLAYER, seat.player.email, seat.id, seat.power)


def grant_now(services: Services, game: Game, role: str, seat_id: int | None, address: str) -> str | None:
    """The grant of this role as the game stands now; None when the role is gone."""
    if role == WebRole.PLAYER:
        seat = next((s for s in current_seats(game) if s.id == seat_id), None)
        if seat is None or seat.player is None or seat.player.email != address:
            return None
        return _digest("player", game.id, seat.id, seat.player_id, seat.player.email, seat.secret_hash)
    settings = services.settings_of(game)
    if role == WebRole.GM:
        if settings.gm.lower() != address:
            return None
        return _digest("gm", game.id, address, game.gm_secret_hash)
    if role == WebRole.OBSERVER and address in observers_of(services, game):
        return _digest("observer", game.id, address)
    return None


def _digest(*parts: object) -> str:
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()


# -- links --------------------------------------------------------------------------------------

def issue_link(services: Services, session: Session, game: Game, holder: Holder) -> str:
    """A new one-time link's token (stored by its hash)."""
    grant = grant_now(services, game, holder.role, holder.seat_id, holder.address)
    if grant is None:
        raise AccessRefused("that role has no one to mail a link to")
    token = new_token()
    now = services.clock.now()
    session.add(WebLink(token_hash=token_hash(token), game_id=game.id, seat_id=holder.seat_id, role=holder.role,
                        address=holder.address, grant=grant, created_at=now,
                        expires_at=now + timedelta(minutes=web_config(services).link_minutes)))
    return token


def link_url(services: Services, game: Game, token: str) -> str:
    return f"{web_config(services).url}/games/{game.name}/link/{token}"


def find_link(session: Session, token: str, *, lock: bool = False) -> WebLink | None:
    query = select(WebLink).where(WebLink.token_hash == token_hash(token))
    return session.scalars(query.with_for_update() if lock else query).first()


def check_link(services: Services, game: Game, link: WebLink | None) -> WebLink:
    if link is None or link.game_id != game.id:
        raise AccessRefused("this sign-in link is not one of this game's")
    if link.used_at is not None:
        raise AccessRefused("this sign-in link was used already: each works once; ask for another")
    if link.expires_at <= services.clock.now():
        raise AccessRefused("this sign-in link has expired; ask for another")
    if grant_now(services, game, link.role, link.seat_id, link.address) != link.grant:
        raise AccessRefused("this sign-in link no longer works: the secret or address it was mailed for "
                            "changed, or the seat was left")
    return link


def redeem_link(services: Services, session: Session, game: Game, token: str) -> tuple[str, WebSession]:
    """Use the link (once) and start a session: the session's token and row. The game's row
    is expected locked by the caller, the link's row is locked here: a link used twice at once
    starts one session."""
    link = check_link(services, game, find_link(session, token, lock=True))
    now = services.clock.now()
    link.used_at = now
    token = new_token()
    started = WebSession(token_hash=token_hash(token), game_id=game.id, seat_id=link.seat_id, role=link.role,
                         address=link.address, grant=link.grant, created_at=now, last_seen_at=now,
                         expires_at=now + timedelta(days=web_config(services).session_days), ended_why="")
    session.add(started)
    session.flush()
    services.audit(session, game, link.address, "web-signin", role=link.role, seat=link.seat_id, web_session=started.id)
    return token, started


# -- sessions -----------------------------------------------------------------------------------

def find_session(session: Session, token: str) -> WebSession | None:
    return session.scalars(select(WebSession).where(WebSession.token_hash == token_hash(token))).first()


def session_problem(services: Services, game: Game, row: WebSession | None) -> str | None:
    """Why a session does not let its holder act in ``game`` now (None: it does)."""
    if row is None or row.game_id != game.id:
        return "you are not signed in to this game"
    if row.ended_at is not None:
        return "your session has ended" + (f" ({row.ended_why})" if row.ended_why else "")
    if row.expires_at <= services.clock.now():
        return "your session has expired"
    if grant_now(services, game, row.role, row.seat_id, row.address) != row.grant:
        return "your session has ended: the secret or address it was started for changed, or the seat was left"
    return None


def end_sessions(services: Services, session: Session, game: Game, *, seat_id: int | None = None,
                 role: str | None = None, only: int | None = None, why: str) -> int:
    """End the sessions (and unused links) of a seat, or of a role, or one session; how many ended."""
    now = services.clock.now()
    where = [WebSession.game_id == game.id, WebSession.ended_at.is_(None)]
    links = [WebLink.game_id == game.id, WebLink.used_at.is_(None)]
    if only is not None:
        where.append(WebSession.id == only)
        links = []
    elif seat_id is not None:
        where.append(WebSession.seat_id == seat_id)
        links.append(WebLink.seat_id == seat_id)
    elif role is not None:
        where.append(WebSession.role == role)
        links.append(WebLink.role == role)
    ended = session.execute(update(WebSession).where(*where).values(ended_at=now, ended_why=why[:60])).rowcount
    if links:
        session.execute(update(WebLink).where(*links).values(used_at=now))
    return int(ended or 0)


# -- rate limits --------------------------------------------------------------------------------

def requests_within(session: Session, kind: str, key: str, since: datetime) -> int:
    return int(session.scalar(select(func.count(WebRequest.id)).where(
        WebRequest.kind == kind, WebRequest.key == key[:300], WebRequest.at > since)) or 0)


def admit(services: Services, session: Session, kind: str, keys: list[str], limit: int) -> datetime | None:
    """Count one request of ``kind`` against each key (an address, a seat, a client): None when
    every key is under ``limit`` in the last hour (the request is then noted), else when the
    oldest counted request of the key that is full leaves the hour."""
    now = services.clock.now()
    since = now - HOUR
    for key in keys:
        if requests_within(session, kind, key, since) >= limit:
            oldest = session.scalar(select(func.min(WebRequest.at)).where(
                WebRequest.kind == kind, WebRequest.key == key[:300], WebRequest.at > since))
            return (oldest or now) + HOUR
    session.add_all(WebRequest(kind=kind, key=key[:300], at=now) for key in keys)
    if now.minute == 0:  # now and then, what no limit counts any more goes
        session.execute(delete(WebRequest).where(WebRequest.at < now - timedelta(days=1)))
    return None


# -- the signing key ----------------------------------------------------------------------------

def signing_key(services: Services) -> bytes:
    """The key every process on the database signs cookies and forms with (made on first use)."""
    with services.db.reading() as session:
        found = session.get(WebKey, KEY_NAME)
        if found is not None:
            return bytes.fromhex(found.value)
    try:
        with services.db.unit_of_work() as session:
            if session.get(WebKey, KEY_NAME) is None:
                session.add(WebKey(name=KEY_NAME, value=secrets.token_hex(32), created_at=services.clock.now()))
    except IntegrityError:  # another process made it at the same moment: theirs is the key
        pass
    with services.db.reading() as session:
        found = session.get(WebKey, KEY_NAME)
        assert found is not None
        return bytes.fromhex(found.value)


def sign(key: bytes, purpose: str, value: str) -> str:
    return hmac.new(key, f"{purpose}\x1f{value}".encode("utf-8", "replace"), hashlib.sha256).hexdigest()


# -- the deadlines feed's secret link ------------------------------------------------------------

FEED = "deadline-feed"


def feed_token(key: bytes, grant: str) -> str:
    """The token of a role's link to a private game's deadlines feed: signed over the role's grant,
    so it stops working whenever a session of the role would (a new secret or address, the seat
    left, the observer gone); kept nowhere."""
    return sign(key, FEED, grant)[:32]


def feed_holder(services: Services, game: Game, key: bytes, token: str) -> Holder | None:
    """Whose link to the deadlines feed ``token`` is (None: nobody's, or no longer)."""
    for holder in holders(services, game):
        grant = grant_now(services, game, holder.role, holder.seat_id, holder.address)
        if grant is not None and hmac.compare_digest(feed_token(key, grant).encode(), token.encode("utf-8", "replace")):
            return holder
    return None


def feed_token_of(services: Services, game: Game, key: bytes, role: str, seat_id: int | None, address: str) -> str | None:
    grant = grant_now(services, game, role, seat_id, address)
    return feed_token(key, grant) if grant is not None else None


def signed_right(key: bytes, purpose: str, value: str, signature: str) -> bool:
    """Whether ``signature`` is ``value``'s (in constant time; any text a cookie or form may hold)."""
    return hmac.compare_digest(sign(key, purpose, value).encode(), signature.encode("utf-8", "replace"))
