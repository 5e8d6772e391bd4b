"""A private game's pages, to anyone not signed in to it, answer exactly as a game that does not
exist: the same status, the same page, the same redirect, on every page of a game; the list of
games does not name it. Its players, observers and game master read it as before."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.store.models import WebRole
from tests.web.conftest import Browser

MISSING = "nowhere"
WATCHER = "watcher@example.test"
PATHS = [
    "/games/{game}",
    "/games/{game}/",
    "/games/{game}/phases/S1901M",
    "/games/{game}/phases/F1999M",
    "/games/{game}/rules",
    "/games/{game}/summary",
    "/games/{game}/deadlines.ics",
    "/games/{game}/deadlines.ics?key=not-a-key",
    "/games/{game}/signin",
    "/games/{game}/link/not-a-token",
    "/games/{game}/play",
    "/games/{game}/play?done=1",
]


@pytest.fixture
def private(browser: Browser) -> Browser:
    """g, a phase played, then made private, with an observer."""
    world = browser.world
    world.clock.advance(timedelta(hours=49))
    world.tick()
    path = world.config.games_dir / "g.yaml"
    world.write_game("g", path.read_text() + f"private: true\nobservers: [{WATCHER}]\n")
    world.tick()
    assert browser.get("/").status_code == 200  # the anonymous cookie set: each request below alike
    return browser


def _seen(browser: Browser, path: str) -> tuple[int, str, str, str]:
    answer = browser.get(path)
    return (answer.status_code, answer.headers.get("content-type", ""), answer.headers.get("location", ""),
            answer.text)


@pytest.mark.parametrize("path", PATHS)
def test_a_private_game_answers_as_a_missing_one(private: Browser, path: str) -> None:
    hidden = _seen(private, path.format(game="g"))
    missing = _seen(private, path.format(game=MISSING))
    assert tuple(part.replace(MISSING, "g") if isinstance(part, str) else part for part in missing) == hidden


def test_a_missing_game_offers_the_sign_in_a_private_one_would(private: Browser) -> None:
    status, _, _, page = _seen(private, f"/games/{MISSING}")
    assert status == 404 and f'href="/games/{MISSING}/signin"' in page and "private" in page


def test_the_list_does_not_name_a_private_game(private: Browser) -> None:
    assert 'href="/games/g"' not in private.get("/").text


@pytest.mark.parametrize("role", [WebRole.PLAYER, WebRole.GM, WebRole.OBSERVER])
def test_its_own_read_it(private: Browser, other_browser: Browser, role: str) -> None:
    private.sign_in("France" if role == WebRole.PLAYER else None, role)
    assert 'href="/games/g"' in private.get("/").text
    for path in ("/games/g", "/games/g/phases/S1901M", "/games/g/rules", "/games/g/summary"):
        assert private.get(path).status_code == 200, path
        assert other_browser.get(path).status_code == 404, path  # the session is this browser's


POSTS = [
    ("/games/{game}/signin", {"who": "France"}),
    ("/games/{game}/signin", {"who": "GM"}),
    ("/games/{game}/link", {"token": "not-a-token"}),
    ("/games/{game}/signoff", {}),
    ("/games/{game}/play/orders", {"orders": "A Par H"}),
    ("/games/{game}/play/command", {"command": "WAIT"}),
]


@pytest.mark.parametrize(("path", "fields"), POSTS)
def test_a_private_game_takes_a_form_as_a_missing_one(private: Browser, path: str, fields: dict[str, str]) -> None:
    def sent(game: str) -> tuple[int, str, str]:
        answer = private.form(f"/games/{game}/signin", path.format(game=game), **fields)
        return answer.status_code, answer.headers.get("location", ""), answer.text

    hidden, missing = sent("g"), sent(MISSING)
    assert tuple(part.replace(MISSING, "g") if isinstance(part, str) else part for part in missing) == hidden
