"""Who reads a press, crossed: every kind of press (white or grey, to one power or to everyone,
sent at once or held for the results) with every reader (its sender, its recipient, a third
power, an observer, the game master, a stranger on the web), by mail and on the web pages.

Held press goes exactly where the same press sent at once goes: its recipients and the GM;
observers, like anyone on the public page, only press to everyone; never back to its sender
(whose HISTORY and page keep it); and before the results are out, to nobody but its sender."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest

from gm.store.models import WebRole
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import STANDARD_PLAYERS, World
from tests.web.conftest import Browser

WATCHER = "watcher@example.test"
GM = "master@example.test"
SENDER, RECIPIENT, THIRD = "France", "Germany", "England"
POWERS = [name.capitalize() for name in STANDARD_PLAYERS]


@dataclass(frozen=True)
class Kind:
    command: str  # the PRESS line, as France writes it
    to_everyone: bool
    held: bool
    grey: bool

    @property
    def name(self) -> str:
        return self.command.lower().replace(" ", "-")


KINDS = [
    Kind("PRESS TO Germany", to_everyone=False, held=False, grey=False),
    Kind("PRESS GREY TO Germany", to_everyone=False, held=False, grey=True),
    Kind("BROADCAST", to_everyone=True, held=False, grey=False),
    Kind("BROADCAST GREY", to_everyone=True, held=False, grey=True),
    Kind("PRESS TO Germany WITH RESULTS", to_everyone=False, held=True, grey=False),
    Kind("PRESS GREY TO Germany WITH RESULTS", to_everyone=False, held=True, grey=True),
    Kind("BROADCAST WITH RESULTS", to_everyone=True, held=True, grey=False),
    Kind("BROADCAST GREY WITH RESULTS", to_everyone=True, held=True, grey=True),
]


def _address(power: str) -> str:
    return f"{power.lower()}@example.test"


def _mailed(post: Post, text: str, kind: str) -> set[str]:
    """The addresses mailed ``text`` in mails of ``kind``."""
    return {m.to_address for m in post.mails(kind=kind) if text in m.body}


class Readers:
    """A browser per reader of the web: the three powers, the GM, the observer, a stranger."""

    def __init__(self, world: World, post: Post):
        self.pages: dict[str, Browser] = {}
        for power in (SENDER, RECIPIENT, THIRD):
            self.pages[power] = Browser(world, post)
            self.pages[power].sign_in(power)
        self.pages["GM"] = Browser(world, post)
        self.pages["GM"].sign_in(role=WebRole.GM)
        self.pages["observer"] = Browser(world, post)
        answer = self.pages["observer"].use_link(self.pages["observer"].link_for(role=WebRole.OBSERVER))
        assert answer.status_code == 303
        self.pages["stranger"] = Browser(world, post)

    def reading(self, text: str) -> set[str]:
        """The readers whose pages show ``text`` (a player and the GM on their own page and the
        game's; an observer and a stranger on the game's)."""
        found = set()
        for who, browser in self.pages.items():
            paths = ["/games/g"] + (["/games/g/play"] if who not in ("observer", "stranger") else [])
            for path in paths:
                page = browser.get(path)
                assert page.status_code == 200, (who, path, page.status_code)
                if text in page.text:
                    found.add(who)
        return found


@pytest.fixture
def watched(post: Post) -> Post:
    """The started game g (grey and white press, to some powers or all) with an observer."""
    world = post.world
    world.write_game("g", (world.config.games_dir / "g.yaml").read_text() + f"observers: [{WATCHER}]\n")
    world.tick()
    return post


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_each_kind_of_press_reaches_exactly_its_readers(watched: Post, kind: Kind) -> None:
    post, world = watched, watched.world
    text = f"Plans of France, {kind.name}."
    readers = Readers(world, post)
    post.send(_address(SENDER), f"SIGNON {SENDER} g {secret_of(SENDER)}\n{kind.command}\n{text}\nENDPRESS\n")
    assert "ERROR" not in post.reply(_address(SENDER))

    powers_reading = {p for p in POWERS if p != SENDER and (kind.to_everyone or p == RECIPIENT)}
    by_mail = {_address(p) for p in powers_reading} | {GM} | ({WATCHER} if kind.to_everyone else set())
    on_the_web = {SENDER, RECIPIENT, "GM"} | (
        {THIRD, "observer", "stranger"} if kind.to_everyone else set())

    if kind.held:  # nobody reads it before the results but its sender
        assert _mailed(post, text, "press") == set()
        assert readers.reading(text) == {SENDER}
    world.clock.advance(timedelta(hours=49))
    world.tick()
    assert any(m.kind == "results" for m in post.mails(to=GM)), "the phase was not processed"

    assert _mailed(post, text, "results" if kind.held else "press") == by_mail
    assert _mailed(post, text, "press" if kind.held else "results") == set()
    assert readers.reading(text) == on_the_web
    if kind.grey:  # nobody but the GM and the sender's own page learns who wrote it
        for mail in post.mails():
            if text in mail.body and mail.kind in ("press", "results"):
                assert "from France" not in mail.body, mail.to_address


@pytest.mark.parametrize("held", [False, True], ids=["at-once", "with-results"])
def test_the_game_masters_press_to_one_power_reaches_that_power_alone(watched: Post, held: bool) -> None:
    post, world = watched, watched.world
    text = f"A word from the game master, {'held' if held else 'at once'}."
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nPRESS TO Germany{' WITH RESULTS' if held else ''}\n{text}\nENDPRESS\n")
    assert "ERROR" not in post.reply(GM)
    world.clock.advance(timedelta(hours=49))
    world.tick()
    assert _mailed(post, text, "results" if held else "press") == {_address(RECIPIENT)}
    assert _mailed(post, text, "press" if held else "results") == set()
