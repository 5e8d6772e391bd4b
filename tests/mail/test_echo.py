"""A reply stays in proportion to the mail: the first lines are echoed in full, then only the lines
with errors and a count of the rest; what was applied is still listed in full. Lines refused for
want of a SIGNON are echoed with the reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import select

from gm.commands.echo import ECHO_LINES
from gm.store.models import Press
from tests.mail.conftest import Post, secret_of

FRANCE = "france@example.test"


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """SQLite only: these tests are about what a reply says, not how it is stored."""
    return f"sqlite:///{tmp_path / 'gm.db'}"
SIGNON = f"SIGNON France g {secret_of('France')}\n"
CYCLE = ["A Paris - Burgundy", "A Paris H", "F Brest - English Channel", "A Marseilles - Spain", "F Brest H",
         "A Marseilles - Burgundy", "A Par - Gas", "F Bre - Pic"]


def test_ten_thousand_order_lines_get_a_reply_in_proportion(post: Post) -> None:
    lines = [CYCLE[n % len(CYCLE)] for n in range(10_000 - 3)] + [
        "A Paris - Picardy", "F Brest - Mid-Atlantic", "A Marseilles - Gascony"]
    lines[5_000] = "A Paris - Atlantis"
    lines[9_000] = "F Brest - Moscow"
    mail = SIGNON + "\n".join(lines) + "\n"
    assert 80_000 < len(mail) < 200_000
    post.send(FRANCE, mail)
    body = post.reply(FRANCE)
    assert len(body) < 25_000, len(body)

    echoed = re.findall(r"^> (?!SIGNON)(.*)$", body, re.M)
    assert echoed[:3] == lines[:3] and len(echoed) <= ECHO_LINES + 2
    assert "> A Paris - Atlantis" in body and "> F Brest - Moscow" in body  # errors are always shown
    assert body.count("ERROR") == 2
    (summary,) = re.findall(r"([\d,]+) more lines read, all fine", body)
    assert int(summary.replace(",", "")) + len(echoed) == 10_000

    current = body.split("Current orders for France in g, Spring 1901 movement:")[1]
    for order in ("Army Paris -> Picardy", "Fleet Brest -> Mid-Atlantic Ocean", "Army Marseilles -> Gascony"):
        assert order in current


def test_a_short_mail_is_echoed_whole(post: Post) -> None:
    post.send(FRANCE, SIGNON + "\n".join(CYCLE) + "\n")
    body = post.reply(FRANCE)
    assert re.findall(r"^> (?!SIGNON)(.*)$", body, re.M) == CYCLE and "more lines read" not in body


def test_lines_refused_for_want_of_a_signon_are_echoed_with_the_reason(post: Post) -> None:
    post.send(FRANCE, "A Paris - Burgundy\nF Brest - Mid-Atlantic\n")
    body = post.reply(FRANCE)
    assert "> A Paris - Burgundy\n> F Brest - Mid-Atlantic\n" in body
    assert "orders need a power: SIGNON <power> <game> <secret> first" in body


def test_a_long_mail_without_signon_is_echoed_in_proportion(post: Post) -> None:
    post.send(FRANCE, "\n".join(CYCLE[n % len(CYCLE)] for n in range(5_000)) + "\n")
    body = post.reply(FRANCE)
    assert len(body) < 15_000 and body.count("\n> ") <= ECHO_LINES + 1  # + the first line refused
    assert re.search(r"[\d,]+ more lines not shown, refused for the same reason", body)


def test_a_long_press_is_sent_whole_and_echoed_in_proportion(post: Post) -> None:
    text = "\n".join(f"Line {n} of a long letter." for n in range(3_000))
    post.send(FRANCE, SIGNON + "PRESS TO Germany\n" + text + "\nENDPRESS\n")
    body = post.reply(FRANCE)
    assert len(body) < 15_000 and "> Line 0 of a long letter." in body and "Press sent to Germany." in body
    assert re.search(r"[\d,]+ more lines not shown", body)
    with post.world.services.db.sessions() as session:
        assert session.scalars(select(Press)).one().body == text
    assert "Line 2999 of a long letter." in post.mails(to="germany@example.test", kind="press")[0].body


def test_many_commands_get_a_reply_in_proportion(post: Post) -> None:
    post.send(FRANCE, "LIST g\n" * 2_000 + SIGNON + "A Paris - Burgundy\n")
    body = post.reply(FRANCE)
    assert len(body) < 60_000, len(body)
    assert re.search(r"[\d,]+ more commands answered, answers not shown", body)
    assert "Army Paris -> Burgundy" in body.split("Current orders for France")[1]
