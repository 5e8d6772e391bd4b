"""Asking for a sign-in link tells nobody who plays and locks nobody out: the page answers byte
for byte alike whoever is named (a player's address, a power, GM, a stranger), the limit falls
on the asking client, the links mailed to an address are capped without a word to the asker,
and a player's own WEB by mail is never refused because others asked."""

from __future__ import annotations

import itertools

import pytest
from starlette.testclient import TestClient

from gm.web import signin
from gm.web.app import build_app
from gm.web.security import ANONYMOUS
from tests.mail.conftest import Post, secret_of
from tests.store.conftest import World, game_file
from tests.web.conftest import BASE, Browser, csrf_of, mailed_link

FRANCE = "france@example.test"
ENGLAND = "england@example.test"
GM = "master@example.test"
STRANGER = "stranger@example.test"
_hosts = (f"10.1.{n // 250}.{n % 250 + 1}" for n in itertools.count())


@pytest.fixture(autouse=True)
def _at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(signin, "ANSWER_AFTER", 0.0)  # the floor is timed apart


class Asker:
    """A client at an address of its own, holding the same anonymous cookie as the others (so
    the pages' CSRF tokens are the same, and any difference in an answer is the answer's)."""

    def __init__(self, world: World, post: Post, seed: str):
        self.client = TestClient(build_app(world.services, post.intake.table), base_url=BASE,
                                 follow_redirects=False, client=(next(_hosts), 50000))
        self.client.cookies.set(ANONYMOUS, seed)
        self.csrf = csrf_of(self.client.get("/games/g/signin").text)

    def ask(self, who: str, game: str = "g"):  # type: ignore[no-untyped-def]
        return self.client.post(f"/games/{game}/signin", data={"csrf": self.csrf, "who": who})


def _seed(browser: Browser) -> str:
    browser.get("/games/g/signin")
    return browser.client.cookies[ANONYMOUS]


def _links_to(post: Post) -> dict[str, int]:
    counts: dict[str, int] = {}
    for mail in post.mails(kind="web-link"):
        counts[mail.to_address] = counts.get(mail.to_address, 0) + 1
    return counts


def _answer(response) -> tuple[int, list[tuple[str, str]], bytes]:  # type: ignore[no-untyped-def]
    return response.status_code, sorted(response.headers.items()), response.content


def test_every_name_is_answered_alike_and_only_the_asker_is_limited(browser: Browser, post: Post) -> None:
    seed = _seed(browser)
    names = [ENGLAND, "France", "GM", STRANGER]  # a player's address, a power, the GM, a stranger
    answers: dict[str, list] = {}
    for who in names:
        asker = Asker(browser.world, post, seed)
        answers[who] = [_answer(asker.ask(who)) for _ in range(signin.CLIENT_LINKS_PER_HOUR + 2)]
    first = answers[names[0]]
    assert [status for status, _, _ in first] == [200] * signin.CLIENT_LINKS_PER_HOUR + [429, 429]
    assert len({body for _, _, body in first[:signin.CLIENT_LINKS_PER_HOUR]}) == 1
    for who in names[1:]:
        assert answers[who] == first, who  # status, headers and body, ask by ask
    assert b"from here" in first[-1][2]
    # Five links an hour went to each address named, none to the stranger, and nothing said so.
    assert _links_to(post) == {ENGLAND: 5, FRANCE: 5, GM: 5}


def test_a_missing_game_is_answered_as_a_real_one(browser: Browser, post: Post) -> None:
    seed = _seed(browser)
    here = Asker(browser.world, post, seed).ask("France")
    nowhere = Asker(browser.world, post, seed).ask("France", game="nowhere")
    assert here.status_code == nowhere.status_code == 200
    assert here.content == nowhere.content.replace(b"nowhere", b"g")
    assert {k: v for k, v in here.headers.items() if k != "content-length"} == {
        k: v for k, v in nowhere.headers.items() if k != "content-length"}


def test_strangers_asks_never_refuse_a_players_own_web_by_mail(browser: Browser, post: Post) -> None:
    seed = _seed(browser)
    for _ in range(3):  # sixty asks from three clients, for the seat and for its address
        asker = Asker(browser.world, post, seed)
        for n in range(signin.CLIENT_LINKS_PER_HOUR):
            assert asker.ask("France" if n % 2 else FRANCE).status_code == 200
    before = _links_to(post)[FRANCE]
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nWEB\n")
    assert "To sign in to g's web page as France" in post.reply(FRANCE)
    post.send(FRANCE, "WEB g\n")
    assert "To sign in to g's web page as France" in post.reply(FRANCE)
    assert len(post.mails(to=FRANCE, kind="reply")) == 2 and _links_to(post)[FRANCE] == before
    assert browser.use_link(mailed_link(browser.world, FRANCE)).status_code == 303


def test_a_players_own_web_is_still_limited_on_its_own(post: Post) -> None:
    for _ in range(5):
        post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nWEB\n")
        assert "To sign in to g's web page as France" in post.reply(FRANCE)
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nWEB\n")
    assert "5 links an hour have been asked for france@example.test" in post.reply(FRANCE)


_strangers = (f"outsider{n}@elsewhere.test" for n in itertools.count(1))


def _ask_by_mail(post: Post, body: str) -> str:
    sender = next(_strangers)  # a fresh address each time: one refusal an hour per unknown address
    post.send(sender, body)
    return post.reply(sender).replace(sender, "SENDER")


def test_web_for_a_private_game_from_outside_is_answered_as_for_a_missing_game(post: Post) -> None:
    post.world.write_game("g", game_file(extra="press: grey\nprivate: true\n"))
    post.world.tick()
    private = _ask_by_mail(post, "WEB g\n")
    missing = _ask_by_mail(post, "WEB nowhere\n")
    assert "there is no game 'g'" in private
    assert missing.replace("nowhere", "g") == private
    post.send(FRANCE, "WEB g\n")  # those inside still get their link
    assert "To sign in to g's web page as France" in post.reply(FRANCE)


def test_the_answer_waits_for_its_floor_mail_or_no_mail(browser: Browser, post: Post,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setattr(signin, "ANSWER_AFTER", 0.3)
    asker = Asker(browser.world, post, _seed(browser))
    for who in ("France", STRANGER):
        began = time.monotonic()
        assert asker.ask(who).status_code == 200
        assert time.monotonic() - began >= 0.3
