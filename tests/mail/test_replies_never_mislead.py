"""Replies that never mislead a newcomer: a province name read whole, a form shown only when the
line's form is wrong, LIST with a header and each game's next deadline saying each fact once,
JOIN on a started game saying how to wait for a power or reach its game master, and a player's
secret before any mail that assumes it."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from gm.services.replying import outbox_mark, reply_first
from gm.store.models import OutboundMail
from tests.mail.conftest import Post, post, secret_of  # noqa: F401  (fixture)
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

FRANCE = "france@example.test"
SIGNON = f"SIGNON France g {secret_of('France')}\n"


def folded(text: str) -> str:
    return " ".join(text.split())


def test_a_hyphenated_name_misspelt_is_quoted_whole_with_the_name_meant(post: Post) -> None:
    post.send(FRANCE, SIGNON + "F Brest - Mid-Atlantik\n")
    reply = folded(post.reply(FRANCE))
    assert 'ERROR: unknown province "Mid-Atlantik" — did you mean Mid-Atlantic Ocean?' in reply
    assert '"Atlantik"' not in reply


def test_an_unknown_name_in_a_line_of_the_right_form_gets_no_form_note(post: Post) -> None:
    post.send(FRANCE, SIGNON + "A Paris - Lisbon\nA Paris S A Marseilles - Lisbon\n")
    reply = folded(post.reply(FRANCE))
    assert reply.count('unknown province "Lisbon"') == 2
    assert "write it as" not in reply


def test_a_line_of_the_wrong_form_still_gets_its_form(post: Post) -> None:
    post.send(FRANCE, SIGNON + "A Paris S\n")
    assert "note: write it as <unit> S <unit> [- <province>]" in folded(post.reply(FRANCE))


def test_list_has_a_header_and_each_games_next_deadline(post: Post) -> None:
    post.world.write_game("friends", game_file(players=3, extra="start: when-full\n"))
    post.world.tick()
    post.send("someone@example.test", "LIST\n")
    reply = post.reply("someone@example.test")
    header = next(line for line in reply.splitlines() if line.lstrip().startswith("Game"))
    assert header.split() == ["Game", "Variant", "State", "Phase", "Next", "deadline"]
    g = next(line for line in reply.splitlines() if line.startswith("  g "))
    assert g.split()[:4] == ["g", "standard", "active", "S1901M"]
    assert re.search(r"\d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d CET$", g)  # in the game's zone
    friends = next(line for line in reply.splitlines() if line.startswith("  friends "))
    assert friends.split() == ["friends", "standard", "forming"]  # no deadline while it forms


def test_list_of_a_forming_game_says_it_forms_once(post: Post) -> None:
    post.world.write_game("friends", game_file(players=3, extra="start: when-full\n"))
    post.world.tick()
    post.send("someone@example.test", "LIST friends\n")
    reply = post.reply("someone@example.test")
    assert reply.count("forming") == 1, reply
    assert "3 of 7 seats taken" in reply


def test_list_of_a_game_in_play_gives_its_deadline_once(post: Post) -> None:
    post.send("someone@example.test", "LIST g\n")
    reply = post.reply("someone@example.test")
    assert reply.count("Deadline for Spring 1901 movement") == 1
    assert reply.count("active") == 1


def test_join_on_a_started_game_says_how_to_wait_for_a_power_or_reach_its_game_master(post: Post) -> None:
    post.send("newcomer@example.test", "JOIN g\n")
    reply = folded(post.reply("newcomer@example.test"))
    assert "game g has started: to take over a power its player left, write JOIN g <power>" in reply
    assert "STANDBY g" in reply
    assert "OBSERVE g" in reply and "SIGNON OBSERVER g <secret>" in reply and "PRESS TO GM" in reply
    post.send("other@example.test", "JOIN g France\n")
    reply = folded(post.reply("other@example.test"))
    assert "France in g has a player" in reply and "PRESS TO GM" in reply


ROMAN = ("variant: roman-diplomacy-i\ngm: master@example.test\ntimezone: Europe/Rome\n"
         "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\nseats: 2\n")


def test_the_join_reply_with_the_secret_comes_before_the_start_mail(world: World) -> None:
    world.write_game("rd", ROMAN)
    world.tick()
    post = Post(world)
    post.send("latium@example.test", "JOIN rd Rome as Latium\n")
    post.send("scythia@example.test", "JOIN rd Ankara as Scythians\n")
    with world.services.db.sessions() as session:
        kinds = [m.kind for m in session.scalars(select(OutboundMail).where(
            OutboundMail.to_address == "scythia@example.test").order_by(OutboundMail.id))]
    assert kinds[:2] == ["reply", "start"], kinds
    body = post.mails(to="scythia@example.test")[0].body
    assert "Your secret for this game" in body


@pytest.mark.parametrize("database_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True)
def test_a_reply_put_first_never_moves_a_mail_another_process_queued_meanwhile(world: World) -> None:
    """PostgreSQL lets another mail's transaction commit while this one runs (SQLite's writers
    take turns): its reply to the same sender, sent perhaps already, is not this mail's to
    queue again, which would send it twice."""
    mailer = world.services.mailer

    def queue(session, kind: str, answers: str) -> None:  # type: ignore[no-untyped-def]
        mailer.queue(session, to="alice@example.org", subject=kind, template="mail/reply.txt.j2", kind=kind,
                     in_reply_to=answers, body=f"{kind}\n")

    with world.services.db.unit_of_work() as session:
        mark = outbox_mark(session)
        with world.services.db.unit_of_work() as other:  # another mail from the same sender, answered meanwhile
            queue(other, "reply", "<other@example.org>")
        queue(session, "start", "<this@example.org>")
        queue(session, "reply", "<this@example.org>")
        reply_first(session, "alice@example.org", mark)
    with world.services.db.sessions() as session:
        queued = [(m.id, m.kind, m.in_reply_to) for m in session.scalars(select(OutboundMail).order_by(OutboundMail.id))]
    assert queued[0] == (1, "reply", "<other@example.org>")  # untouched, sent once
    assert [(kind, answers) for _, kind, answers in queued[1:]] == [("reply", "<this@example.org>"),
                                                                    ("start", "<this@example.org>")]
