"""A results mail of a phase processed before its deadline says when and why, so that the deadline
named before it is not taken for a mistake; one processed at its deadline says nothing of it."""

from __future__ import annotations

from datetime import timedelta

from tests.mail.conftest import GM_SECRET, Post, post  # noqa: F401  (fixture)


def folded(text: str) -> str:
    return " ".join(text.split())


def test_the_game_masters_process_before_the_deadline_is_said(post: Post) -> None:
    post.send("master@example.test", f"SIGNON GM g {GM_SECRET}\nPROCESS S1901M\n")
    post.world.tick()  # processed by the scheduler, "within a minute"
    results = post.mails(to="france@example.test", kind="results")
    assert len(results) == 1
    assert ("Processed early, Mon 05 Jan 2026 13:00 CET (Europe/Rome): the game master processed it "
            "(its deadline was Wed 07 Jan 2026 13:00 CET).") in folded(results[0].body)


def test_a_phase_processed_at_its_deadline_says_nothing_of_it(post: Post) -> None:
    world = post.world
    world.clock.advance(timedelta(hours=48, minutes=1))
    world.tick()
    results = post.mails(to="france@example.test", kind="results")
    assert len(results) == 1 and "Processed early" not in results[0].body
