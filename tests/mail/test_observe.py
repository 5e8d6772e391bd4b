"""OBSERVE and UNOBSERVE by mail: an observer is mailed the game's public mail from then on, signs
on with the secret its answer gives, writes press as the game allows observers, and is an
observer everywhere (web sign-in, a private game's inside) until it stops."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from gm.games.lifecycle import find_game
from gm.games.observers import observers_of
from gm.games.privacy import inside
from gm.games.web_access import holders
from gm.store.models import WebRole
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

FAN, FRANCE, GM, WATCHER = "fan@elsewhere.test", "france@example.test", "master@example.test", "watcher@example.test"


def secret_in(reply: str) -> str:
    found = re.search(r"Your observer secret: (\S+)", reply)
    assert found, reply
    return found.group(1)


def observe(post: Post, address: str = FAN) -> str:
    post.send(address, "OBSERVE g\n")
    return secret_in(post.reply(address))


def with_settings(post: Post, extra: str) -> None:
    post.world.write_game("g", game_file(extra=extra))
    post.world.tick()


def processed(post: Post) -> None:
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()


def test_an_observer_is_mailed_the_results_from_then_on_and_no_more_once_it_stops(post: Post) -> None:
    observe(post)
    assert "You observe g from now on" in post.reply(FAN)
    gm_told = [m.body for m in post.mails(to=GM, kind="gm-alert") if FAN in m.body]
    assert gm_told and "observes g from now on" in gm_told[0]
    processed(post)
    assert [m.kind for m in post.mails(to=FAN) if m.kind == "results"] == ["results"]
    post.send(FAN, "UNOBSERVE g\n")
    assert "You no longer observe g" in post.reply(FAN)
    processed(post)
    assert len([m for m in post.mails(to=FAN) if m.kind == "results"]) == 1


def test_an_observer_by_mail_is_an_observer_everywhere(post: Post) -> None:
    observe(post)
    with post.world.services.db.reading() as session:
        game = find_game(session, "g")
        assert FAN in observers_of(post.world.services, game)
        assert inside(post.world.services, game, FAN)
        assert any(h.role == WebRole.OBSERVER and h.address == FAN for h in holders(post.world.services, game))
    post.send(FAN, "UNOBSERVE g\n")
    with post.world.services.db.reading() as session:
        game = find_game(session, "g")
        assert FAN not in observers_of(post.world.services, game)
        assert not any(h.address == FAN for h in holders(post.world.services, game))


def test_asking_again_gives_a_new_secret_and_the_old_no_longer_signs_on(post: Post) -> None:
    first = observe(post)
    second = observe(post)
    assert first != second and "You observe g already" in post.reply(FAN)
    post.send(FAN, f"SIGNON OBSERVER g {first}\n")
    assert "wrong observer secret for g" in post.reply(FAN)
    post.send(FAN, f"SIGNON OBSERVER g {second}\n")
    assert "Signed on as an observer of g" in post.reply(FAN)


def test_the_secret_is_masked_in_the_copy_kept_once_sent(post: Post) -> None:
    secret = observe(post)
    (reply,) = [m for m in post.mails(to=FAN) if m.kind == "reply"]
    assert reply.secrets == [secret]


@pytest.mark.parametrize(("who", "words"), [
    (FRANCE, "you play in g"),
    (GM, "you are the game master of g"),
])
def test_players_and_the_gm_need_not_observe(post: Post, who: str, words: str) -> None:
    post.send(who, "OBSERVE g\n")
    assert words in post.reply(who)


def test_unobserve_of_a_game_not_observed_and_of_a_settings_observer(post: Post) -> None:
    post.send(FAN, "UNOBSERVE g\n")
    assert "you do not observe g" in post.reply(FAN)
    with_settings(post, f"press: grey\nobservers: [{WATCHER}]\n")
    post.send(WATCHER, "UNOBSERVE g\n")
    assert "the settings of g list you as an observer" in post.reply(WATCHER)
    observe(post, WATCHER)  # a settings file's observer gets a secret by asking
    assert "You observe g already" in post.reply(WATCHER)
    post.send(WATCHER, "UNOBSERVE g\n")
    assert "the settings of g list you" in post.reply(WATCHER)


def test_a_game_that_is_not_there_and_one_that_is_over(post: Post) -> None:
    post.send(FAN, "OBSERVE nowhere\n")
    assert "there is no game 'nowhere'" in post.reply(FAN)
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nTERMINATE enough\n")
    late = "late@elsewhere.test"  # one refusal an hour to an address gm does not know
    post.send(late, "OBSERVE g\n")
    assert "g is over" in post.reply(late) and "SUMMARY g" in post.reply(late)


def test_observers_write_to_the_gm_only_unless_the_game_allows_more(post: Post) -> None:
    secret = observe(post)
    post.send(FAN, f"SIGNON OBSERVER g {secret}\nPRESS\nHello all!\nENDPRESS\n")
    assert "an observer writes to the game master only: PRESS TO GM" in post.reply(FAN)
    post.send(FAN, f"SIGNON OBSERVER g {secret}\nPRESS TO GM\nA question.\nENDPRESS\n")
    assert "Press sent to the game master." in post.reply(FAN)
    assert {m.to_address for m in post.mails(kind="press") if "A question." in m.body} == {GM}


def test_observers_press_to_everyone_where_the_game_allows_it(post: Post) -> None:
    with_settings(post, "press: {players: grey, observers: white}\n")
    secret = observe(post)
    post.send(FAN, f"SIGNON OBSERVER g {secret}\nPRESS TO France\nPsst.\nENDPRESS\n")
    assert "an observer's press goes to everyone" in post.reply(FAN)
    post.send(FAN, f"SIGNON OBSERVER g {secret}\nPRESS GREY\nPsst.\nENDPRESS\n")
    assert "an observer's press goes to everyone" in post.reply(FAN)
    post.send(FAN, f"SIGNON OBSERVER g {secret}\nPRESS\nGood luck, everyone!\nENDPRESS\n")
    assert "Press sent to everyone." in post.reply(FAN)
    mails = [m for m in post.mails(kind="press") if "Good luck, everyone!" in m.body]
    assert {m.to_address for m in mails} >= {FRANCE, GM, "austria@example.test"}
    assert FAN not in {m.to_address for m in mails}
    assert all("Press from an observer to everyone in g" in m.body for m in mails)
    assert all(FAN not in m.body for m in mails)  # no address is given to the players
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nHISTORY\n")
    assert "from an observer to everyone:" in post.reply(FRANCE)


def test_a_wrong_observer_secret_counts_as_a_wrong_secret(post: Post) -> None:
    observe(post)
    for _ in range(5):
        post.send(FAN, "SIGNON OBSERVER g not-the-secret\n")
        assert "wrong observer secret for g" in post.reply(FAN)
    post.send(FAN, "SIGNON OBSERVER g not-the-secret\n")
    assert "too many wrong secrets" in post.reply(FAN)
