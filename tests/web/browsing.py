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


def screenshots(served: Served, driver, folder: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    """A screenshot of every page, on the standard board (game g) and on a Roman one."""
    from datetime import timedelta

    from tests.web.conftest import mailed_link
    from tests.web.games import play, settings_for

    world = served.world
    folder.mkdir(parents=True, exist_ok=True)
    variant = world.services.catalog.get("rise-of-rome-ii")
    world.write_game("rome", settings_for("rise-of-rome-ii", list(variant.map.powers)))
    world.tick()
    play(world, "g", 4)
    play(world, "rome", 4)
    taken: list[Path] = []

    def shot(name: str, path: str, full: bool = True) -> None:
        driver.get(served.url + path)
        height = driver.execute_script("return document.documentElement.scrollHeight") if full else 1000
        driver.set_window_size(1400, min(int(height), 6000))
        target = folder / f"{name}.png"
        driver.save_screenshot(str(target))
        driver.set_window_size(1400, 1000)
        taken.append(target)

    shot("games", "/")
    for game, power in (("g", "France"), ("rome", next(iter(variant.map.powers)))):
        shot(f"{game}-game", f"/games/{game}")
        shot(f"{game}-rules", f"/games/{game}/rules")
        shot(f"{game}-signin", f"/games/{game}/signin")
        with world.services.db.reading() as session:
            from gm.games.pictures import records
            from gm.games.lifecycle import find_game

            codes = [r.phase for r in records(session, find_game(session, game))]
        shot(f"{game}-phase", f"/games/{game}/phases/{codes[-1]}")
        from gm.games.web_access import holders, issue_link

        with world.services.db.unit_of_work() as session:
            found = find_game(session, game)
            holder = next(h for h in holders(world.services, found) if h.power == power)
            token = issue_link(world.services, session, found, holder)
        shot(f"{game}-link", f"/games/{game}/link/{token}", full=False)
        driver.find_element("css selector", "button.primary").click()
        box = driver.find_element("id", "orders")
        box.send_keys("A Parris - Burgundy\nHOLD everything")
        time.sleep(1.0)
        shot(f"{game}-player", f"/games/{game}/play")
        driver.find_element("id", "orders").send_keys("xx yy\n")
        time.sleep(1.0)
        driver.save_screenshot(str(folder / f"{game}-player-typing.png"))
        taken.append(folder / f"{game}-player-typing.png")
    _ = mailed_link, timedelta
    return taken
