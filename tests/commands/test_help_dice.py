"""HELP DICE: how the judge rolls dice, with a function a player can run to re-derive every roll
once a game's seed is published; the function gives exactly the judge's rolls."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.adjudicator.dice import derive
from tests.commands.test_help import answer
from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)


def _players_function(lines: list[str]):  # type: ignore[no-untyped-def]
    code = "\n".join(line[4:] for line in lines[lines.index("    import hashlib, hmac"):])
    scope: dict = {}  # type: ignore[type-arg]
    exec(code, scope)  # noqa: S102  (the text a player would run)
    return scope["die"]


def test_help_dice_explains_the_commitment_and_how_to_check_a_roll(world: World) -> None:  # noqa: F811
    lines = answer(Post(world), "someone@example.org", "HELP DICE\n")
    text = "\n".join(lines)
    assert lines[0] == "HOW THIS JUDGE ROLLS DICE, AND HOW TO CHECK EVERY ROLL"
    for point in ("publishes its SHA-256 (the commitment)", "nobody (the game master included) can choose a roll",
                  "publishes the seed"):
        assert point in " ".join(text.split()), point
    assert all(len(line) <= 72 for line in lines)
    die = _players_function(lines)
    check(die)


@settings(max_examples=300, deadline=None)
@given(seed=st.text(min_size=1, max_size=40), phase=st.sampled_from(["F118M", "S-219M", "W1901A"]),
       purpose=st.text(max_size=30), n=st.integers(0, 5), sides=st.integers(1, 20))
def _same(die, seed: str, phase: str, purpose: str, n: int, sides: int) -> None:  # type: ignore[no-untyped-def]
    assert die(seed, phase, purpose, n, sides) == derive(seed, f"{phase}|{purpose}|{n}", sides)


def check(die) -> None:  # type: ignore[no-untyped-def]
    _same(die)  # hypothesis draws the seeds, phases, purposes and dice
