"""MAP [phase] attaches the picture of the phase its reply names, for every kind of phase
(movement, retreats, adjustments, processed or in play), and MAP CHART the chart of the game.

The game: Italy takes Trieste with a supported attack in the Fall of 1901, so Austria's
fleet must retreat, and the Winter has builds. Each reply is sent through the outbox dispatcher;
its picture must be the very picture of the phase the text names (the same bytes as that
phase drawn here, from the stored phase)."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from gm.games.lifecycle import find_game
from gm.games.pictures import attachments, game_chart_png, phase_png
from gm.render import render_phase_png
from gm.services.sending import Dispatcher
from gm.store.models import OutboundMail, PhaseRecord
from tests.mail.conftest import Post, secret_of
from tests.mail.test_sending import FakeSender

ITALY = "italy@example.test"


def orders(post: Post, power: str, *lines: str) -> None:
    post.send(f"{power.lower()}@example.test", f"SIGNON {power} g {secret_of(power)}\n" + "\n".join(lines) + "\n")


def next_phase(post: Post) -> str:
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()
    with post.world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game is not None
        return str(game.phase)


def ask(post: Post, what: str) -> tuple[str, list[EmailMessage]]:
    """The MAP reply's text and pictures, as sent."""
    sender = FakeSender()
    asyncio.run(Dispatcher(post.world.services, sender).drain())  # everything before
    post.send(ITALY, f"SIGNON Italy g {secret_of('Italy')}\nMAP {what}\n".rstrip() + "\n")
    sender = FakeSender()
    asyncio.run(Dispatcher(post.world.services, sender).drain())
    (reply,) = [m for m in sender.sent if m["To"] == ITALY and m["X-GM-Kind"] in ("map", "reply")]
    return reply.get_body(("plain",)).get_content(), list(reply.iter_attachments())


@pytest.fixture
def played(post: Post) -> Post:
    orders(post, "Italy", "A VEN - TYR", "A ROM - VEN")
    assert next_phase(post) == "F1901M"
    orders(post, "Italy", "A TYR - TRI", "A VEN S A TYR - TRI")
    assert next_phase(post) == "F1901R"
    assert next_phase(post) == "W1901A"  # Austria's fleet did not retreat: disbanded
    orders(post, "Italy", "BUILD A ROM")
    assert next_phase(post) == "S1902M"
    return post


def stored(post: Post, phase: str) -> bytes:
    services = post.world.services
    with services.db.sessions() as session:
        game = find_game(session, "g")
        record = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game.id,
                                                           PhaseRecord.phase == phase)).one()
        return phase_png(services, game, record)


TITLES = {"S1901M": "Spring 1901 movement", "F1901M": "Fall 1901 movement", "F1901R": "Fall 1901 retreats",
          "W1901A": "Winter 1901 adjustments", "S1902M": "Spring 1902 movement"}


@pytest.mark.parametrize(("asked", "phase"), [
    ("S1901M", "S1901M"), ("f1901m", "F1901M"), ("Fall 1901 retreats", "F1901R"), ("W1901A", "W1901A"),
])
def test_a_processed_phase_is_drawn_with_its_orders_and_named_so(played: Post, asked: str, phase: str) -> None:
    text, (picture,) = ask(played, asked)
    assert f"The map of g, {TITLES[phase]}, with its orders and their results, is attached." in text
    assert f":: Attached: g-{phase}.png" in text
    assert picture.get_filename() == f"g-{phase}.png"
    assert picture.get_content() == stored(played, phase)


def test_map_alone_draws_the_board_as_it_stands_in_the_phase_it_names(played: Post) -> None:
    text, (picture,) = ask(played, "")
    assert "The map of g, Spring 1902 movement, the board as it stands, is attached." in text
    assert picture.get_filename() == "g-S1902M.png"
    services = played.world.services
    with services.db.sessions() as session:
        game = find_game(session, "g")
        variant = services.variant_of(game)
        assert picture.get_content() == render_phase_png(variant, services.position_of(game))


def test_a_phase_processed_between_the_reply_and_its_sending_is_still_the_one_named(played: Post) -> None:
    played.send(ITALY, f"SIGNON Italy g {secret_of('Italy')}\nMAP\n")
    assert next_phase(played) == "F1902M"  # Spring 1902 is processed before the reply goes out
    sender = FakeSender()
    asyncio.run(Dispatcher(played.world.services, sender).drain())
    (reply,) = [m for m in sender.sent if m["To"] == ITALY and m["X-GM-Kind"] == "map"]
    assert "Spring 1902 movement" in reply.get_body(("plain",)).get_content()
    (picture,) = reply.iter_attachments()
    assert picture.get_filename() == "g-S1902M.png" and picture.get_content() == stored(played, "S1902M")


def test_map_chart_sends_the_chart(played: Post) -> None:
    text, (picture,) = ask(played, "CHART")
    assert "The chart of g, supply centres year by year, is attached." in text
    assert picture.get_filename() == "g-chart.png"
    services = played.world.services
    with services.db.sessions() as session:
        game = find_game(session, "g")
        assert picture.get_content() == game_chart_png(services, session, game, now=True)


def test_a_phase_the_game_has_not_had_is_refused_with_the_phases_it_has(played: Post) -> None:
    text, pictures = ask(played, "S1905M")
    assert pictures == []
    assert re.search(r"g has no phase 'S1905M' to draw: its phases run from S1901M to S1902M", text)


def test_the_winter_results_and_only_they_carry_the_chart(post: Post) -> None:
    orders(post, "Russia", "A WAR - GAL", "F SEV - RUM")  # Russia will build
    sender = FakeSender()
    for _ in range(3):  # the Spring, the Fall and the Winter of 1901
        next_phase(post)
        asyncio.run(Dispatcher(post.world.services, sender).drain())
    results = [m for m in sender.sent if m["X-GM-Kind"] == "results" and m["To"] == "russia@example.test"]
    names = [[p.get_filename() for p in m.iter_attachments()] for m in results]
    assert names == [["g-S1901M.png"], ["g-F1901M.png"], ["g-W1901A.png", "g-chart.png"]]


def test_the_end_mail_carries_the_last_board_and_the_chart(played: Post) -> None:
    services = played.world.services
    with services.db.sessions() as session:
        game = find_game(session, "g")
        last = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game.id)
                               .order_by(PhaseRecord.seq.desc()).limit(1)).one()
        end = OutboundMail(kind="end", game_id=game.id, attach_phase_id=last.id, body="g is over")
        pictures = attachments(services, session, end, {})
        assert [p.name for p in pictures] == [f"g-{last.phase}.png", "g-chart.png"]
        assert pictures[1].data == game_chart_png(services, session, game, upto=last)


def test_a_line_naming_a_picture_of_another_game_is_not_followed(played: Post) -> None:
    services = played.world.services
    with services.db.sessions() as session:
        game = find_game(session, "g")
        forged = OutboundMail(kind="map", game_id=game.id, body=":: Attached: other-chart.png\n> :: Attached: g-chart.png")
        assert [p.name for p in attachments(services, session, forged, {})] == ["g-S1902M.png"]  # the board as it stands


def test_phases_are_named_by_id_or_title_in_any_era() -> None:
    from gm.games.pictures import phase_named
    from gm.variants.catalog import VariantCatalog

    eagles, classical = VariantCatalog().get("eagles"), VariantCatalog().get("classical")
    assert phase_named(eagles, "Fall A.D. 119 movement", ["S119M", "F119M"]) == "F119M"
    assert phase_named(eagles, "fall ad 119  movement", ["F119M"]) == "F119M"
    assert phase_named(classical, "s-273m", ["S-273M"]) == "S-273M"
    assert phase_named(classical, "Winter 273 BC adjustments", ["S-273M", "W-273A"]) == "W-273A"
    assert phase_named(classical, "Winter 272 B.C. adjustments", ["W-273A"]) is None
