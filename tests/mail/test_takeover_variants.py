"""A takeover in every variant, by mail: a game joined by mail and played a year, a player
resigns, a newcomer takes the power over (takeover: open); the board and the variant's own state
(treasuries, leaders, units still to be placed, garrisons) are exactly as they were, the new
player's mail shows them as the results do, and it plays on from its new secret."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.games.lifecycle import current_seats, find_game
from gm.reports.words import words_of
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of
from tests.mail.conftest import Post
from tests.mail.test_takeover import flat, secret_from, takeover_mail
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)
from tests.variants.by_mail import secret_in

CATALOG = VariantCatalog()
FOUNDERS = ("Latium", "Pontus", "Carthago")
NEW = "newcomer@example.test"


def _join_all(post: Post, name: str) -> dict[str, tuple[str, str]]:
    """Every seat joined by mail: power (or the address, while powers are drawn) -> (address, secret)."""
    variant = CATALOG.get(name)
    joined = {}
    if setup_of(variant).open_membership:
        cities = setup_of(variant).joining_choices(variant.initial_position())
        founded = [(cities[n * 5], empire) for n, empire in enumerate(FOUNDERS)]
        for city, empire in founded:
            address = f"{empire.lower()}@example.test"
            post.send(address, f"JOIN g {city} as {empire}\n")
            joined[address] = (address, secret_in(post.reply(address)))
        for city, empire in founded:  # each builds in its city: the founders' first orders
            address = f"{empire.lower()}@example.test"
            post.send(address, f"SIGNON {empire} g {joined[address][1]}\nBUILD A {city}\n")
            assert "ERROR" not in post.reply(address), post.reply(address)
    elif not variant.map.powers or variant.rolls_dice:
        for number in range(2):
            address = f"player{number}@example.test"
            post.send(address, "JOIN g\n")
            joined[address] = (address, secret_in(post.reply(address)))
    else:
        for power in list(variant.map.powers)[:setup_of(variant).player_counts()[1]]:
            address = f"{power.lower().replace(' ', '-')}@example.test"
            post.send(address, f"JOIN g {power}\n")
            joined[address] = (address, secret_in(post.reply(address)))
    return joined


def _settings(name: str) -> str:
    variant = CATALOG.get(name)
    seats = "seats: 3\n" if setup_of(variant).open_membership else ("seats: 2\n" if variant.rolls_dice else "")
    return (f"variant: {name}\ngm: master@example.test\ntimezone: Europe/Rome\n"
            "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\nearly: false\n"
            f"takeover: open\n{seats}")


def _process(world: World, phases: int) -> None:
    for _ in range(phases):
        with world.services.db.sessions() as session:
            game = find_game(session, "g")
            if game.deadline is None:
                return
            world.clock.set(game.deadline + timedelta(seconds=1))
        world.tick()


@pytest.mark.parametrize("name", CATALOG.names())
def test_a_takeover_keeps_the_board_and_the_variants_state(world: World, name: str) -> None:
    world.write_game("g", _settings(name))
    world.tick()
    post = Post(world)
    joined = _join_all(post, name)
    # a year (founders who then give no orders go back to the barbarians: their first phase only)
    _process(world, 1 if setup_of(CATALOG.get(name)).open_membership else 3)
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        seat = next(s for s in current_seats(game) if s.power and s.player and game.position
                    and world.services.position_of(game).units_of(s.power))
        power, address = seat.power, seat.player.email
        before = dict(game.position)
        state = words_of(world.services.variant_of(game)).state_report(world.services.position_of(game))
    secret = joined[address][1]
    post.send(address, f"SIGNON {power} g {secret}\nRESIGN\n")
    assert "You have left g" in post.reply(address)
    post.send(NEW, f"JOIN g {power}\n")
    assert f"You now play {power} in g." in flat(post.reply(NEW))
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.position == before  # nothing on the board or in the variant's state moved
        assert next(s for s in current_seats(game) if s.power == power).player.email == NEW
    mail = takeover_mail(post, NEW)
    assert state or name != "diplomacy-of-the-empire"  # its treasuries, to show
    for heading, lines in state:  # the variant's own state, as the results print it
        assert f"{heading}:" in mail and all(flat(line) in flat(mail) for line in lines)
    post.send(NEW, f"SIGNON {power} g {secret_from(mail)}\nSTATUS\n")
    assert f"Current orders for {power} in g" in flat(post.reply(NEW))
