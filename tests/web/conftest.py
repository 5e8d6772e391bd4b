"""Web tests: a started game (tests/mail/conftest.py) served by the web application through
Starlette's test client, and the way a player signs in (a link from the outbox)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from gm.games.lifecycle import find_game, seat_of
from gm.games.web_access import holder_of_seat, holders, issue_link
from gm.store.models import OutboundMail, WebRole
from gm.web.app import build_app
from tests.mail.conftest import Post, post  # noqa: F401  (fixtures)
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

BASE = "http://127.0.0.1:8080"  # the default web: base URL, which the links name
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_LINK = re.compile(r"(http://\S+/games/\S+/link/\S+)")


def csrf_of(html: str) -> str:
    found = _CSRF.search(html)
    assert found, "no CSRF token on the page"
    return found.group(1)


class Browser:
    """A test client for one reader, with the steps a person takes."""

    def __init__(self, world: World, post: Post):
        self.world = world
        self.post = post
        self.client = TestClient(build_app(world.services, post.intake.table), base_url=BASE,
                                 follow_redirects=False)

    def get(self, path: str, **kwargs):  # type: ignore[no-untyped-def]
        return self.client.get(path, **kwargs)

    def form(self, page: str, action: str, **fields: object):  # type: ignore[no-untyped-def]
        """Post a form of ``page`` (read for its CSRF token) to ``action``."""
        html = self.get(page).text
        return self.client.post(action, data={"csrf": csrf_of(html), **fields})

    def link_for(self, power: str | None = None, role: str = WebRole.PLAYER) -> str:
        """A fresh sign-in link's path, as one mailed to the seat."""
        with self.world.services.db.unit_of_work() as session:
            game = find_game(session, "g")
            assert game is not None
            if role == WebRole.PLAYER:
                seat = seat_of(game, power or "")
                assert seat is not None
                holder = holder_of_seat(game, seat)
            else:
                holder = next(h for h in holders(self.world.services, game) if h.role == role)
            token = issue_link(self.world.services, session, game, holder)
        return f"/games/g/link/{token}"

    def use_link(self, path: str):  # type: ignore[no-untyped-def]
        page = self.get(path)
        assert page.status_code == 200, page.text
        token = path.rsplit("/", 1)[1]
        return self.client.post("/games/g/link", data={"csrf": csrf_of(page.text), "token": token})

    def sign_in(self, power: str | None = None, role: str = WebRole.PLAYER) -> None:
        answer = self.use_link(self.link_for(power, role))
        assert answer.status_code == 303, answer.text
        assert answer.headers["location"] == "/games/g/play"


def mailed_link(world: World, to: str, base: str = BASE) -> str:
    """The path of the last sign-in link mailed to ``to`` (whose links name ``base``)."""
    with world.services.db.reading() as session:
        mails = list(session.scalars(select(OutboundMail).where(OutboundMail.to_address == to)
                                     .order_by(OutboundMail.id)))
    for mail in reversed(mails):
        found = _LINK.search(mail.body)
        if found:
            return found.group(1).removeprefix(base)
    raise AssertionError(f"no link mailed to {to}")


@pytest.fixture
def browser(world: World, post: Post) -> Iterator[Browser]:  # noqa: F811
    yield Browser(world, post)


@pytest.fixture
def other_browser(world: World, post: Post) -> Iterator[Browser]:  # noqa: F811
    yield Browser(world, post)
