"""Each game's coming deadlines as an iCalendar feed: read back with the calendar library, in the
game's time zone with its VTIMEZONE, one stable UID a phase; a private game's only through a
secret link of its own, which stops working with the secret it was made from."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from icalendar import Calendar

from gm.games.lifecycle import find_game
from gm.store.models import WebRole
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import game_file
from tests.web.conftest import BASE, Browser

DAILY = ("deadlines: {movement: every day at 21:00, retreats: every day at 21:00, adjustments: every day at 21:00}\n"
         "early: false\n")


def _feed(browser: Browser, path: str = "/games/g/deadlines.ics") -> Calendar:
    answer = browser.get(path)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(answer.content)


def _deadline(browser: Browser) -> datetime:
    with browser.world.services.db.reading() as session:
        return find_game(session, "g").deadline


def _settings(browser: Browser, extra: str) -> None:
    """g's settings file written again with ``extra`` (its deadlines then follow it)."""
    text = game_file(extra="press: grey\n" + extra)
    if "deadlines:" in extra:
        text = text.replace("deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n", "")
    browser.world.write_game("g", text)
    browser.world.tick()


def test_the_current_deadline_read_back_in_the_games_zone(browser: Browser) -> None:
    calendar = _feed(browser)
    assert str(calendar["version"]) == "2.0" and "gm" in str(calendar["prodid"])
    (zone,) = calendar.walk("VTIMEZONE")
    assert str(zone["tzid"]) == "Europe/Rome"
    (event,) = calendar.walk("VEVENT")
    start = event.decoded("dtstart")
    assert start.tzinfo is not None and str(event["dtstart"].params["TZID"]) == "Europe/Rome"
    assert start == _deadline(browser)
    assert str(event["summary"]) == "g: Spring 1901 movement due"
    assert str(event["status"]) == "CONFIRMED"
    assert str(event["url"]) == f"{BASE}/games/g"
    first_uid = str(event["uid"])
    assert first_uid == str(_feed(browser).walk("VEVENT")[0]["uid"])  # the same event, asked again


def test_a_moved_deadline_updates_the_event_and_the_next_phase_is_another(browser: Browser, post: Post) -> None:
    (before,) = _feed(browser).walk("VEVENT")
    post.send("master@example.test", f"SIGNON GM g {GM_SECRET}\nSET DEADLINE 2026-01-10 21:00\n")
    (moved,) = _feed(browser).walk("VEVENT")
    assert str(moved["uid"]) == str(before["uid"])
    assert int(moved["sequence"]) > int(before["sequence"])
    assert moved.decoded("dtstart") == datetime(2026, 1, 10, 20, 0, tzinfo=UTC) == _deadline(browser)
    browser.world.clock.advance(timedelta(days=10))
    browser.world.tick()
    (following,) = _feed(browser).walk("VEVENT")
    assert str(following["uid"]) != str(before["uid"]) and "Fall 1901 movement" in str(following["summary"])


def test_where_the_schedule_makes_it_certain_the_next_deadline_is_tentative(browser: Browser) -> None:
    _settings(browser, DAILY)
    events = _feed(browser).walk("VEVENT")
    assert [str(e["status"]) for e in events] == ["CONFIRMED", "TENTATIVE"]
    now, following = (e.decoded("dtstart") for e in events)
    assert following - now == timedelta(days=1)
    assert following.hour == 21 and str(events[1]["dtstart"].params["TZID"]) == "Europe/Rome"
    assert "Spring 1901 retreats or" in str(events[1]["summary"])  # whichever phase comes next
    assert "Fall 1901 movement" in str(events[1]["summary"])
    tentative_uid = str(events[1]["uid"])
    browser.world.clock.advance(now - browser.world.clock.now() + timedelta(seconds=5))
    browser.world.tick()  # Spring processed at its deadline: the tentative event is the one now
    (confirmed, _) = _feed(browser).walk("VEVENT")
    assert str(confirmed["uid"]) == tentative_uid and str(confirmed["status"]) == "CONFIRMED"
    assert confirmed.decoded("dtstart") == following


def test_no_guess_where_the_next_deadline_hangs_on_processing(browser: Browser) -> None:
    for extra in ("", DAILY.replace("early: false", "early: true"), DAILY + "grace: 2h\n",
                  DAILY.replace("retreats: every day at 21:00", "retreats: 24h")):
        _settings(browser, extra)
        assert len(_feed(browser).walk("VEVENT")) == 1, extra


def test_a_game_over_has_no_coming_deadline(browser: Browser, post: Post) -> None:
    post.send("master@example.test", f"SIGNON GM g {GM_SECRET}\nTERMINATE enough\n")
    calendar = _feed(browser)
    assert calendar.walk("VEVENT") == []


def test_a_private_games_feed_only_by_a_link_of_its_own(browser: Browser, other_browser: Browser, post: Post) -> None:
    _settings(browser, "private: true\n")
    missing = other_browser.get("/games/nowhere/deadlines.ics")
    hidden = other_browser.get("/games/g/deadlines.ics")
    assert hidden.status_code == missing.status_code == 404
    assert hidden.text.replace("g", "nowhere") == missing.text.replace("g", "nowhere")
    assert other_browser.get("/games/g/deadlines.ics?key=not-a-key").status_code == 404
    browser.sign_in("France")
    page = browser.get("/games/g/play").text
    link = re.search(r'href="(http://[^"]+/games/g/deadlines\.ics\?key=[^"]+)"', page).group(1)  # type: ignore[union-attr]
    path = link.removeprefix(BASE)
    assert len(_feed(other_browser, path).walk("VEVENT")) == 1  # the link alone, no session
    post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nSET PASSWORD a-new-secret-1\n")
    assert other_browser.get(path).status_code == 404  # made from the old secret


def test_a_public_games_page_and_players_page_link_the_feed(browser: Browser) -> None:
    assert 'href="/games/g/deadlines.ics"' in browser.get("/games/g").text
    browser.sign_in(role=WebRole.GM)
    assert f'href="{BASE}/games/g/deadlines.ics"' in browser.get("/games/g/play").text
