"""Two players' last orders handled at the same moment by two processes: the one that waited for
the game's lock sees the other's orders as committed, so the phase goes early (PostgreSQL reads
the rows joined to a row it waited to lock as they were when its statement began: the seats
must be read after the lock, not with it)."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import update

from gm.games import orderbook
from gm.games.lifecycle import current_seats, find_game
from gm.store.models import Game, Seat
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)


@pytest.mark.parametrize("database_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True)
def test_the_last_two_powers_ready_at_once_make_the_phase_go_early(world: World) -> None:
    world.write_game("g", game_file(extra="early: {enabled: true, delay: 0m}\n"))
    world.tick()
    services, db = world.services, world.services.db
    with db.unit_of_work() as session:
        game = find_game(session, "g")
        assert game is not None and game.phase_seq
        first, second = sorted(seat.power for seat in current_seats(game))[:2]
        session.execute(update(Seat).where(Seat.game_id == game.id, Seat.power.not_in([first, second]))
                        .values(ready_seq=game.phase_seq))  # everyone else is in already

    def ready(power: str, locked: threading.Event | None = None, go: threading.Event | None = None) -> None:
        with db.unit_of_work() as session:
            game = find_game(session, "g", lock=True)
            assert game is not None
            if locked is not None and go is not None:
                locked.set()
                go.wait(10)  # the other process waits for the lock meanwhile
            for seat in current_seats(game):
                if seat.power == power:
                    seat.ready_seq = game.phase_seq
            orderbook.note_orders_changed(services, session, game)

    locked, go = threading.Event(), threading.Event()
    holder = threading.Thread(target=ready, args=(first, locked, go))
    holder.start()
    assert locked.wait(10)
    waiter = threading.Thread(target=ready, args=(second,))
    waiter.start()
    time.sleep(0.5)  # its statement has begun, and waits for the lock
    go.set()
    holder.join(10)
    waiter.join(10)
    with db.sessions() as session:
        game = session.query(Game).filter_by(name="g").one()
        assert game.orders_complete_at is not None
        assert game.due_at is not None and game.due_at <= world.clock.now()
