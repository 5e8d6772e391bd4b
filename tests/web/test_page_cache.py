"""The pages kept as drawn (gm.web.pagecache): byte for byte the page an application that keeps
none draws; a change of the game seen at once; one reader's page never another's; a private
game still missing to strangers; bounded."""

from __future__ import annotations

import threading
from collections.abc import Hashable
from datetime import timedelta

import pytest
from starlette.requests import Request
from starlette.testclient import TestClient

from gm.store.models import WebRole
from gm.web.app import build_app
from gm.web.pagecache import Kept, PageCache
from tests.mail.conftest import Post, secret_of
from tests.store.conftest import World
from tests.web.conftest import BASE, Browser, csrf_of

PAGES = ("/games/g", "/games/g/phases/S1901M")
FRANCE = "france@example.test"


class Counted(PageCache):
    """A page cache that counts the pages it served."""

    def __init__(self, max_bytes: int = 64 * 1024 * 1024):
        super().__init__(max_bytes)
        self.served = 0

    def get(self, key: Hashable) -> Kept | None:
        found = super().get(key)
        self.served += found is not None
        return found


def _browser(world: World, post: Post, pages: PageCache) -> Browser:
    browser = Browser(world, post)
    browser.client = TestClient(build_app(world.services, post.intake.table, kept=pages), base_url=BASE,
                                follow_redirects=False)
    return browser


def _beside(browser: Browser) -> Browser:
    """Another reader's browser on the same application (and so the same kept pages)."""
    other = Browser(browser.world, browser.post)
    other.client = TestClient(browser.client.app, base_url=BASE, follow_redirects=False)
    return other


def _played(world: World) -> None:
    world.clock.advance(timedelta(hours=49))
    world.tick()


def _signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


@pytest.fixture
def kept(world: World, post: Post) -> tuple[Browser, Counted]:
    """A stranger's browser whose application keeps its pages; g with a phase played."""
    _played(world)
    pages = Counted()
    return _browser(world, post, pages), pages


def test_a_kept_page_is_the_page_drawn_anew_byte_for_byte(world: World, post: Post,
                                                         kept: tuple[Browser, Counted]) -> None:
    browser, pages = kept
    anew = _browser(world, post, PageCache(max_bytes=0))  # keeps nothing: draws every page
    for signed_in in (False, True):
        if signed_in:
            browser.sign_in("France")
            anew.client.cookies = browser.client.cookies  # the same reader
        for path in PAGES:
            first, served = browser.get(path), pages.served
            second = browser.get(path)
            assert pages.served == served + 1, path  # from the cache
            drawn = anew.get(path)
            assert first.status_code == second.status_code == drawn.status_code == 200
            assert first.content == second.content == drawn.content, path
            assert ('<svg xmlns="http://www.w3.org/2000/svg" class="board"' in second.text
                    and ("Sign off" in second.text) is signed_in)
    assert len(pages) == 4 and 0 < pages.size <= pages.max_bytes


def test_a_processed_phase_and_new_orders_are_seen_at_once(post: Post, kept: tuple[Browser, Counted]) -> None:
    browser, pages = kept
    before = {path: browser.get(path).text for path in PAGES}
    assert "Fall 1901" in before["/games/g"] and 'rel="next"' not in before["/games/g/phases/S1901M"]
    player = _beside(browser)
    player.sign_in("France")
    assert player.get("/games/g").status_code == 200  # kept for France's session
    post.send(FRANCE, _signon("France") + "A Paris - Burgundy\n")
    assert "Burgundy" in player.get("/games/g/play").text  # its orders, at once
    _played(post.world)
    now = browser.get("/games/g").text
    assert "Fall 1901" not in now.split("<h2>The board", 1)[1].split("</h2>", 1)[0]
    assert 'href="/games/g/phases/F1901M"' in now and 'href="/games/g/phases/F1901M"' in player.get("/games/g").text
    assert 'rel="next" href="/games/g/phases/F1901M"' in browser.get("/games/g/phases/S1901M").text
    fall = browser.get("/games/g/phases/F1901M")
    assert fall.status_code == 200 and "Burgundy" in fall.text  # the orders, as adjudicated


def test_press_and_a_seat_left_are_seen_at_once(post: Post, kept: tuple[Browser, Counted]) -> None:
    browser, _ = kept
    assert "Vive la France" not in browser.get("/games/g").text
    post.send(FRANCE, _signon("France") + "PRESS\nVive la France\nENDPRESS\n")
    assert "Vive la France" in browser.get("/games/g").text
    assert "seat open" not in browser.get("/games/g").text
    post.send(FRANCE, _signon("France") + "RESIGN\n")
    assert "seat open" in browser.get("/games/g").text


def test_one_readers_page_never_reaches_another(world: World, post: Post, kept: tuple[Browser, Counted]) -> None:
    stranger, pages = kept
    france, england, watcher = (_beside(stranger) for _ in range(3))
    france.sign_in("France")
    england.sign_in("England")
    post.send("fan@elsewhere.test", "OBSERVE g\n")
    assert watcher.use_link(watcher.link_for(role=WebRole.OBSERVER)).status_code == 303
    page = watcher.get("/games/g").text
    answer = watcher.client.post("/games/g/play/press", data={"csrf": csrf_of(page), "to": "GM",
                                                              "text": "Only for the master to read"})
    assert answer.status_code == 303
    for _ in range(2):  # drawn, then kept
        seen = {name: {path: browser.get(path).text for path in PAGES}
                for name, browser in (("france", france), ("england", england), ("watcher", watcher),
                                      ("stranger", stranger))}
    tokens = {name: csrf_of(pages_seen["/games/g"]) for name, pages_seen in seen.items() if name != "stranger"}
    assert len(set(tokens.values())) == 3
    for name, pages_seen in seen.items():
        for path, text in pages_seen.items():
            assert all(token not in text for other, token in tokens.items() if other != name), (name, path)
            assert ("Only for the master to read" in text) is (name == "watcher" and path == "/games/g"), (name, path)
            assert ("Sign off" in text) is (name != "stranger")
    assert pages.served > 0


def test_a_game_made_private_is_missing_to_strangers_at_once(world: World, post: Post,
                                                            kept: tuple[Browser, Counted]) -> None:
    stranger, _ = kept
    member = _beside(stranger)
    member.sign_in("France")
    for path in PAGES:
        assert stranger.get(path).status_code == 200
    world.write_game("g", (world.config.games_dir / "g.yaml").read_text() + "private: true\n")
    world.tick()
    for path in PAGES:
        assert member.get(path).status_code == 200  # kept for its session
        hidden, missing = stranger.get(path), stranger.get(path.replace("/games/g", "/games/nowhere"))
        assert hidden.status_code == missing.status_code == 404
        assert hidden.text == missing.text.replace("nowhere", "g")


def test_a_strangers_page_carries_its_tag_and_is_not_sent_again(post: Post, kept: tuple[Browser, Counted]) -> None:
    browser, _ = kept
    first = browser.get("/games/g")
    tag = first.headers["etag"]
    assert first.headers["cache-control"] == "private, no-cache"
    again = browser.get("/games/g", headers={"if-none-match": tag})
    assert again.status_code == 304 and not again.content and again.headers["etag"] == tag
    post.send(FRANCE, _signon("France") + "PRESS\nNews\nENDPRESS\n")
    changed = browser.get("/games/g", headers={"if-none-match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag and "News" in changed.text
    browser.sign_in("France")
    mine = browser.get("/games/g", headers={"if-none-match": changed.headers["etag"]})
    assert mine.status_code == 200 and "etag" not in mine.headers and mine.headers["cache-control"] == "no-store"


def test_the_cache_keeps_no_more_than_its_bound() -> None:
    pages = PageCache(max_bytes=10)
    pages.put("a", b"12345")
    pages.put("b", b"1234")
    assert pages.get("a") is not None  # now the most recently used
    pages.put("c", b"123")
    assert pages.get("b") is None and pages.get("a") is not None and pages.get("c") is not None
    assert pages.size == 8 and len(pages) == 2
    pages.put("d", b"x" * 11)  # larger than the whole: not kept, nothing dropped for it
    assert pages.get("d") is None and len(pages) == 2
    pages.put("a", b"1")  # drawn again: the old bytes no longer counted
    assert pages.size == 4


def test_a_strangers_page_that_writes_a_form_token_is_never_shared(kept: tuple[Browser, Counted]) -> None:
    browser, _ = kept
    state = browser.client.app.state.web  # type: ignore[attr-defined]
    request = Request({"type": "http", "method": "GET", "path": "/", "headers": [], "query_string": b""})
    with_form = state.page(request, "web/signin.html.j2", name="g", minutes=30)
    without = state.message(request, "Not found", "There is no such page here.", 404)
    assert 'name="csrf"' in with_form.body.decode() and not with_form.shared  # its token signs this stranger's seed
    assert without.shared


def test_a_page_another_thread_draws_is_waited_for_not_drawn_again() -> None:
    pages = PageCache()
    drawn: list[str] = []
    started, release = threading.Event(), threading.Event()

    def first() -> None:
        with pages.drawing("k") as found:
            assert found is None  # this thread draws it
            started.set()
            release.wait(5)
            drawn.append("first")
            pages.put("k", b"page")

    got: list[Kept | None] = []

    def second() -> None:
        with pages.drawing("k") as found:
            got.append(found)
            if found is None:
                drawn.append("second")

    one = threading.Thread(target=first)
    one.start()
    assert started.wait(5)
    two = threading.Thread(target=second)
    two.start()
    two.join(0.2)
    assert two.is_alive() and not got  # waits for the first
    release.set()
    one.join(5)
    two.join(5)
    assert drawn == ["first"] and got[0] is not None and got[0].body == b"page"
    with pages.drawing("k") as found:  # nobody draws it now: this one may
        assert found is None
