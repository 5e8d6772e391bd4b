"""The web echoes no secret: a sign-on typed into the order box or the GM's box, right or
mistyped, is masked as a mail's reply masks it, in the answer on the page, in the order box's
answer as the player types, in the confirming mail and in the stored copy of the action."""

from __future__ import annotations

import json

from sqlalchemy import select

from gm.store.models import AuditEntry, InboundMail, OutboundMail, WebRole
from tests.mail.conftest import secret_of
from tests.web.conftest import Browser, csrf_of

FRANCE = "france@example.test"
SECRET = secret_of("France")
NEW = "brand-new-secret-7"
TYPED = [f"SIGNON France g {SECRET}", f"SINGON France g {SECRET}", f"SIGN ON France g {SECRET}",
         f"STE PASSWORD {NEW}", "A Paris - Burgundy"]


def _nothing_kept_in_clear(browser: Browser, done: int, *secrets: str) -> None:
    with browser.world.services.db.reading() as session:
        raw = session.get(InboundMail, done).raw  # type: ignore[union-attr]
        answers = [e.details for e in session.scalars(select(AuditEntry).where(AuditEntry.action == "web-action"))]
        mails = [m.body for m in session.scalars(select(OutboundMail))]
    for secret in secrets:
        assert secret.encode() not in raw
        assert all(secret not in json.dumps(answer) for answer in answers)
        assert all(secret not in body for body in mails)


def test_a_sign_on_typed_into_the_order_box_is_masked_everywhere(browser: Browser) -> None:
    browser.sign_in("France")
    page = browser.get("/games/g/play").text
    answer = browser.client.post("/games/g/play/orders", data={"csrf": csrf_of(page), "orders": "\n".join(TYPED)})
    assert answer.status_code == 303
    shown = browser.get(answer.headers["location"]).text
    assert SECRET not in shown and NEW not in shown
    assert "SINGON France g ****" in shown and "STE PASSWORD ****" in shown and "SIGNON France g ****" in shown
    assert "Army Paris -&gt; Burgundy" in shown or "Army Paris -> Burgundy" in shown
    done = int(answer.headers["location"].split("done=")[1].split("#")[0])
    _nothing_kept_in_clear(browser, done, SECRET, NEW)
    confirmation = browser.post.reply(FRANCE)
    assert "> SIGN ON France g ****" in confirmation


def test_the_order_box_answers_a_sign_on_masked_as_the_player_types(browser: Browser) -> None:
    browser.sign_in("France")
    page = browser.get("/games/g/play").text
    answer = browser.client.post("/games/g/play/check", content=json.dumps({"text": "\n".join(TYPED)}),
                                 headers={"content-type": "application/json", "x-csrf-token": csrf_of(page)})
    assert answer.status_code == 200, answer.text
    assert SECRET not in answer.text and NEW not in answer.text
    lines = answer.json()["lines"]
    assert [line["text"] for line in lines][:2] == ["SIGNON France g ****", "SINGON France g ****"]
    assert lines[-1]["ok"]


def test_a_misspelt_sign_on_in_the_gm_box_is_masked(browser: Browser) -> None:
    browser.sign_in(role=WebRole.GM)
    page = browser.get("/games/g/play").text
    answer = browser.client.post("/games/g/play/gm", data={"csrf": csrf_of(page),
                                                           "commands": f"SINGON France g {SECRET}\nPAUSE\n"})
    assert answer.status_code == 303, answer.text
    shown = browser.get(answer.headers["location"]).text
    assert SECRET not in shown and "SINGON France g ****" in shown and "Did you mean SIGNON?" in shown
    done = int(answer.headers["location"].split("done=")[1].split("#")[0])
    _nothing_kept_in_clear(browser, done, SECRET)
