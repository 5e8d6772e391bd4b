"""Games for the web's tests: any variant's game with every seat taken, and phases played by the
plausible player (its orders stored as a player's, then the deadline passes)."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import timedelta

from gm.bots.plausible import PlausiblePlayer
from gm.games import orderbook
from gm.games.lifecycle import current_seats, find_game
from tests.store.conftest import World


def settings_for(variant: str, powers: list[str], extra: str = "") -> str:
    players = "\n".join(f"  - {{email: {address_of(p)}, power: {p}}}" for p in powers)
    return (f"variant: {variant}\ngm: master@example.test\ntimezone: Europe/Rome\n"
            "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\npress: grey\n" + extra
            + f"players:\n{players}\n")


def address_of(power: str) -> str:
    return "".join(ch for ch in power.lower() if ch.isalnum()) + "@example.test"


def play(world: World, name: str, phases: int, seed: int = 1) -> None:
    """``phases`` phases of the game ``name``, each with the plausible player's orders for every power."""
    rng = random.Random(seed)
    services = world.services
    for _ in range(phases):
        with services.db.unit_of_work() as session:
            game = find_game(session, name, lock=True)
            if game is None or game.status != "active":
                return
            variant = services.variant_of(game)
            by_power: dict[str, list[str]] = defaultdict(list)
            powers = [s.power for s in current_seats(game) if s.power]
            for power, order in PlausiblePlayer(variant, rng).orders(services.position_of(game), powers=powers):
                by_power[power].append(str(order))
            for power, lines in by_power.items():
                orderbook.submit(services, session, game, power, "\n".join(lines), by="test")
            deadline = game.deadline
        assert deadline is not None
        world.clock.set(max(world.clock.now(), deadline) + timedelta(minutes=1))
        world.tick()


def playing(world: World, name: str):  # type: ignore[no-untyped-def]
    """The game's board as it stands."""
    with world.services.db.reading() as session:
        game = find_game(session, name)
        assert game is not None
        return world.services.position_of(game)
