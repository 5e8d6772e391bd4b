"""The mails queued together (a deadline's results to every player and the game master) get their
Message-IDs from one question to the database, which of the candidates are taken already, and
only ask again when some are: each mail gets the number it got when each was asked alone (for
each kind of mail, the lowest numbers free, in order), whatever the outbox holds before."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event
from sqlalchemy.orm import Session

from gm.games.lifecycle import find_game
from gm.games.mailer import Mailer
from gm.store.models import Game
from tests.store.conftest import STANDARD_PLAYERS, World, database_url, game_file, world  # noqa: F401  (fixtures)

EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# What a mail is (its game or none, kind, recipient): each its own Message-ID prefix.
KINDS = [(True, "results", "france@example.test"), (True, "results", "England@Example.test "),
         (True, "reply", "france@example.test"), (False, "reply", "stranger@example.test")]
# A Message-ID's own question to the outbox (not the sender's, nor a reply's look for its mail).
ASKS = re.compile(r"^SELECT outbox\.\w+ FROM outbox WHERE outbox\.message_id (IN|=) ")


@pytest.fixture
def judge(world: World) -> World:
    world.write_game("g", game_file())
    world.tick()
    return world


@contextmanager
def statements(world: World) -> Iterator[list[str]]:
    """Every statement sent to the database meanwhile, its whitespace made single spaces."""
    seen: list[str] = []

    def listener(_connection, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        seen.append(" ".join(statement.split()))

    engine = world.services.db.engine
    event.listen(engine, "before_cursor_execute", listener)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", listener)


def _asks(seen: list[str]) -> list[str]:
    return [statement for statement in seen if ASKS.match(statement)]


def _row(mailer: Mailer, game_id: int | None, kind: str, to: str, message_id: str | None = None) -> dict[str, Any]:
    row = mailer.outbox_row(to=to, subject="s", template="", kind=kind, game_id=game_id, body="text\n")
    row["message_id"] = message_id
    return row


def _greedy(prefixes: list[str], taken: dict[str, set[int]]) -> list[int]:
    """One mail at a time, as gm asked before: the first number free above the last one given."""
    counted: Counter[str] = Counter()
    numbers = []
    for prefix in prefixes:
        number = counted[prefix]
        while number in taken[prefix]:
            number += 1
        counted[prefix] = number + 1
        numbers.append(number)
    return numbers


@EXAMPLES
@given(taken=st.lists(st.sets(st.integers(0, 14), max_size=12), min_size=len(KINDS), max_size=len(KINDS)),
       batch=st.lists(st.integers(0, len(KINDS) - 1), min_size=1, max_size=14))
def test_mails_queued_together_get_the_message_ids_each_would_get_alone(
        judge: World, taken: list[set[int]], batch: list[int]) -> None:
    mailer = judge.services.mailer
    domain = judge.config.domain
    with judge.services.db.sessions() as session:  # never committed: each example starts afresh
        game_id = find_game(session, "g").id
        kinds = [(game_id if in_game else None, kind, to) for in_game, kind, to in KINDS]
        prefixes = [mailer.message_prefix(session, _row(mailer, *kind)) for kind in kinds]
        mailer.queue_rows(session, [_row(mailer, *kinds[k], message_id=f"{prefixes[k]}{number}@{domain}>")
                                    for k, numbers in enumerate(taken) for number in numbers])
        rows = [_row(mailer, *kinds[k]) for k in batch]
        mailer.queue_rows(session, rows)
    assert len(set(prefixes)) == len(KINDS)
    expected = _greedy([prefixes[k] for k in batch], {prefixes[k]: numbers for k, numbers in enumerate(taken)})
    assert [row["message_id"] for row in rows] == [
        f"{prefixes[k]}{number}@{domain}>" for k, number in zip(batch, expected, strict=True)]


def _results_rows(session: Session, mailer: Mailer) -> tuple[Game, list[dict[str, Any]]]:
    """A deadline's results: to the seven players and the game master, eight mails; and their
    game, held as its caller holds it (the session keeps only what is held, and a mail's prefix
    asks nothing of a game the session has)."""
    game = find_game(session, "g")
    return game, [_row(mailer, game.id, "results", address)
                  for address in [f"{name}@example.test" for name in STANDARD_PLAYERS] + ["master@example.test"]]


def test_eight_mails_queued_together_ask_for_their_message_ids_once(judge: World) -> None:
    mailer = judge.services.mailer
    with judge.services.db.sessions() as session:
        _game, rows = _results_rows(session, mailer)
        session.connection()  # the transaction begun (SQLite's BEGIN is a statement of its own)
        with statements(judge) as seen:
            mailer.queue_rows(session, rows)
    assert len(rows) == 8
    assert len({row["message_id"] for row in rows}) == 8
    assert len(_asks(seen)) == 1, seen
    assert [statement.split()[0] for statement in seen] == ["SELECT", "INSERT"], seen


def test_only_a_taken_candidate_asks_again(judge: World) -> None:
    mailer = judge.services.mailer
    with judge.services.db.sessions() as session:
        _game, rows = _results_rows(session, mailer)
        prefix = mailer.message_prefix(session, rows[3])
        mailer.queue_rows(session, [_row(mailer, rows[3]["game_id"], "results", rows[3]["to_address"],
                                         message_id=f"{prefix}0@{judge.config.domain}>")])
        with statements(judge) as seen:
            mailer.queue_rows(session, rows)
    assert rows[3]["message_id"] == f"{prefix}1@{judge.config.domain}>"
    assert len(_asks(seen)) == 2, seen


def test_a_deadline_asks_once_for_each_batch_of_mails_it_queues(judge: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the real tick: the results of a processed phase, and whatever else it queues."""
    batches: list[int] = []
    queue_rows = Mailer.queue_rows

    def counted(self: Mailer, session: Session, rows: list[dict[str, Any]]) -> None:
        if any(not row.get("message_id") for row in rows):
            batches.append(len(rows))
        queue_rows(self, session, rows)

    monkeypatch.setattr(Mailer, "queue_rows", counted)
    judge.clock.advance(timedelta(hours=49))
    with statements(judge) as seen:
        judge.tick()
    assert 8 in batches, batches  # the results, to the seven players and the game master
    assert len(_asks(seen)) == len(batches), (batches, _asks(seen))
