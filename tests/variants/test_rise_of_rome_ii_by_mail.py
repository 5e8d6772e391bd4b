"""A game of Rise of Rome II by mail, seven players: created from a settings file, joined by
mail, the leaders placed with the first Spring orders (seen by the others only in its results),
played by mail with the plausible bot's orders (leaders leading, sacks), and ended by a draw
vote; every results mail carries the picture of the board and dates the phases B.C."""

from __future__ import annotations

import random
import re
from datetime import timedelta

from sqlalchemy import select

from gm.bots.plausible import PlausiblePlayer
from gm.domain.phases import PhaseKind
from gm.games.lifecycle import current_seats, find_game
from gm.store.models import GameStatus, OutboundMail, PhaseRecord
from tests.variants.by_mail import join_seats, stored_game
from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

GAME = "cannae"
PLAYERS = {  # in the order they join
    "Rome": "scipio@example.test",
    "Carthage": "hannibal@example.test",
    "Macedonia": "philip@example.test",
    "Egypt": "ptolemy@example.test",
    "Persia": "antiochus@example.test",
    "Greek States": "philopoemen@example.test",
    "Barbarians": "brennus@example.test",
}
SETTINGS = (
    "variant: rise-of-rome-ii\n"
    "gm: master@example.test\n"
    "timezone: Europe/Rome\n"
    "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n"
    "early: false\n"
    "press: white\n"
)
YEARS = 2  # Spring 220 B.C. to the Winter of 219 B.C.; then the seven agree to a draw
SEED = 7



def _start(world: World) -> tuple[Post, dict[str, str]]:  # noqa: F811
    world.write_game(GAME, SETTINGS)
    world.tick()
    post = Post(world)
    secrets = join_seats(post, GAME, PLAYERS)
    return post, secrets


def _send(post: Post, power: str, secret: str, lines: list[str]) -> str:
    post.send(PLAYERS[power], f"SIGNON {power} {GAME} {secret}\n" + "\n".join(lines) + "\n")
    return post.reply(PLAYERS[power])


def test_a_game_of_rise_of_rome_ii_by_mail(world: World) -> None:  # noqa: F811
    post, secrets = _start(world)
    game = stored_game(world, GAME)
    assert game.status == GameStatus.ACTIVE and game.phase == "S-220M"
    assert {s.power: s.player.email for s in current_seats(game)} == PLAYERS
    (start,) = post.mails(to=PLAYERS["Rome"], kind="start")
    assert "Spring 220 B.C. movement" in start.body
    assert "  Carthage:        Fleet Carthage, Army New Carthage, Army Thapsus,\n" \
           "                   Hannibal (Leader, Carthage), to be placed\n" in start.body  # by name

    # -- the leaders are placed by name with the first Spring orders, and ordered at once ------
    reply = _send(post, "Carthage", secrets["Carthage"],
                  ["Hannibal starts in New Carthage", "Hannibal - Mauretania", "Hannibal starts in Syracuse",
                   "Hannibal sack", "A Thapsus leads A Carthage", "F Carthage sakc", "A Thapsus H"])
    assert "> Hannibal sack\n    ERROR: a leader cannot sack" in reply
    assert "> A Thapsus leads A Carthage\n    ERROR: only a leader leads: the army in Thapsus is not one" in reply
    assert "> F Carthage sakc\n    ERROR:" in reply and "did you mean" in reply.split("> F Carthage sakc")[1].split(">")[0]
    assert "  Army Thapsus HOLD\n" in reply  # the good lines of the mail are kept
    assert "> Hannibal starts in New Carthage\n    = Hannibal (Leader, New Carthage) STARTS IN New Carthage" in reply
    assert "Current orders for Carthage in cannae, Spring 220 B.C. movement:\n" \
           "  Hannibal (Leader, New Carthage) STARTS IN New Carthage\n" \
           "  Hannibal (Leader, New Carthage) -> Mauretania\n" in reply
    assert "ERROR: Syracuse is not a home centre of Carthage" in reply  # the line with the mistake, answered

    # -- the game: the bot's orders by mail, the clock jumped to each deadline ------------------
    variant = world.services.catalog.get("rise-of-rome-ii")
    bot = PlausiblePlayer(variant, random.Random(SEED))
    played = []
    while True:
        position = world.services.position_of(stored_game(world, GAME))
        if position.phase.year >= variant.first_year + YEARS and any(p.kind is PhaseKind.ADJUSTMENTS for p in played):
            break
        by_power: dict[str, list[str]] = {}
        for power, order in bot.orders(position):
            by_power.setdefault(power, []).append(str(order))
        if position.phase == variant.calendar.first_phase(variant.first_year):
            by_power["Carthage"] = ["Hannibal starts in New Carthage", "Hannibal - Mauretania",
                                    *(line for line in by_power.get("Carthage", []) if "STARTS" not in line)]
        for power, lines in by_power.items():
            reply = _send(post, power, secrets[power], lines)
            # The bot now and then waives a build it does not have: refused on receipt.
            errors = re.findall(r"^> (.*)\n    ERROR: (.*)$", reply, re.MULTILINE)
            assert all(line == "WAIVE" and "has only" in why for line, why in errors), reply
        game = stored_game(world, GAME)
        world.clock.set(game.deadline + timedelta(minutes=1))
        assert world.tick().processed == [f"{GAME} {game.phase}"]
        played.append(position.phase)

    # -- the first results show where each leader started, and Hannibal's march ------------------
    with world.services.db.sessions() as session:
        records = list(session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game.id)
                                       .order_by(PhaseRecord.seq)))
        results = list(session.scalars(select(OutboundMail).where(OutboundMail.kind == "results")
                                       .order_by(OutboundMail.id)))
    first = records[0]
    assert first.phase == "S-220M"
    placed = [r for r in first.results["results"] if "STARTS IN" in r["order"]]
    assert len(placed) == 6 and all(r["succeeded"] for r in placed)
    assert ["L MAU"] == [u for u in first.position_after["units"]["Carthage"] if u.startswith("L ")]
    first_mail = next(m for m in results if m.attach_phase_id == first.id and m.to_address == PLAYERS["Rome"])
    assert "Spring 220 B.C. movement results for cannae." in first_mail.body
    assert "Carthage:  Hannibal (Leader, New Carthage) STARTS IN New Carthage\n" \
           "Carthage:  Hannibal (Leader, New Carthage) -> Mauretania\n" in first_mail.body

    # -- the result: every surviving power votes for a draw -------------------------------------
    alive = [s.power for s in current_seats(stored_game(world, GAME)) if s.status != "eliminated"]
    for power in alive:
        post.send(PLAYERS[power], f"SIGNON {power} {GAME} {secrets[power]}\nDRAW\n")
    game = stored_game(world, GAME)
    assert game.status == GameStatus.FINISHED and game.result == {"kind": "draw", "powers": sorted(alive)}
    assert len({p.year for p in played}) >= YEARS and played[0].year == -220
    for mail in results:
        assert mail.attach_phase_id is not None  # the picture of the board goes with every results mail
        assert re.search(r"\b2(20|19) B\.C\. ", mail.body)


def test_the_gm_may_choose_the_strict_reading_of_rebellion(world: World) -> None:  # noqa: F811
    world.write_game("strict", SETTINGS + "rules: {rebellion_after: 1}\n"
                     + "players:\n" + "".join(f"  - {{email: {a}, power: {p}}}\n" for p, a in PLAYERS.items()))
    world.tick()
    position = world.services.position_of(stored_game(world, "strict"))
    assert position.extra["rebellion_after"] == 1


def test_a_rule_the_variant_does_not_have_refuses_the_settings_file(world: World, caplog) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    world.write_game("odd", SETTINGS + "rules: {rebellion_after: 2, elephants: true}\n")
    world.tick()
    with world.services.db.sessions() as session:
        assert find_game(session, "odd") is None
    assert "line 7: rise-of-rome-ii has no rule 'elephants' to choose (it has:\n  rebellion_after)" in caplog.text
    world.write_game("odd", SETTINGS + "rules: {rebellion_after: 3}\n")
    world.tick()
    assert "rebellion_after is 2 (two empty Autumns in a row) or 1 (one)" in caplog.text

