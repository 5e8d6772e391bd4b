"""A game of Eagles by mail, six players: created from a settings file with a secret dice seed,
joined by mail (three asking for fleets), the generals and allied centres drawn with the game's
dice and shown in the start mail with the seed's SHA-256; played by mail for two years with the
plausible bot's orders and some of the players' own (two fleets meet at sea and one attacks the
other, a wrong Eagles order is answered line by line while the rest of its mail is kept); every
roll shown in the results, every results mail repeating the commitment and carrying the picture;
the game ends by a draw vote and its end mail publishes the seed, from which the rolls printed in
the mails are derived again."""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from collections import Counter
from datetime import timedelta

from shapely.geometry import Point, Polygon
from sqlalchemy import select

from gm.adjudicator.dice import derive
from gm.bots.plausible import PlausiblePlayer
from gm.games.lifecycle import current_seats, find_game
from gm.games.pictures import phase_png, phase_report
from gm.render import style
from gm.render.scene import build_scene
from gm.render.shapes import load_shapes
from gm.store.models import GameStatus, OutboundMail, PhaseRecord, SeatStatus
from tests.variants.by_mail import secret_in, stored_game
from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

GAME = "aquileia"
PLAYERS = ["hadrianus", "plotina", "sabina", "trajanus", "antinous", "suetonius"]  # in the order they join
ASK_FOR_FLEETS = {"hadrianus", "sabina", "antinous"}
SETTINGS = (
    "variant: eagles\n"
    "gm: master@example.test\n"
    "timezone: Europe/Rome\n"
    "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n"
    "early: false\n"
    "press: white\n"
    f"seats: {len(PLAYERS)}\n"
)
DICE_SEED = "aquileia 0"  # Alexandria's and Carthago Nova's fleets start next to the Pontus Euxinus
BOT_SEED = 3
LAST_YEAR = 119


def address(player: str) -> str:
    return f"{player}@example.test"



def _send(post: Post, player: str, power: str, secret: str, lines: list[str]) -> str:
    post.send(address(player), f"SIGNON {power} {GAME} {secret}\n" + "\n".join(lines) + "\n")
    return post.reply(address(player))


def die(seed: str, phase: str, purpose: str, n: int, sides: int = 6) -> int:
    """HELP DICE's function, as a player would run it."""
    attempt = 0
    while True:
        digest = hmac.new(seed.encode(), f"{phase}|{purpose}|{n}|{attempt}".encode(), hashlib.sha256).digest()
        for i in range(0, 32, 8):
            x = int.from_bytes(digest[i:i + 8], "big")
            if x < 2**64 - 2**64 % sides:
                return x % sides + 1
        attempt += 1


ROLL = re.compile(r"^  (?P<purpose>\S.*?)(?: \((?P<when>[^()]* \d+ (?:movement|retreats|adjustments))\))?"
                  r", d(?P<sides>\d+): (?P<value>\d+)(?: — (?P<effect>.*))?$")  # every die with its size


def rolls_in(body: str, title: str) -> list[dict[str, str]]:
    """The rolls listed under ``title`` in a mail, each line unwrapped."""
    start = body.index(f"\n{title}\n") + len(title) + 2
    end = body.find("\n\n", start)
    lines: list[str] = []
    for line in body[start:end if end >= 0 else None].splitlines():
        if line.startswith("    ") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    found = []
    for line in lines:
        match = ROLL.match(line)
        assert match, line
        found.append(match.groupdict())
    return found


def test_a_game_of_eagles_by_mail(world: World) -> None:  # noqa: F811
    world.write_game(GAME, SETTINGS)
    world.tick()
    with world.services.db.unit_of_work() as session:  # the test fixes the game's secret seed
        find_game(session, GAME).dice_seed = DICE_SEED
    post = Post(world)
    secrets: dict[str, str] = {}
    for player in PLAYERS:
        post.send(address(player), f"JOIN {GAME}{' fleets' if player in ASK_FOR_FLEETS else ''}\n", subject="joining")
        reply = post.reply(address(player))
        secrets[player] = secret_in(reply)
    game = stored_game(world, GAME)
    assert game.status == GameStatus.ACTIVE and game.phase == "S118M"
    power_of = {s.player.email.split("@")[0]: s.power for s in current_seats(game)}
    player_of = {power: player for player, power in power_of.items()}
    commitment = hashlib.sha256(DICE_SEED.encode()).hexdigest()
    variant = world.services.catalog.get("eagles")

    # -- the start: the generals and allied centres drawn with the dice, the seed committed to ----
    (start,) = post.mails(to=address("plotina"), kind="start")
    assert f"You play {power_of['plotina']}" in start.body
    assert f"its SHA-256 is:\n    {commitment}\n" in start.body and DICE_SEED not in start.body
    setup = rolls_in(start.body, "Drawn with the dice:")
    assert [r["purpose"] for r in setup[:6]] == [f"General {n}" for n in range(1, 7)]
    assert [r["sides"] for r in setup] == [str(12 - n) for n in range(6)] + [str(20 - n) for n in range(12)]
    for power in power_of.values():
        general = variant.map.provinces[variant.map.rules["general_centre_of_power"][power]].name
        assert any(r["effect"] == f"{power}: general in {general}" for r in setup[:6])
    position = world.services.position_of(game)
    listed = {line.split(":")[0].strip() for line in start.body.split("Starting position")[1].split("\n\n")[0].splitlines()[1:]
              if line.startswith("  ") and not line.startswith("   ")}
    assert listed == set(power_of.values()) | {"Neutral"}  # the powers in play, and the neutral defenders
    fleets = {u.power for u in position.units if u.type.letter == "F"}
    assert fleets == {power_of[p] for p in ASK_FOR_FLEETS}  # each of the three has a coastal original centre

    # -- the game: the bot's orders by mail, and the players' own; the clock jumped to each deadline
    bot = PlausiblePlayer(variant, random.Random(BOT_SEED))
    own = {  # phase: power -> the player's own mail (its orders for all its units), instead of the bot's
        "S118M": {"Alexandria": ["F Alexandria H", "A Lugdunum H", "F Nicomedia - Pontus Euxinus"],
                  "Carthago Nova": ["F Carthago H", "F Carthago Nova H", "F Sinope - Pontus Euxinus"]},
        "F118M": {"Alexandria": ["A Lugdunum attacks F Pontus Euxinus (Carthago Nova)",
                                 "F Pontus Euxinus attacks F Pontus Euxinus (Carthago Nova)",
                                 "F Alexandria attacks F Pontus Euxinus (Carthago Nova)",
                                 "A Lugdunum H", "F Alexandria H"],
                  "Carthago Nova": ["F Carthago H", "F Carthago Nova H",
                                    "F Pontus Euxinus attacks F Pontus Euxinus (Carthago Nova)",
                                    "F Pontus Euxinus H"]},
    }
    replies: dict[tuple[str, str], str] = {}
    played: list[str] = []
    while True:
        game = stored_game(world, GAME)
        position = world.services.position_of(game)
        if position.phase.year > LAST_YEAR:
            break
        phase = str(position.phase)
        by_power: dict[str, list[str]] = {}
        for power, order in bot.orders(position):
            by_power.setdefault(power, []).append(str(order))
        by_power.update(own.get(phase, {}))
        for power, lines in by_power.items():
            reply = _send(post, player_of[power], power, secrets[player_of[power]], lines)
            replies[(phase, power)] = reply
            assert "ERROR" not in reply or phase in own, reply
        world.clock.set(game.deadline + timedelta(minutes=1))
        assert world.tick().processed == [f"{GAME} {game.phase}"]
        played.append(phase)
    assert played[:2] == ["S118M", "F118M"] and played[-1] == "W119A"  # two game years

    # -- a wrong Eagles order is answered line by line; the rest of the mail stands ---------------
    reply = re.sub(r"\n +", " ", replies[("F118M", "Alexandria")])
    assert "> A Lugdunum attacks F Pontus Euxinus (Carthago Nova) ERROR: only a fleet attacks (fleets)" in reply
    assert ("> F Alexandria attacks F Pontus Euxinus (Carthago Nova) ERROR: Pontus Euxinus is not within reach of "
            "F ALX: a fleet attacks in its own sea, a port next to it, or (in port) along the coast") in reply
    assert ("Current orders for Alexandria in aquileia, Fall A.D. 118 movement: Fleet Pontus Euxinus attacks Fleet "
            "Pontus Euxinus (Carthago Nova) Army Lugdunum HOLD Fleet Alexandria HOLD\n") in reply
    reply = re.sub(r"\n +", " ", replies[("F118M", "Carthago Nova")])
    assert ("> F Pontus Euxinus attacks F Pontus Euxinus (Carthago Nova) ERROR: a fleet does not attack its own "
            "power's fleets\n> F Pontus Euxinus H = Fleet Pontus Euxinus HOLD") in reply

    # -- what the results said: every roll, the attack at sea and the winter storms ----------------
    with world.services.db.sessions() as session:
        records = {r.phase: r for r in session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game.id))}
        results = list(session.scalars(select(OutboundMail).where(OutboundMail.kind == "results")
                                       .order_by(OutboundMail.id)))
        session.expunge_all()
    for player in PLAYERS:  # and a copy to the game master
        assert len([m for m in results if m.to_address == address(player)]) == len(played)
    for mail in results:
        assert mail.attach_phase_id is not None  # the picture of the board goes with every results mail
        assert f"its SHA-256 is:\n    {commitment}\n" in mail.body and DICE_SEED not in mail.body
    said = {phase: next(m.body for m in results if m.attach_phase_id == r.id and m.to_address == address("plotina"))
            for phase, r in records.items()}
    shown: list[tuple[str, dict[str, str]]] = []
    for phase in played:
        rolled = records[phase].results.get("rolls", [])
        listed = rolls_in(said[phase], "Dice:") if rolled else []
        assert "\nDice:\n" in said[phase] or not rolled
        assert [(r["purpose"][0].lower() + r["purpose"][1:], int(r["value"])) for r in listed] == [
            (r["purpose"], r["value"]) for r in rolled], phase  # every roll, in the order rolled
        shown += [(phase, r) for r in listed]
    assert len(shown) >= 4  # the attack, two storms at least, and whatever the bot's moves rolled
    fall = re.sub(r"\n {4,}", " ", said["F118M"])  # the lines wrapped joined again
    assert ("Alexandria: Fleet Pontus Euxinus attacks Fleet Pontus Euxinus (Carthago Nova) attack on F PEU "
            "(Carthago Nova): 5: no effect") in fall
    assert "  Attack by F PEU (Alexandria) on F PEU (Carthago Nova), d6: 5 — 5: no effect\n" in fall
    storms = {r["purpose"]: r for phase, r in shown if phase == "F118M" and r["purpose"].startswith("Storm: ")}
    for fleet in ("F PEU (Alexandria)", "F PEU (Carthago Nova)"):  # rolled at the end of the Fall, for each
        storm = storms[f"Storm: {fleet}"]
        assert storm["when"] == "Fall A.D. 118 retreats" and storm["effect"] in (
            "no effect", f"{fleet} destroyed", f"{fleet} lightly damaged", f"{fleet} severely damaged")
    assert "\nDice:\n" not in said["W119A"] and "Storm: " not in said["S119M"]  # storms only after the Fall

    # -- the picture of the Fall: the two fleets in the Pontus Euxinus, both in it, apart ---------
    before, report = phase_report(variant, records["F118M"], DICE_SEED)
    area = _area(variant, "PEU")
    marks = [m for m in build_scene(variant, before, report).units if area.contains(Point(m.x, m.y))]
    colours = {style.normal(variant.map.powers[p].colour) for p in ("Alexandria", "Carthago Nova")}
    assert sorted(m.fill for m in marks) == sorted(colours) and len({(m.x, m.y) for m in marks}) == 2
    assert abs(marks[0].x - marks[1].x) >= 2 * style.UNIT_RADIUS
    assert phase_png(world.services, stored_game(world, GAME), records["F118M"]).startswith(b"\x89PNG\r\n\x1a\n")

    # -- the end: every player votes for a draw; the end mail publishes the seed -------------------
    alive = sorted(s.power for s in current_seats(stored_game(world, GAME)) if s.status != SeatStatus.ELIMINATED)
    assert len(alive) == len(PLAYERS)
    for power in alive:
        post.send(address(player_of[power]), f"SIGNON {power} {GAME} {secrets[player_of[power]]}\nDRAW\n")
    game = stored_game(world, GAME)
    assert game.status == GameStatus.FINISHED and game.result == {"kind": "draw", "powers": alive}
    (end,) = post.mails(to=address("plotina"), kind="end")
    published = re.search(r"The dice seed of this game was:\n    (.+)\n", end.body)
    assert published, end.body
    seed = published.group(1)
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment

    # -- with the seed, anyone derives every roll printed in the mails again (HELP DICE) ------------
    codes = [f"{season}{year}{kind}" for year in (118, 119) for season, kinds in (("S", "MR"), ("F", "MR"), ("W", "A"))
             for kind in kinds]
    phases = {variant.title(variant.calendar.parse(code)): code for code in codes}  # as a player reads them
    made: Counter[tuple[str, str]] = Counter()  # the rolls made before for one purpose in one phase
    for phase, roll in [("setup", r) for r in setup] + shown:
        rolled_in = phases[roll["when"]] if roll["when"] else phase
        purpose = roll["purpose"][0].lower() + roll["purpose"][1:]
        n = made[(rolled_in, purpose)]
        made[(rolled_in, purpose)] += 1
        assert die(seed, rolled_in, purpose, n, int(roll["sides"])) == int(roll["value"]), (phase, roll)
    storm = storms["Storm: F PEU (Alexandria)"]
    assert derive(seed, "F118R|storm: F PEU (Alexandria)|0", 6) == int(storm["value"])  # as gm's own dice have it


def _area(variant, province: str):  # type: ignore[no-untyped-def]
    """The province's area as drawn: the rings of its shape, filled even-odd."""
    area = None
    for ring in re.findall(r"M([^MZ]+)Z", load_shapes(variant.map.name).provinces[province].path):
        polygon = Polygon([tuple(map(float, point.split())) for point in ring.split("L")])
        area = polygon if area is None else area.symmetric_difference(polygon)
    return area
