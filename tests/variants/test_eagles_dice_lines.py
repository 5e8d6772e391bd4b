"""Eagles' start mail with twelve players: every die listed with its size (a d6 too), and no line
for the twelfth general's place, which a die of one face "rolled": it was the only one left."""

from __future__ import annotations

import re

from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

GAME = "ravenna"
PLAYERS = [f"player{n:02d}" for n in range(1, 13)]
SETTINGS = (
    "variant: eagles\n"
    "gm: master@example.test\n"
    "timezone: Europe/Rome\n"
    "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n"
    f"seats: {len(PLAYERS)}\n"
)
LINE = re.compile(r"^  (?P<purpose>\S.*?), d(?P<sides>\d+): (?P<value>\d+)(?: — .*)?$")


def test_twelve_generals_are_drawn_with_eleven_dice_each_of_its_size(world: World) -> None:  # noqa: F811
    world.write_game(GAME, SETTINGS)
    world.tick()
    post = Post(world)
    for player in PLAYERS:
        post.send(f"{player}@example.test", f"JOIN {GAME}\n", subject="joining")
        post.reply(f"{player}@example.test")
    (start,) = post.mails(to="player01@example.test", kind="start")
    listed = start.body.split("Drawn with the dice:\n")[1].split("\n\n")[0]
    lines = re.sub(r"\n {4,}", " ", listed).splitlines()  # the lines folded joined again
    rolls = [LINE.match(line) for line in lines]
    assert all(rolls), lines
    generals = [r for r in rolls if r and r["purpose"].startswith("General ")]
    assert [(r["purpose"], int(r["sides"])) for r in generals] == [(f"General {n}", 13 - n) for n in range(1, 12)]
    assert any(r["sides"] == "6" for r in generals)  # "General 7, d6: ...", the size said for a d6 too
    assert all(int(r["sides"]) > 1 for r in rolls if r)  # no die of one face, here or for the allied centres
