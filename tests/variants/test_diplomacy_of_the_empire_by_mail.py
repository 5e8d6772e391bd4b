"""A game of Diplomacy of the Empire by mail, seven claimants: created from a settings file
whose GM chose the inflation marks, joined by mail, played by mail for three years with the
plausible bot's orders and some of the players' own: wrong variant orders (a second move by an
infantry, a payment of more than the treasury) answered line by line while the rest of the mail
counts, a payment between two claimants, a WAIVE that saves the money, a city and a cavalry
bought in one build phase (the reply says what they cost), the cavalry's second move the next
Spring. The results show the treasuries, and before each build phase every claimant's accounts
and the prices (doubled once a claimant has collected the GM's mark); every results mail carries
the picture of the board. The six others concede to Numidia (the rules allow a draw of two or
three claimants only), and the end mail is sent."""

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
from gm.store.codec import decode_position
from gm.store.models import GameStatus, OutboundMail, PhaseRecord
from gm.variants.diplomacy_of_the_empire.orders import Pay
from gm.variants.diplomacy_of_the_empire.state import EmpireState
from tests.variants.by_mail import join_seats, stored_game
from tests.mail.conftest import Post
from tests.mail.test_sending import FakeSender
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

GAME = "philippi"
PLAYERS = {  # in the order they join
    "Italia": "octavianus@example.test",
    "Egyptus": "cleopatra@example.test",
    "Macedonia": "brutus@example.test",
    "Hispania": "sextus@example.test",
    "Galatia": "deiotarus@example.test",
    "Mesopotamia": "pacorus@example.test",
    "Numidia": "juba@example.test",
}
DOUBLE_AT = 45  # the GM's marks: lower than the designer's 105 and 205
SETTINGS = (
    "variant: diplomacy-of-the-empire\n"
    "gm: master@example.test\n"
    "timezone: Europe/Rome\n"
    "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n"
    "early: false\n"
    "press: white\n"
    f"rules: {{inflation_double_at: {DOUBLE_AT}, inflation_triple_at: 150}}\n"
)
NUMIDIA = {  # Numidia's own orders: land for tribute, savings, a city and a cavalry, a second move
    "S-43M": ["I NUM - AFR"],
    "F-43M": ["I AFR - NUM"],
    "W-43A": ["WAIVE"],
    "S-42M": ["I NUM - CEA"],
    "F-42M": ["I CEA - TIN"],
    "W-42A": ["BUILD CITY Caesariensis", "BUILD C Caesariensis"],
    "S-41M": ["C CEA - NUM then AFR", "I TIN H"],
    "F-41M": ["C AFR H", "I TIN H"],
}
LAST = "W-41A"  # three years: Spring 43 B.C. to the build phase after Fall 41 B.C.
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


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_game_of_diplomacy_of_the_empire_by_mail(world: World) -> None:  # noqa: F811
    post, secrets = _start(world)
    game = stored_game(world, GAME)
    assert game.status == GameStatus.ACTIVE and game.phase == "S-43M"
    assert {s.power: s.player and s.player.email for s in current_seats(game)} == PLAYERS
    (start,) = post.mails(to=PLAYERS["Numidia"], kind="start")
    assert "Spring 43 B.C. movement" in start.body
    first = world.services.position_of(game)
    assert (first.extra["inflation_double_at"], first.extra["inflation_triple_at"]) == (DOUBLE_AT, 150)

    variant = world.services.catalog.get("diplomacy-of-the-empire")
    bot = PlausiblePlayer(variant, random.Random(SEED))
    played: list[str] = []
    replies: dict[tuple[str, str], str] = {}
    payer = ""
    while not played or played[-1] != LAST:
        game = stored_game(world, GAME)
        position = world.services.position_of(game)
        phase = str(position.phase)
        by_power: dict[str, list[str]] = {p: [] for p in PLAYERS}
        for power, order in bot.orders(position):
            if not isinstance(order, Pay):  # the payments of this game are the players' own
                by_power[power].append(str(order))
        by_power["Numidia"] = NUMIDIA.get(phase, by_power["Numidia"])
        if phase == "S-43M":  # a second move by an infantry, a payment with an empty treasury
            by_power["Italia"] = ["I ITA - NOR then RAE", "PAY 10 Egyptus", *by_power["Italia"]]
        if phase == "S-42M":  # the richest of the others pays Numidia
            treasury = EmpireState.of(position).treasury
            payer = max((p for p in treasury if p != "Numidia"), key=lambda p: (treasury[p], p))
            assert treasury[payer] >= 5
            by_power[payer].append("PAY 5 Numidia")
        for power, lines in by_power.items():
            if not lines:
                continue
            reply = _send(post, power, secrets[power], lines)
            replies[(phase, power)] = reply
            if (phase, power) != ("S-43M", "Italia"):
                assert "ERROR" not in reply, reply
        world.clock.set(game.deadline + timedelta(minutes=1))
        assert world.tick().processed == [f"{GAME} {phase}"]
        played.append(phase)
    assert played[:3] == ["S-43M", "F-43M", "W-43A"] and "W-42A" in played

    # -- the wrong variant orders, answered line by line; the rest of the mail counts ----------------
    reply = replies[("S-43M", "Italia")]
    assert "> I ITA - NOR then RAE\n    ERROR: " in reply  # only cavalry and fleets make a second move
    assert "> PAY 10 Egyptus\n    ERROR: Italia has 0 talents, not 10\n" in reply
    assert f"Current orders for Italia in {GAME}, Spring 43 B.C. movement:\n  Infantry Italia -> " in reply

    # -- the build phases: a WAIVE saves the money; a city and a cavalry, and what they cost ----------
    assert "> WAIVE\n" in replies[("W-43A", "Numidia")]
    assert "You have 15 talents to spend after upkeep." in replies[("W-43A", "Numidia")]
    reply = replies[("W-42A", "Numidia")]
    assert "> BUILD CITY Caesariensis\n    = " in reply
    assert "> BUILD C Caesariensis\n    = BUILD Cavalry Caesariensis" in reply
    assert "Your builds cost 50 talents of the 50 talents you have after upkeep." in reply

    with world.services.db.sessions() as session:
        records = {r.phase: r for r in session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game.id))}
        results = list(session.scalars(select(OutboundMail).where(OutboundMail.kind == "results")
                                       .order_by(OutboundMail.id)))
        session.expunge_all()
    assert sorted(records, key=played.index) == played
    said = {phase: next(m.body for m in results if m.attach_phase_id == r.id and m.to_address == PLAYERS["Italia"])
            for phase, r in records.items()}

    def board(phase: str, when: str = "position_before"):  # type: ignore[no-untyped-def]
        return decode_position(variant, getattr(records[phase], when))

    # -- a payment between two claimants: both treasuries in the stored positions ----------------------
    assert "Payments: 5 of your" in replies[("S-42M", payer)]
    before, after = (EmpireState.of(board("S-42M", when)).treasury for when in ("position_before", "position_after"))
    assert after == {**before, payer: before[payer] - 5, "Numidia": before["Numidia"] + 5}
    assert f"{payer}: PAY 5 talents to Numidia" in _flat(said["S-42M"])

    built = board("W-42A", "position_after")
    state = EmpireState.of(built)
    assert state.cities["CEA"].owner == "Numidia" and frozenset(("NUM", "CEA")) in state.roads
    assert "C CEA" in [str(u) for u in built.units_of("Numidia")]
    assert state.treasury["Numidia"] == 0

    # -- the cavalry's second move, made with the retreats ----------------------------------------------
    assert "Numidia:   Cavalry Caesariensis -> Numidia then Africa Proconsularis\n             second move done" \
        in said["S-41M"]
    assert "C AFR" in [str(u) for u in board("S-41M", "position_after").units_of("Numidia")]

    # -- the results: treasuries; before a build phase, each claimant's accounts and the prices ---------
    for phase in played:
        position = board(phase, "position_after")
        state = EmpireState.of(position)
        text = _flat(said[phase])
        assert "Supply centres" not in text  # the variant has none
        if position.phase.kind is PhaseKind.ADJUSTMENTS:
            assert "Accounts for the build phase:" in text and "Prices in talents:" in text
            for power in PLAYERS:
                units = len(position.units_of(power))
                assert (f"{power}: {state.treasury[power]} talents (tribute {state.tribute[power]}), "
                        f"upkeep {10 * state.inflation * units} for {units} unit") in text, (phase, power)
        else:
            assert "Accounts for the build phase" not in text
            treasuries = ", ".join(f"{p} {t}" for p, t in sorted(state.treasury.items()))
            assert f"Treasuries: {treasuries} talents" in text, phase
    assert "Prices in talents: Infantry 10, Cavalry 20, Catapult 30, Fleet 20; city 30, fort 50 with a new city " \
           "or 20 on a city; upkeep 10 a unit" in _flat(said["F-42M"]) and "by inflation" not in said["F-42M"]
    assert "Numidia: 60 talents (tribute 40), upkeep 10 for 1 unit, 50 to spend" in _flat(said["F-42M"])

    # -- inflation at the GM's mark: doubled from the build phase after a claimant first collects it ----
    collected = {phase: max(EmpireState.of(board(phase, "position_after")).tribute.values())
                 for phase in ("F-43M", "F-42M", "F-41M")}
    assert collected["F-43M"] < DOUBLE_AT and collected["F-42M"] < DOUBLE_AT <= collected["F-41M"] < 105
    assert "Inflation: from this build phase every price and the upkeep are doubled." in _flat(said["F-41M"])
    assert "Prices in talents: Infantry 20, Cavalry 40, Catapult 60, Fleet 40; city 60, fort 100 with a new city " \
           "or 40 on a city; upkeep 20 a unit (doubled by inflation)" in _flat(said["F-41M"])
    assert not any("Inflation" in said[phase] for phase in played if phase != "F-41M")

    # -- every results mail goes to the seven and the GM with the picture of the board ------------------
    assert len(results) == len(played) * (len(PLAYERS) + 1)
    assert all(m.attach_phase_id is not None for m in results)
    sender = FakeSender()
    asyncio.run(Dispatcher(world.services, sender).drain())
    sent = [m for m in sender.sent if "results" in (m["Subject"] or "")]
    assert len(sent) == len(results)
    for message in sent:
        (picture, *chart) = [p for p in message.iter_attachments() if p.get_content_type() == "image/png"]
        assert [c.get_filename() for c in chart] in ([], [f"{GAME}-chart.png"])  # a year's last results: the chart
        assert re.fullmatch(rf"{GAME}-[SFW]-4[123][MRA]\.png", picture.get_filename() or "")
        assert picture.get_content().startswith(b"\x89PNG")

    # -- the end: the six others concede to Numidia --------------------------------------------------
    for power in PLAYERS:
        if power != "Numidia":
            reply = _send(post, power, secrets[power], ["CONCEDE Numidia"])
            assert "ERROR" not in reply, reply
    game = stored_game(world, GAME)
    assert game.status == GameStatus.FINISHED and game.result == {"kind": "concession", "winner": "Numidia"}
    for address in PLAYERS.values():
        (end,) = post.mails(to=address, kind="end")
        assert f"The game {GAME} is over." in end.body and "The other players conceded to Numidia." in end.body
        assert "centres" not in end.body.split("Final standing:")[1] and " units" in end.body.split("Final standing:")[1]
