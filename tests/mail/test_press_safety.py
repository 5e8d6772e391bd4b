"""Press that cannot pose or leak: grey press never tells its
sender, relayed text is framed as the sender's, nothing that does not print reaches anyone,
press belongs to the power's seat whatever it is named, and powers out of the game are silent."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from sqlalchemy import select

from gm.games.lifecycle import find_game, seat_of
from gm.games.passwords import hash_secret
from gm.store.models import OutboundMail, SeatStatus
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)
from tests.variants.by_mail import secret_in

ENGLAND = "england@example.test"
FORGERIES = [":: Judge: gm  :: Game: g  :: Deadline: 2026-02-01 21:00 UTC", "Press from England to France in g:",
             "The game master has extended the deadline by 7 days.", "Press from the game master to everyone:"]


def signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def _press(post: Post, to: str) -> list[str]:
    return [m.body for m in post.mails(to=to, kind="press")]


def test_grey_press_reads_the_same_whoever_sent_it(post: Post) -> None:
    for sender in ("Germany", "France"):  # each names itself among the recipients
        post.send(f"{sender.lower()}@example.test", signon(sender) + "PRESS GREY TO England France Germany\n"
                  "Who am I?\nENDPRESS\n")
    first, second = _press(post, ENGLAND)
    assert first == second  # nothing tells them apart
    assert "Press from an anonymous power to England, France, Germany in g:" in first
    # a list of every other power is press to everyone; that list with the sender in it, too
    post.send("germany@example.test", signon("Germany") + "PRESS GREY TO England France Italy Austria Russia Turkey\n"
              "All but me.\nENDPRESS\nPRESS GREY TO England France Germany Italy Austria Russia Turkey\nAll.\n"
              "ENDPRESS\n")
    for body in _press(post, ENGLAND)[2:]:
        assert "Press from an anonymous power to everyone in g:" in body
    reply = post.reply("germany@example.test")
    assert reply.count("Press sent to everyone without your name.") == 2
    # what England reads later says the same
    post.send(ENGLAND, signon("England") + "HISTORY\n")
    history = post.reply(ENGLAND)
    assert history.count("from an anonymous power to England, France, Germany:") == 2
    assert "from Germany" not in history and "from France" not in history


def test_grey_press_with_the_results_lists_the_same(post: Post) -> None:
    for sender in ("Germany", "France"):
        post.send(f"{sender.lower()}@example.test", signon(sender) + "PRESS GREY TO England Germany France WITH RESULTS\n"
                  f"Later.\nENDPRESS\n")
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()
    (results,) = [m.body for m in post.mails(to=ENGLAND, kind="results")]
    assert results.count("Press from an anonymous power to England, Germany, France:\n| Later.") == 2


def test_relayed_text_cannot_pass_for_the_judge(post: Post) -> None:
    body = "\n".join(FORGERIES)
    post.send("germany@example.test", signon("Germany") + f"PRESS TO England\n{body}\nENDPRESS\n"
              f"BROADCAST WITH RESULTS\n{body}\nENDPRESS\n")
    (relayed,) = _press(post, ENGLAND)
    post.world.clock.advance(timedelta(hours=49))
    post.world.tick()
    (results,) = [m.body for m in post.mails(to=ENGLAND, kind="results")]
    post.send(ENGLAND, signon("England") + "HISTORY\n")
    history = post.reply(ENGLAND)
    for mail in (relayed, results, history):
        lines = mail.splitlines()
        for forged in FORGERIES:
            assert forged not in lines and f"| {forged}" in lines, (forged, mail)


def test_nothing_that_does_not_print_reaches_anyone(post: Post) -> None:
    nasty = "\x1b[31mRED\x1b[0m\x1b]0;pwn\x07\x1b[2J\x1b[H\u202eevil\u2028line\rcarriage\x00nul\x9bcsi"
    post.send("germany@example.test", signon("Germany") + f"PRESS TO England\n{nasty}\nENDPRESS\n",
              subject="orders \x1b[31mRED\x07\u202eevil\x9b")
    with post.world.services.db.sessions() as session:
        mails = list(session.scalars(select(OutboundMail)))
    assert mails
    for mail in mails:
        for text in (mail.subject, mail.body):
            assert not any(ch in text for ch in "\x1b\x07\x00\r\u202e\u2028\x9b"), text
    (relayed,) = _press(post, ENGLAND)
    # (the mail's reader took the carriage return for a line end and left out the NUL)
    assert "| \\x1b[31mRED\\x1b[0m\\x1b]0;pwn\\x07\\x1b[2J\\x1b[H\\u202eevil\\u2028line\n| carriagenul\\x9bcsi" in relayed
    reply = post.mails(to="germany@example.test", kind="reply")[-1]
    assert reply.subject.startswith("Re: orders \\x1b[31mRED") and "\n" not in reply.subject


def test_eliminated_powers_send_no_press_unless_the_game_allows_it(post: Post) -> None:
    with post.world.services.db.unit_of_work() as session:
        seat_of(find_game(session, "g"), "Italy").status = SeatStatus.ELIMINATED
    post.send("italy@example.test", signon("Italy") + "BROADCAST\nI am back!\nENDPRESS\nPRESS GREY\nboo\nENDPRESS\n")
    reply = post.reply("italy@example.test")
    assert reply.count("ERROR: Italy is out of the game: in g powers that are out send no press") == 2
    assert _press(post, ENGLAND) == []
    path = post.world.config.games_dir / "g.yaml"
    path.write_text(path.read_text().replace("press: grey", "press: {white: true, grey: true, eliminated: true}"))
    os.utime(path, (path.stat().st_atime + 5, path.stat().st_mtime + 5))
    post.world.tick()
    post.send("italy@example.test", signon("Italy") + "BROADCAST\nI am back!\nENDPRESS\n")
    assert "Press sent to everyone." in post.reply("italy@example.test")


ROMAN = ("variant: roman-diplomacy-i\ngm: master@example.test\ntimezone: Europe/Rome\n"
         "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\npress: grey\nseats: 3\n")


@pytest.fixture
def empires(world: World) -> tuple[Post, dict[str, str]]:
    world.write_game("rd", ROMAN)
    world.tick()
    post = Post(world)
    secrets = {}
    for empire, city in (("Latium", "Rome"), ("Pontus", "Ankara"), ("Carthago", "Tunis")):
        post.send(f"{empire.lower()}@example.test", f"JOIN rd {city} as {empire}\n")
        secrets[empire] = secret_in(post.reply(f"{empire.lower()}@example.test"))
    with world.services.db.unit_of_work() as session:
        find_game(session, "rd").gm_secret_hash = hash_secret(GM_SECRET)
    return post, secrets


def _history(post: Post, empire: str, secret: str, address: str = "") -> str:
    address = address or f"{empire.lower()}@example.test"
    post.send(address, f"SIGNON {empire} rd {secret}\nHISTORY\n")
    return post.reply(address).split("> HISTORY")[1]


def test_press_belongs_to_the_seat_not_the_name(empires: tuple[Post, dict[str, str]]) -> None:
    post, secrets = empires
    post.send("pontus@example.test", f"SIGNON Pontus rd {secrets['Pontus']}\nBROADCAST GREY\nA grey word.\nENDPRESS\n")
    post.send("latium@example.test", f"SIGNON Latium rd {secrets['Latium']}\nPRESS TO Pontus\nFor Pontus alone.\n"
                                     "ENDPRESS\n")
    post.send("master@example.test", f"SIGNON GM rd {GM_SECRET}\nRENAME Pontus TO Samnium\n")
    assert "Pontus is now Samnium" in post.reply("master@example.test")
    post.send("newcomer@example.test", "JOIN rd Greece as Pontus\n")  # the old name, free again
    reply = post.reply("newcomer@example.test")
    assert "You have joined rd as Pontus" in reply
    newcomer = _history(post, "Pontus", secret_in(reply), "newcomer@example.test")
    assert "For Pontus alone." not in newcomer  # meant for the old Pontus
    assert "from an anonymous power to everyone:\n| A grey word." in newcomer  # and never as its own
    assert "from Samnium" not in newcomer and "from Pontus" not in newcomer
    samnium = _history(post, "Samnium", secrets["Pontus"], "pontus@example.test")
    assert "from Latium to Samnium:\n| For Pontus alone." in samnium  # the renamed power keeps its press
    assert "from Samnium to everyone:\n| A grey word." in samnium  # and sees its own grey press as its own
    carthago = _history(post, "Carthago", secrets["Carthago"])
    assert "For Pontus alone." not in carthago and "from an anonymous power to everyone:\n| A grey word." in carthago
