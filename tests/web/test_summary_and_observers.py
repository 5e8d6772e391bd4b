"""The summary page (SUMMARY's data: settings, players over time, centres year by year as exact
numbers beside the chart, the result, statements), and observers on the web: asking by a mailto
link, and press to everyone where the game allows observers' press."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from urllib.parse import unquote

from gm.store.models import WebRole
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import game_file
from tests.web.conftest import Browser, csrf_of

FAN, GM = "fan@elsewhere.test", "master@example.test"


def _signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def _year_played(post: Post) -> None:
    post.send("france@example.test", _signon("France") + "A Marseilles - Spain\n")
    for _ in range(3):  # Spring, Fall, the builds (none ordered: held to their deadline)
        post.world.clock.advance(timedelta(hours=49))
        post.world.tick()


def _cells(page: str, power: str) -> list[str]:
    row = re.search(rf"<tr><th scope=\"row\">{power}</th>(.*?)</tr>", page)
    assert row, page
    return re.findall(r"<td>([^<]*)</td>", row.group(1))


def test_the_summary_page_gives_the_table_beside_the_chart(browser: Browser, post: Post) -> None:
    _year_played(post)
    page = browser.get("/games/g/summary")
    assert page.status_code == 200
    text = page.text
    assert "<h2>Supply centres year by year</h2>" in text
    assert re.search(r"<th scope=\"col\">start</th><th scope=\"col\">1901</th>", text)
    assert _cells(text, "France") == ["3", "4"] and _cells(text, "Russia") == ["4", "4"]
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="chart"' in text  # MAP CHART's picture beside it
    assert "<dt>Players named</dt><dd>once the game is over</dd>" in text
    assert "Players are named once the game is over." in text and "france@example.test" not in text
    assert 'href="/games/g/summary"' in browser.get("/games/g").text


def test_after_the_end_the_result_the_players_and_the_statements(browser: Browser, post: Post) -> None:
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        post.send(f"{power.lower()}@example.test", _signon(power) + "DRAW\n")
    post.send("italy@example.test", _signon("Italy") + "PRESS\n<b>Well</b> played & thanks.\nENDPRESS\n")
    text = browser.get("/games/g/summary").text
    assert '<dd class="result">drawn between Austria, England, France, Germany, Italy, Russia, Turkey</dd>' in text
    assert "france@example.test" in text  # named, by address: no name was given
    assert "<h2>Statements after the end</h2>" in text
    assert "From Italy," in text and "&lt;b&gt;Well&lt;/b&gt; played &amp; thanks." in text


def test_the_game_master_sees_the_players_on_the_page(browser: Browser, post: Post) -> None:
    browser.sign_in(role=WebRole.GM)
    assert "france@example.test" in browser.get("/games/g/summary").text
    assert "france@example.test" not in Browser(browser.world, post).get("/games/g/summary").text


def test_observing_is_asked_by_a_mail_the_page_writes(browser: Browser, post: Post) -> None:
    page = browser.get("/games/g").text
    link = re.search(r'href="(mailto:[^"]+)"', page.split("To follow it by mail")[1]).group(1)  # type: ignore[union-attr]
    address, _, query = html.unescape(link).removeprefix("mailto:").partition("?")
    assert address == "judge@example.test" and unquote(query) == "subject=OBSERVE g&body=OBSERVE g"
    post.send(FAN, "OBSERVE g\n")  # the mail it writes
    assert browser.use_link(browser.link_for(role=WebRole.OBSERVER)).status_code == 303
    page = browser.get("/games/g").text
    assert "You observe g." in page and "UNOBSERVE g" in page
    assert "Write to everyone" not in page  # the game allows observers no press but to its GM


def test_an_observer_writes_to_everyone_on_the_page_where_allowed(browser: Browser, post: Post) -> None:
    browser.world.write_game("g", game_file(extra="press: {observers: white}\n"))
    browser.world.tick()
    post.send(FAN, "OBSERVE g\n")
    assert browser.use_link(browser.link_for(role=WebRole.OBSERVER)).status_code == 303
    page = browser.get("/games/g").text
    assert "Write to everyone" in page
    answer = browser.client.post("/games/g/play/press", data={"csrf": csrf_of(page), "text": "Go, Turkey!"})
    assert answer.status_code == 303
    mailed = {m.to_address for m in post.mails(kind="press") if "Go, Turkey!" in m.body}
    assert "turkey@example.test" in mailed and GM in mailed and FAN not in mailed
    assert "an observer" in browser.get("/games/g").text  # its press to everyone, on the public page
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nHISTORY\n")
    assert "from the observer fan@elsewhere.test to everyone" in post.reply(GM)  # the GM knows who


def test_reveal_always_names_the_players_on_the_game_page(browser: Browser, post: Post) -> None:
    assert "france@example.test" not in browser.get("/games/g").text
    browser.world.write_game("g", game_file(extra="reveal: always\n"))
    browser.world.tick()
    page = browser.get("/games/g").text
    assert "<th>Played by</th>" in page and "france@example.test" in page
