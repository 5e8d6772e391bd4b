"""Taking over a power its player left, by mail through the real intake: RESIGN, EJECT and the
missed: policy open a power; LIST shows it; JOIN <game> <power> takes it as the game's takeover:
setting says (open: at once; gm: the GM's APPROVE or REFUSE; none: not at all); the new player
gets a new secret, the board, the power's orders and only its own private press; everyone is
told, without a name while the game names nobody."""

from __future__ import annotations

import os
import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from gm.games.lifecycle import find_game, seat_of
from gm.store.models import GameStatus, Opening, SeatStatus, TakeoverRequest
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

GM = "master@example.test"
NEW = "newcomer@example.test"
FRANCE = "france@example.test"


def signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def set_takeover(post: Post, text: str) -> None:
    """Change the game's settings file (the GM's edit, read at the next tick)."""
    path = post.world.config.games_dir / "g.yaml"
    path.write_text(path.read_text().replace("press: grey\n", f"press: grey\n{text}"))
    os.utime(path, (path.stat().st_atime + 5, path.stat().st_mtime + 5))
    post.world.tick()


def flat(text: str) -> str:
    """The words of ``text`` one space apart (a long line folded reads the same)."""
    return " ".join(text.split())


def answer(post: Post, to: str, after: str) -> str:
    """The reply's answer to the command ``after`` (its echo line)."""
    return post.reply(to).split(f"> {after}")[1].split("\n> ")[0]


def takeover_mail(post: Post, to: str) -> str:
    mails = [m for m in post.mails(to=to, kind="joined")]
    assert mails, f"no takeover mail to {to}"
    return mails[-1].body


def secret_from(body: str) -> str:
    return re.search(r"Your secret for this game is:\n\n    (\S+)", body).group(1)


def resign(post: Post, power: str = "France") -> None:
    post.send(f"{power.lower()}@example.test", signon(power) + "RESIGN\n")
    assert "You have left g" in post.reply(f"{power.lower()}@example.test")


def test_a_resigned_power_is_open_and_the_gm_approves_who_takes_it(post: Post) -> None:
    post.send(FRANCE, signon("France") + "A Paris - Burgundy\nF Brest - Mid-Atlantic Ocean\n")
    resign(post)
    assert "France is open for takeover" in post.mails(to=GM, kind="gm-alert")[-1].body
    announced = post.mails(to="england@example.test", kind="open-power")
    assert len(announced) == 1 and "JOIN g France" in announced[0].body
    post.send("stranger@example.test", "LIST\nLIST g\n")
    listed = post.reply("stranger@example.test")
    assert re.search(r"g +standard +active +S1901M +\d\d \w+ \d{4} [\d:]+ CET\n +open to take over: France\n", listed)
    assert re.search(r"France +3 centres, 3 units \(vacant\); open to take over", listed)
    assert "Open to take over: France (JOIN g <power>; the game master approves each takeover)." in flat(listed)

    post.send(NEW, "JOIN g France\n")
    assert "You have asked to take over France in g" in post.reply(NEW)
    ask = post.mails(to=GM, kind="gm-alert")[-1]
    assert "newcomer@example.test asks to take over France" in ask.subject and "APPROVE newcomer@example.test" in ask.body
    assert "has not played on this judge before" in ask.body
    assert not post.mails(to=NEW, kind="joined")

    post.send(GM, f"SIGNON GM g {GM_SECRET}\nAPPROVE newcomer@example.test\n")
    assert "newcomer@example.test now plays France in g" in answer(post, GM, "APPROVE")
    welcome = takeover_mail(post, NEW)
    assert "You now play France in the game g" in welcome and "Its player resigned." in welcome
    assert "SIGNON France g " in welcome and "France (3):" in welcome and "England (3):" in welcome
    assert "Army Paris -> Burgundy" in welcome and "Still without orders: Army Marseilles" in welcome
    told = post.mails(to="england@example.test", kind="takeover")[-1].body
    assert "France has a new player." in told and "newcomer" not in told
    assert not [m for m in post.mails(to=NEW, kind="takeover")]  # its own mail, not the announcement

    secret = secret_from(welcome)
    post.send(NEW, f"SIGNON France g {secret}\nA Marseilles - Spain\n")
    reply = post.reply(NEW)
    assert "Signed on as France in g" in reply and "Army Marseilles -> Spain" in reply
    post.send(FRANCE, signon("France") + "STATUS\n")
    assert "wrong secret" in post.reply(FRANCE)
    post.send("stranger@example.test", "LIST g\n")
    assert "open to take over" not in post.reply("stranger@example.test")


def test_an_open_game_gives_the_power_at_once_and_the_mail_goes_on_as_it(post: Post) -> None:
    set_takeover(post, "takeover: open\n")
    resign(post)
    post.send(NEW, "JOIN g France\nA Paris - Burgundy\n")
    reply = post.reply(NEW)
    assert "You now play France in g." in reply and "Army Paris -> Burgundy" in reply
    assert "You now play France" in takeover_mail(post, NEW)
    post.send("other@example.test", "JOIN g France\n")
    assert "France in g has a player: only a power its player left may be taken over" in post.reply("other@example.test")


def test_none_leaves_it_to_the_gm(post: Post) -> None:
    set_takeover(post, "takeover: none\n")
    resign(post)
    assert not post.mails(to="england@example.test", kind="open-power")
    assert "REPLACE France <address>" in post.mails(to=GM, kind="gm-alert")[-1].body
    post.send(NEW, "JOIN g France\nLIST g\n")
    reply = post.reply(NEW)
    assert "only the game master gives a power a new player" in reply and "open to take over" not in reply


def test_one_power_to_a_player_and_the_gm_refuses(post: Post) -> None:
    resign(post)
    post.send("england@example.test", "JOIN g France\n")
    assert "you play England in g already" in post.reply("england@example.test")
    post.send(GM, "JOIN g France\n")
    assert "you are the game master of g, who plays no power in it" in post.reply(GM)
    post.send(NEW, "JOIN g France\n")
    post.send(NEW, "JOIN g France\n")
    assert "asked to take over France in g already" in post.reply(NEW)
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nREFUSE other@example.test\nREFUSE newcomer@example.test\n")
    reply = post.reply(GM)
    assert "no ask from other@example.test waits in g (asks waiting: newcomer@example.test for France)" in reply
    assert "newcomer@example.test has been told that it will not play France" in reply
    assert "has not accepted your ask" in post.mails(to=NEW, kind="takeover")[-1].body
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nAPPROVE newcomer@example.test\n")
    assert "no ask from newcomer@example.test waits in g (no ask waits)" in post.reply(GM)


def test_a_replace_ends_the_asks_and_whoever_asked_is_told(post: Post) -> None:
    resign(post)
    post.send(NEW, "JOIN g France\n")
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nREPLACE France chosen@example.test\n")
    assert "has given France to a new player" in post.mails(to=NEW, kind="takeover")[-1].body
    with post.world.services.db.sessions() as session:
        assert session.scalar(select(TakeoverRequest.outcome)) == "lapsed"
        assert session.scalar(select(Opening.closed_why)) == "replaced"


def test_an_ejected_power_is_open_too(post: Post) -> None:
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nEJECT Italy\n")
    assert "the game master approves each takeover" in flat(post.mails(to="england@example.test", kind="open-power")[0].body)
    post.send(NEW, "JOIN g Italy\n")
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nAPPROVE newcomer@example.test Italy\n")
    assert "Its player was removed by the game master." in takeover_mail(post, NEW)


def test_the_new_player_reads_only_its_own_private_press(post: Post) -> None:
    post.send("england@example.test", signon("England") + "PRESS TO France\nFor the old France.\nENDPRESS\n"
              "BROADCAST\nTo all.\nENDPRESS\n")
    post.send(FRANCE, signon("France") + "PRESS TO Germany\nFrom the old France.\nENDPRESS\n")
    set_takeover(post, "takeover: open\n")
    resign(post)
    post.world.clock.advance(timedelta(minutes=1))
    post.send(NEW, "JOIN g France\n")
    secret = secret_from(takeover_mail(post, NEW))
    post.world.clock.advance(timedelta(minutes=1))
    post.send("england@example.test", signon("England") + "PRESS TO France\nFor the new France.\nENDPRESS\n")
    post.send(NEW, f"SIGNON France g {secret}\nHISTORY\n")
    history = post.reply(NEW)
    assert "To all." in history and "For the new France." in history
    assert "For the old France." not in history and "From the old France." not in history
    post.send("germany@example.test", signon("Germany") + "HISTORY\n")
    assert "From the old France." in post.reply("germany@example.test")


def test_a_player_who_stops_sending_orders_opens_the_power_and_may_come_back(post: Post) -> None:
    set_takeover(post, "missed: {policy: civil-disorder, after: 1}\n")
    _process(post.world)  # nobody ordered: every power is in civil disorder, and open
    post.send("stranger@example.test", "LIST\n")
    assert "open to take over: Austria, England, France, Germany, Italy, Russia, Turkey" in flat(
        post.reply("stranger@example.test"))
    post.send(NEW, "JOIN g France\n")
    assert "asked to take over France" in post.reply(NEW)
    post.send(FRANCE, signon("France") + "A Paris - Burgundy\n")
    _process(post.world)  # France is back: its ask lapses
    assert "France in g is played by its player again" in post.mails(to=NEW, kind="takeover")[-1].body
    post.send(NEW, "JOIN g Italy\n")
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nAPPROVE newcomer@example.test\n")
    assert "Its player stopped sending orders." in takeover_mail(post, NEW)
    assert "you no longer play Italy" in post.mails(to="italy@example.test", kind="removed")[-1].subject
    with post.world.services.db.sessions() as session:
        seat = seat_of(find_game(session, "g"), "Italy")
        assert seat.player.email == NEW and seat.status == SeatStatus.ACTIVE


def test_a_game_that_waits_for_a_player_goes_on_once_one_takes_it(post: Post) -> None:
    set_takeover(post, "missed: {policy: wait-for-replacement, after: 1}\ntakeover: open\n")
    for power in ("Austria", "England", "Germany", "Italy", "Russia", "Turkey"):
        post.send(f"{power.lower()}@example.test", signon(power) + "HELP\n")
    with post.world.services.db.unit_of_work() as session:  # everyone but France ordered
        game = find_game(session, "g")
        for seat in game.seats:
            seat.missed_in_row = 0
    for power, order in (("Austria", "A Vienna H"), ("England", "F London H"), ("Germany", "A Berlin H"),
                         ("Italy", "A Rome H"), ("Russia", "A Moscow H"), ("Turkey", "A Smyrna H")):
        post.send(f"{power.lower()}@example.test", signon(power) + order + "\n")
    _process(post.world)
    with post.world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.status == GameStatus.PAUSED and game.paused_reason == "waiting for a replacement for France"
    post.send(NEW, "JOIN g France\n")
    assert "You now play France in g." in post.reply(NEW)
    with post.world.services.db.sessions() as session:
        assert find_game(session, "g").status == GameStatus.ACTIVE
    assert post.mails(to="england@example.test", kind="resume")
    welcome = takeover_mail(post, NEW)
    assert "Deadline: " in welcome and "stand by" not in welcome  # the game's new deadline


def _process(world: World) -> None:
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        seq = game.phase_seq
        world.clock.set(game.deadline + timedelta(seconds=1))
    world.tick()
    with world.services.db.sessions() as session:
        assert find_game(session, "g").phase_seq == seq + 1


@pytest.mark.parametrize("word", ["JOIN g", "JOIN g Atlantis"])
def test_a_started_game_says_what_may_be_taken(post: Post, word: str) -> None:
    resign(post)
    post.send(NEW, f"{word}\n")
    assert "(open now: France)" in post.reply(NEW)
