"""A real browser for the web's tests: the application served by uvicorn on a free port of the
loopback (in a thread of its own, as `gm web` serves it), and Debian's Chromium driven headless
by Selenium through Debian's chromium-driver."""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from gm.config import WebConfig
from gm.web.app import build_app
from gm.web.server import WebServer
from tests.mail.conftest import Post
from tests.store.conftest import World

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"


@dataclass
class Served:
    world: World
    url: str


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(world: World, post: Post) -> Iterator[Served]:
    port = _free_port()
    web = WebConfig(host="127.0.0.1", port=port)
    world.services.config = dataclasses.replace(world.services.config, web=web)  # the links name this server
    server = WebServer(build_app(world.services, post.intake.table), web)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the web server did not start"
        time.sleep(0.02)
    yield Served(world, web.url)
    server.server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def chromium_driver():  # type: ignore[no-untyped-def]
    if not (shutil.which(CHROMIUM) and shutil.which(DRIVER)):
        pytest.fail(f"{CHROMIUM} and {DRIVER} are needed: run scripts/setup (it installs Debian's chromium and "
                    "chromium-driver), or deselect these tests with -m 'not browser'")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1400,1000", "--lang=en-GB"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def chromium(chromium_driver):  # type: ignore[no-untyped-def]
    chromium_driver.delete_all_cookies()
    yield chromium_driver


def wait_for(driver, condition, seconds: float = 20):  # type: ignore[no-untyped-def]
    """``condition(driver)`` once it holds. While the browser is between two pages a lookup can fail
    in several ways (a stale element, none yet, a node no longer in the document, no context):
    each means "not yet", until the time is up."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, ignored_exceptions=(WebDriverException,)).until(condition)


def screenshots(served: Served, driver, folder: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    """A screenshot of every page, on the standard board (game g) and on Rise of Rome II's: the
    list, each game's page, a phase, its rules, sign-in, a link's page, a player's page while an
    order with a misspelt province is typed, the GM's page, and a refusal."""
    from gm.demo import misspelt
    from gm.games.lifecycle import find_game
    from gm.games.pictures import records
    from gm.games.web_access import holders, issue_link
    from tests.web.games import play, playing, settings_for

    world = served.world
    folder.mkdir(parents=True, exist_ok=True)
    variant = world.services.catalog.get("rise-of-rome-ii")
    world.write_game("rome", settings_for("rise-of-rome-ii", list(variant.map.powers)))
    world.tick()
    for game in ("g", "rome"):
        play(world, game, 4)
        while playing(world, game).phase.kind.name != "MOVEMENT":
            play(world, game, 1)
    taken: list[Path] = []

    def shot(name: str, path: str | None = None, full: bool = True) -> None:
        if path is not None:
            driver.get(served.url + path)
        assert "Internal Server Error" not in driver.page_source, f"{name}: {driver.page_source[:500]}"
        height = driver.execute_script("return document.documentElement.scrollHeight") if full else 1000
        driver.set_window_size(1400, min(int(height) + 140, 6000))
        taken.append(folder / f"{name}.png")
        driver.save_screenshot(str(taken[-1]))
        driver.set_window_size(1400, 1000)

    def sign_in(game: str, label: str) -> None:
        with world.services.db.unit_of_work() as session:
            found = find_game(session, game)
            holder = next(h for h in holders(world.services, found) if h.label == label)
            token = issue_link(world.services, session, found, holder)
        shot(f"{game}-link", f"/games/{game}/link/{token}", full=False)
        driver.find_element("css selector", "button.primary").click()
        # the click returns before the browser has followed the form to the next page
        wait_for(driver, lambda d: "/link/" not in d.current_url
                 and d.execute_script("return document.readyState") == "complete")

    shot("games", "/")
    for game in ("g", "rome"):
        position = playing(world, game)
        game_variant = world.services.catalog.get("standard" if game == "g" else "rise-of-rome-ii")
        power = next(p for p in game_variant.map.powers if position.units_of(p))
        shot(f"{game}-game", f"/games/{game}")
        shot(f"{game}-rules", f"/games/{game}/rules")
        shot(f"{game}-signin", f"/games/{game}/signin")
        with world.services.db.reading() as session:
            codes = [r.phase for r in records(session, find_game(session, game))]
        shot(f"{game}-phase", f"/games/{game}/phases/{codes[-2]}")
        sign_in(game, power)
        from gm.bots.plausible import PlausiblePlayer
        import random

        lines = [str(o) for p, o in PlausiblePlayer(game_variant, random.Random(1)).orders(position, powers=[power])]
        from gm.reports.names import Namer

        namer = Namer(game_variant, position)
        written = "\n".join(namer.order(o) for p, o in PlausiblePlayer(game_variant, random.Random(1)).orders(
            position, powers=[power])) or "\n".join(lines)
        wait_for(driver, lambda d: d.find_elements("id", "orders"))[0].send_keys(misspelt("x\n" + written, game_variant, position, power)[2:])
        time.sleep(1.5)
        shot(f"{game}-player-typing")
        driver.find_element("css selector", "form.buttons button[value=WAIT]").click()
        wait_for(driver, lambda d: d.find_elements("css selector", "#answer pre"))
        shot(f"{game}-player-answered")
        driver.delete_all_cookies()
        sign_in(game, "the game master")
        shot(f"{game}-gm", f"/games/{game}/play")
        driver.delete_all_cookies()
    shot("refused", "/games/nowhere")
    return taken
