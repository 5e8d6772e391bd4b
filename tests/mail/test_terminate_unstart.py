"""TERMINATE and UNSTART by mail: the GM ends a game now, unfinished, mailed to everyone and shown
on its page with the reason; or, before the first adjudication, takes back its start, every seat
kept (in a variant whose players found their powers, their powers too; in one that rolls dice
at the start, the same dice when it starts again)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret
from gm.store.models import GameStatus, Opening, OrderSet
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)
from tests.variants.by_mail import secret_in
from tests.web.conftest import Browser

FRANCE, GM, WATCHER = "france@example.test", "master@example.test", "watcher@example.test"
GM_SIGNON = f"SIGNON GM g {GM_SECRET}\n"


def started(world: World, extra: str = "") -> Post:
    world.write_game("g", game_file(extra=f"observers: [{WATCHER}]\n" + extra))
    world.tick()
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        game.gm_secret_hash = hash_secret(GM_SECRET)
        for seat in current_seats(game):
            seat.secret_hash = hash_secret(secret_of(seat.power))
    return Post(world)


def flat(text: str) -> str:
    return " ".join(text.split())


def stored(world: World):  # type: ignore[no-untyped-def]
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        session.expunge_all()
        return game


def test_terminate_ends_the_game_now_with_its_reason_mailed_to_everyone_and_shown_on_its_page(world: World) -> None:
    post = started(world)
    post.send(GM, GM_SIGNON + "TERMINATE two players have left and nobody will take their powers\n")
    assert "g is over, ended unfinished; everyone has been told why." in post.reply(GM)
    game = stored(world)
    assert game.status == GameStatus.FINISHED and game.due_at is None
    assert game.result == {"kind": "terminated", "reason": "two players have left and nobody will take their powers",
                           "phase": "S1901M"}
    ends = post.mails(kind="end")
    assert {m.to_address for m in ends} >= {FRANCE, GM, WATCHER, "turkey@example.test"}
    end = flat(ends[0].body)
    assert "The game master ended it unfinished: two players have left and nobody will take their powers" in end
    assert "The standing when it ended:" in end and "France 3 centres" in end
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nA Paris - Burgundy\n")
    assert "g is finished: no orders now" in post.reply(FRANCE)
    page = Browser(world, post).get("/games/g")
    assert "ended unfinished by its game master: two players have left" in page.text


@pytest.mark.parametrize("body, fragment", [
    (GM_SIGNON + "TERMINATE\n", "say why, for everyone: TERMINATE <reason>"),
    (f"SIGNON France g {secret_of('France')}\nTERMINATE I am bored\n", "only the game master of g may do that"),
])
def test_terminate_is_refused_without_a_reason_and_to_a_player(world: World, body: str, fragment: str) -> None:
    post = started(world)
    sender = GM if body.startswith("SIGNON GM") else FRANCE
    post.send(sender, body)
    assert fragment in post.reply(sender)
    assert stored(world).status == GameStatus.ACTIVE and not post.mails(kind="end")


def test_a_forming_game_is_terminated_without_a_board(world: World) -> None:
    world.write_game("g", "variant: standard\ngm: master@example.test\n")
    world.tick()
    with world.services.db.unit_of_work() as session:
        find_game(session, "g").gm_secret_hash = hash_secret(GM_SECRET)
    post = Post(world)
    post.send(FRANCE, "JOIN g France\n")
    post.send(GM, GM_SIGNON + "TERMINATE not enough players came\nTERMINATE again\n")
    reply = flat(post.reply(GM))
    assert "ended unfinished" in reply and "ERROR: game g is over already" in reply
    end = flat(post.mails(to=FRANCE, kind="end")[0].body)
    assert "ended it unfinished: not enough players came" in end and "standing" not in end


def test_unstart_returns_the_game_to_forming_every_seat_kept_and_start_draws_again(world: World) -> None:
    post = started(world)
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nA Paris - Burgundy\n")
    post.send(GM, GM_SIGNON + "UNSTART\n")
    assert "g is forming again; everyone has been told." in post.reply(GM)
    game = stored(world)
    assert game.status == GameStatus.FORMING and game.phase is None and game.position is None
    assert game.deadline is None and game.due_at is None
    assert len(current_seats(game)) == 7 and all(s.power is None and s.player for s in current_seats(game))
    told = post.mails(kind="unstart")
    assert {m.to_address for m in told} >= {FRANCE, GM, WATCHER}
    assert "the powers are drawn again when it starts" in flat(told[0].body)
    with world.services.db.sessions() as session:
        assert session.query(OrderSet).count() == 0
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\n")
    assert "ERROR" in post.reply(FRANCE)  # no power yet
    post.send(GM, GM_SIGNON + "START\n")
    game = stored(world)
    assert game.status == GameStatus.ACTIVE and game.phase == "S1901M"
    assert {s.player.email: s.power for s in current_seats(game)}[FRANCE] == "France"  # its preference again
    with world.services.db.unit_of_work() as session:
        for seat in current_seats(find_game(session, "g")):
            seat.secret_hash = hash_secret(secret_of(seat.power))
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nSTATUS\n")
    assert "A Paris - Burgundy" not in post.reply(FRANCE)  # the orders given before are forgotten


def test_unstart_is_refused_once_a_phase_is_adjudicated_and_in_a_forming_game(world: World) -> None:
    post = started(world)
    world.clock.advance(timedelta(hours=49))
    world.tick()
    post.send(GM, GM_SIGNON + "UNSTART\n")
    assert "a phase of g has been adjudicated: UNSTART only comes before the first" in flat(post.reply(GM))
    assert stored(world).status == GameStatus.ACTIVE


def test_unstart_keeps_the_powers_players_founded(world: World) -> None:
    world.write_game("g", "variant: roman-diplomacy-i\ngm: master@example.test\nseats: 3\nstart: manual\n")
    world.tick()
    with world.services.db.unit_of_work() as session:
        find_game(session, "g").gm_secret_hash = hash_secret(GM_SECRET)
    post = Post(world)
    for empire, city in (("Latium", "Rome"), ("Carthago", "Tunis"), ("Hellas", "Greece")):
        post.send(f"{empire.lower()}@example.test", f"JOIN g {city} as {empire}\n")
    post.send(GM, GM_SIGNON + "START\nUNSTART\n")
    game = stored(world)
    assert game.status == GameStatus.FORMING
    assert sorted(s.power for s in current_seats(game)) == ["Carthago", "Hellas", "Latium"]
    assert "each player keeps the power it founded" in flat(post.mails(kind="unstart")[0].body)
    post.send(GM, GM_SIGNON + "START\n")
    game = stored(world)
    assert game.status == GameStatus.ACTIVE and game.phase == "W99A"


def test_a_game_whose_start_rolls_dice_rolls_the_same_when_it_starts_again(world: World) -> None:
    players = "".join(f"  - {{email: p{n}@example.test}}\n" for n in range(4))
    world.write_game("g", "variant: eagles\ngm: master@example.test\nseats: 4\nstart: manual\nplayers:\n" + players)
    world.tick()
    with world.services.db.unit_of_work() as session:
        find_game(session, "g").gm_secret_hash = hash_secret(GM_SECRET)
    post = Post(world)
    post.send(GM, GM_SIGNON + "START\n")
    first = post.mails(to=GM, kind="start")[-1].body
    post.send(GM, GM_SIGNON + "UNSTART\nSTART\n")
    again = post.mails(to=GM, kind="start")[-1].body
    assert len(post.mails(to=GM, kind="start")) == 2
    assert "Drawn with the dice:" in first and again == first  # the powers, the generals, every roll


@pytest.mark.parametrize("command", ["TERMINATE the game is stopped", "UNSTART"])
def test_a_power_open_to_take_over_is_open_no_more(world: World, command: str) -> None:
    post = started(world)
    post.send(GM, GM_SIGNON + "EJECT France\n")
    with world.services.db.sessions() as session:
        (opening,) = session.scalars(select(Opening)).all()
        assert opening.closed_at is None
    post.send(GM, GM_SIGNON + command + "\n")
    with world.services.db.sessions() as session:
        (opening,) = session.scalars(select(Opening)).all()
        assert opening.closed_at is not None and opening.closed_why == "ended"
    if command == "UNSTART":  # the seat France's player left is free to JOIN
        game = stored(world)
        assert len(current_seats(game)) == 6
        post.send("paris@example.test", "JOIN g France\n")
        assert "You have joined g, asking for France." in post.reply("paris@example.test")
