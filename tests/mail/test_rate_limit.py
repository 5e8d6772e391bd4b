"""The rate limit limits gm's replies, never what a mail does: a mail over the limit is handled in
full (orders, press, votes), and its sender gets one notice saying until when replies pause."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from gm.games.lifecycle import find_game, seat_of
from gm.games.orderbook import latest_set
from gm.store.models import InboundMail, InboundStatus, Press
from tests.mail.conftest import Post, secret_of

FRANCE = "france@example.test"
SIGNON = f"SIGNON France g {secret_of('France')}\n"


def _replies(post: Post, to: str) -> list[str]:
    return [m.body for m in post.mails(to=to) if m.kind in ("reply", "refusal", "map")]


def test_a_mail_over_the_limit_is_handled_in_full_and_one_notice_says_until_when(post: Post) -> None:
    rate = post.world.config.sender_rate
    start = post.world.clock.now()
    for n in range(rate):
        post.send(FRANCE, SIGNON + "STATUS\n")
        post.world.clock.advance(timedelta(seconds=30))
    assert len(_replies(post, FRANCE)) == rate
    # the last hour before the deadline: orders revised, press written, a draw voted
    post.send(FRANCE, SIGNON + "A Paris - Burgundy\nPRESS TO Germany\nShall we?\nENDPRESS\nDRAW\n")
    post.send(FRANCE, SIGNON + "A Marseilles - Spain\nF Brest - Mid-Atlantic\n")
    post.send(FRANCE, SIGNON + "A Marseilles - Gascony\n")

    with post.world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert sorted(latest_set(session, game, "France").lines) == ["A MAR - GAS", "A PAR - BUR", "F BRE - MAO"]
        assert seat_of(game, "France").draw_vote
        assert [p.body for p in session.scalars(select(Press))] == ["Shall we?"]
        rows = list(session.scalars(select(InboundMail).order_by(InboundMail.id)))
    assert all(row.status == InboundStatus.DONE for row in rows)
    assert all("reply withheld" in row.error for row in rows[rate:])
    assert post.mails(to="germany@example.test", kind="press")  # the press went out

    assert len(_replies(post, FRANCE)) == rate  # no more replies ...
    (notice,) = post.mails(to=FRANCE, kind="paused")  # ... and one notice, not one a mail
    assert max(len(line) for line in notice.body.splitlines()) <= 72
    resumes = start + timedelta(hours=1)  # an hour after the first reply of the hour
    assert f"until {resumes:%a %d %b %Y %H:%M}" in " ".join(notice.body.split())
    assert "handled" in notice.body and "orders" in notice.body

    post.world.clock.set(resumes + timedelta(seconds=1))
    post.send(FRANCE, SIGNON + "STATUS\n")
    body = _replies(post, FRANCE)[-1]
    assert "Army Marseilles -> Gascony" in body and "Army Paris -> Burgundy" in body
    assert len(post.mails(to=FRANCE, kind="paused")) == 1


def test_a_new_pause_gets_a_new_notice(post: Post) -> None:
    rate = post.world.config.sender_rate
    for _ in range(rate + 3):
        post.send("stranger@example.org", "HELP\n")
    assert len(post.mails(to="stranger@example.org", kind="paused")) == 1
    post.world.clock.advance(timedelta(hours=1, seconds=1))
    for _ in range(rate + 3):
        post.send("stranger@example.org", "HELP\n")
    assert len(post.mails(to="stranger@example.org", kind="paused")) == 2
    assert len(_replies(post, "stranger@example.org")) == 2 * rate


def test_a_steady_flood_gets_the_rate_and_one_notice_an_hour(post: Post) -> None:
    rate, flood = post.world.config.sender_rate, "flood@example.org"
    start = post.world.clock.now()
    for _ in range(rate):
        post.send(flood, "HELP\n")
        post.world.clock.advance(timedelta(seconds=20))
    post.world.clock.set(start + timedelta(hours=1))
    for _ in range(120):  # faster than the replies of an hour ago age out: paused, resumed, paused...
        post.send(flood, "HELP\n")
        post.world.clock.advance(timedelta(seconds=5))
    assert 2 * rate - 1 <= len(_replies(post, flood)) <= 2 * rate
    assert len(post.mails(to=flood, kind="paused")) == 1
