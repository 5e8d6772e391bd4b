"""Names by mail: an empire's name that would pose as the judge, another
power or a word of a command is refused when chosen, by JOIN or RENAME; and a hostile name
stored before these checks (terminal escapes in it) stops no mail: every mail of every game is
sent, none carries a character that does not print."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from gm.games.lifecycle import find_game
from gm.games.passwords import hash_secret
from gm.services.sending import Dispatcher
from gm.store.codec import encode_position
from gm.store.models import OutboundMail, OutboundStatus
from gm.variants.setup import setup_of
from tests.mail.conftest import GM_SECRET, Post
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)
from tests.variants.by_mail import secret_in

RD = "rd"
SETTINGS = ("variant: roman-diplomacy-i\ngm: master@example.test\ntimezone: Europe/Rome\n"
            "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\npress: grey\nseats: 3\n")
HOSTILE = "\x1b[31mRED\x1b[0m\x1b]0;pwn\x07\x1b[2J"


class Recorder:
    def __init__(self) -> None:
        self.sent: list[EmailMessage] = []

    async def send(self, message: EmailMessage) -> None:
        self.sent.append(message)


@pytest.fixture
def rd(world: World) -> Post:
    world.write_game(RD, SETTINGS)
    world.write_game("g", game_file())  # another game, whose mails must go out too
    world.tick()
    post = Post(world)
    post.send("latium@example.test", f"JOIN {RD} Rome as Latium\n")
    assert "You have joined rd as Latium" in post.reply("latium@example.test")
    with world.services.db.unit_of_work() as session:
        find_game(session, RD).gm_secret_hash = hash_secret(GM_SECRET)
    return post


@pytest.mark.parametrize("name, why", [
    (HOSTILE, "does not print (U+001B)"),
    ("the game master", "a word the judge keeps"),
    ("Lat\u0456um", "letters of one script only"),  # a Cyrillic і, beside the real Latium
    ("L\u0430tium", "letters of one script only"),
    ("\u0421arthago", "letters of one script only"),
    ("LATIUM", "is taken"),
    ("Grey", "a word the judge keeps"),  # PRESS TO Grey would read as grey press
    ("Master", "a word the judge keeps"),  # SIGNON Master rd ... would read as the game master's
])
def test_a_name_that_poses_is_refused_on_joining(rd: Post, name: str, why: str) -> None:
    rd.send("newcomer@example.test", f"JOIN {RD} Greece as {name}\n")
    reply = rd.reply("newcomer@example.test")
    assert why in reply and "\x1b" not in reply and "\x07" not in reply
    with rd.world.services.db.sessions() as session:
        assert [s.power for s in find_game(session, RD).seats] == ["Latium"]


def test_the_game_master_cannot_rename_a_power_to_a_name_that_poses(rd: Post) -> None:
    rd.send("master@example.test", f"SIGNON GM {RD} {GM_SECRET}\nRENAME Latium TO the game master\n"
                                   f"RENAME Latium TO Lat\u0456um\nRENAME Latium TO latium\nRENAME Latium TO Samnium\n")
    reply = rd.reply("master@example.test")
    assert "ERROR: the name 'the game master' cannot be used" in reply
    assert "letters of one script only" in reply
    assert "Latium is now latium" in reply  # its own name in another case is no other's
    assert "latium is now Samnium" in reply


def test_a_hostile_name_stored_before_the_checks_stops_no_mail(rd: Post) -> None:
    post, world = rd, rd.world
    for address, request in (("carthago@example.test", "Tunis as Carthago"), ("pontus@example.test", "Ankara as Pontus")):
        post.send(address, f"JOIN {RD} {request}\n")
        secret_in(post.reply(address))
    variant = world.services.catalog.get("roman-diplomacy-i")
    with world.services.db.unit_of_work() as session:  # as a game joined before names were checked
        game = find_game(session, RD)
        assert game.status == "active"
        game.position = encode_position(setup_of(variant).renamed(world.services.position_of(game), "Pontus", HOSTILE))
        next(s for s in game.seats if s.power == "Pontus").power = HOSTILE
        deadline = game.deadline
    world.clock.set(deadline + timedelta(minutes=1))
    assert sorted(world.tick().processed) == [f"{RD} W99A"]
    post.send("latium@example.test", "LIST rd\n")
    world.clock.advance(timedelta(days=3))
    world.tick()  # g's first phase too
    recorder = Recorder()
    for _ in range(5):
        asyncio.run(Dispatcher(world.services, recorder).drain())
    with world.services.db.sessions() as session:
        mails = list(session.scalars(select(OutboundMail)))
    assert mails and {m.status for m in mails} == {OutboundStatus.SENT}  # none left pending behind it
    for message in recorder.sent:
        text = str(message["Subject"]) + "".join(
            part.get_content() for part in message.walk() if part.get_content_type() == "text/plain")
        assert "\x1b" not in text and "\x07" not in text, message["Subject"]
    assert any("\\x1b[31mRED" in m.body for m in mails)  # shown escaped, not sent raw
