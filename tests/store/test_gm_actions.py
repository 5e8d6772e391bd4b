"""What a GM may do: process now, preview, rollback, pause/resume, eject/replace, extend."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from gm.commands import gm_actions
from gm.games import orderbook
from gm.games.lifecycle import GameError, find_game, seat_of
from gm.games.orderbook import note_orders_changed
from gm.games.passwords import verify_secret
from gm.store.models import AuditEntry, GameStatus, OutboundMail, PhaseRecord, SeatStatus
from tests.store.conftest import World, game_file


@pytest.fixture
def started(world: World) -> World:
    world.write_game("g", game_file())
    world.tick()
    return world


def _do(world: World, action, *args, **kwargs):  # type: ignore[no-untyped-def]
    with world.services.db.unit_of_work() as session:
        return action(world.services, session, find_game(session, "g"), *args, **kwargs)


def _submit(world: World, power: str, text: str) -> None:
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        orderbook.submit(world.services, session, game, power, text, by="test")
        note_orders_changed(world.services, session, game)


def _mails(world: World, kind: str) -> list[OutboundMail]:
    with world.services.db.sessions() as session:
        return list(session.scalars(select(OutboundMail).where(OutboundMail.kind == kind).order_by(OutboundMail.id)))


def _count(world: World, model, *where) -> int:  # type: ignore[no-untyped-def]
    with world.services.db.sessions() as session:
        return session.scalar(select(func.count()).select_from(model).where(*where))


def test_process_now_is_guarded_by_the_phase(started: World) -> None:
    with pytest.raises(GameError, match="current phase of g is S1901M"):
        _do(started, gm_actions.process_now, "F1901M", actor="master@example.test")
    _do(started, gm_actions.process_now, "s1901m", actor="master@example.test")
    assert started.tick().processed == ["g S1901M"]  # at the next tick, late orders or not
    with started.services.db.sessions() as session:
        assert find_game(session, "g").phase == "F1901M"
    assert _count(started, AuditEntry, AuditEntry.action == "process-now") == 1


def test_preview_shows_the_gm_and_changes_nothing(started: World) -> None:
    _submit(started, "France", "A PAR - BUR")
    _do(started, gm_actions.preview, actor="master@example.test")
    with started.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.phase == "S1901M" and game.phase_seq == 1
        previews = list(session.scalars(select(OutboundMail).where(OutboundMail.kind == "preview")))
    assert [m.to_address for m in previews] == ["master@example.test"]
    assert "PREVIEW" in previews[0].body and "Army Paris -> Burgundy" in previews[0].body
    assert _count(started, PhaseRecord) == 0


def test_rollback_restores_a_phase_and_its_orders(started: World) -> None:
    _submit(started, "France", "A PAR - BUR")
    started.clock.advance(timedelta(hours=49))
    started.tick()
    _submit(started, "France", "A BUR - MUN")
    started.clock.advance(timedelta(hours=49))
    started.tick()
    with pytest.raises(GameError, match="no processed phase S1905M"):
        _do(started, gm_actions.rollback, "S1905M", actor="master@example.test")
    _do(started, gm_actions.rollback, "S1901M", actor="master@example.test")
    with started.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.phase == "S1901M" and game.status == GameStatus.ACTIVE
        assert "A PAR" in game.position["units"]["France"]
        records = list(session.scalars(select(PhaseRecord).order_by(PhaseRecord.seq)))
        assert [r.rolled_back for r in records] == [True, True]
        assert orderbook.current_orders(session, game)["France"] == ["A PAR - BUR"]
    started.clock.advance(timedelta(hours=49))
    assert started.tick().processed == ["g S1901M"]
    with started.services.db.sessions() as session:
        game = find_game(session, "g")
        assert "A BUR" in game.position["units"]["France"]
        assert game.phase_seq > 3  # phase instance numbers never repeat


def test_pause_and_resume(started: World) -> None:
    _do(started, gm_actions.pause, actor="master@example.test", reason="holidays")
    started.clock.advance(timedelta(days=10))
    assert started.tick().processed == []
    with pytest.raises(GameError, match="paused"):
        _do(started, gm_actions.pause, actor="master@example.test")
    _do(started, gm_actions.resume, actor="master@example.test")
    with started.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.status == GameStatus.ACTIVE
        assert game.deadline == started.clock.now() + timedelta(hours=48)
    started.clock.advance(timedelta(hours=49))
    assert started.tick().processed == ["g S1901M"]


def test_eject_and_replace(started: World) -> None:
    _do(started, gm_actions.eject, "Italy", actor="master@example.test")
    with started.services.db.sessions() as session:
        game = find_game(session, "g")
        assert seat_of(game, "Italy").status == SeatStatus.VACANT and seat_of(game, "Italy").player is None
    secret = _do(started, gm_actions.replace, "Italy", "new@example.test", actor="master@example.test")
    with started.services.db.sessions() as session:
        seat = seat_of(find_game(session, "g"), "Italy")
        assert seat.player.email == "new@example.test" and seat.status == SeatStatus.ACTIVE
        assert verify_secret(secret, seat.secret_hash)
        welcome = session.scalar(select(OutboundMail).where(OutboundMail.to_address == "new@example.test"))
    assert secret in welcome.body
    with pytest.raises(GameError, match="no power 'Narnia'"):
        _do(started, gm_actions.eject, "Narnia", actor="master@example.test")


def test_extend_moves_the_deadline_and_tells_everyone(started: World) -> None:
    with started.services.db.sessions() as session:
        old = find_game(session, "g").deadline
    new = _do(started, gm_actions.extend, actor="master@example.test", by=timedelta(days=2))
    assert new == old + timedelta(days=2)
    assert _count(started, OutboundMail, OutboundMail.kind == "deadline") == 8
    started.clock.advance(timedelta(hours=49))
    assert started.tick().processed == []
    with pytest.raises(GameError, match="past"):
        _do(started, gm_actions.extend, actor="master@example.test", deadline=started.clock.now() - timedelta(hours=1))


def test_a_finished_game_goes_on_only_with_a_new_announced_seed(monkeypatch: pytest.MonkeyPatch, world: World) -> None:
    """The end mail published the dice seed; a rollback may not bring the game
    back with it (every roll to come would be known): a new seed, its SHA-256 announced."""
    import hashlib

    from gm.games import votes
    from gm.variants import catalog
    from tests.store import stormy

    monkeypatch.setitem(catalog.RULES, "standard", stormy.DECLARED)  # the standard board, with dice
    world.write_game("g", game_file())
    world.tick()
    world.clock.advance(timedelta(hours=49))
    assert world.tick().processed == ["g S1901M"]
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        published = game.dice_seed
        for power in votes.survivors(world.services, game):
            votes.vote_draw(world.services, session, game, power, True)
    end = [m.body for m in _mails(world, "end")]
    assert end and all(published in body for body in end)
    _do(world, gm_actions.rollback, "S1901M", actor="master@example.test")
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.status == GameStatus.ACTIVE and game.dice_seed != published
        new_commitment = hashlib.sha256(game.dice_seed.encode()).hexdigest()
        new_seed = game.dice_seed
    announcements = [" ".join(m.body.split()) for m in _mails(world, "rollback")]
    assert len(announcements) == 8
    for text in announcements:
        assert f"goes on with a new secret seed, published when the game ends again. Its SHA-256 is: {new_commitment}" in text
        assert new_seed not in text
    world.clock.advance(timedelta(hours=49))
    assert world.tick().processed == ["g S1901M"]
    for body in [m.body for m in _mails(world, "results")][-8:]:
        assert new_commitment in body and published not in body


def test_a_running_game_rolled_back_keeps_its_seed(world: World) -> None:
    """No new seed where none was published: a phase played again rolls as before, and no
    rollback can choose other dice."""
    world.write_game("g", game_file())
    world.tick()
    with world.services.db.sessions() as session:
        seed = find_game(session, "g").dice_seed
    world.clock.advance(timedelta(hours=49))
    world.tick()
    _do(world, gm_actions.rollback, "S1901M", actor="master@example.test")
    with world.services.db.sessions() as session:
        assert find_game(session, "g").dice_seed == seed


def test_the_player_ejected_or_replaced_is_told(started: World) -> None:
    _do(started, gm_actions.eject, "Italy", actor="master@example.test")
    _do(started, gm_actions.replace, "France", "new@example.test", actor="master@example.test")
    for address, power in (("italy@example.test", "Italy"), ("france@example.test", "France")):
        (told,) = [m for m in _mails(started, "removed") if m.to_address == address]
        assert f"you no longer play {power}" in told.subject
        assert "master@example.test" in told.body  # whom to write to
    with pytest.raises(GameError, match="england@example.test already plays England in g"):
        _do(started, gm_actions.replace, "Italy", "england@example.test", actor="master@example.test")
