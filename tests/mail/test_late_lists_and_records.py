"""Late lists and the record of deadlines kept, by mail through the real intake: once a deadline
passes with orders missing, late: everyone tells every player, observer and the GM which powers
are late (late-only: the late powers, each of its own, and the GM); each seat's deadlines kept,
late (in only in the grace) and missed are shown by LIST <game>, SUMMARY and the GM's STATUS,
per player and across the games of the judge; a phase rolled back no longer counts."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from gm.games.lifecycle import find_game
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.mail.test_takeover import answer, flat, secret_from, set_takeover, takeover_mail
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

GM = "master@example.test"
WATCHER = "watcher@example.test"


def signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def _to_deadline(world: World, after: timedelta = timedelta(seconds=1)) -> None:
    with world.services.db.sessions() as session:
        world.clock.set(find_game(session, "g").deadline + after)
    world.tick()


def _processed(world: World) -> None:
    """Jump to each moment due until the phase is processed."""
    with world.services.db.sessions() as session:
        seq = find_game(session, "g").phase_seq
    for _ in range(10):
        with world.services.db.sessions() as session:
            game = find_game(session, "g")
            if game.phase_seq != seq:
                return
            assert game.due_at is not None, (game.status, game.paused_reason)
            world.clock.set(max(world.clock.now(), game.due_at))
        world.tick()
    raise AssertionError(f"not processed: {game.status} {game.due_at} {game.deadline} {game.notices}")


@pytest.fixture
def graced(post: Post) -> Post:
    set_takeover(post, f"grace: 12h\nobservers: [{WATCHER}]\n")
    post.send("france@example.test", signon("France") + "A Paris H\nA Marseilles H\nF Brest H\n")
    return post


def test_everyone_is_told_who_is_late(graced: Post) -> None:
    post = graced
    _to_deadline(post.world)
    late = "Austria, England, Germany, Italy, Russia, Turkey"
    (own,) = post.mails(to="england@example.test", kind="late")
    assert "Your orders for England in g are late" in own.body and f"Late now: {late}." in flat(own.body)
    assert not post.mails(to="france@example.test", kind="late")
    for reader in ("france@example.test", GM, WATCHER):
        (listed,) = post.mails(to=reader, kind="late-list")
        assert f"Late: {late}." in flat(listed.body) and "Spring 1901 movement" in flat(listed.body)
        assert listed.subject == f"gm: g: late: {late}"
    assert not post.mails(to="england@example.test", kind="late-list")


def test_late_only_tells_the_late_and_the_gm(graced: Post) -> None:
    post = graced
    set_takeover(post, "late: late-only\n")
    _to_deadline(post.world)
    (own,) = post.mails(to="england@example.test", kind="late")
    assert "Your orders for England in g are late" in own.body and "Late now" not in own.body
    assert not post.mails(to="france@example.test", kind="late-list")
    assert not post.mails(to=WATCHER, kind="late-list")
    assert len(post.mails(to=GM, kind="late-list")) == 1


def test_a_power_without_a_player_is_late_too(graced: Post) -> None:
    post = graced
    post.send("italy@example.test", signon("Italy") + "RESIGN\n")
    _to_deadline(post.world)
    (listed,) = post.mails(to="france@example.test", kind="late-list")
    assert "Italy (no player)" in flat(listed.body)


def test_deadlines_kept_late_and_missed_are_counted_and_shown(graced: Post) -> None:
    post = graced
    _to_deadline(post.world)
    post.send("germany@example.test", signon("Germany") + "A Berlin H\n")  # in the grace: late
    _processed(post.world)  # Spring 1901
    post.send("stranger@example.test", "LIST g\n")
    listed = post.reply("stranger@example.test")
    assert re.search(r"France +3 centres, 3 units; deadlines: 1 kept, 0 missed", listed)
    assert re.search(r"Germany +3 centres, 3 units; deadlines: 0 kept, 1 late, 0 missed", listed)
    assert re.search(r"Austria +3 centres, 3 units; deadlines: 0 kept, 1 missed", listed)

    set_takeover(post, "takeover: open\n")
    post.send("france@example.test", signon("France") + "RESIGN\n")
    post.send("newcomer@example.test", "JOIN g France\n")
    secret = secret_from(takeover_mail(post, "newcomer@example.test"))
    post.send("newcomer@example.test", f"SIGNON France g {secret}\nA Paris H\n")
    _processed(post.world)  # Fall 1901

    post.send("stranger@example.test", "SUMMARY g\n")
    summary = flat(answer(post, "stranger@example.test", "SUMMARY g"))
    assert "Summary of g: Standard Diplomacy, active, Spring 1902 movement." in summary
    assert "France (" not in summary  # a player again
    assert ("France: its first player, from the start to Fall 1901 movement (resigned): 1 kept, 0 missed its "
            "second player, from Fall 1901 movement: 1 kept, 0 missed") in summary
    assert "Germany: its player, from the start: 0 kept, 1 late, 1 missed" in summary
    assert "Players are named once the game is over." in summary
    assert "example.test" not in summary

    post.send(GM, f"SIGNON GM g {GM_SECRET}\nSTATUS\nSUMMARY\n")
    status = flat(answer(post, GM, "STATUS"))
    assert ("France newcomer@example.test, active here: 1 kept, 0 missed on this judge: 1 kept, 0 missed "
            "in 1 game") in status
    assert ("Germany germany@example.test, active here: 0 kept, 1 late, 1 missed on this judge: 0 kept, 1 late, "
            "1 missed in 1 game") in status
    for mail in post.mails():  # every reply and mail of the scenario fits 72 columns
        assert all(len(line) <= 72 or line.startswith("ERROR:") for line in mail.body.splitlines()), mail.body
    gm_summary = flat(answer(post, GM, "SUMMARY"))
    # a player who gave no name is named by its address, where players are named (to the GM here)
    assert "France: france@example.test, from the start to Fall 1901 movement (resigned)" in gm_summary


def test_the_gm_sees_a_players_record_across_the_judge(graced: Post) -> None:
    post = graced
    post.world.write_game("h", game_file().replace("england@", "other@"))  # France plays in h too
    post.world.tick()
    _to_deadline(post.world)
    _processed(post.world)
    post.send("france@example.test", signon("France") + "RESIGN\n")
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nSTATUS\n")
    status = flat(answer(post, GM, "STATUS"))
    assert "England england@example.test, active here: 0 kept, 1 missed on this judge: 0 kept, 1 missed in 1 game" \
        in status
    assert "France no player" in status
    assert "Open powers: France: open to everyone (the game master approves each takeover)" in status
    assert "Standing by: 0 for g, 0 for any game." in status
    post.send("newcomer@example.test", "JOIN g France\n")
    ask = flat(post.mails(to=GM, kind="gm-alert")[-1].body)
    assert "has not played on this judge before" in ask
    post.send("france@example.test", "JOIN g France\n")  # who left it asks for it back
    ask = flat(post.mails(to=GM, kind="gm-alert")[-1].body)
    assert ("On this judge france@example.test has played in 2 games: deadlines 1 kept, 1 missed; left 1 before "
            "the end.") in ask


def test_a_phase_rolled_back_no_longer_counts(graced: Post) -> None:
    post = graced
    _to_deadline(post.world)
    _processed(post.world)
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nROLLBACK S1901M\n")
    post.send("stranger@example.test", "LIST g\n")
    listed = post.reply("stranger@example.test")
    assert re.search(r"France +3 centres, 3 units; deadlines: none yet", listed)


def test_a_summary_before_the_start_and_of_no_game(post: Post) -> None:
    post.world.write_game("h", game_file(players=3))
    post.world.tick()
    post.send("stranger@example.test", "SUMMARY h\nSUMMARY nosuch\nSUMMARY\n")
    reply = post.reply("stranger@example.test")
    assert "Summary of h: Standard Diplomacy, forming." in reply and "It has not started: no deadline yet." in reply
    assert "there is no game 'nosuch'" in reply and "ERROR: sign on first" in reply


def test_the_end_names_the_players(post: Post) -> None:
    with post.world.services.db.unit_of_work() as session:
        for seat in find_game(session, "g").seats:
            seat.player.name = f"Player of {seat.power}"
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nTERMINATE enough\n")
    post.send("stranger@example.test", "SUMMARY g\n")
    summary = flat(answer(post, "stranger@example.test", "SUMMARY g"))
    assert "France: Player of France, from the start: none yet" in summary
    assert "Players are named" not in summary
