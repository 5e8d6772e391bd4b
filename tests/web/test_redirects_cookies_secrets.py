"""Redirects name the configured base_url, never the request's Host; under an https base_url
every cookie is Secure and host-only (``__Host-``); and the GM's web box sets no new secret (that
takes the old one, by mail)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from gm.app import App
from gm.config import WebConfig
from gm.games.lifecycle import find_game
from gm.games.passwords import verify_secret
from gm.web import signin
from tests.mail.conftest import GM_SECRET, Post
from tests.store.conftest import World
from tests.web.conftest import BASE, Browser, csrf_of

SITE = "https://diplomacy.example.test"
FRANCE = "france@example.test"


def test_a_trailing_slash_is_redirected_to_the_base_url_not_the_host_header(browser: Browser) -> None:
    for path, target in (("/games/g/", "/games/g"), ("/games/g/rules/", "/games/g/rules"),
                         ("/games/g/signin/?x=1", "/games/g/signin?x=1")):
        answer = browser.get(path, headers={"host": "evil.example"})
        assert answer.status_code == 307, path
        assert answer.headers["location"] == BASE + target
    assert browser.get("/no/such/page/", headers={"host": "evil.example"}).status_code == 404


def test_every_redirect_is_a_path_of_this_site_or_the_base_url(browser: Browser) -> None:
    browser.sign_in("France")
    page = browser.get("/games/g/play").text
    answers = [
        browser.client.post("/games/g/play/command", data={"csrf": csrf_of(page), "command": "WAIT"},
                            headers={"host": "evil.example"}),
        browser.client.post("/games/g/signoff", data={"csrf": csrf_of(page)}, headers={"host": "evil.example"}),
        browser.get("/games/g/play", headers={"host": "evil.example"}),
        browser.get("/games/nowhere/play", headers={"host": "evil.example"}),
    ]
    for answer in answers:
        assert answer.status_code == 303
        location = answer.headers["location"]
        assert location.startswith("/games/") or location.startswith(BASE + "/"), location


@pytest.fixture
def site(world: World, post: Post) -> Iterator[TestClient]:
    """The web served under an https base_url (another App on the same database)."""
    app = App(dataclasses.replace(world.config, web=WebConfig(base_url=SITE)), clock=world.clock)
    try:
        yield TestClient(app.web_app(), base_url=SITE, follow_redirects=False)
    finally:
        app.close()


def _cookies_set(response) -> dict[str, str]:  # type: ignore[no-untyped-def]
    found = {}
    for header in response.headers.get_list("set-cookie"):
        name = header.split("=", 1)[0]
        found[name] = header.lower()
    return found


def _mailed_link(post: Post, to: str) -> str:
    body = post.mails(to=to, kind="web-link")[-1].body
    found = re.search(re.escape(SITE) + r"(/games/\S+/link/\S+)", body)
    assert found, body
    return found.group(1)


def test_under_https_cookies_are_secure_and_host_only(site: TestClient, world: World, post: Post,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(signin, "ANSWER_AFTER", 0.0)
    page = site.get("/games/g/signin")
    seed = _cookies_set(page)
    assert list(seed) == ["__Host-gm_csrf"]
    assert "; secure" in seed["__Host-gm_csrf"] and "; path=/" in seed["__Host-gm_csrf"]
    assert "domain=" not in seed["__Host-gm_csrf"]
    asked = site.post("/games/g/signin", data={"csrf": csrf_of(page.text), "who": "France"})
    assert asked.status_code == 200 and "on its way" in asked.text  # the prefixed seed is read back
    link = _mailed_link(post, FRANCE)
    opened = site.get(link)
    used = site.post("/games/g/link", data={"csrf": csrf_of(opened.text), "token": link.rsplit("/", 1)[1]})
    assert used.status_code == 303
    with world.services.db.reading() as session:
        game_id = find_game(session, "g").id
    session_cookie = _cookies_set(used)
    assert list(session_cookie) == [f"__Host-gm_s{game_id}"]
    text = session_cookie[f"__Host-gm_s{game_id}"]
    assert "; secure" in text and "; path=/" in text and "; httponly" in text and "domain=" not in text
    assert site.get("/games/g/play").status_code == 200  # read back under its name
    # The same value under the name of plain http is no session here: a cookie another host of
    # the domain could have set is never read.
    value = site.cookies.get(f"__Host-gm_s{game_id}")
    other = TestClient(site.app, base_url=SITE, follow_redirects=False)
    other.cookies.set(f"gm_s{game_id}", value)
    assert other.get("/games/g/play").status_code == 303
    play = site.get("/games/g/play")
    signed_off = site.post("/games/g/signoff", data={"csrf": csrf_of(play.text)})
    assert signed_off.status_code == 303
    cleared = _cookies_set(signed_off)[f"__Host-gm_s{game_id}"]
    assert "; secure" in cleared and "max-age=0" in cleared


def test_under_plain_http_the_cookies_keep_their_names(browser: Browser) -> None:
    page = browser.get("/games/g/signin")
    assert list(_cookies_set(page)) == ["gm_csrf"] and "secure" not in _cookies_set(page)["gm_csrf"]


def _gm_box(browser: Browser, commands: str):  # type: ignore[no-untyped-def]
    page = browser.get("/games/g/play").text
    return browser.client.post("/games/g/play/gm", data={"csrf": csrf_of(page), "commands": commands})


def _gm_secret_is(world: World, secret: str) -> bool:
    with world.services.db.reading() as session:
        return verify_secret(secret, find_game(session, "g").gm_secret_hash)


def test_the_gm_box_sets_no_new_secret(browser: Browser, post: Post) -> None:
    browser.sign_in(role="gm")
    for commands in ("SET PASSWORD hijacked-secret-1", "set secret hijacked-secret-2",
                     "SET DEADLINE +1d\nSET  PASSWORD hijacked-secret-3", "BECOME France\nSET PASSWORD hijacked-4"):
        answer = _gm_box(browser, commands)
        assert answer.status_code == 400, commands
        assert "by mail" in answer.text and "hijacked" not in answer.text
    assert _gm_secret_is(browser.world, GM_SECRET)
    assert _gm_box(browser, "SET DEADLINE +1d").status_code == 303  # the box works for the rest
    # By mail, after a sign-on with the old secret, as ever.
    post.send("master@example.test", f"SIGNON GM g {GM_SECRET}\nSET PASSWORD a-new-gm-secret\n")
    assert "The game master secret of g is changed." in post.reply("master@example.test")
    assert _gm_secret_is(browser.world, "a-new-gm-secret")
