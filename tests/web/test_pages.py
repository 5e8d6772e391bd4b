"""The public pages show what any player could learn by mail at that moment, escaped; a private
game only to its own; the order box answers line by line in a mail reply's words, storing nothing."""

from __future__ import annotations

import json
import re
from datetime import timedelta

from sqlalchemy import func, select

from gm.store.models import InboundMail, OrderSet, OutboundMail, Player, Press
from tests.mail.conftest import Post, secret_of
from tests.web.conftest import Browser, csrf_of, mailed_link

HOSTILE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">&amp; "quoted" \'single\''


def _signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def test_the_list_and_the_game_page(browser: Browser) -> None:
    games = browser.get("/").text
    assert re.search(r'<a href="/games/g">g</a>.*Standard Diplomacy.*Spring 1901 movement', games, re.S)
    assert "none" in games  # seats open
    page = browser.get("/games/g").text
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="board"' in page
    assert re.search('<path id="p-par" data-name="Paris"', page, re.I) and "<title>Paris</title>" in page  # on hover
    assert "<time datetime=" in page and "data-local" in page
    assert "@example.test" not in page.replace("judge@example.test", "")  # no address but the judge's, ever
    rules = browser.get("/games/g/rules").text
    assert "rules" in rules.lower()


def test_no_address_on_any_page_even_signed_in(browser: Browser) -> None:
    browser.sign_in("France")
    for path in ("/", "/games/g", "/games/g/play", "/games/g/rules"):
        page = browser.get(path).text
        assert "@example.test" not in page.replace("judge@example.test", ""), path


def test_hostile_press_is_text_everywhere(browser: Browser, post: Post) -> None:
    post.send("england@example.test", _signon("England") + f"BROADCAST\n{HOSTILE}\nENDPRESS\n")
    post.send("england@example.test", _signon("England") + f"PRESS TO France\n{HOSTILE}\nENDPRESS\n")
    browser.sign_in("France")
    for path in ("/games/g", "/games/g/play"):
        page = browser.get(path).text
        assert "<script>window.pwned" not in page and "<img src=x" not in page
        assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in page
    assert "Content-Security-Policy".lower() in browser.get("/games/g").headers


def test_public_press_is_only_press_to_everyone_and_grey_keeps_its_sender(browser: Browser, post: Post) -> None:
    post.send("england@example.test", _signon("England") + "PRESS TO France\nJust for you.\nENDPRESS\n")
    post.send("germany@example.test", _signon("Germany") + "BROADCAST GREY\nGuess who.\nENDPRESS\n")
    post.send("italy@example.test", _signon("Italy") + "BROADCAST WITH RESULTS\nLater.\nENDPRESS\n")
    page = browser.get("/games/g").text
    assert "Guess who." in page and "an anonymous power" in page and "from Germany" not in page
    assert "Just for you." not in page and "Later." not in page
    browser.world.clock.advance(timedelta(hours=49))
    browser.world.tick()
    assert "Later." in browser.get("/games/g").text  # out with the results


def test_a_private_game_is_for_its_own_readers(browser: Browser, other_browser: Browser) -> None:
    path = browser.world.config.games_dir / "g.yaml"
    browser.world.write_game("g", path.read_text() + "private: true\n")
    browser.world.tick()
    assert '<a href="/games/g">' not in browser.get("/").text
    assert browser.get("/games/g").status_code == 404  # as a game that is not there (test_private_pages.py)
    assert browser.get("/games/g/phases/S1901M").status_code == 404
    browser.form("/games/g/signin", "/games/g/signin", who="France")
    assert browser.use_link(mailed_link(browser.world, "france@example.test")).status_code == 303
    assert browser.get("/games/g").status_code == 200
    assert '<a href="/games/g">' in browser.get("/").text
    assert other_browser.get("/games/g").status_code == 404


def test_a_hostile_player_name_shows_as_text_when_the_game_is_over(browser: Browser, post: Post) -> None:
    with browser.world.services.db.unit_of_work() as session:
        player = session.scalars(select(Player).where(Player.email == "france@example.test")).one()
        player.name = '<b onmouseover="x()">Fr</b>'
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        post.send(f"{power.lower()}@example.test", _signon(power) + "DRAW\n")
    page = browser.get("/games/g").text
    assert "drawn between" in page and "Played by" in page
    assert "<b onmouseover" not in page and "&lt;b onmouseover=&#34;x()&#34;&gt;Fr&lt;/b&gt;" in page


def _check(browser: Browser, text: str) -> dict:
    page = browser.get("/games/g/play").text
    answer = browser.client.post("/games/g/play/check", content=json.dumps({"text": text}),
                                 headers={"content-type": "application/json", "x-csrf-token": csrf_of(page)})
    assert answer.status_code == 200, answer.text
    return answer.json()


def _stored(browser: Browser) -> tuple[int, int, int, int]:
    with browser.world.services.db.reading() as session:
        return tuple(session.scalar(select(func.count()).select_from(table))  # type: ignore[return-value]
                     for table in (OrderSet, InboundMail, OutboundMail, Press))


def test_the_order_box_answers_line_by_line_as_a_mail_reply_and_stores_nothing(browser: Browser) -> None:
    browser.sign_in("France")
    before = _stored(browser)
    found = _check(browser, "A Parris - Burgundy\nF Brest - Mid-Atlantic\n\nA Mar H")
    assert [line["text"] for line in found["lines"]] == ["A Parris - Burgundy", "F Brest - Mid-Atlantic", "A Mar H"]
    first, second, third = found["lines"]
    assert not first["ok"] and any("Paris" in said for said in first["answer"])  # did you mean Paris?
    assert second["ok"] and third["ok"]
    assert any(line.startswith("Current orders for France in g") for line in found["summary"])
    fixed = _check(browser, "A Paris - Burgundy")
    assert fixed["lines"][0]["ok"]
    assert _stored(browser) == before  # the box tried the command: nothing was written
    # the same words as the mail's reply to the same line
    browser.form("/games/g/play", "/games/g/play/orders", orders="A Parris - Burgundy")
    mailed = browser.post.reply("france@example.test")
    for said in first["answer"]:
        assert said in " ".join(mailed.split())


def test_the_order_box_needs_the_sessions_token(browser: Browser) -> None:
    browser.sign_in("France")
    answer = browser.client.post("/games/g/play/check", content=json.dumps({"text": "A Par H"}),
                                 headers={"content-type": "application/json", "x-csrf-token": "nope"})
    assert answer.status_code == 403


def test_a_phase_page_has_its_map_results_and_neighbours(browser: Browser, post: Post) -> None:
    post.send("france@example.test", _signon("France") + "A Paris - Burgundy\n")
    browser.world.clock.advance(timedelta(hours=49))
    browser.world.tick()
    page = browser.get("/games/g").text
    assert '/games/g/phases/S1901M' in page
    phase = browser.get("/games/g/phases/S1901M").text
    assert "Spring 1901 movement results for g." in phase
    assert 'rel="next"' not in phase and "the game now" in phase
    assert browser.get("/games/g/phases/s1901m").status_code == 200
    assert browser.get("/games/g/phases/F1901M").status_code == 404
