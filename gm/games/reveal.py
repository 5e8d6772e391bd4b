"""Whether a game names its players to everyone: one decision for every place that might (the
takeover announcement, SUMMARY, the public page, the end mail's table).

Today a game names them once it is over, as the end mail and the public page always have; its
game master knows them throughout. Addresses are never given, only the names players gave."""

from __future__ import annotations

from gm.games.context import Services
from gm.store.models import Game, GameStatus, Player


def players_named(services: Services, game: Game) -> bool:
    """Whether anyone may read who plays (played) the game's powers."""
    return game.status == GameStatus.FINISHED


def player_name(player: Player | None) -> str:
    """A player as others read it once players are named: the name given, never the address."""
    if player is None:
        return "nobody"
    return player.name or "a player who gave no name"
