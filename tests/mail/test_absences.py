"""Absences by mail: SET ABSENCE within the game's limits holds every deadline inside it to its
end (a chain of absences, a weekday, the next phase's deadline too), everyone is told, a player
or the GM cancels one; dates are read in the player's own zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

FRANCE, ENGLAND, GM = "france@example.test", "england@example.test", "master@example.test"
LIMITS = "absences: {max: 14d, per_player: 2}\n"
# The clock starts on Mon 5 Jan 2026 12:00 UTC; the game (Europe/Rome, UTC+1) is due 48 hours later.
FIRST_DEADLINE = datetime(2026, 1, 7, 12, 0, tzinfo=UTC)


def started(world: World, extra: str = LIMITS, weekdays: bool = False) -> Post:
    text = game_file(extra=extra)
    if weekdays:
        text = text.replace("adjustments: 24h}", "adjustments: 24h, weekdays: [mon, tue, wed, thu, fri]}")
    world.write_game("g", text)
    world.tick()
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        game.gm_secret_hash = hash_secret(GM_SECRET)
        for seat in current_seats(game):
            seat.secret_hash = hash_secret(secret_of(seat.power))
    return Post(world)


def signon(power: str) -> str:
    return f"SIGNON {power} g {secret_of(power)}\n"


def deadline(post: Post) -> datetime:
    with post.world.services.db.sessions() as session:
        return find_game(session, "g").deadline


def answer(post: Post, to: str) -> str:
    """The last reply, its lines joined (the judge folds long lines at 72 columns)."""
    return " ".join(post.reply(to).split())


def told(post: Post) -> list[str]:
    return sorted({m.to_address for m in post.mails(kind="deadline")})


def test_a_game_that_allows_none_refuses_an_absence_and_says_so(world: World) -> None:
    post = started(world, extra="")
    post.send(FRANCE, signon("France") + "SET ABSENCE 2026-01-06 2026-01-08\n")
    reply = answer(post, FRANCE)
    assert "ERROR: g allows no absences" in reply and "absences: in its settings" in reply
    assert deadline(post) == FIRST_DEADLINE and not post.mails(kind="deadline")


def test_an_absence_over_the_deadline_holds_it_to_its_end_and_everyone_is_told(world: World) -> None:
    post = started(world)
    post.send(FRANCE, signon("France") + "SET ABSENCE 2026-01-06 TO 2026-01-09\n")
    reply = answer(post, FRANCE)
    assert "Your absence from Tue 06 Jan 2026 00:00 CET (Europe/Rome) to Sat 10 Jan 2026 00:00 CET" in reply
    assert "(1 of the 2 you may take in g)" in reply and "moves to Sat 10 Jan 2026 00:00 CET" in reply
    # the last day is away too: held to the start of the day after, on the player's clock
    assert deadline(post) == datetime(2026, 1, 9, 23, 0, tzinfo=UTC)
    everyone = {f"{p}@example.test" for p in ("austria", "england", "france", "germany", "italy", "russia", "turkey")}
    assert told(post) == sorted(everyone | {GM})
    notice = " ".join(post.mails(to=ENGLAND, kind="deadline")[0].body.split())
    assert "held for a player's absence" in notice and "France" not in notice
    alert = " ".join([m for m in post.mails(to=GM, kind="gm-alert") if "absent" in m.subject][0].body.split())
    assert "The player of France will be away" in alert and "CANCEL ABSENCE France" in alert


def test_an_absence_that_ends_before_the_deadline_moves_nothing(world: World) -> None:
    post = started(world)
    post.send(FRANCE, signon("France") + "SET ABSENCE 2026-01-05 2026-01-06 18:00\n")
    reply = answer(post, FRANCE)
    assert "Your absence from Mon 05 Jan 2026 13:00 CET" in reply  # begun already: from now
    assert "moves to" not in reply and deadline(post) == FIRST_DEADLINE and not post.mails(kind="deadline")


def test_overlapping_absences_of_two_players_hold_the_deadline_through_both(world: World) -> None:
    post = started(world)
    post.send(FRANCE, signon("France") + "SET ABSENCE 2026-01-06 2026-01-08\n")  # to Fri 9 Jan 00:00 Rome
    assert deadline(post) == datetime(2026, 1, 8, 23, 0, tzinfo=UTC)
    post.send(ENGLAND, signon("England") + "SET ABSENCE 2026-01-08 2026-01-11\n")  # to Mon 12 Jan 00:00
    assert "moves to Mon 12 Jan 2026 00:00 CET" in answer(post, ENGLAND)
    assert deadline(post) == datetime(2026, 1, 11, 23, 0, tzinfo=UTC)
    post.send(ENGLAND, signon("England") + "CANCEL ABSENCE\n")
    assert "Your absence from Thu 08 Jan 2026 00:00 CET" in answer(post, ENGLAND)
    assert deadline(post) == datetime(2026, 1, 8, 23, 0, tzinfo=UTC)  # France's still holds it


def test_a_deadline_the_gm_sets_inside_an_absence_is_held_and_the_gm_may_cancel_it(world: World) -> None:
    post = started(world)
    post.send(FRANCE, signon("France") + "SET ABSENCE 2026-01-09 2026-01-12\n")
    assert deadline(post) == FIRST_DEADLINE  # not yet inside it
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nSET DEADLINE 2026-01-10 21:00\n")
    reply = answer(post, GM)
    assert "now Tue 13 Jan 2026 00:00 CET" in reply and "falls inside a player's absence" in reply
    assert deadline(post) == datetime(2026, 1, 12, 23, 0, tzinfo=UTC)
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nCANCEL ABSENCE France\n")
    assert "The absence of France from Fri 09 Jan 2026 00:00 CET" in answer(post, GM)
    assert deadline(post) == datetime(2026, 1, 10, 20, 0, tzinfo=UTC)  # the GM's own again
    cancelled = " ".join(post.mails(to=FRANCE, kind="absence")[0].body.split())
    assert "has cancelled your absence" in cancelled


def test_a_cancelled_absence_never_brings_the_deadline_nearer_than_a_day(world: World) -> None:
    post = started(world)
    post.send(FRANCE, signon("France") + "SET ABSENCE 2026-01-06 2026-01-12\n")
    world.clock.advance(timedelta(days=3))  # Thu 8 Jan 12:00 UTC: the schedule's deadline is past
    post.send(FRANCE, signon("France") + "CANCEL ABSENCE 2026-01-06\n")
    assert deadline(post) == datetime(2026, 1, 9, 12, 0, tzinfo=UTC)
    assert "The deadline of this phase is now Fri 09 Jan 2026 13:00 CET" in answer(post, FRANCE)


@pytest.mark.parametrize("body, fragment", [
    ("SET ABSENCE 2026-01-06 2026-01-20\n", "that absence is 15d long: g allows absences of 14d at most, 2 a player"),
    ("SET ABSENCE 2026-01-06\n", "write SET ABSENCE <from YYYY-MM-DD [HH:MM]> [TO] <to YYYY-MM-DD [HH:MM]>"),
    ("SET ABSENCE 2026-01-09 2026-01-06\n", "an absence must end after it starts, and in the future"),
    ("SET ABSENCE 2026-02-30 2026-03-02\n", "day is out of range for month"),
    ("SET ABSENCE next week\n", "'next': write SET ABSENCE"),
    ("CANCEL ABSENCE\n", "France has no absence to cancel"),
    ("CANCEL HOLIDAY\n", "write CANCEL ABSENCE"),
])
def test_what_is_refused_is_said(world: World, body: str, fragment: str) -> None:
    post = started(world)
    post.send(FRANCE, signon("France") + body)
    assert fragment in answer(post, FRANCE)
    assert deadline(post) == FIRST_DEADLINE


def test_a_player_takes_as_many_absences_as_the_game_allows_and_no_overlapping_one(world: World) -> None:
    post = started(world)
    post.send(FRANCE, signon("France") + "SET ABSENCE 2026-02-01 2026-02-03\nSET ABSENCE 2026-02-02 2026-02-05\n")
    assert "it overlaps an absence you have taken already" in answer(post, FRANCE)
    post.send(FRANCE, signon("France") + "CANCEL ABSENCE 2026-02-01\n")  # before it began: not counted
    post.send(FRANCE, signon("France") + "SET ABSENCE 2026-02-02 2026-02-05\nSET ABSENCE 2026-03-01 2026-03-02\n"
                                         "SET ABSENCE 2026-04-01 2026-04-02\n")
    reply = answer(post, FRANCE)
    assert "(2 of the 2 you may take in g)" in reply
    assert "ERROR: you have taken 2 absences in g already: g allows absences of 14d at most, 2 a player" in reply


def test_dates_are_read_in_the_players_zone_and_a_summer_time_change_counts_for_nothing(world: World) -> None:
    post = started(world)
    post.send(FRANCE, signon("France") + "SET TIMEZONE America/New_York\n"
                                         "SET ABSENCE 2026-03-02 2026-03-15\n"  # 14 days over the change of 8 March
                                         "SET ABSENCE 2026-01-06 2026-01-07 18:30\n")
    reply = answer(post, FRANCE)
    assert "Your absence from Mon 02 Mar 2026 00:00 EST (America/New_York) to Mon 16 Mar 2026 00:00 EDT" in reply
    assert deadline(post) == datetime(2026, 1, 7, 23, 30, tzinfo=UTC)  # 18:30 in New York
    post.send(ENGLAND, signon("England") + "SET ABSENCE 2026-03-02 2026-03-16\n")  # 15 days
    assert "that absence is 15d long" in answer(post, ENGLAND)


def test_the_next_phases_deadline_is_held_and_a_weekday_kept(world: World) -> None:
    post = started(world, weekdays=True)
    post.send(FRANCE, signon("France") + "SET ABSENCE 2026-01-08 2026-01-09\n")  # to Sat 10 Jan 00:00 Rome
    assert deadline(post) == FIRST_DEADLINE
    world.clock.set(FIRST_DEADLINE + timedelta(minutes=1))
    world.tick()  # Spring 1901 is processed; Fall's deadline (Fri 9 Jan) is held past Saturday and Sunday
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.phase == "F1901M"
        assert game.deadline_unheld == datetime(2026, 1, 9, 12, 1, tzinfo=UTC)
        assert game.deadline == datetime(2026, 1, 11, 23, 0, tzinfo=UTC)  # Mon 12 Jan 00:00 Rome
    results = " ".join(post.mails(to=ENGLAND, kind="results")[-1].body.split())
    assert "Deadline: Mon 12 Jan 2026 00:00 CET" in results


def test_only_the_players_in_the_game_hold_it(world: World) -> None:
    post = started(world)
    post.send(FRANCE, signon("France") + "SET ABSENCE 2026-01-06 2026-01-09\n")
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nREPLACE France paris@example.test\nSET DEADLINE 2026-01-08 21:00\n")
    assert "The deadline of g is now Thu 08 Jan 2026 21:00 CET (Europe/Rome)." in answer(post, GM)
