"""The player's page in a real browser (Debian's Chromium, headless, as tests/web/test_browser.py
drives it): the board first, wide, beside the order box, both in view without scrolling; the
orders typed drawn on the board as the box checks them, and gone again when the box is emptied;
the deadline in the game's zone with the reader's own time beside it."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from gm.games.lifecycle import find_game, seat_of
from gm.games.web_access import holder_of_seat, issue_link
from tests.mail.conftest import Post
from tests.web.browsing import Served, chromium, chromium_driver, served, wait_for  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ORDERS = "svg.board g.marks g.order"


def _sign_in(served: Served, driver, power: str) -> None:  # type: ignore[no-untyped-def]
    with served.world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        seat = seat_of(game, power)
        assert seat is not None
        token = issue_link(served.world.services, session, game, holder_of_seat(game, seat))
    driver.get(f"{served.url}/games/g/link/{token}")
    driver.find_element(By.CSS_SELECTOR, "button.primary").click()
    wait_for(driver, lambda d: d.current_url.endswith("/games/g/play"))


def _kinds(driver) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(e.get_attribute("class") for e in driver.find_elements(By.CSS_SELECTOR, ORDERS))


def test_the_orders_typed_are_drawn_on_the_board_beside_the_box(
        served: Served, chromium, post: Post) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    driver = chromium
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/New_York"})
    _sign_in(served, driver, "France")
    box = wait_for(driver, lambda d: d.find_elements(By.ID, "orders"))[0]

    # the board and the box both in view, the board the wider by far
    board = driver.find_element(By.CSS_SELECTOR, "figure[data-typed] svg.board").rect
    boxed = box.rect
    height, width = driver.execute_script("return [window.innerHeight, document.querySelector('main').clientWidth]")
    assert board["y"] < height and boxed["y"] < height and boxed["x"] > board["x"] + board["width"] - 1
    assert board["width"] > 0.6 * width
    assert driver.find_element(By.CSS_SELECTOR, "figure[data-typed] a.full-size").get_attribute("href").endswith(
        "/games/g/board.png")

    assert _kinds(driver) == []  # nothing ordered yet
    box.send_keys("A Par - Bur")
    wait_for(driver, lambda d: _kinds(d) == ["order move"])
    box.send_keys("\nA Mar S A Par - Bur\nF Bre - Mid-Atlantic")
    wait_for(driver, lambda d: _kinds(d) == ["order move", "order move", "order support"])
    assert len(driver.find_elements(By.CSS_SELECTOR, "ol.checked li.ok")) == 3
    box.clear()
    box.send_keys(" ")  # an input event: the box holds nothing but a space
    wait_for(driver, lambda d: _kinds(d) == [])
    # zooming still works on the board whose marks were put in place
    view = driver.execute_script("return document.querySelector('figure[data-typed] svg').getAttribute('viewBox')")
    driver.find_element(By.CSS_SELECTOR, "figure[data-typed] [data-zoom=in]").click()
    assert driver.execute_script(
        "return document.querySelector('figure[data-typed] svg').getAttribute('viewBox')") != view

    # one deadline: the game's zone, the reader's own time beside it
    deadline = driver.find_element(By.CSS_SELECTOR, "dl.facts time[data-local]")
    assert deadline.text.endswith("(Europe/Rome)")
    beside = driver.find_element(By.CSS_SELECTOR, "dl.facts .local-time").text
    assert "your time" in beside and "America/New_York" in beside
    assert "Deadline for" not in driver.find_element(By.CSS_SELECTOR, "pre.status").text
