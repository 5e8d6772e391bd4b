"""Draws among named powers, by mail: DRAW alone is a draw shared by every surviving power; DRAW
<power> <power> ... names those who share it, where the game's draw: among: any allows it; the
game ends when every surviving power votes for the same powers, and the end mail says who
shares it; NODRAW withdraws. A variant's own limit on draws (Diplomacy of the Empire: two or
three claimants) holds for named draws too."""

from __future__ import annotations

import pytest
from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import STANDARD_PLAYERS, World, database_url, game_file, world  # noqa: F401  (fixtures)

POWERS = [name.capitalize() for name in STANDARD_PLAYERS]


def started(world: World, draw: str, variant_file: str | None = None) -> Post:
    world.write_game("g", variant_file or game_file(extra=f"draw: {draw}\n"))
    world.tick()
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        game.gm_secret_hash = hash_secret(GM_SECRET)
        for seat in current_seats(game):
            seat.secret_hash = hash_secret(secret_of(seat.power))
    return Post(world)


def vote(post: Post, power: str, line: str) -> str:
    post.send(f"{power.lower()}@example.test", f"SIGNON {power} g {secret_of(power)}\n{line}\n")
    return " ".join(post.reply(f"{power.lower()}@example.test").split())


def status(post: Post) -> tuple[str, dict | None]:
    with post.world.services.db.sessions() as session:
        game = find_game(session, "g")
        return game.status, game.result


def test_a_named_draw_passes_when_every_survivor_votes_for_the_same_powers(world: World) -> None:
    post = started(world, "{votes: secret, among: any}")
    assert "France votes for a draw shared by England, France, Germany only" in vote(
        post, "France", "DRAW France, England Germany")
    for power in ["Austria", "Italy", "Russia", "Turkey", "England"]:
        vote(post, power, "DRAW E F G")
    assert status(post)[0] == "active"  # Germany has not voted yet
    assert "ends in a draw shared by England, France, Germany" in vote(post, "Germany", "DRAW england france germany")
    state, result = status(post)
    assert state == "finished" and result == {"kind": "draw", "powers": ["England", "France", "Germany"],
                                              "excluded": ["Austria", "Italy", "Russia", "Turkey"]}
    end = " ".join(post.mails(to="austria@example.test", kind="end")[0].body.split())
    assert "It ends in a draw between England, France, Germany." in end
    assert "Every surviving power voted for it: Austria, Italy, Russia, Turkey do not share it." in end


def test_different_draws_do_not_pass_until_the_votes_agree_and_nodraw_withdraws(world: World) -> None:
    post = started(world, "{among: any}")
    for power in POWERS[:-1]:
        vote(post, power, "DRAW")
    assert "votes for a draw shared by France, Turkey only" in vote(post, "Turkey", "DRAW Turkey France")
    assert status(post)[0] == "active"  # six for every survivor, one for two of them
    vote(post, "Austria", "NODRAW")
    assert "Turkey votes for a draw." in vote(post, "Turkey", "DRAW")  # now every survivor, as the others
    assert status(post)[0] == "active"  # Austria withdrew
    assert "ends in a draw shared by Austria, England, France, Germany, Italy, Russia, Turkey" in vote(
        post, "Austria", "DRAW " + " ".join(POWERS))  # naming them all is the draw of every survivor
    assert status(post)[1] == {"kind": "draw", "powers": sorted(POWERS)}


@pytest.mark.parametrize("line, fragment", [
    ("DRAW France Germany", "in g a draw is shared by every surviving power: write DRAW alone"),
])
def test_a_game_of_draws_among_every_survivor_refuses_a_named_one(world: World, line: str, fragment: str) -> None:
    post = started(world, "{votes: open}")
    assert fragment in vote(post, "France", line)
    assert not post.mails(kind="vote")


@pytest.mark.parametrize("line, fragment", [
    ("DRAW France", "a draw is shared by two powers or more (to give one the game: CONCEDE TO it)"),
    ("DRAW France Ruritania", "no power 'Ruritania' in g"),
])
def test_what_a_named_draw_may_not_be(world: World, line: str, fragment: str) -> None:
    post = started(world, "{among: any}")
    assert fragment in vote(post, "France", line)


def test_open_votes_announce_the_powers_named(world: World) -> None:
    post = started(world, "{votes: open, among: any}")
    vote(post, "France", "DRAW France Germany")
    announced = {m.to_address for m in post.mails(kind="vote")
                 if "France votes for a draw shared by France, Germany only." in " ".join(m.body.split())}
    assert "england@example.test" in announced and "master@example.test" in announced


def test_the_variants_own_limit_holds_for_a_named_draw(world: World) -> None:
    """Diplomacy of the Empire (rule 11): a draw of two or three claimants, never more; with six
    in the game, a draw of every survivor is refused, a named draw of three passes."""
    players = ["{email: %s@example.test}" % name for name in STANDARD_PLAYERS[:6]]
    text = ("variant: diplomacy-of-the-empire\ngm: master@example.test\nseats: 6\ndraw: {among: any}\n"
            "players:\n" + "".join(f"  - {p}\n" for p in players))
    post = started(world, "", variant_file=text)
    with world.services.db.sessions() as session:
        seats = {s.player.email.split("@")[0].capitalize(): s.power for s in current_seats(find_game(session, "g"))}
    powers = sorted(seats.values())
    address = {power: f"{name.lower()}@example.test" for name, power in seats.items()}

    def vote_as(power: str, line: str) -> str:
        post.send(address[power], f"SIGNON {power} g {secret_of(power)}\n{line}\n")
        return " ".join(post.reply(address[power]).split())

    assert "a draw includes two or three claimants, and 6 are still in the game" in vote_as(powers[0], "DRAW")
    trio = " ".join(powers[:3])
    for power in powers:
        vote_as(power, f"DRAW {trio}")
    assert status(post)[1] == {"kind": "draw", "powers": sorted(powers[:3]), "excluded": powers[3:]}
