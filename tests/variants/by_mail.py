"""What the variants' games by mail share: the stored game, the secret in a JOIN reply, and a
game whose seats are joined by mail, each player asking for its power."""

from __future__ import annotations

import re

from gm.games.lifecycle import find_game
from gm.store.models import Game
from tests.mail.conftest import Post
from tests.store.conftest import World


def stored_game(world: World, name: str) -> Game:
    """The game as stored now, detached from its session (its seats and players loaded)."""
    with world.services.db.sessions() as session:
        game = find_game(session, name)
        assert game is not None, name
        session.expunge_all()
        return game


def secret_in(reply: str) -> str:
    """The secret a JOIN reply (or a joined mail) shows on a line of its own."""
    found = re.search(r"^    (\S+-\S+-\S+-\d+)$", reply, re.MULTILINE)
    assert found, reply
    return found.group(1)


def join_seats(post: Post, game: str, players: dict[str, str]) -> dict[str, str]:
    """Each player (power -> address) joins ``game`` by mail asking for its power: the secrets."""
    secrets = {}
    for power, address in players.items():
        post.send(address, f"JOIN {game} {power}\n")
        body = post.reply(address)
        assert f"You have joined {game}, asking for {power}." in body, body
        secrets[power] = secret_in(body)
    return secrets
