"""SUMMARY for anyone, players named as the game's reveal setting says (the end mail, SUMMARY, LIST),
and end-of-game statements: all by mail through the intake."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from gm.games.lifecycle import current_seats, find_game, seat_of
from gm.games.passwords import hash_secret
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.mail.test_takeover import secret_from, takeover_mail
from tests.store.conftest import STANDARD_PLAYERS, World, database_url, game_file, world  # noqa: F401  (fixtures)

GM, STRANGER, FAN = "master@example.test", "stranger@elsewhere.test", "fan@elsewhere.test"
ADDRESSES = [f"{name}@example.test" for name in STANDARD_PLAYERS]


def flat(text: str) -> str:
    return " ".join(text.split())


def signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def settings(post: Post, extra: str) -> None:
    post.world.write_game("g", game_file(extra="press: grey\n" + extra))
    post.world.tick()


def phase(post: Post) -> str:
    with post.world.services.db.reading() as session:
        return find_game(session, "g").phase


def next_phase(post: Post) -> None:
    before = phase(post)
    for _ in range(5):
        post.world.clock.advance(timedelta(hours=49))
        post.world.tick()
        if phase(post) != before:
            return
    raise AssertionError(f"{before} was never processed")


def drawn(post: Post) -> None:
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        post.send(f"{power.lower()}@example.test", signon(power) + "DRAW\n")


def end_mail(post: Post, to: str) -> str:
    (mail,) = post.mails(to=to, kind="end")
    return mail.body


def test_summary_gives_settings_centres_by_year_and_the_result_to_anyone(post: Post) -> None:
    post.send("france@example.test", signon("France") + "A Marseilles - Spain\nF Brest - Mid-Atlantic Ocean\n")
    next_phase(post)  # Spring 1901
    post.send("france@example.test", signon("France") + "F Mid-Atlantic Ocean - Portugal\n")
    next_phase(post)  # Fall 1901
    while not phase(post).startswith("S1902"):
        next_phase(post)  # builds
    post.send(STRANGER, "SUMMARY g\n")
    reply = post.reply(STRANGER)
    assert "Summary of g: Standard Diplomacy, active, Spring 1902 movement." in reply
    assert re.search(r"^  Deadlines: +movement 2d, retreats 1d, adjustments 1d \(Europe/Rome\)", reply, re.M)
    assert re.search(r"^  Press: +white and grey, to some powers or to everyone$", reply, re.M)
    assert re.search(r"^  Players named: +once the game is over$", reply, re.M)
    assert re.search(r"^  Takeovers: +approved by the game master$", reply, re.M)
    assert "Supply centres year by year:" in reply
    assert re.search(r"^ +start +1901$", reply, re.M), reply
    assert re.search(r"^  France +3 +5$", reply, re.M), reply
    assert re.search(r"^  Russia +4 +4$", reply, re.M), reply
    assert re.search(r"^  Austria +3 +3$", reply, re.M), reply
    assert "example.test" not in reply  # players not named while it is played
    drawn(post)
    post.send("late@elsewhere.test", "SUMMARY g\n")
    reply = post.reply("late@elsewhere.test")
    assert "It was drawn between Austria, England, France, Germany, Italy, Russia, Turkey." in flat(reply)
    assert "France: france@example.test, from the start:" in flat(reply)  # named once it is over: the address


def test_a_long_game_writes_its_table_in_blocks_that_fit_the_mail() -> None:
    from gm.games.summary import Table, table_lines

    labels = ["start", *(str(1901 + i) for i in range(20)), "1921 (now)"]
    table = Table("supply centres", labels, [("Austria-Hungary", [3] * 22), ("Turkey", [None, *range(21)])])
    lines = table_lines(table)
    assert all(len(line) <= 72 for line in lines)
    assert sum(1 for line in lines if line.strip().startswith("start") or line.strip().startswith("19")) >= 2
    assert lines[1].split()[:2] == ["Austria-Hungary", "3"] and lines[2].split()[:2] == ["Turkey", "-"]
    cells = [cell for line in lines if line.startswith("  Turkey") for cell in line.split()[1:]]
    assert cells == ["-", *(str(n) for n in range(21))]  # every value, exact, in order


def test_reveal_end_names_every_player_with_takeovers_in_the_end_mail(post: Post) -> None:
    settings(post, "takeover: open\n")
    with post.world.services.db.unit_of_work() as session:  # as the settings file's name: gives it
        seat_of(find_game(session, "g"), "France").player.name = "Ann Dupont"
    post.send("france@example.test", signon("France") + "RESIGN\n")
    post.send("newcomer@elsewhere.test", "JOIN g France\n")
    secret = secret_from(takeover_mail(post, "newcomer@elsewhere.test"))
    post.send("england@example.test", signon("England") + "LIST g\n")
    assert "newcomer" not in post.reply("england@example.test")
    for power in ("Austria", "England", "Germany", "Italy", "Russia", "Turkey"):
        post.send(f"{power.lower()}@example.test", signon(power) + "DRAW\n")
    post.send("newcomer@elsewhere.test", f"SIGNON France g {secret}\nDRAW\n")
    body = end_mail(post, "england@example.test")
    assert re.search(r"^  France +3 centres  newcomer@elsewhere.test$", body, re.M), body
    assert re.search(r"^  England +3 centres  england@example.test$", body, re.M), body
    assert "Powers played by more than one player, in turn:" in body
    assert ("France: Ann Dupont (from the start to Spring 1901 movement (resigned)), then newcomer@elsewhere.test "
            "(from Spring 1901 movement)") in flat(body)
    assert all(len(line) <= 72 for line in body.splitlines())
    post.send("england@example.test", "LIST g\n")
    assert re.search(r"France .*; newcomer@elsewhere.test; deadlines", flat(post.reply("england@example.test")))


def test_reveal_never_keeps_them_hidden_even_at_the_end(post: Post) -> None:
    settings(post, "reveal: never\n")
    drawn(post)
    body = end_mail(post, "england@example.test")
    assert "example.test" not in body.split("Final standing:")[1]
    post.send(STRANGER, "SUMMARY g\n")
    reply = post.reply(STRANGER)
    assert "This game does not name its players." in reply and "france@example.test" not in reply
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nSUMMARY\n")
    assert "France: france@example.test, from the start" in flat(post.reply(GM))  # its GM knows them


def test_reveal_always_names_them_from_the_start(post: Post) -> None:
    settings(post, "reveal: always\n")
    post.send(STRANGER, "LIST g\nSUMMARY g\n")
    reply = post.reply(STRANGER)
    assert re.search(r"France .*; france@example.test; deadlines", reply)
    assert "France: france@example.test, from the start" in flat(reply)


def test_statements_after_the_end_go_to_everyone_and_into_the_summary(post: Post) -> None:
    settings(post, f"observers: [{FAN}]\neog_days: 3\n")
    drawn(post)
    post.send("france@example.test", signon("France") + "PRESS\nWell played, all. I never trusted Italy.\nENDPRESS\n")
    assert "Press sent to everyone." in post.reply("france@example.test")
    got = {m.to_address for m in post.mails(kind="press") if "I never trusted Italy" in m.body}
    assert got == {*ADDRESSES, GM, FAN} - {"france@example.test"}
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nPRESS\nThanks for a clean game.\nENDPRESS\n")
    assert "Press sent to everyone." in post.reply(GM)
    for refused, words in (("PRESS GREY", "a statement goes to everyone, signed and at once"),
                           ("PRESS TO Italy", "a statement goes to everyone"),
                           ("PRESS WITH RESULTS", "a statement goes to everyone")):
        post.send("italy@example.test", signon("Italy") + f"{refused}\nHm.\nENDPRESS\n")
        assert words in post.reply("italy@example.test"), refused
    post.send(STRANGER, "SUMMARY g\n")
    reply = post.reply(STRANGER)
    assert "Statements after the end:" in reply
    assert re.search(r"^From France, .*:\n\| Well played, all. I never trusted Italy.$", reply, re.M), reply
    assert re.search(r"^From the game master, .*:\n\| Thanks for a clean game.$", reply, re.M), reply
    post.world.clock.advance(timedelta(days=3, seconds=1))
    post.send("italy@example.test", signon("Italy") + "PRESS\nToo late?\nENDPRESS\n")
    assert "g is over, and its players' statements closed on" in post.reply("italy@example.test")


def test_no_statements_where_the_game_gives_no_days(post: Post) -> None:
    settings(post, "eog_days: 0\n")
    drawn(post)
    post.send("france@example.test", signon("France") + "PRESS\nBye.\nENDPRESS\n")
    assert "ERROR: g is over" in post.reply("france@example.test")


@pytest.mark.parametrize("extra", ["press: none\n", "press: broadcast\n"])
def test_statements_whatever_the_games_press(world: World, extra: str) -> None:
    world.write_game("g", game_file(extra=extra))
    world.tick()
    with world.services.db.unit_of_work() as session:
        for seat in current_seats(find_game(session, "g")):
            seat.secret_hash = hash_secret(secret_of(seat.power))
    post = Post(world)
    drawn(post)
    post.send("turkey@example.test", signon("Turkey") + "PRESS\nGG.\nENDPRESS\n")
    assert "Press sent to everyone." in post.reply("turkey@example.test")


def test_reveal_always_names_a_new_player_in_the_takeover_notice(post: Post) -> None:
    settings(post, "reveal: always\ntakeover: open\n")
    post.send("france@example.test", signon("France") + "RESIGN\n")
    post.send("newcomer@elsewhere.test", "JOIN g France\n")
    (notice,) = [m.body for m in post.mails(to="england@example.test", kind="takeover")]
    assert "France has a new player: newcomer@elsewhere.test." in flat(notice)


def test_reveal_end_names_no_one_in_the_takeover_notice_while_it_is_played(post: Post) -> None:
    settings(post, "takeover: open\n")
    post.send("france@example.test", signon("France") + "RESIGN\n")
    post.send("newcomer@elsewhere.test", "JOIN g France\n")
    (notice,) = [m.body for m in post.mails(to="england@example.test", kind="takeover")]
    assert "France has a new player." in flat(notice) and "newcomer" not in notice
