"""HISTORY by mail for anyone who may see a game: a phase, a range of phases or the last few, as
the results mails printed them, with the press the reader may read (a stranger: what a stranger
reads on the web); signed on, as before."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret
from tests.mail.conftest import Post, secret_of
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

_strangers = iter(range(1, 10_000))


def signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def ask(post: Post, body: str) -> str:
    sender = f"reader{next(_strangers)}@elsewhere.test"  # each its own: no limit on refusals holds one back
    post.send(sender, body)
    return post.reply(sender)


def processed(post: Post) -> None:
    with post.world.services.db.reading() as session:
        before = find_game(session, "g").phase
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()
    with post.world.services.db.reading() as session:
        assert find_game(session, "g").phase != before


@pytest.fixture
def played(post: Post) -> Post:
    """g with Spring and Fall 1901 processed, press of each kind sent in Spring."""
    post.send("france@example.test", signon("France") + "A Paris - Burgundy\n"
              "PRESS TO England\nA secret between us.\nENDPRESS\nBROADCAST\nHello, Europe.\nENDPRESS\n")
    processed(post)
    post.send("germany@example.test", signon("Germany") + "A Munich - Ruhr\n")
    processed(post)
    return post


def test_nothing_processed_yet(post: Post) -> None:
    assert "No phase of g has been processed yet." in ask(post, "HISTORY g\n")


def test_one_phase_for_a_stranger_with_the_press_a_stranger_reads(played: Post) -> None:
    reply = ask(played, "HISTORY g S1901M\n")
    assert "Spring 1901 movement results for g." in reply
    assert "France:    Army Paris -> Burgundy" in reply
    assert "Fall 1901" not in reply
    assert "Hello, Europe." in reply and "A secret between us." not in reply
    assert ask(played, "HISTORY g spring 1901 movement\n") == reply.replace("HISTORY g S1901M", "HISTORY g spring 1901 movement")


def test_a_range_either_way_round_and_the_last_few(played: Post) -> None:
    both = ask(played, "HISTORY g S1901M..F1901M\n")
    assert "Spring 1901 movement results for g." in both and "Fall 1901 movement results for g." in both
    assert both.index("Spring 1901") < both.index("Fall 1901")
    assert "Germany:   Army Munich -> Ruhr" in both
    backwards = ask(played, "HISTORY g F1901M .. S1901M\n")
    assert backwards.split("\n", 5)[5] == both.split("\n", 5)[5]
    last = ask(played, "HISTORY g 1\n")
    assert "Fall 1901 movement results for g." in last and "Spring 1901 movement results" not in last


def test_a_phase_not_there_names_those_that_are(played: Post) -> None:
    reply = ask(played, "HISTORY g S1905M\n")
    assert "ERROR: g has no phase 'S1905M': its processed phases run from S1901M to F1901M" in reply


def test_a_stranger_must_name_the_game(played: Post) -> None:
    assert "sign on first, or name the game" in ask(played, "HISTORY 3\n")
    assert "name a game (HISTORY <game>)" in ask(played, "HISTORY\n")
    assert "there is no game 'nowhere'" in ask(played, "HISTORY nowhere\n")


def test_signed_on_a_player_reads_its_own_press_by_phase_or_by_naming_its_game(played: Post) -> None:
    for body in ("HISTORY\n", "HISTORY S1901M\n", "HISTORY g S1901M..F1901M\n", "HISTORY 2\n"):
        played.send("england@example.test", signon("England") + body)
        reply = played.reply("england@example.test")
        assert "A secret between us." in reply and "Hello, Europe." in reply, body
        assert "Spring 1901 movement results for g." in reply, body
    played.send("england@example.test", signon("England") + "HISTORY g F1901M\n")
    assert "A secret between us." not in played.reply("england@example.test")  # sent in Spring


def test_signed_on_to_another_game_a_player_reads_what_anyone_reads(played: Post) -> None:
    played.world.write_game("h", game_file().replace("@example.test", "@h.test").replace("master@h.test",
                                                                                         "master@example.test"))
    played.world.tick()
    with played.world.services.db.unit_of_work() as session:
        for seat in current_seats(find_game(session, "h")):
            seat.secret_hash = hash_secret("h-secret")
    played.send("england@h.test", "SIGNON England h h-secret\nHISTORY g S1901M\n")
    reply = played.reply("england@h.test")
    assert "Signed on as England in h" in reply
    assert "Hello, Europe." in reply and "A secret between us." not in reply
