"""Joining a game of Eagles by mail (rule 1): a player may ask for fleets instead of armies in its
coastal original centres (``JOIN game fleets``), before anyone knows which centres the dice will
give; anything else that is neither a power nor such a request is refused."""

from __future__ import annotations

from gm.games.lifecycle import current_seats, find_game
from gm.variants.eagles.state import EaglesState
from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

GAME = "aquila"
SETTINGS = "variant: eagles\ngm: master@example.test\nseats: 3\n"


def test_a_player_asks_for_fleets_when_joining(world: World) -> None:  # noqa: F811
    world.write_game(GAME, SETTINGS)
    world.tick()
    with world.services.db.sessions() as session:  # dice that give the player asking for fleets a coast
        game = find_game(session, GAME)
        assert game is not None
        game.dice_seed = "aquila2"
        session.commit()
    post = Post(world)
    post.send("nauta@example.test", f"JOIN {GAME} fleets\n", subject="joining")
    assert f"You have joined {GAME}, asking for fleets." in post.reply("nauta@example.test")
    post.send("miles@example.test", f"JOIN {GAME} elephants\n", subject="joining")
    assert "ERROR: 'elephants' is not a power of eagles" in post.reply("miles@example.test")
    for sender in ("miles@example.test", "tertius@example.test"):
        post.send(sender, f"JOIN {GAME}\n", subject="joining")
    assert "The game is full and has started" in post.reply("tertius@example.test")

    with world.services.db.sessions() as session:
        game = find_game(session, GAME)
        assert game is not None
        seats = {s.player.email: s.power for s in current_seats(game)}
        position = world.services.position_of(game)
    variant = world.services.catalog.get("eagles")
    originals = EaglesState.of(position).original_centres
    for email, power in seats.items():
        fleets = email == "nauta@example.test"
        units = sorted(str(u) for u in position.units if u.power == power)
        assert units == sorted(("F " if fleets and variant.map.provinces[c].holds_fleets else "A ") + c
                               for c in originals[power]), (email, units)
        assert fleets == any(u.startswith("F ") for u in units)
