"""A private game exists only for those inside it (its players, its game master, its observers):
to any other address every command that names it answers word for word as for a game that does
not exist, and leaves the same trace; those inside see it as before."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from gm.commands.guessing import MAX_FAILED_PER_ADDRESS
from gm.games.lifecycle import current_seats, find_game
from gm.store.models import AuditEntry
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import game_file

GM = "master@example.test"
WATCHER = "watcher@example.test"
FRANCE = "france@example.test"
MISSING = "nowhere"
_strangers = iter(range(1, 10_000))


def _elsewhere(domain: str, players: int = 7, extra: str = "") -> str:
    """A standard game's settings whose players write from ``domain``, its GM ours."""
    text = game_file(players=players).replace("@example.test", f"@{domain}").replace(f"master@{domain}", GM)
    return text.replace("players:\n", f"{extra}players:\n")


@pytest.fixture
def hushed(post: Post) -> Post:
    """g made private (started, seven players, an observer); quiet: private and forming, three
    players of seven; open: a started game anyone may see."""
    world = post.world
    world.write_game("g", game_file(extra=f"press: grey\nprivate: true\nobservers: [{WATCHER}]\n"))
    world.write_game("quiet", _elsewhere("quiet.test", 3, f"private: true\nobservers: [{WATCHER}]\n"))
    world.write_game("open", _elsewhere("open.test"))
    world.tick()
    with world.services.db.reading() as session:
        assert world.services.settings_of(find_game(session, "g")).private
        quiet = find_game(session, "quiet")
        assert world.services.settings_of(quiet).private and len(current_seats(quiet)) == 3
        assert find_game(session, "open").phase == "S1901M"
    return post


def _ask(post: Post, body: str) -> str:
    """The reply to ``body`` from an address gm has never seen (each ask its own, so no limit on
    replies to strangers holds one back), its address written STRANGER."""
    sender = f"stranger{next(_strangers)}@elsewhere.test"
    post.send(sender, body)
    return post.reply(sender).replace(sender, "STRANGER")


def _as_missing(post: Post, game: str, command: str) -> None:
    """``command`` naming ``game`` is answered as the same naming a game that is not there."""
    private = _ask(post, command.replace("{game}", game))
    missing = _ask(post, command.replace("{game}", MISSING))
    assert missing.replace(MISSING, game) == private, (private, missing)


COMMANDS = [
    "LIST {game}",
    "LIST {game}\nHISTORY\nMAP\nMAP CHART\nSTATUS",
    "LIST PROVINCES {game}",
    "HELP PROVINCES {game}",
    f"SIGNON France {{game}} {secret_of('France')}\nHISTORY\nMAP",
    "SIGNON France {game} wrong-secret\nHISTORY",
    "SIGNON Narnia {game} wrong-secret",
    "SIGNON F{game} wrong-secret",
    f"SIGNON GM {{game}} {GM_SECRET}",
    "SIGNON GM {game} wrong-secret",
    "JOIN {game}",
    "JOIN {game} France",
    "WEB {game}",
    "HISTORY {game}",
    "HISTORY {game} S1901M",
    "HISTORY {game} S1901M..F1901M",
    "SUMMARY {game}",
    "OBSERVE {game}",
    "UNOBSERVE {game}",
    "SIGNON OBSERVER {game} wrong-secret",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_private_game_is_answered_as_a_missing_one(hushed: Post, command: str) -> None:
    for game in ("g", "quiet"):
        _as_missing(hushed, game, command)


def test_the_list_of_games_does_not_name_a_private_one_to_a_stranger(hushed: Post) -> None:
    listed = _ask(hushed, "LIST")
    assert re.search(r"^  open\b", listed, re.M)
    assert not re.search(r"^  (g|quiet)\b", listed, re.M)


def test_a_stranger_joins_no_private_game(hushed: Post) -> None:
    _ask(hushed, "JOIN quiet France")
    with hushed.world.services.db.reading() as session:
        assert len(current_seats(find_game(session, "quiet"))) == 3


def test_those_inside_see_a_private_game_as_before(hushed: Post) -> None:
    for address in (FRANCE, GM, WATCHER):
        hushed.send(address, "LIST\nLIST g\n")
        reply = hushed.reply(address)
        assert re.search(r"^  g\b", reply, re.M), (address, reply)
        assert bool(re.search(r"^  quiet\b", reply, re.M)) == (address != FRANCE), (address, reply)  # not hers
        assert re.search(r"Game g: standard, active, Spring 1901 movement\n  Austria +3 centres", reply), reply
    hushed.send(FRANCE, f"SIGNON France g {secret_of('France')}\nHISTORY\nMAP\n")
    reply = hushed.reply(FRANCE)
    assert "Signed on as France in g" in reply and "ERROR" not in reply
    hushed.send(GM, f"SIGNON GM g {GM_SECRET}\nLIST PROVINCES g\n")
    assert "Signed on as the game master of g" in hushed.reply(GM)
    hushed.send(WATCHER, "JOIN quiet\n")  # an observer may take a seat
    assert "You have joined quiet" in hushed.reply(WATCHER)


def test_a_wrong_secret_from_a_stranger_is_still_counted_and_reported(hushed: Post) -> None:
    """The answer is a missing game's, but the player still hears that the secret was used from
    another address, and the game master of a failed sign-on as GM."""
    reply = _ask(hushed, f"SIGNON France g {secret_of('France')}\n")
    assert "there is no game 'g'" in reply
    (warning,) = hushed.mails(to=FRANCE, kind="security")
    assert "your secret was used" in warning.subject
    _ask(hushed, "SIGNON GM g wrong\n")
    assert any("failed sign-on as game master" in m.subject for m in hushed.mails(to=GM, kind="gm-alert"))


def _failures_from(post: Post, address: str) -> int:
    with post.world.services.db.reading() as session:
        return session.scalar(select(func.count()).select_from(AuditEntry).where(
            AuditEntry.action == "signon-failed", AuditEntry.actor == address)) or 0


def test_a_sign_on_counts_against_the_address_alike_for_a_private_game_and_a_missing_one(hushed: Post) -> None:
    """Each counts as one wrong secret (up to the address's limit), whatever went wrong: so the
    limit's answer for a game anyone sees cannot tell that a private game was there."""
    tries = ["SIGNON France {game} wrong", "SIGNON Narnia {game} wrong", "SIGNON GM {game} wrong"]
    # players of open, so that every reply is sent (an unknown address gets one refusal an hour)
    for game, sender in (("g", "austria@open.test"), ("quiet", "england@open.test"),
                         (MISSING, "germany@open.test")):
        for n in range(MAX_FAILED_PER_ADDRESS + 2):
            hushed.send(sender, tries[n % len(tries)].replace("{game}", game) + "\n")
            hushed.world.clock.advance(timedelta(seconds=1))
        assert _failures_from(hushed, sender) == MAX_FAILED_PER_ADDRESS, game
        hushed.send(sender, "SIGNON France open wrong\n")
        assert "too many wrong secrets from this address" in hushed.mails(to=sender)[-1].body
