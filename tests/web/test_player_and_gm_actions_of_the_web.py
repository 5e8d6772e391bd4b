"""On the web, as by mail: a player's page offers absences (within the game's limits), press to
the game master and draws among named powers; an observer writes to the game master from the
game's page (and nothing else); the GM's page offers TERMINATE and, before the first
adjudication, UNSTART. Each runs as the mail's command and is confirmed by mail."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.games.lifecycle import find_game, seat_of
from gm.store.models import GameStatus, WebRole
from tests.mail.conftest import Post
from tests.store.conftest import World
from tests.web.conftest import Browser, csrf_of

GM, WATCHER = "master@example.test", "watcher@example.test"


def _with(world: World, extra: str) -> None:
    """The game's settings with ``extra`` (read at the next tick)."""
    path = world.config.games_dir / "g.yaml"
    path.write_text(path.read_text().replace("press: grey\n", "") + extra)
    world.tick()


def _post(browser: Browser, path: str, **fields: object):  # type: ignore[no-untyped-def]
    return browser.form("/games/g/play", f"/games/g/play/{path}", **fields)


def _game(world: World):  # type: ignore[no-untyped-def]
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        session.expunge_all()
        return game


def test_an_absence_set_and_cancelled_on_the_players_page(browser: Browser, post: Post) -> None:
    _with(browser.world, "absences: {max: 14d, per_player: 2}\n")
    browser.sign_in("France")
    page = browser.get("/games/g/play").text
    assert "allows absences of 14d at most, 2 a player" in page
    answer = _post(browser, "absence", **{"from": "2026-01-06", "to": "2026-01-09"})
    assert answer.status_code == 303
    assert _game(browser.world).deadline == datetime(2026, 1, 9, 23, 0, tzinfo=UTC)
    assert "Your absence from Tue 06 Jan 2026" in " ".join(post.reply("france@example.test").split())
    page = browser.get("/games/g/play").text
    assert "Away from Tue 06 Jan 2026 00:00 CET" in page and 'value="2026-01-06"' in page
    _post(browser, "absence", cancel="2026-01-06")
    assert _game(browser.world).deadline == datetime(2026, 1, 7, 12, 0, tzinfo=UTC)


def test_a_game_without_absences_says_so_and_refuses_one(browser: Browser, post: Post) -> None:
    browser.sign_in("France")
    assert "allows no absences" in browser.get("/games/g/play").text
    _post(browser, "absence", **{"from": "2026-01-06", "to": "2026-01-09"})
    assert "g allows no absences" in post.reply("france@example.test")


def test_press_to_the_game_master_from_the_players_page_even_without_press(browser: Browser, post: Post) -> None:
    _with(browser.world, "press: none\n")
    browser.sign_in("France")
    page = browser.get("/games/g/play").text
    assert "Write to the game master" in page and "Send press" not in page
    assert _post(browser, "press", to=["GM"], text="I shall be late this week.").status_code == 303
    assert {m.to_address for m in post.mails(kind="press") if "late this week" in m.body} == {GM}
    assert _post(browser, "press", to=["GM", "England"], text="Both?").status_code == 400


def test_a_draw_among_named_powers_from_the_players_page(browser: Browser, post: Post) -> None:
    _with(browser.world, "draw: {among: any}\n")
    browser.sign_in("France")
    page = browser.get("/games/g/play").text
    assert "A draw shared by these powers only" in page
    _post(browser, "command", command="DRAW", among=["France", "England"])
    with browser.world.services.db.reading() as session:
        seat = seat_of(find_game(session, "g"), "France")
        assert seat.draw_vote and seat.draw_with == ["England", "France"]
    assert 'value="England" checked' in browser.get("/games/g/play").text


def test_an_observer_writes_to_the_game_master_and_does_nothing_else(browser: Browser, post: Post) -> None:
    _with(browser.world, f"observers: [{WATCHER}]\n")
    assert browser.use_link(browser.link_for(role=WebRole.OBSERVER)).status_code == 303
    page = browser.get("/games/g").text
    assert "Write to the game master" in page
    answer = browser.client.post("/games/g/play/press", data={"csrf": csrf_of(page), "to": "GM", "text": "A typo?"})
    assert answer.status_code == 303
    (mail,) = [m for m in post.mails(kind="press") if "A typo?" in m.body]
    assert mail.to_address == GM and "Press from the observer watcher@example.test to the game master" in mail.body
    assert "you, to the game master" in browser.get("/games/g").text
    browser.client.post("/games/g/play/press", data={"csrf": csrf_of(page), "text": "Hello all"})
    assert "ERROR: an observer writes to the game master only: PRESS TO GM" in post.reply(WATCHER)
    assert not [m for m in post.mails(kind="press") if "Hello all" in m.body]
    orders = browser.client.post("/games/g/play/orders", data={"csrf": csrf_of(page), "orders": "A Paris H"})
    assert orders.status_code == 403


def test_the_gm_terminates_from_the_page(browser: Browser, post: Post) -> None:
    browser.sign_in(role=WebRole.GM)
    page = browser.get("/games/g/play").text
    assert "Terminate the game" in page and "UNSTART" in page
    _post(browser, "end", end="TERMINATE", reason="the players agreed to stop")
    game = _game(browser.world)
    assert game.status == GameStatus.FINISHED and game.result["reason"] == "the players agreed to stop"
    assert "ended unfinished by its game master: the players agreed to stop" in browser.get("/games/g").text


def test_unstart_is_offered_only_before_the_first_adjudication(browser: Browser, post: Post) -> None:
    browser.sign_in(role=WebRole.GM)
    _post(browser, "end", end="UNSTART")
    assert _game(browser.world).status == GameStatus.FORMING
    _post(browser, "gm", commands="START")
    browser.world.clock.advance(timedelta(hours=49))
    browser.world.tick()
    page = browser.get("/games/g/play").text
    assert "Terminate the game" in page and "UNSTART:" not in page


def test_a_player_cannot_terminate(browser: Browser, post: Post) -> None:
    browser.sign_in("France")
    assert _post(browser, "end", end="TERMINATE", reason="bored").status_code == 403
    assert _game(browser.world).status == GameStatus.ACTIVE
