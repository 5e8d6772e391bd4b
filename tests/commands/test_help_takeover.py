"""HELP documents taking over an open power, standing by, the GM's answer, SUMMARY and the late
lists, by mail."""

from __future__ import annotations

from tests.mail.conftest import Post, post  # noqa: F401  (fixtures)
from tests.mail.test_takeover import flat
from tests.store.conftest import database_url, game_file, world  # noqa: F401  (fixtures)


def test_help_says_how_to_take_over_stand_by_and_read_the_record(post: Post) -> None:
    post.send("someone@example.org", "HELP\nHELP JOIN\nHELP STANDBY\nHELP APPROVE\nHELP SUMMARY\n")
    reply = flat(post.reply("someone@example.org"))
    for words in ("STANDBY [game] (STANDBY OFF [game], or UNSTANDBY, to leave)", "UNSTANDBY [game]",
                  "SUMMARY [game]", "APPROVE <address> [power]", "REFUSE <address> [power]",
                  "in a game in play, ask to take over a power its player left",
                  "Open powers: a power whose player resigned", "anyone not playing in the game may ask for it "
                  "with JOIN <game> <power>", "Late lists: once a deadline passes with orders missing, every player "
                  "is told which powers are late", "the game master's STATUS shows them across every game on this judge"):
        assert words in reply, words
    assert "JOIN <game> [power] join a game that is still forming" in reply
    assert "a game in brief, for anyone: its settings, who played each power over time" in reply
