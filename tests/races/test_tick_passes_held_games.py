"""A tick passes over a due game another transaction holds and processes the free ones first,
without waiting (SKIP LOCKED, so two processes ticking at once share the games); the game
passed over is taken again at the end of the same tick, waiting for its lock, and processed
once its holder (a mail's commands, here a connection of the test's own) has committed. An
open power's offer whose game is held is passed on the same way. Of those passed over, only
the ones still due are taken again (most were another process's, and are done by then)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from gm.games.lifecycle import lock_game
from gm.runtime import scheduler
from gm.runtime.scheduler import TickReport, in_two_passes
from gm.store.models import Game, Opening
from gm.store.retry import in_transaction
from tests.mail.conftest import Post, post  # noqa: F401  (fixture)
from tests.mail.test_takeover import resign
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

# Below the lock timeout (20 s): a first pass that waited for the held game would give up on
# it then and go on to the free ones, which must not pass for having been done without waiting.
NO_WAIT_SECONDS = 15.0


POSTGRES = pytest.mark.parametrize("database_url", [pytest.param("postgresql", marks=pytest.mark.postgres)],
                                   indirect=True)


class Holder:
    """Another transaction holding a game's lock, as a mail's commands hold it, until released."""

    def __init__(self, world: World, game_id: int):
        self.locked, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold, args=(world, game_id))

    def _hold(self, world: World, game_id: int) -> None:
        with world.services.db.unit_of_work() as session:
            assert lock_game(session, game_id) is not None
            self.locked.set()
            self.release.wait(60)

    def __enter__(self) -> Holder:
        self.thread.start()
        assert self.locked.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.thread.join(30)


class Ticker:
    """A tick run in a thread of its own; ``report`` filled in as it goes."""

    def __init__(self, world: World):
        self.report = TickReport()
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=self._tick, args=(world,))
        self.thread.start()

    def _tick(self, world: World) -> None:
        try:
            world.app.scheduler.tick(self.report)
        except BaseException as exc:  # noqa: BLE001  (raised in the test's thread by done)
            self.errors.append(exc)

    def done(self) -> TickReport:
        self.thread.join(60)
        assert not self.thread.is_alive() and not self.errors, self.errors
        return self.report


def _phases(world: World) -> dict[str, int]:
    """Each game's phase number, as a connection of its own sees what is committed."""
    with world.services.db.reading() as session:
        return {name: seq for name, seq in session.execute(select(Game.name, Game.phase_seq))}


@POSTGRES
def test_a_held_game_is_passed_over_then_processed_in_the_same_tick(world: World) -> None:
    for name in ("held", "free1", "free2"):
        world.write_game(name, game_file())
    world.tick()
    started = _phases(world)
    assert set(started) == {"held", "free1", "free2"} and all(started.values())
    world.clock.advance(timedelta(hours=49))  # past every deadline
    db, now = world.services.db, world.clock.now()
    with db.unit_of_work() as session:  # the held game due first: a tick that waited would wait on it first
        for hours, name in ((3, "held"), (2, "free1"), (1, "free2")):
            session.execute(update(Game).where(Game.name == name).values(due_at=now - timedelta(hours=hours)))
    with db.reading() as session:
        held_id = session.scalar(select(Game.id).where(Game.name == "held"))
    assert world.app.scheduler.due_games()[0] == held_id

    with Holder(world, held_id):
        ticker = Ticker(world)
        give_up = time.monotonic() + NO_WAIT_SECONDS
        while (seen := _phases(world))["free1"] == started["free1"] or seen["free2"] == started["free2"]:
            assert time.monotonic() < give_up, f"the free games waited on the held one: {seen}, {ticker.report}"
            time.sleep(0.1)
        assert seen["held"] == started["held"]  # not processed under its holder
        while [p.split()[0] for p in ticker.report.processed] != ["free1", "free2"]:  # noted just after each commit
            assert time.monotonic() < give_up, ticker.report
            time.sleep(0.05)
        time.sleep(0.3)
        assert ticker.thread.is_alive()  # the tick waits for the held game now, in its second pass
    report = ticker.done()
    assert [p.split()[0] for p in report.processed] == ["free1", "free2", "held"]  # all in the same tick
    assert report.busy == []
    assert _phases(world) == {name: seq + 1 for name, seq in started.items()}


@POSTGRES
def test_an_offer_whose_game_is_held_is_passed_over_then_passed_on_in_the_same_tick(post: Post) -> None:
    world = post.world
    post.send("first@example.test", "STANDBY g\n")
    world.clock.advance(timedelta(minutes=1))
    post.send("second@example.test", "STANDBY g\n")
    resign(post)
    assert post.mails(to="first@example.test", kind="standby-offer")
    world.clock.advance(timedelta(hours=24, seconds=1))  # the first did not answer in time
    with world.services.db.reading() as session:
        opening_id, game_id = session.execute(select(Opening.id, Opening.game_id)).one()
    assert world.app.scheduler.due_openings() == world.app.scheduler.due_openings(among=[opening_id]) == [opening_id]
    assert world.app.scheduler.due_openings(among=[opening_id + 1]) == []

    with Holder(world, game_id):
        began = time.monotonic()
        passed = in_transaction(world.services.db, "test", lambda session: world.app.scheduler.pass_offer(
            session, opening_id, skip_held=True))
        assert passed is False and time.monotonic() - began < 5  # not waited for
        ticker = Ticker(world)
        time.sleep(0.5)
        assert not post.mails(to="second@example.test", kind="standby-offer")  # not under its holder
    ticker.done()
    assert len(post.mails(to="second@example.test", kind="standby-offer")) == 1  # passed on in the same tick
    assert world.app.scheduler.due_openings(among=[opening_id]) == []  # the second's time runs now


def test_of_those_passed_over_only_the_ones_still_due_are_taken_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scheduler, "AMONG_AT_ONCE", 2)
    held = {2, 3, 5, 6, 7}  # by another transaction during the first pass
    calls: list[tuple[int, bool]] = []
    asked: list[list[int]] = []

    def one(key: int, skip_held: bool) -> bool:
        calls.append((key, skip_held))
        return not (skip_held and key in held)

    def still_due(among: list[int]) -> list[int]:
        asked.append(among)
        return [key for key in among if key in (3, 7)]  # the others were done by their holder meanwhile

    in_two_passes([1, 2, 3, 4, 5, 6, 7], one, still_due)
    assert calls == [(k, True) for k in range(1, 8)] + [(3, False), (7, False)]
    assert asked == [[2, 3], [5, 6], [7]]  # a few at a time
    calls.clear()
    in_two_passes([1, 4], one, lambda among: pytest.fail("nothing was passed over"))  # type: ignore[arg-type, return-value]
    assert calls == [(1, True), (4, True)]


def test_the_games_still_due_among_some(world: World) -> None:
    for name in ("g1", "g2"):
        world.write_game(name, game_file())
    world.tick()
    world.clock.advance(timedelta(hours=49))  # past every deadline
    due = world.app.scheduler.due_games()
    assert len(due) == 2
    assert world.app.scheduler.due_games(among=due[:1]) == due[:1]
    world.tick()  # both processed: neither is due now
    assert world.app.scheduler.due_games(among=due) == []
