"""Signing in with a one-time link mailed to the seat's registered address: asked for on the
page or by mail (WEB), used once, expiring, and ended by a sign-off, WEB SIGNOFF, a new secret,
a new address or a seat left."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from gm.store.models import OutboundMail, WebRequest
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.web.conftest import Browser, mailed_link

FRANCE = "france@example.test"


def _signed_in(browser: Browser) -> bool:
    return browser.get("/games/g/play").status_code == 200


def test_a_link_asked_for_on_the_page_goes_to_the_registered_address_and_works_once(browser: Browser,
                                                                                    other_browser: Browser) -> None:
    answer = browser.form("/games/g/signin", "/games/g/signin", who="france")
    assert answer.status_code == 200 and "a sign-in link is on its way" in answer.text
    link = mailed_link(browser.world, FRANCE)
    page = browser.get(link)
    assert "Sign in to g as France" in page.text
    assert not _signed_in(browser)  # opening the link (as a mail scanner would) uses nothing up
    assert browser.use_link(link).status_code == 303
    assert _signed_in(browser)
    again = other_browser.use_link(link) if other_browser.get(link).status_code == 200 else other_browser.get(link)
    assert again.status_code == 410 and "used already" in again.text
    assert not _signed_in(other_browser)


def test_the_answer_is_the_same_whoever_is_named_and_nothing_goes_to_the_asker(browser: Browser) -> None:
    before = len(browser.post.mails())
    texts = {browser.form("/games/g/signin", "/games/g/signin", who=who).text.replace(who, "WHO")
             for who in ("Narnia", "nobody@example.test", "England", "GM")}
    assert len(texts) == 1
    mails = browser.post.mails()[before:]
    assert sorted(m.to_address for m in mails) == ["england@example.test", "master@example.test"]
    assert all(m.kind == "web-link" for m in mails)


def test_a_link_expires(browser: Browser) -> None:
    link = browser.link_for("France")
    browser.world.clock.advance(timedelta(minutes=31))
    page = browser.get(link)
    assert page.status_code == 410 and "expired" in page.text


def test_links_mailed_to_an_address_are_capped_without_a_word_to_the_asker(browser: Browser) -> None:
    def mailed() -> int:
        return sum(m.to_address == FRANCE and m.kind == "web-link" for m in browser.post.mails())

    answers = [browser.form("/games/g/signin", "/games/g/signin", who="France") for _ in range(6)]
    assert [a.status_code for a in answers] == [200] * 6 and len({a.text for a in answers}) == 1
    assert mailed() == 5  # the sixth went nowhere, and its answer says the same
    with browser.world.services.db.reading() as session:
        assert session.scalar(select(func.count(WebRequest.id)).where(WebRequest.kind == "link-web")) == 5
    browser.world.clock.advance(timedelta(minutes=61))
    assert browser.form("/games/g/signin", "/games/g/signin", who="France").status_code == 200
    assert mailed() == 6


def test_a_form_without_its_token_or_from_another_site_does_nothing(browser: Browser) -> None:
    before = len(browser.post.mails())
    assert browser.client.post("/games/g/signin", data={"who": "France", "csrf": "x"}).status_code == 403
    html = browser.get("/games/g/signin").text
    from tests.web.conftest import csrf_of
    other_site = browser.client.post("/games/g/signin", data={"who": "France", "csrf": csrf_of(html)},
                                     headers={"origin": "https://evil.example"})
    assert other_site.status_code == 403
    assert len(browser.post.mails()) == before


def test_web_by_mail_answers_with_a_link_and_web_signoff_ends_the_sessions(browser: Browser, post: Post) -> None:
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nWEB\n")
    reply = post.reply(FRANCE)
    assert "To sign in to g's web page as France" in reply
    link = mailed_link(browser.world, FRANCE)
    assert browser.use_link(link).status_code == 303 and _signed_in(browser)
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nWEB SIGNOFF\n")
    assert "Your web sessions in g are ended (1)" in post.reply(FRANCE)
    assert not _signed_in(browser)


def test_web_without_a_signon_answers_only_the_senders_own_roles(browser: Browser, post: Post) -> None:
    post.send("master@example.test", "WEB g\n")
    assert "as the game master" in post.reply("master@example.test")
    post.send("stranger@example.test", "WEB g\n")
    assert "plays no seat of g" in post.reply("stranger@example.test")


def test_a_session_ends_when_the_secret_changes(browser: Browser, post: Post) -> None:
    browser.sign_in("France")
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nSET PASSWORD a-new-secret-99\n")
    assert not _signed_in(browser)


def test_a_session_ends_when_the_address_changes(browser: Browser, post: Post) -> None:
    browser.sign_in("France")
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nSET ADDRESS francois@example.test\n")
    assert _signed_in(browser)  # asked, not yet confirmed
    with browser.world.services.db.reading() as session:
        mail = session.scalars(select(OutboundMail).where(OutboundMail.to_address == "francois@example.test")).one()
    code = mail.body.split("CONFIRM ADDRESS ", 1)[1].split()[0]
    post.send("francois@example.test", f"CONFIRM ADDRESS {code}\n")
    assert not _signed_in(browser)


def test_a_session_ends_when_the_seat_is_left(browser: Browser, post: Post) -> None:
    browser.sign_in("France")
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nRESIGN\n")
    assert not _signed_in(browser)


def test_signing_off_on_the_page_ends_only_that_session(browser: Browser, other_browser: Browser) -> None:
    browser.sign_in("France")
    other_browser.sign_in("France")
    page = browser.get("/games/g/play").text
    from tests.web.conftest import csrf_of
    answer = browser.client.post("/games/g/signoff", data={"csrf": csrf_of(page)})
    assert answer.status_code == 303
    assert not _signed_in(browser) and _signed_in(other_browser)


def test_the_gm_signs_in_with_the_gm_address(browser: Browser, post: Post) -> None:
    post.send("master@example.test", f"SIGNON GM g {GM_SECRET}\nWEB\n")
    assert browser.use_link(mailed_link(browser.world, "master@example.test")).status_code == 303
    page = browser.get("/games/g/play")
    assert "The game master&#39;s commands" in page.text or "The game master's commands" in page.text
