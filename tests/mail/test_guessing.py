"""No seat can be guessed at: wrong secrets are limited per seat as well as per address, the seat's
holder and the GM hear of a guessing attempt once, and an address registered nowhere gets at most
one reply an hour for its failures (no backscatter to forged senders)."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select

from gm.commands.guessing import MAX_FAILED_PER_SEAT
from gm.store.models import InboundMail, InboundStatus
from tests.mail.conftest import GM_SECRET, Post, secret_of

FRANCE = "france@example.test"
GM = "master@example.test"


def _answers(post: Post, to: str) -> list[str]:
    return [m.body for m in post.mails(to=to) if m.kind in ("reply", "refusal")]


def test_guesses_at_one_seat_from_many_addresses(post: Post) -> None:
    guessers = [f"guesser{n}@example.org" for n in range(30)]
    for n, address in enumerate(guessers):
        post.send(address, f"SIGNON France g guess-{n}\nA Paris - Burgundy\n")
        post.world.clock.advance(timedelta(seconds=20))
    answers = [_answers(post, address)[0] for address in guessers]
    assert sum("wrong secret for France in g" in a for a in answers) == MAX_FAILED_PER_SEAT
    assert all("too many wrong secrets for France in g" in a for a in answers[MAX_FAILED_PER_SEAT:])
    # the right secret from yet another address is not even checked now: no oracle
    post.send("guesser99@example.org", f"SIGNON France g {secret_of('France')}\n")
    late = _answers(post, "guesser99@example.org")[0]
    assert "too many wrong secrets for France" in late and "registered address" not in late

    (warning,) = post.mails(to=FRANCE, kind="security")
    (alert,) = [m for m in post.mails(to=GM, kind="gm-alert") if "France" in m.subject]
    for mail, first, last in ((warning, "13:00 CET", "13:03 CET"), (alert, "13:00 CET", "13:03 CET")):
        assert max(len(line) for line in mail.body.splitlines()) <= 72
        text = " ".join(mail.body.split())  # in the game's zone: France's player set none
        assert f"{MAX_FAILED_PER_SEAT} sign-ons as France in g failed" in text
        assert all(address in text for address in guessers[:MAX_FAILED_PER_SEAT])
        assert f"Mon 05 Jan 2026 {first}" in text and f"Mon 05 Jan 2026 {last}" in text  # when each guess came
    # the player is not locked out
    post.send(FRANCE, f"SIGNON France g {secret_of('France')}\nA Paris - Picardy\n")
    assert "Signed on as France" in _answers(post, FRANCE)[-1]
    # told once, however long it goes on
    for n in range(5):
        post.send(f"later{n}@example.org", f"SIGNON France g later-{n}\n")
    post.world.clock.advance(timedelta(hours=2))
    for n in range(12):
        post.send(f"again{n}@example.org", f"SIGNON France g again-{n}\n")
    assert len(post.mails(to=FRANCE, kind="security")) == 1


def test_guesses_at_the_game_master_are_limited_too(post: Post) -> None:
    for n in range(MAX_FAILED_PER_SEAT + 3):
        post.send(f"guesser{n}@example.org", f"SIGNON GM g guess-{n}\nPREVIEW\n")
    post.send("guesser50@example.org", f"SIGNON GM g {GM_SECRET}\n")
    assert "too many wrong secrets for the game master of g" in _answers(post, "guesser50@example.org")[0]
    alerts = [" ".join(m.body.split()) for m in post.mails(to=GM, kind="gm-alert") if "game master" in m.body]
    # the first failure in the hour at once, then the report of them all, once
    assert len(alerts) == 2 and "tried to sign on as the game master of g from guesser0@example.org" in alerts[0]
    assert f"{MAX_FAILED_PER_SEAT} sign-ons as the game master of g failed" in alerts[1]
    post.send(GM, f"SIGNON GM g {GM_SECRET}\n")
    assert "Signed on as the game master of g" in _answers(post, GM)[-1]


def test_an_unregistered_address_gets_one_failure_reply_an_hour(post: Post) -> None:
    stranger = "stranger@example.org"
    for n in range(4):
        post.send(stranger, f"SIGNON France g nonsense-{n}\nA Paris - Burgundy\n")
    post.send(stranger, "SIGNON Frankreich g whatever\n")
    post.send(stranger, "SIGNON France nogame whatever\n")
    assert len(_answers(post, stranger)) == 1
    with post.world.services.db.sessions() as session:
        rows = list(session.scalars(select(InboundMail).where(InboundMail.sender == stranger)))
    assert len(rows) == 6 and all(r.status == InboundStatus.DONE for r in rows)
    assert all("reply withheld" in r.error for r in rows[1:])
    post.send(stranger, "HELP\n")  # a command that worked is answered as ever
    assert "SIGNON <power> <game> <secret>" in _answers(post, stranger)[-1]
    post.world.clock.advance(timedelta(hours=1, seconds=1))
    post.send(stranger, "SIGNON France g nonsense\n")
    assert len([a for a in _answers(post, stranger) if "wrong secret" in a]) == 2


def test_registered_players_are_answered_every_time(post: Post) -> None:
    for n in range(3):
        post.send(FRANCE, f"SIGNON France g typo-{n}\n")
    answers = _answers(post, FRANCE)
    assert len(answers) == 3 and all("wrong secret for France in g" in a for a in answers)
    post.send("italy@example.test", "SIGNON France g typo\n")  # a player of the game: registered
    post.send("italy@example.test", "SIGNON France g typo\n")
    assert len(_answers(post, "italy@example.test")) == 2


def test_the_report_lists_count_addresses_and_times(post: Post) -> None:
    for n in range(MAX_FAILED_PER_SEAT):
        post.send(f"g{n % 3}@example.org", f"SIGNON Germany g guess-{n}\n")
        post.world.clock.advance(timedelta(minutes=1))
    (warning,) = post.mails(to="germany@example.test", kind="security")
    text = " ".join(warning.body.split())
    assert re.search(rf"{MAX_FAILED_PER_SEAT} sign-ons as Germany in g failed .* from 3 addresses", text)
    assert text.count("g0@example.org") == 4 and text.count("g2@example.org") == 3
    assert "SET PASSWORD" in text
