"""Who may know of a game. A game whose settings say ``private: true`` exists only for those
inside it: the players of its seats (by their registered addresses), its game master and its
observers (the settings file's, and any that asked by mail while it was not private). To anyone
else it is answered, by mail and on the web, exactly as a game that does not exist: the same
words, the same status, whatever the command (OBSERVE too: docs/web.md).

By mail, "inside" is decided by the sender's address alone: a forger of someone's address
learns nothing, as every reply goes to that address. A sender signed on to a game is inside it
(a sign-on only works from the seat's or the game master's own address).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.lifecycle import current_seats, find_game
from gm.games.observers import observers_of
from gm.store.models import Game


def no_such_game(name: str) -> str:
    """The answer, for a mail's sender, to a game name that names nothing the sender may see."""
    return f"there is no game {name!r} (LIST shows the games)"


def inside(services: Services, game: Game, address: str | None) -> bool:
    """Whether ``address`` is a current seat's player's, the game master's or an observer's."""
    address = (address or "").strip().lower()
    if not address:
        return False
    settings = services.settings_of(game)
    if address == settings.gm.lower() or address in observers_of(services, game):
        return True
    return any(seat.player is not None and seat.player.email.lower() == address for seat in current_seats(game))


def hidden_from(services: Services, game: Game, address: str | None) -> bool:
    """Whether the game must look missing to ``address``: it is private and the address is not inside."""
    return services.settings_of(game).private and not inside(services, game, address)


def game_seen_by(services: Services, session: Session, name: str, address: str | None, *,
                 lock: bool = False) -> Game | None:
    """The game ``name`` names, as ``find_game``, or None when there is none or it is hidden
    from ``address``; answer None with ``no_such_game(name)``."""
    game = find_game(session, name, lock=lock)
    if game is None or hidden_from(services, game, address):
        return None
    return game
