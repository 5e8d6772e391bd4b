"""Open powers and the record of deadlines on the web, through Starlette's test client: the game's
page lists the powers open to take over with the JOIN to mail (a mailto link: asking is done by
mail, from the address that will play), never an address of a player; the power table shows each
player's deadlines; the game master's page lists the asks waiting, whose Approve and Refuse
buttons run APPROVE and REFUSE as a mail after SIGNON GM would."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from gm.games.lifecycle import find_game, seat_of
from gm.store.models import WebRole
from tests.mail.conftest import secret_of
from tests.web.conftest import Browser, csrf_of

NEW = "newcomer@example.test"


def _resign(browser: Browser, power: str = "France") -> None:
    browser.post.send(f"{power.lower()}@example.test", f"SIGNON {power} g {secret_of(power)}\nRESIGN\n")


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_the_game_page_lists_open_powers_with_the_mail_that_asks(browser: Browser) -> None:
    before = browser.get("/games/g").text
    assert "Open to take over" not in before
    _resign(browser)
    page = browser.get("/games/g").text
    text = _text(page)
    assert "Open to take over" in text and "France: mail JOIN g France to judge@example.test" in text
    assert "the game master approves each takeover" in text and "STANDBY g" in text
    assert 'href="mailto:judge@example.test?subject=JOIN%20g%20France&amp;body=JOIN%20g%20France"' in page
    assert "france@example.test" not in page and "england@example.test" not in page
    assert "seat open" in text


def test_the_power_table_shows_each_players_deadlines(browser: Browser) -> None:
    browser.post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nA Paris H\n")
    with browser.world.services.db.sessions() as session:
        browser.world.clock.set(find_game(session, "g").deadline + timedelta(seconds=1))
    browser.world.tick()
    text = _text(browser.get("/games/g").text)
    assert "Deadlines" in text
    assert "France 3 3 1 kept, 0 missed" in text and "England 3 3 0 kept, 1 missed" in text


def test_the_game_master_approves_an_ask_with_a_button(browser: Browser, other_browser: Browser) -> None:
    _resign(browser)
    browser.post.send(NEW, "JOIN g France\n")
    browser.post.send("second@example.test", "JOIN g France\n")
    browser.sign_in(role=WebRole.GM)
    page = browser.get("/games/g/play").text
    text = _text(page)
    assert "Asks to take over, waiting for your answer" in text
    assert "newcomer@example.test France" in text and "new to this judge" in text
    assert "France: open to everyone (the game master approves each takeover)" in text
    answer = browser.client.post("/games/g/play/gm", data={"csrf": csrf_of(page),
                                                             "commands": "APPROVE newcomer@example.test France"})
    assert answer.status_code == 303
    done = _text(browser.get(answer.headers["location"]).text)
    assert "newcomer@example.test now plays France in g" in done
    assert "has been taken over by another player" in browser.post.mails(to="second@example.test",
                                                                         kind="takeover")[-1].body
    with browser.world.services.db.sessions() as session:
        assert seat_of(find_game(session, "g"), "France").player.email == NEW
    other_browser.sign_in("France")  # a link mailed to the new player's address works
    assert "Orders for France" in other_browser.get("/games/g/play").text
    assert "Asks to take over" not in _text(browser.get("/games/g/play").text)


def test_the_game_master_refuses_an_ask_with_a_button(browser: Browser) -> None:
    _resign(browser)
    browser.post.send(NEW, "JOIN g France\n")
    browser.sign_in(role=WebRole.GM)
    page = browser.get("/games/g/play").text
    answer = browser.client.post("/games/g/play/gm", data={"csrf": csrf_of(page),
                                                             "commands": "REFUSE newcomer@example.test France"})
    assert answer.status_code == 303
    assert "has not accepted your ask" in browser.post.mails(to=NEW, kind="takeover")[-1].body
    with browser.world.services.db.sessions() as session:
        assert seat_of(find_game(session, "g"), "France").player is None


def test_a_player_cannot_answer_an_ask(browser: Browser) -> None:
    _resign(browser)
    browser.post.send(NEW, "JOIN g France\n")
    browser.sign_in("England")
    page = browser.get("/games/g/play").text
    assert "Asks to take over" not in page
    answer = browser.client.post("/games/g/play/gm", data={"csrf": csrf_of(page),
                                                             "commands": "APPROVE newcomer@example.test"})
    assert answer.status_code == 403
    with browser.world.services.db.sessions() as session:
        assert seat_of(find_game(session, "g"), "France").player is None
