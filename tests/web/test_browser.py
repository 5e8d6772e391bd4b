"""The web window in a real browser: Debian's Chromium, headless, driven by Selenium through
Debian's chromium-driver (scripts/setup installs both). A player asks for a link, opens it from
the mailbox, enters orders with a misspelt province, sees the suggestion, fixes it and submits;
the stored orders, the confirmation mail and the page agree; the game page shows the phase's map
after the deadline; hostile press renders inert; the board zooms and names its provinces."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains

from gm.games.lifecycle import find_game
from gm.games.orderbook import current_orders
from tests.mail.conftest import Post, secret_of
from tests.web.browsing import Served, chromium, chromium_driver, served, wait_for  # noqa: F401  (fixtures)
from tests.web.conftest import mailed_link

pytestmark = [pytest.mark.browser, pytest.mark.slow]
HOSTILE = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'


def test_a_player_signs_in_orders_with_a_suggestion_and_the_page_mail_and_store_agree(
        served: Served, chromium, post: Post) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    driver, world = chromium, served.world
    driver.get(f"{served.url}/games/g/signin")
    driver.find_element(By.NAME, "who").send_keys("France")
    driver.find_element(By.CSS_SELECTOR, "form.signin button").click()
    wait_for(driver, lambda d: "on its way" in d.find_element(By.TAG_NAME, "main").text)
    driver.get(served.url + mailed_link(world, "france@example.test", base=served.url))
    driver.find_element(By.CSS_SELECTOR, "button.primary").click()
    wait_for(driver, lambda d: d.current_url.endswith("/games/g/play"))

    box = wait_for(driver, lambda d: d.find_elements(By.ID, "orders"))[0]
    box.send_keys("A Parris - Burgundy")
    bad = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "ol.checked li.bad"))
    assert "Paris" in bad[0].text  # the suggestion, in the mail reply's words
    box.clear()
    box.send_keys("A Paris - Burgundy\nF Brest - Mid-Atlantic")
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "ol.checked li.ok")) == 2
          and not d.find_elements(By.CSS_SELECTOR, "ol.checked li.bad"))
    driver.find_element(By.CSS_SELECTOR, "form.order-form button.primary").click()
    answer = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#answer pre"))[0].text

    with world.services.db.reading() as session:
        stored = current_orders(session, find_game(session, "g"))["France"]
    assert sorted(stored) == ["A PAR - BUR", "F BRE - MAO"]
    mailed = post.reply("france@example.test")
    status = driver.find_element(By.CSS_SELECTOR, "pre.status").text
    summary = mailed[mailed.index("Current orders for France"):].split("\n")[:3]
    for line in summary:  # the page, the mail and the store say the same
        assert line.strip() in status and line.strip() in answer

    world.clock.advance(timedelta(hours=49))
    world.tick()
    driver.get(f"{served.url}/games/g")
    driver.find_element(By.LINK_TEXT, "Spring 1901 movement").click()
    wait_for(driver, lambda d: "/phases/S1901M" in d.current_url)
    assert wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "svg.board g.order"))  # the phase's map, with its orders
    assert "Burgundy" in wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "pre.results"))[0].text


def test_hostile_press_renders_inert_and_the_board_zooms_and_names_provinces(
        served: Served, chromium, post: Post) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    driver = chromium
    post.send("england@example.test", f"SIGNON England g {secret_of('England')}\nBROADCAST\n{HOSTILE}\nENDPRESS\n")
    driver.get(f"{served.url}/games/g")
    press = driver.find_element(By.CSS_SELECTOR, "section.press").text
    assert 'onerror="window.pwned=1"' in press  # shown as text
    assert driver.execute_script("return window.pwned === undefined")
    assert not driver.find_elements(By.CSS_SELECTOR, "section.press img, section.press script")

    def view_box() -> str:
        return driver.execute_script("return document.querySelector('svg.board').getAttribute('viewBox')")

    before = view_box()
    driver.find_element(By.CSS_SELECTOR, "[data-zoom=in]").click()
    assert view_box() != before
    driver.find_element(By.CSS_SELECTOR, "[data-zoom=reset]").click()
    assert view_box() == before
    paris = driver.find_element(By.CSS_SELECTOR, "svg.board path[data-name=Paris]")
    ActionChains(driver).move_to_element(paris).perform()
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".province-name").text)
    assert driver.find_element(By.CSS_SELECTOR, ".province-name").text in ("Paris", "Burgundy", "Picardy", "Gascony")
    assert paris.find_element(By.TAG_NAME, "title").get_attribute("textContent") == "Paris"


def test_screenshots_of_every_page(served: Served, chromium, post: Post, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Every page, on the standard board and on a Roman one, each rendered in the browser as a
    picture of its own: kept in $GM_WEB_SCREENSHOTS for a person to look at, if it is set."""
    from PIL import Image

    from tests.web.browsing import screenshots

    taken = screenshots(served, chromium, Path(os.environ.get("GM_WEB_SCREENSHOTS") or tmp_path / "screenshots"))
    pages = ["game", "rules", "signin", "phase", "link", "player-typing", "player-answered", "link", "gm"]
    assert [p.stem for p in taken] == ["games", *(f"{game}-{page}" for game in ("g", "rome") for page in pages),
                                       "refused"]
    for path in taken:
        with Image.open(path) as picture:
            colours = picture.convert("RGB").getcolors(maxcolors=1 << 24)
        assert picture.width == 1400 and colours is not None and len(colours) > 16, f"{path.name}: a blank page"
