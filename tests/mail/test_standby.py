"""The standby list, by mail through the real intake: STANDBY [game] and STANDBY OFF / UNSTANDBY;
a power that opens is offered to those standing by first, one at a time, each for the game's
takeover: standby time (the scheduler's tick passes it on), then to everyone; a private game
asks only those who stand by for it by name."""

from __future__ import annotations

import os
from datetime import timedelta

from sqlalchemy import select

from gm.store.models import Standby
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.mail.test_takeover import flat, resign, secret_from, set_takeover, takeover_mail
from tests.store.conftest import database_url, game_file, world  # noqa: F401  (fixtures)

GM = "master@example.test"
FIRST, SECOND, THIRD = "first@example.test", "second@example.test", "third@example.test"


def offers(post: Post, to: str) -> list[str]:
    return [m.body for m in post.mails(to=to, kind="standby-offer")]


def test_standing_by_and_leaving(post: Post) -> None:
    post.send(FIRST, "STANDBY g\n")
    assert "You stand by for g (1st of 1)" in post.reply(FIRST)
    post.send(SECOND, "STANDBY\nSTANDBY\n")
    reply = post.reply(SECOND)
    assert reply.count("You stand by for any game on this judge (1st of 1)") == 2  # once on the list
    post.send("france@example.test", "STANDBY g\n")
    assert "you play France in g: one power to a player" in post.reply("france@example.test")
    post.send(FIRST, "UNSTANDBY g\n")
    assert "You no longer stand by for g." in post.reply(FIRST)
    post.send(SECOND, "STANDBY OFF\n")
    assert "You no longer stand by for any game." in post.reply(SECOND)
    post.send(THIRD, "STANDBY OFF\nSTANDBY nosuch\n")
    reply = post.reply(THIRD)
    assert "You did not stand by for any game." in reply and "there is no game 'nosuch'" in reply
    with post.world.services.db.sessions() as session:
        assert session.scalars(select(Standby)).all() == []


def test_a_power_is_offered_to_each_standby_in_turn_then_to_everyone(post: Post) -> None:
    post.send(FIRST, "STANDBY g\n")
    post.world.clock.advance(timedelta(minutes=1))
    post.send(SECOND, "STANDBY\n")
    post.world.clock.advance(timedelta(minutes=1))
    post.send(THIRD, "STANDBY g\n")
    resign(post)
    (offer,) = offers(post, FIRST)
    assert "France in the game g (Standard Diplomacy) has no player now. You stand by for g" in flat(offer)
    assert "JOIN g France" in offer and "The game master approves each takeover" in flat(offer)
    assert not offers(post, SECOND) and not post.mails(to="england@example.test", kind="open-power")
    post.send("stranger@example.test", "JOIN g France\nLIST g\n")
    reply = post.reply("stranger@example.test")
    assert "France in g is offered first to those who stand by" in flat(reply)
    assert "open to take over" not in reply  # not open to everyone yet

    post.world.clock.advance(timedelta(hours=24, seconds=1))
    post.world.tick()  # the first did not answer: the second's turn
    (offer,) = offers(post, SECOND)
    assert "You stand by for any game on this judge" in flat(offer)
    post.send(SECOND, "STANDBY OFF g\n")
    assert "France in g is offered to the next one now." in post.reply(SECOND)
    (offer,) = offers(post, THIRD)  # at once
    post.send(THIRD, "STANDBY OFF\n")
    announced = post.mails(to="england@example.test", kind="open-power")
    assert len(announced) == 1 and "JOIN g France" in announced[0].body  # nobody left: everyone's turn
    assert len(offers(post, FIRST)) == 1  # each asked once
    for mail in post.mails():  # every reply, offer and notice fits 72 columns (an error is one line)
        assert all(len(line) <= 72 or line.startswith("ERROR:") for line in mail.body.splitlines()), mail.body
    with post.world.services.db.sessions() as session:
        # the first, who did not answer, stays for g; the second passed on g only, and stays for any game
        assert [s.game_id is None for s in session.scalars(select(Standby).order_by(Standby.id))] == [False, True]


def test_a_standby_who_answers_takes_it_and_leaves_every_list(post: Post) -> None:
    set_takeover(post, "takeover: {policy: open, standby: 12h}\n")
    post.send(FIRST, "STANDBY g\nSTANDBY\n")
    resign(post)
    (offer,) = offers(post, FIRST)
    assert "You take it at once" in offer
    post.send(FIRST, "JOIN g France\n")
    assert "You now play France in g." in post.reply(FIRST)
    assert "You no longer stand by for any game: STANDBY puts you back on the list." in flat(takeover_mail(post, FIRST))
    with post.world.services.db.sessions() as session:
        assert session.scalars(select(Standby)).all() == []


def test_a_standby_whose_ask_the_gm_refuses_passes_it_on(post: Post) -> None:
    post.send(FIRST, "STANDBY g\n")
    post.world.clock.advance(timedelta(minutes=1))
    post.send(SECOND, "STANDBY g\n")
    resign(post)
    post.send(FIRST, "JOIN g France\n")
    assert "You have asked to take over France in g" in post.reply(FIRST)
    post.world.clock.advance(timedelta(days=3))
    post.world.tick()  # its turn holds while the GM decides
    assert not offers(post, SECOND)
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nSTATUS\n")
    status = flat(post.reply(GM))
    assert "France: offered to first@example.test, who stands by and has asked for it" in status
    assert "Asks to take over, waiting for your answer (APPROVE <address> or REFUSE <address>): " \
           "first@example.test for France" in status
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nREFUSE first@example.test\n")
    assert len(offers(post, SECOND)) == 1
    post.send(SECOND, "JOIN g France\n")
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nAPPROVE second@example.test France\n")
    secret = secret_from(takeover_mail(post, SECOND))
    post.send(SECOND, f"SIGNON France g {secret}\nSTATUS\n")
    assert "Current orders for France in g" in post.reply(SECOND)


def test_a_private_game_asks_only_its_own_standbys_and_stays_hidden(post: Post) -> None:
    post.world.write_game("p", game_file(players=7).replace("@example.test", "@p.example.test")
                          .replace("master@p.example.test", GM) + "private: true\nobservers: [watcher@example.test]\n")
    post.world.tick()
    post.send(SECOND, "STANDBY\nSTANDBY p\n")
    reply = post.reply(SECOND)
    assert "You stand by for any game" in reply and "there is no game 'p'" in reply
    post.send("watcher@example.test", "STANDBY p\n")
    assert "You stand by for p (1st of 1)" in post.reply("watcher@example.test")
    from gm.games.lifecycle import find_game
    from gm.games.passwords import hash_secret
    with post.world.services.db.unit_of_work() as session:
        for seat in find_game(session, "p").seats:
            seat.secret_hash = hash_secret(secret_of(seat.power))
    post.send("france@p.example.test", f"SIGNON France p {secret_of('France')}\nRESIGN\n")
    assert not offers(post, SECOND)  # the game is not there for it
    assert len(offers(post, "watcher@example.test")) == 1
    post.world.clock.advance(timedelta(hours=25))
    post.world.tick()
    post.send("stranger@example.test", "LIST\nJOIN p France\nSUMMARY p\n")
    reply = post.reply("stranger@example.test")
    assert " p " not in reply.split("> JOIN")[0] and reply.count("there is no game 'p'") == 2
    assert len(post.mails(to="england@p.example.test", kind="open-power")) == 1


def test_a_game_that_ends_closes_its_offers(post: Post) -> None:
    post.send(FIRST, "STANDBY g\n")
    resign(post)
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nTERMINATE the players have gone\n")
    path = post.world.config.games_dir / "g.yaml"
    os.utime(path, (path.stat().st_atime + 5, path.stat().st_mtime + 5))
    post.world.clock.advance(timedelta(hours=25))
    post.world.tick()
    post.send(FIRST, "JOIN g France\n")
    assert "You now play" not in post.reply(FIRST)
