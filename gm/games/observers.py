"""A game's observers: the addresses its settings file lists (``observers:``), and those that
asked by mail (OBSERVE, kept in the store). Both are observers everywhere alike: they are mailed
what observers are mailed (gm.games.notices), may sign in on the web (gm.games.web_access), are
inside a private game (gm.games.privacy) and read press as observers (gm.games.press_readers).

The settings file stays the one truth of its own list: an observer it lists is struck only by
editing it (UNOBSERVE says so); one that asked by mail leaves by UNOBSERVE. An observer that
asked by mail has a secret (a settings file's observer gets one by asking too) with which it
signs on by mail (SIGNON OBSERVER), to write press as the game's press rules allow observers.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.passwords import hash_secret, new_secret
from gm.store.models import Game, Observer


def observers_of(services: Services, game: Game) -> list[str]:
    """Every observer's address, lower case: the settings file's first, then those by mail."""
    found = dict.fromkeys(address.lower() for address in services.settings_of(game).observers)
    found.update(dict.fromkeys(row.address for row in game.observed_by))
    return list(found)


def is_observer(services: Services, game: Game, address: str | None) -> bool:
    return bool(address) and (address or "").strip().lower() in observers_of(services, game)


def in_settings(services: Services, game: Game, address: str) -> bool:
    """Whether the game's settings file lists ``address`` as an observer."""
    return address.lower() in (o.lower() for o in services.settings_of(game).observers)


def row_of(game: Game, address: str) -> Observer | None:
    """The observer ``address`` as it asked by mail (None: it did not)."""
    return next((row for row in game.observed_by if row.address == address.lower()), None)


def plays_in(game: Game, address: str) -> bool:
    return any(s.left_at is None and s.player is not None and s.player.email.lower() == address.lower()
               for s in game.seats)


def observe(services: Services, session: Session, game: Game, address: str) -> str:
    """Make ``address`` an observer of ``game`` (kept with the settings file's own, if it is
    listed there too), with a new secret: the secret (a secret asked for again replaces the one
    before, mailed to the same address)."""
    secret = new_secret()
    row = row_of(game, address)
    if row is None:
        row = Observer(game_id=game.id, address=address.lower(), created_at=services.clock.now())
        game.observed_by.append(row)
    row.secret_hash = hash_secret(secret)
    session.flush()
    return secret


def unobserve(session: Session, game: Game, address: str) -> bool:
    """Strike ``address`` from the observers that asked by mail; whether it was one."""
    row = row_of(game, address)
    if row is None:
        return False
    game.observed_by.remove(row)
    session.flush()
    return True
