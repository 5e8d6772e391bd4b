"""Whether a game names its players to everyone: one decision for every place that might (the
end mail, SUMMARY, LIST, the public pages, the takeover announcement).

The game's settings say (``reveal:``): ``end``, the default, names every player of every power
once the game is over (takeovers included), as njudge and DPjudge do unless a game asks
otherwise; ``never`` keeps them hidden; ``always`` names them from the start. Its game master
knows them throughout. A player is named by the name it gave, or by its address where it gave
none."""

from __future__ import annotations

from gm.games.context import Services
from gm.settings.model import Reveal
from gm.store.models import Game, GameStatus, Player


def players_named(services: Services, game: Game) -> bool:
    """Whether anyone may read who plays (played) the game's powers."""
    reveal = services.settings_of(game).reveal
    if reveal is Reveal.ALWAYS:
        return True
    return reveal is Reveal.END and game.status == GameStatus.FINISHED


def player_name(player: Player | None) -> str:
    """A player as others read it once players are named: the name given, else the address."""
    if player is None:
        return "nobody"
    return player.name or player.email
