"""Every web action goes through the same commands as a mail, is stored as one, and is
confirmed by mail; a seat's session never reaches another's orders."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from gm.games.lifecycle import find_game, seat_of
from gm.games.orderbook import current_orders
from gm.store.models import AuditEntry, GameStatus, InboundMail, InboundStatus, OrderSet, OutboundMail
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.web.conftest import Browser, csrf_of

FRANCE = "france@example.test"


def _orders(browser: Browser) -> dict[str, list[str]]:
    with browser.world.services.db.reading() as session:
        game = find_game(session, "g")
        return current_orders(session, game)


def _post(browser: Browser, action: str, **fields: object):  # type: ignore[no-untyped-def]
    return browser.form("/games/g/play", f"/games/g/play/{action}", **fields)


def test_orders_from_the_web_are_stored_as_a_mail_and_confirmed_by_mail(browser: Browser) -> None:
    browser.sign_in("France")
    answer = _post(browser, "orders", orders="A Paris - Burgundy\nF Brest - Mid-Atlantic\nA Mar H")
    assert answer.status_code == 303
    done = int(answer.headers["location"].split("done=")[1].split("#")[0])
    assert sorted(_orders(browser)["France"]) == ["A MAR H", "A PAR - BUR", "F BRE - MAO"]
    with browser.world.services.db.reading() as session:
        mail = session.get(InboundMail, done)
        assert mail.status == InboundStatus.DONE and mail.sender == FRANCE and mail.source_key.startswith("web:")
        assert b"A Paris - Burgundy" in mail.raw and b"Auto-Submitted: auto-generated" in mail.raw
        stored = session.scalars(select(OrderSet).where(OrderSet.power == "France")).all()
        assert [s.inbound_id for s in stored] == [done]
        audit = session.scalars(select(AuditEntry).where(AuditEntry.action == "web-action")).one()
        assert audit.details["inbound"] == done and audit.actor == FRANCE
    confirmation = browser.post.reply(FRANCE)
    assert "Current orders for France in g, Spring 1901 movement:" in confirmation
    assert "> A Paris - Burgundy" in confirmation
    page = browser.get(answer.headers["location"]).text
    assert "The judge&#39;s answer" in page or "The judge's answer" in page
    assert "Current orders for France in g, Spring 1901 movement:" in page


def test_orders_of_the_web_are_adjudicated_and_shown_only_once_adjudicated(browser: Browser,
                                                                           other_browser: Browser) -> None:
    browser.sign_in("France")
    _post(browser, "orders", orders="A Paris - Burgundy")
    public = other_browser.get("/games/g").text
    assert "Burgundy" not in public.split("<svg", 1)[0] and "PAR - BUR" not in public
    assert other_browser.get("/games/g/phases/S1901M").status_code == 404
    browser.world.clock.advance(timedelta(hours=49))
    browser.world.tick()
    phase = other_browser.get("/games/g/phases/S1901M")
    assert phase.status_code == 200
    assert "A Paris - Burgundy" in phase.text or "A Paris -&gt; Burgundy" in phase.text or "Burgundy" in phase.text
    assert 'class="order move' in phase.text  # the map shows the phase's orders


def test_a_seat_never_reaches_another_seats_orders(browser: Browser) -> None:
    browser.sign_in("France")
    _post(browser, "orders", orders="F London - English Channel\nA Paris - Picardy")
    orders = _orders(browser)
    assert "England" not in orders and orders["France"] == ["A PAR - PIC"]
    confirmation = browser.post.reply(FRANCE)
    assert "ERROR" in confirmation  # London's fleet is not France's to order
    # a field naming another power changes nothing: the power is the session's
    _post(browser, "orders", orders="A Paris - Burgundy", power="England", seat="2")
    assert "England" not in _orders(browser)


def test_a_cookie_is_for_one_game_and_a_forged_one_signs_in_nobody(browser: Browser, other_browser: Browser) -> None:
    browser.sign_in("France")
    cookie = next(c for c in browser.client.cookies.jar if c.name.startswith("gm_s"))
    token, _, signature = cookie.value.rpartition(".")
    other_browser.client.cookies.set(cookie.name, f"{token}.{'0' * len(signature)}")
    assert other_browser.get("/games/g/play").status_code == 303  # to the sign-in page
    other_browser.client.cookies.set(cookie.name, "garbage")
    assert other_browser.get("/games/g/play").status_code == 303


def test_press_wait_and_draw_from_the_web(browser: Browser, post: Post) -> None:
    browser.sign_in("France")
    _post(browser, "press", to=["England"], text="Shall we?\nENDPRESS\nRESIGN")
    press = post.mails(to="england@example.test", kind="press")
    assert press and "Shall we?" in press[-1].body and "RESIGN" in press[-1].body  # all of it is press text
    _post(browser, "command", command="WAIT")
    _post(browser, "command", command="DRAW")
    with browser.world.services.db.reading() as session:
        game = find_game(session, "g")
        seat = seat_of(game, "France")
        assert seat is not None and seat.left_at is None  # RESIGN in the press text did nothing
        assert seat.wait_seq == game.phase_seq and seat.draw_vote
    assert _post(browser, "command", command="RESIGN").status_code == 400  # not a button


def test_the_gm_runs_gm_commands_and_a_player_cannot(browser: Browser, other_browser: Browser, post: Post) -> None:
    other_browser.sign_in("France")
    assert other_browser.form("/games/g/play", "/games/g/play/gm", commands="PAUSE").status_code == 403
    browser.sign_in(role="gm")
    assert browser.form("/games/g/play", "/games/g/play/gm", commands="SIGNON GM g x\nPAUSE").status_code == 400
    answer = browser.form("/games/g/play", "/games/g/play/gm", commands="PAUSE a break")
    assert answer.status_code == 303
    with browser.world.services.db.reading() as session:
        assert find_game(session, "g").status == GameStatus.PAUSED
    assert "g is paused." in post.reply("master@example.test")


def test_web_orders_come_back_with_a_rollback(browser: Browser, post: Post) -> None:
    browser.sign_in("France")
    _post(browser, "orders", orders="A Paris - Burgundy")
    browser.world.clock.advance(timedelta(hours=49))
    browser.world.tick()
    post.send("master@example.test", f"SIGNON GM g {GM_SECRET}\nROLLBACK S1901M\n")
    assert _orders(browser)["France"] == ["A PAR - BUR"]


def test_an_observer_reads_but_does_not_act(post: Post, browser: Browser) -> None:
    browser.world.write_game("g", (browser.world.config.games_dir / "g.yaml").read_text()
                             + "observers: [watcher@example.test]\n")
    browser.world.tick()
    browser.form("/games/g/signin", "/games/g/signin", who="watcher@example.test")
    from tests.web.conftest import mailed_link
    assert browser.use_link(mailed_link(browser.world, "watcher@example.test")).status_code == 303
    assert browser.get("/games/g/play").status_code == 303  # an observer's page is the game's
    page = browser.get("/games/g").text
    answer = browser.client.post("/games/g/play/orders", data={"csrf": csrf_of(page), "orders": "A Paris H"})
    assert answer.status_code == 403


def test_posts_are_limited_per_seat(browser: Browser, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gm.web.actions.POSTS_PER_HOUR", 2)
    browser.sign_in("France")
    assert _post(browser, "command", command="WAIT").status_code == 303
    assert _post(browser, "command", command="NOWAIT").status_code == 303
    assert _post(browser, "command", command="WAIT").status_code == 429
    with browser.world.services.db.reading() as session:
        assert session.scalar(select(func.count(InboundMail.id)).where(InboundMail.source_key.like("web:%"))) == 2


def test_a_session_ended_meanwhile_acts_on_nothing(browser: Browser, post: Post) -> None:
    browser.sign_in("France")
    page = browser.get("/games/g/play").text
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nWEB SIGNOFF\n")
    answer = browser.client.post("/games/g/play/orders", data={"csrf": csrf_of(page), "orders": "A Paris H"})
    assert answer.status_code == 403
    assert "France" not in _orders(browser)
    with browser.world.services.db.reading() as session:
        assert not session.scalars(select(OutboundMail).where(OutboundMail.subject.like("Re: Web:%"))).all()
