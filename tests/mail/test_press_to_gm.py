"""Press to the game master, by mail: PRESS TO GM reaches the GM alone in every game, whatever its
press rules (none at all too), and the GM answers one power alone, also where the players have
no press; HISTORY shows each only to those who read it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

FRANCE, ENGLAND, GM, WATCHER = "france@example.test", "england@example.test", "master@example.test", "watcher@example.test"
PRESS_SETTINGS = ["none", "white", "grey", "broadcast", "{white: false, grey: true, partial: false}"]


def started(world: World, press: str) -> Post:
    world.write_game("g", game_file(extra=f"press: {press}\nobservers: [{WATCHER}]\n"))
    world.tick()
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        game.gm_secret_hash = hash_secret(GM_SECRET)
        for seat in current_seats(game):
            seat.secret_hash = hash_secret(secret_of(seat.power))
    return Post(world)


def signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def mailed(post: Post, text: str) -> set[str]:
    return {m.to_address for m in post.mails(kind="press") if text in m.body}


@pytest.mark.parametrize("press", PRESS_SETTINGS)
def test_press_to_the_gm_reaches_the_gm_alone_whatever_the_games_press(world: World, press: str) -> None:
    post = started(world, press)
    post.send(FRANCE, signon("France") + "PRESS TO GM\nMy power's player is ill: may I have two days?\nENDPRESS\n")
    assert "Press sent to the game master." in post.reply(FRANCE)
    assert mailed(post, "may I have two days?") == {GM}
    (mail,) = post.mails(to=GM, kind="press")
    assert "Press from France to the game master in g" in mail.body
    post.send(ENGLAND, signon("England") + "HISTORY\n")
    assert "two days" not in post.reply(ENGLAND)
    post.send(FRANCE, signon("France") + "HISTORY\n")
    assert "from France to the game master:" in post.reply(FRANCE)


@pytest.mark.parametrize("press", PRESS_SETTINGS)
def test_the_gm_answers_one_power_alone_whatever_the_games_press(world: World, press: str) -> None:
    post = started(world, press)
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nPRESS TO France\nTwo days more for you, then.\nENDPRESS\n")
    assert "Press sent to France." in post.reply(GM)
    assert mailed(post, "Two days more for you") == {FRANCE}
    post.send(FRANCE, signon("France") + "HISTORY\n")
    assert "from the game master to France:" in post.reply(FRANCE)
    post.send(ENGLAND, signon("England") + "HISTORY\n")
    assert "Two days more" not in post.reply(ENGLAND)


@pytest.mark.parametrize("written", ["PRESS TO GM", "PRESS TO MASTER", "PRESS TO game master", "PRESS TO gm WITH RESULTS"])
def test_every_way_of_naming_the_gm(world: World, written: str) -> None:
    post = started(world, "none")
    post.send(FRANCE, signon("France") + f"{written}\nA word for you.\nENDPRESS\n")
    assert "ERROR" not in post.reply(FRANCE)
    if "RESULTS" in written:  # held: the GM reads it with the results, nobody else
        assert not mailed(post, "A word for you")
        world.clock.advance(timedelta(hours=49))
        world.tick()
        results = {m.to_address for m in post.mails(kind="results") if "A word for you" in m.body}
        assert results == {GM}
        gm_results = [m.body for m in post.mails(to=GM, kind="results")][-1]
        assert "Press from France to the game master:" in gm_results
    else:
        assert mailed(post, "A word for you") == {GM}


def test_named_beside_powers_the_gm_reads_it_as_all_press_and_grey_press_to_the_gm_is_refused(world: World) -> None:
    post = started(world, "grey")
    post.send(FRANCE, signon("France") + "PRESS TO GM England\nTo England.\nENDPRESS\n"
                                         "PRESS GREY TO GM\nWho am I?\nENDPRESS\n")
    reply = post.reply(FRANCE)
    assert "Press sent to England." in reply
    assert "ERROR: press to the game master is signed: leave out GREY" in reply
    assert mailed(post, "To England.") == {ENGLAND, GM}
    assert not mailed(post, "Who am I?")


def test_in_a_game_without_press_only_the_gm_is_reached_and_the_refusal_says_so(world: World) -> None:
    post = started(world, "none")
    post.send(FRANCE, signon("France") + "PRESS TO England\nPsst.\nENDPRESS\nBROADCAST\nHello all.\nENDPRESS\n")
    reply = post.reply(FRANCE)
    assert reply.count("ERROR: g has no press (PRESS TO GM still reaches the game master)") == 2
    assert not post.mails(kind="press")


def test_the_gm_writing_to_the_gm_is_refused(world: World) -> None:
    post = started(world, "white")
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nPRESS TO GM\nMe?\nENDPRESS\n")
    assert "ERROR: you are the game master: PRESS TO <power> writes to a power" in post.reply(GM)
