"""Every mail that carries the chart gives its numbers beside it, exact, as a table: the results
that close a year (the chart up to that year), MAP CHART (up to the board as it stands) and the
end mail; a mail without the chart has no table."""

from __future__ import annotations

import re

from gm.games.lifecycle import find_game
from gm.games.pictures import announced, wanted
from tests.mail.conftest import Post
from tests.mail.test_summary_reveal_statements import drawn, next_phase, phase, signon
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

HEADING = "Supply centres year by year:"


def _table(body: str) -> list[str]:
    start = body.index(HEADING + "\n") + len(HEADING) + 1
    return body[start:].split("\n\n")[0].splitlines()


def _carries_chart(post: Post, body: str) -> bool:
    with post.world.services.db.reading() as session:
        mail = next(m for m in post.mails(to="russia@example.test") if m.body == body)
        return any(w.name.endswith("chart.png") for w in wanted(post.world.services, session, mail))


def test_the_chart_mails_give_its_numbers_beside_it(post: Post) -> None:
    post.send("france@example.test", signon("France") + "A Marseilles - Spain\nF Brest - Mid-Atlantic Ocean\n")
    next_phase(post)  # Spring 1901
    post.send("france@example.test", signon("France") + "F Mid-Atlantic Ocean - Portugal\n")
    next_phase(post)  # Fall 1901: the year not over yet (the builds to come)
    fall = [m for m in post.mails(to="russia@example.test", kind="results")]
    assert len(fall) == 2 and all(HEADING not in m.body for m in fall)
    while not phase(post).startswith("S1902"):
        next_phase(post)  # the builds close 1901
    winter = [m for m in post.mails(to="russia@example.test", kind="results")][-1]
    assert "Winter 1901" in winter.body and _carries_chart(post, winter.body)
    table = _table(winter.body)
    assert re.fullmatch(r" +start +1901", table[0]), table
    rows = {line.split()[0]: line.split()[1:] for line in table[1:]}
    assert rows["France"] == ["3", "5"] and rows["Russia"] == ["4", "4"] and len(rows) == 7

    post.send("russia@example.test", signon("Russia") + "MAP CHART\n")
    reply = post.reply("russia@example.test")
    with post.world.services.db.reading() as session:
        assert announced(reply, find_game(session, "g")) == ["chart"]
    assert _table(reply) == table  # the year in play adds nothing yet: no phase of 1902 processed
    assert reply.index("The chart of g, supply centres year by year, is attached.") < reply.index(HEADING)

    drawn(post)
    (end,) = post.mails(to="russia@example.test", kind="end")
    assert HEADING not in end.body  # ended by a vote, with no phase's results: no chart, no table
