"""A game of Roman Diplomacy I by mail: the game master writes a settings file with no players;
four players found empires by mail (the second first asks for a city already taken and chooses
again), two more join during the first two years and come in at the next adjustment phase; two
empires federate by mail; one empire stops writing and falls into civil disorder; the variant's
wrong orders are answered line by line; the survivors end the game with a draw vote. Every
results mail carries the picture of the board, with barbarian land, garrisons and Imperial
Cities on it."""

from __future__ import annotations

import random
import re
from datetime import timedelta

from sqlalchemy import select

from gm.bots.plausible import PlausiblePlayer
from gm.games.lifecycle import current_seats, find_game
from gm.render.scene import build_scene
from gm.render.svg import render_phase_svg
from gm.store.models import GameStatus, OutboundMail, PhaseRecord, SeatStatus
from gm.variants.roman_diplomacy.state import RomanState
from gm.games.passwords import hash_secret
from tests.variants.by_mail import secret_in, stored_game
from tests.mail.conftest import GM_SECRET, Post, post  # noqa: F401  (fixtures)
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

GAME = "actium"
FOUNDERS = {"Latium": "Rome", "Carthago": "Tunis", "Hellas": "Greece", "Pontus": "Ankara"}
LATER = {"S100M": ("Massilia", "Marseilles"), "S101M": ("Byzantium", "Constantinople")}
SETTINGS = (
    "variant: roman-diplomacy-i\n"
    "gm: master@example.test\n"
    "timezone: Europe/Rome\n"
    "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n"
    "early: false\n"
    "press: white\n"
    f"seats: {len(FOUNDERS)}\n"
)
SILENT = "Pontus"  # stops writing after the opening builds
SEED = 5


def address(empire: str) -> str:
    return f"{empire.lower()}@example.test"



def _join(post: Post, empire: str, city: str) -> str:
    post.send(address(empire), f"JOIN {GAME} {city} as {empire}\n", subject="joining")
    return post.reply(address(empire))



def _send(post: Post, empire: str, secret: str, lines: list[str], sender: str = "") -> str:
    post.send(sender or address(empire), f"SIGNON {empire} {GAME} {secret}\n" + "\n".join(lines) + "\n")
    return post.reply(sender or address(empire))


def test_a_game_of_roman_diplomacy_by_mail(world: World) -> None:  # noqa: F811
    world.write_game(GAME, SETTINGS)
    world.tick()
    post = Post(world)
    secrets: dict[str, str] = {}

    # -- founding: first come, first served ----------------------------------------------------
    reply = _join(post, "Latium", "Rome")
    assert f"Sign on with: SIGNON Latium {GAME} <secret>, then your orders, e.g.\n    BUILD A Rome" in reply
    secrets["Latium"] = secret_in(reply)
    refused = _join(post, "Carthago", "Rome")
    assert "ERROR: Rome is no longer neutral or already asked for: choose another city (e.g. Ankara)" in refused
    for empire in ("Carthago", "Hellas", "Pontus"):
        reply = _join(post, empire, FOUNDERS[empire])
        assert f"You have joined {GAME} as {empire}, with {FOUNDERS[empire]}." in reply
        secrets[empire] = secret_in(reply)
    assert "The game is full and has started: you play Pontus." in reply
    game = stored_game(world, GAME)
    assert game.status == GameStatus.ACTIVE and game.phase == "W99A"
    (start,) = post.mails(to=address("Latium"), kind="start")
    assert "You play Latium." in start.body and "  Latium:          Garrison Rome\n" in start.body

    # -- the variant's wrong orders, answered line by line, the rest kept -------------------------
    reply = _send(post, "Latium", secrets["Latium"], ["BUILD A Naples", "BUILD A Tuscany", "BUILD F Rome"])
    assert "> BUILD A Naples\n    ERROR:" in reply and "> BUILD A Tuscany\n    ERROR:" in reply
    assert "Current orders for Latium in actium, Winter A.D. 99 adjustments:\n  BUILD Fleet Rome\n" in reply
    reply = _send(post, "Latium", secrets["Latium"], ["HELP RULES"])
    assert "ROMAN DIPLOMACY I (Pete Calcraft), as this judge reads its rules" in reply
    assert "JOIN actium Ankara as Latium" in reply  # the example names a city still free

    # -- the game: the bot's orders by mail, the clock jumped to each deadline ------------------
    variant = world.services.catalog.get("roman-diplomacy-i")
    bot = PlausiblePlayer(variant, random.Random(SEED))
    played: list[str] = []
    federated = False
    while True:
        game = stored_game(world, GAME)
        position = world.services.position_of(game)
        if position.phase.year > 101:
            break
        phase = str(position.phase)
        if phase in LATER:
            empire, city = LATER[phase]
            reply = _join(post, empire, city)
            assert "You come into the game at its next adjustment phase." in reply
            secrets[empire] = secret_in(reply)
        by_power: dict[str, list[str]] = {}
        for power, order in bot.orders(position):
            by_power.setdefault(power, []).append(str(order))
        if phase == "S100M":  # Latium and Carthago federate, each by its own mail
            reply = _send(post, "Carthago", secrets["Carthago"], ["F Tunis - Tyrrhenian Sea - Gulf of Lyon"])
            assert "> F Tunis - Tyrrhenian Sea - Gulf of Lyon\n    ERROR: a step too many: Carthago has 1 fleet " \
                   "step (one a fleet) and its fleets' orders take 2" in re.sub(r"\n +its", " its", reply)
            by_power["Latium"].append("FEDERATE Carthago")
            by_power["Carthago"].append("federate latium")
            federated = True
        for power, lines in by_power.items():
            if power == SILENT and played:
                continue
            reply = _send(post, power, secrets[power], lines)
            assert "ERROR" not in reply, reply
        world.clock.set(game.deadline + timedelta(minutes=1))
        assert world.tick().processed == [f"{GAME} {game.phase}"]
        played.append(phase)
    assert federated and played[:3] == ["W99A", "S100M", "F100M"] and "W101A" in played

    # -- what the results said -----------------------------------------------------------------
    with world.services.db.sessions() as session:
        records = {r.phase: r for r in session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game.id))}
        results = list(session.scalars(select(OutboundMail).where(OutboundMail.kind == "results")
                                       .order_by(OutboundMail.id)))
        session.expunge_all()
    said = {phase: next(m.body for m in results if m.attach_phase_id == r.id and m.to_address == address("Hellas"))
            for phase, r in records.items()}
    assert "Carthago and Latium federate: one empire in battle and for victory" in said["S100M"]
    assert "Pontus falls into civil disorder: its centres are neutral again" in said["F100M"]
    assert "Massilia joins the game with its Imperial City in Marseilles" in said["F100M"]
    assert "Byzantium joins the game with its Imperial City in Constantinople" in said["F101M"]
    assert "Neutral:" not in said["S100M"] or "dislodged" in said["S100M"]  # garrisons shown only when struck
    final = world.services.position_of(stored_game(world, GAME))
    state = RomanState.of(final)
    assert set(state.empires) == {"Latium", "Carthago", "Hellas", "Massilia", "Byzantium"}
    assert ("Carthago", "Latium") in state.federations
    seats = {s.power: s.status for s in current_seats(stored_game(world, GAME))}
    assert len(seats) == 6 and seats["Pontus"] == SeatStatus.ELIMINATED

    # -- the board's picture: barbarian land, garrisons, Imperial Cities --------------------------
    svg = render_phase_svg(variant, final)
    assert "barbarian land" in svg and "Imperial City" in svg
    letters = {m.letter for m in build_scene(variant, final).units}
    assert {"G", "A"} <= letters
    assert all(m.attach_phase_id is not None for m in results)  # every results mail carries the picture

    # -- the result: the empires still in the game all vote for a draw ----------------------------
    alive = sorted(p for p, status in seats.items() if status != SeatStatus.ELIMINATED)
    for empire in alive:
        post.send(address(empire), f"SIGNON {empire} {GAME} {secrets[empire]}\nDRAW\n")
    game = stored_game(world, GAME)
    assert game.status == GameStatus.FINISHED and game.result == {"kind": "draw", "powers": alive}
    (end,) = post.mails(to=address("Hellas"), kind="end")
    assert f"It ends in a draw between {', '.join(alive)}." in " ".join(end.body.split())


def test_the_game_master_renames_an_empire_a_player_founded(world: World) -> None:  # noqa: F811
    world.write_game(GAME, SETTINGS.replace(f"seats: {len(FOUNDERS)}", "seats: 2"))
    world.tick()
    with world.services.db.unit_of_work() as session:
        find_game(session, GAME).gm_secret_hash = hash_secret(GM_SECRET)
    post = Post(world)
    post.send("rex@example.test", f"JOIN {GAME} Rome\n")  # no name asked for: the judge gives one
    first = post.reply("rex@example.test")
    assert f"You have joined {GAME} as Empire of Rome, with Rome." in first
    _join(post, "Carthago", "Tunis")
    post.send("master@example.test", f"SIGNON GM {GAME} {GM_SECRET}\nRENAME empire of rome TO Latium\n"
                                     "RENAME Carthago TO latium\n")
    reply = post.reply("master@example.test")
    assert "Empire of Rome is now Latium; everyone has been told." in reply
    assert "ERROR: the name 'latium' is taken: choose another" in reply
    assert any("The game master has renamed Empire of Rome: it is Latium" in m.body
               for m in post.mails(to="rex@example.test", kind="renamed"))
    position = world.services.position_of(stored_game(world, GAME))
    assert RomanState.of(position).empires == {"Latium": "ROM", "Carthago": "TUN"}
    assert [str(u) for u in position.units_of("Latium")] == ["G ROM"] and position.centres["ROM"] == "Latium"
    reply = _send(post, "Latium", secret_in(first), ["BUILD A Rome"], sender="rex@example.test")
    assert "Current orders for Latium in actium, Winter A.D. 99 adjustments:\n  BUILD Army Rome\n" in reply


def test_the_powers_of_a_map_keep_their_names(post: Post) -> None:
    post.send("master@example.test", f"SIGNON GM g {GM_SECRET}\nRENAME France TO Gaul\n")
    assert "ERROR: the powers of standard have the names of its map" in post.reply("master@example.test")
