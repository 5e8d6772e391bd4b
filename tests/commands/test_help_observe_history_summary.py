"""HELP documents OBSERVE, UNOBSERVE, SIGNON OBSERVER, HISTORY and SUMMARY for anyone, the reveal
and eog_days settings and the deadlines feed, by mail, in lines that fit a mail."""

from __future__ import annotations

from tests.mail.conftest import Post, post  # noqa: F401  (fixtures)
from tests.mail.test_takeover import flat
from tests.store.conftest import database_url, game_file, world  # noqa: F401  (fixtures)


def test_help_lists_each_command_and_setting(post: Post) -> None:
    post.send("someone@example.org", "HELP\nHELP OBSERVE\nHELP UNOBSERVE\nHELP HISTORY\n")
    raw = post.reply("someone@example.org")
    listed = raw.split("> HELP OBSERVE")[0]
    assert all(len(line) <= 72 for line in listed.splitlines()), listed
    reply = flat(raw)
    for words in ("OBSERVE <game> follow a game you do not play", "UNOBSERVE <game> stop observing a game",
                  "HISTORY [game] [number | phase | from..to]", "SIGNON <power> <game> <secret> (GM or OBSERVER for <power>)", "SUMMARY [game]",
                  "Observers: OBSERVE <game>", 'PRESS writes to everyone, signed "an observer"',
                  "SUMMARY <game> and HISTORY <game> [phase | from..to] (HISTORY g S1901M..F1902M) need no sign-on",
                  "iCalendar feed", "(reveal: never)", "(reveal: always)", "its eog_days setting"):
        assert words in reply, words
    assert "> HELP OBSERVE OBSERVE <game> follow a game you do not play" in reply
