"""A whole game of Classical by mail: created from a settings file, joined by five players by
mail, played by mail (orders from ``gm.bots.plausible``, the clock jumped to each deadline) and
ended by a draw vote; every results mail carries the picture of the Mediterranean, and the
mails date the phases in years B.C. (rule 3)."""

from __future__ import annotations

import asyncio
import random
import re
from datetime import timedelta

from sqlalchemy import select

from gm.bots.plausible import PlausiblePlayer
from gm.domain.phases import PhaseKind
from gm.games.lifecycle import current_seats
from gm.services.sending import Dispatcher
from gm.store.models import GameStatus, OutboundMail, PhaseRecord
from tests.variants.by_mail import join_seats, stored_game
from tests.mail.conftest import Post
from tests.mail.test_sending import FakeSender
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

GAME = "punic"
PLAYERS = {  # in the order they join
    "Rome": "scipio@example.test",
    "Carthage": "hamilcar@example.test",
    "Macedon": "antigonus@example.test",
    "Egypt": "ptolemy@example.test",
    "Syria": "antiochus@example.test",
}
SETTINGS = (
    "variant: classical\n"
    "gm: master@example.test\n"
    "timezone: Europe/Rome\n"
    "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n"
    "early: false\n"
    "press: white\n"
)
YEARS = 3  # at least 273, 272 and 271 B.C. and an adjustment phase; then the five agree to a draw
MAX_YEARS = 8
SEED = 2



def _start(world: World) -> tuple[Post, dict[str, str]]:  # noqa: F811
    """The game created from its settings file and joined by mail by the five players."""
    world.write_game(GAME, SETTINGS)
    world.tick()
    post = Post(world)
    assert stored_game(world, GAME).status == GameStatus.FORMING
    created = post.mails(to="master@example.test", kind="created")
    assert created and GAME in created[0].subject
    secrets = join_seats(post, GAME, PLAYERS)
    assert "The game is full and has started: you play Syria." in post.reply(PLAYERS["Syria"])
    return post, secrets


def _deadline(world: World) -> None:  # noqa: F811
    game = stored_game(world, GAME)
    world.clock.set(game.deadline + timedelta(minutes=1))
    assert world.tick().processed == [f"{GAME} {game.phase}"]


def test_a_game_of_classical_by_mail(world: World) -> None:  # noqa: F811
    post, secrets = _start(world)
    game = stored_game(world, GAME)
    assert game.status == GameStatus.ACTIVE and game.phase == "S-273M"
    assert {s.power: s.player.email for s in current_seats(game)} == PLAYERS
    for power, address in PLAYERS.items():
        (start,) = post.mails(to=address, kind="start")
        assert f"You play {power}" in start.body
        assert "Starting position, Spring 273 B.C. movement:" in start.body

    # -- the game, phase by phase: orders by mail, the clock jumped to each deadline ---------
    variant = world.services.catalog.get("classical")
    bot = PlausiblePlayer(variant, random.Random(SEED))
    played = []
    while True:
        position = world.services.position_of(stored_game(world, GAME))
        adjusted = any(p.kind is PhaseKind.ADJUSTMENTS for p in played)
        if position.phase.year >= variant.first_year + YEARS and adjusted:
            break
        assert position.phase.year < variant.first_year + MAX_YEARS, "no adjustment phase in years"
        by_power: dict[str, list[str]] = {}
        for power, order in bot.orders(position):
            by_power.setdefault(power, []).append(str(order))
        for power, lines in by_power.items():
            post.send(PLAYERS[power], f"SIGNON {power} {GAME} {secrets[power]}\n" + "\n".join(lines) + "\n")
            reply = post.reply(PLAYERS[power])
            assert "ERROR" not in reply, reply
            assert f"Signed on as {power} in {GAME}, {variant.title(position.phase)}." in reply
        _deadline(world)
        played.append(position.phase)
    assert len({p.year for p in played}) >= YEARS and played[0].year == -273
    assert all(p.year < 0 for p in played)

    # -- the result: every surviving power votes for a draw ----------------------------------
    for power, address in PLAYERS.items():
        post.send(address, f"SIGNON {power} {GAME} {secrets[power]}\nDRAW\n")
    assert "ends in a draw" in post.reply(PLAYERS["Syria"])
    game = stored_game(world, GAME)
    assert game.status == GameStatus.FINISHED and game.result == {"kind": "draw", "powers": sorted(PLAYERS)}
    for address in PLAYERS.values():
        (end,) = post.mails(to=address, kind="end")
        assert f"The game {GAME} is over." in end.body and "It ends in a draw between Carthage, Egypt" in end.body

    # -- every results mail: its phase and the next one dated B.C., the map attached ---------
    with world.services.db.sessions() as session:
        records = list(session.scalars(
            select(PhaseRecord).where(PhaseRecord.game_id == game.id).order_by(PhaseRecord.seq)))
        results = list(session.scalars(select(OutboundMail).where(OutboundMail.kind == "results")))
    assert [r.phase for r in records] == [str(p) for p in played]
    assert len(results) == len(played) * (len(PLAYERS) + 1)  # the five players and the GM
    for mail in results:
        record = next(r for r in records if r.id == mail.attach_phase_id)
        phase = variant.calendar.parse(record.phase)
        after = variant.calendar.parse(record.position_after["phase"])
        assert f":: Phase: {record.phase}  ({variant.title(phase)})" in mail.body
        assert f"{variant.title(phase)} results for {GAME}." in mail.body  # "Spring 273 B.C. movement"
        assert f"The next phase of {GAME} is {variant.title(after)} ({after})." in mail.body
        assert re.search(r"\b27\d B\.C\. ", mail.body)

    sender = FakeSender()
    asyncio.run(Dispatcher(world.services, sender).drain())
    sent = [m for m in sender.sent if "results" in (m["Subject"] or "")]
    assert len(sent) == len(results)
    board = _size(_classical_board())
    for message in sent:
        (picture, *chart) = [p for p in message.iter_attachments() if p.get_content_type() == "image/png"]
        assert [c.get_filename() for c in chart] in ([], [f"{GAME}-chart.png"])  # a year's last results: the chart
        assert re.fullmatch(rf"{GAME}-[SFW]-27\d[MRA]\.png", picture.get_filename())
        assert picture.get_content().startswith(b"\x89PNG")
        assert _size(picture.get_content()) == board  # the Mediterranean's picture, not another map


def _size(png: bytes) -> tuple[int, int]:
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def _classical_board() -> bytes:
    from gm.render import render_phase_png
    from gm.variants.catalog import VariantCatalog

    variant = VariantCatalog().get("classical")
    return render_phase_png(variant, variant.initial_position())
