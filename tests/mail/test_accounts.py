"""Secrets and addresses that leak nothing: SET ADDRESS waits for the new
address to confirm, never takes an address in use, answers alike whatever the address, and says
which games move; the right and a wrong secret from another address are answered alike; the
game master hears of sign-ons as game master that failed; a player removed is told; notices give
advice that works; secrets have at least 40 bits."""

from __future__ import annotations

import math
import re
from datetime import timedelta

from sqlalchemy import select

from gm.games import passwords
from gm.games.lifecycle import find_game, seat_of
from gm.store.models import Player
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import database_url, game_file, world  # noqa: F401  (fixtures)

FRANCE = "france@example.test"
GM = "master@example.test"


def signon(power: str = "France") -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def _code(post: Post, to: str) -> str:
    (mail,) = post.mails(to=to, kind="confirm-address")
    return re.search(r"^    CONFIRM ADDRESS (\S+)$", mail.body, re.M).group(1)


def _answer(post: Post, to: str, after: str) -> str:
    """The reply's answer to the command ``after`` (its echo line)."""
    return post.reply(to).split(f"> {after}")[1].split("\n> ")[0]


def test_set_address_waits_for_the_new_address(post: Post) -> None:
    post.world.write_game("h", game_file(players=3).replace("england@", "other@"))  # France joins h too
    post.world.tick()
    post.send(FRANCE, signon() + "SET ADDRESS paris@example.test\n")
    answer = " ".join(_answer(post, FRANCE, "SET ADDRESS paris@example.test").split())
    assert "A code to confirm the change is on its way to paris@example.test" in answer
    assert "CONFIRM ADDRESS <code>" in answer
    assert "takes every game you play on this judge: g (France), h (France, asked for)." in answer
    with post.world.services.db.sessions() as session:  # nothing moved yet
        assert session.scalar(select(Player.id).where(Player.email == "paris@example.test")) is None
    code = _code(post, "paris@example.test")
    post.send("paris@example.test", signon() + "STATUS\n")  # not yet its address
    assert "not the registered address of France" in post.reply("paris@example.test")
    post.send("forger@example.test", f"CONFIRM ADDRESS {code}\n")  # the code from any other address: no
    assert "no address change waits for forger@example.test" in post.reply("forger@example.test")
    post.world.clock.advance(timedelta(hours=2))  # an unknown address's one refusal an hour
    post.send("paris@example.test", "CONFIRM ADDRESS wrong-code-1\n")
    assert "no address change waits for paris@example.test with this code" in post.reply("paris@example.test")
    post.send("paris@example.test", f"CONFIRM ADDRESS {code}\n")
    reply = post.reply("paris@example.test")
    assert code not in reply and "> CONFIRM ADDRESS ****" in reply
    assert "Your address is now paris@example.test (it was france@example.test)" in reply and "g (France)" in reply
    post.send("paris@example.test", signon() + "STATUS\n")
    assert "Current orders for France" in post.reply("paris@example.test")
    post.send(FRANCE, signon() + "STATUS\n")
    assert "not the registered address of France" in post.reply(FRANCE)
    (told,) = [m.body for m in post.mails(to=FRANCE, kind="security") if "address has changed" in m.subject]
    assert "now paris@example.test" in " ".join(told.split())
    assert any("France has a new address" in m.subject for m in post.mails(to=GM, kind="gm-alert"))
    post.send("paris@example.test", f"CONFIRM ADDRESS {code}\n")  # once only
    assert "no address change waits" in post.reply("paris@example.test")


def test_set_address_answers_alike_and_never_takes_an_address_in_use(post: Post) -> None:
    answers = {}
    for n, address in enumerate(["free@example.test", "england@example.test", GM, "judge@example.test"]):
        post.world.clock.advance(timedelta(days=1))  # three requests a day at most
        post.send(FRANCE, signon() + f"SET ADDRESS {address}\n")
        answers[address] = _answer(post, FRANCE, f"SET ADDRESS {address}").replace(address, "<new>")
        answers[address] = re.sub(r"by \w+ \d+ \w+ \d+ \d+:\d+ \w+", "by <time>", " ".join(answers[address].split()))
    assert len(set(answers.values())) == 1, answers  # no way to tell which address plays here
    assert [m.to_address for m in post.mails(kind="confirm-address")] == ["free@example.test"]
    with post.world.services.db.sessions() as session:
        assert seat_of(find_game(session, "g"), "France").player.email == FRANCE
    post.send(FRANCE, signon() + "SET ADDRESS a@example.test\nSET ADDRESS b@example.test\nSET ADDRESS c@example.test\n")
    assert "address changes were asked for in the last day" in post.reply(FRANCE)


def test_right_and_wrong_secrets_from_another_address_are_answered_alike(post: Post) -> None:
    post.send("intruder@example.test", signon() + "STATUS\n")
    right = post.reply("intruder@example.test")
    post.world.clock.advance(timedelta(hours=2))  # an unknown address's one refusal an hour
    post.send("intruder@example.test", "SIGNON France g not-the-secret\nSTATUS\n")
    wrong = post.reply("intruder@example.test")
    assert right == wrong
    assert "wrong secret for France in g, or intruder@example.test is not the registered address of France" in right
    (notice,) = post.mails(to=FRANCE, kind="security")  # only the right one is news for France's player
    assert "intruder@example.test" in notice.body
    post.send("england@example.test", signon() + "STATUS\n")  # a player of the game: the same
    post.send("england@example.test", "SIGNON France g wrong\nSTATUS\n")
    first, second = [m.body for m in post.mails(to="england@example.test", kind="refusal")][-2:]
    assert first == second


def test_the_advice_of_the_notice_works(post: Post) -> None:
    post.send("laptop@example.test", signon() + "STATUS\n")
    (notice,) = post.mails(to=FRANCE, kind="security")
    text = " ".join(notice.body.split())
    assert "send SET ADDRESS from this address" not in text  # the old advice, always refused
    advice = re.search(r"send from this address (SIGNON France g <secret>) and (SET ADDRESS \S+?),", text)
    assert advice, text
    post.send(FRANCE, advice.group(1).replace("<secret>", secret_of("France")) + "\n" + advice.group(2) + "\n")
    post.send("laptop@example.test", f"CONFIRM ADDRESS {_code(post, 'laptop@example.test')}\n")
    post.send("laptop@example.test", signon() + "STATUS\n")
    assert "Current orders for France" in post.reply("laptop@example.test")


def test_the_game_master_hears_of_sign_ons_that_failed(post: Post) -> None:
    post.send("outsider@example.test", f"SIGNON GM g {GM_SECRET}\nPAUSE\n")
    right = post.reply("outsider@example.test")
    post.world.clock.advance(timedelta(hours=2))
    post.send("outsider@example.test", "SIGNON GM g a-guess\nPAUSE\n")
    assert post.reply("outsider@example.test") == right  # alike, right secret or wrong
    alerts = [" ".join(m.body.split()) for m in post.mails(to=GM, kind="gm-alert")]
    assert any("with the right secret from outsider@example.test" in a for a in alerts)
    assert any("tried to sign on as the game master of g from outsider@example.test" in a for a in alerts)
    for n in range(3):  # more within the hour: no more mail each (the guessing report counts them)
        post.send(f"guess{n}@example.test", f"SIGNON GM g guess-{n}\n")
    assert len(post.mails(to=GM, kind="gm-alert")) == 2


def test_eject_and_replace_tell_the_player_removed(post: Post) -> None:
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nEJECT Italy\nREPLACE France newfrance@example.test\n"
                  "REPLACE Italy england@example.test\n")
    assert "england@example.test already plays England in g" in post.reply(GM)
    for address, power in (("italy@example.test", "Italy"), (FRANCE, "France")):
        (told,) = post.mails(to=address, kind="removed")
        assert f"you no longer play {power}" in told.subject
        assert "your secret for it no longer works" in " ".join(told.body.split())
    post.send("germany@example.test", signon("Germany") + "RESIGN\n")
    assert post.mails(to="germany@example.test", kind="removed") == []  # they know


def test_secrets_have_at_least_40_bits() -> None:
    words = passwords._WORDS
    assert len(set(words)) == len(words) == 256 and all(w.isalpha() and w.islower() for w in words)
    bits = math.log2(len(words) ** passwords.WORDS_IN_SECRET * passwords._NUMBER_BELOW)
    assert bits >= 40 and abs(bits - passwords.SECRET_BITS) < 0.01
    secret = passwords.new_secret()
    assert re.fullmatch(r"([a-z]+-){4}\d{1,3}", secret), secret
