"""A game's life in the store: created from its file, joined, started, played, ended."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from gm.games import orderbook, votes
from gm.games.lifecycle import GameError, current_seats, find_game, join, seat_of
from gm.games.orderbook import note_orders_changed
from gm.domain.geography import Location
from gm.domain.position import Position
from gm.domain.units import ARMY, Unit
from gm.store.codec import encode_position
from gm.store.models import AuditEntry, GameStatus, OrderSet, OutboundMail, PhaseRecord, SeatStatus
from tests.store.conftest import World, game_file


def _mails(world: World, kind: str | None = None) -> list[OutboundMail]:
    with world.services.db.sessions() as session:
        query = select(OutboundMail).order_by(OutboundMail.id)
        if kind:
            query = query.where(OutboundMail.kind == kind)
        return list(session.scalars(query))


def _submit(world: World, power: str, text: str):  # type: ignore[no-untyped-def]
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        result = orderbook.submit(world.services, session, game, power, text, by="test")
        note_orders_changed(world.services, session, game)
        return result


def test_deadlines_are_shown_in_the_players_zone_else_the_games(world: World) -> None:
    world.write_game("g", game_file().replace("{email: england@example.test", "{email: england@example.test, timezone: UTC")
                     .replace("{email: russia@example.test", "{email: russia@example.test, timezone: Asia/Tokyo"))
    world.tick()
    starts = {m.to_address: m.body for m in _mails(world, "start")}
    assert "Deadline for the first orders: Wed 07 Jan 2026 12:00 UTC\n" in starts["england@example.test"]
    assert "Deadline for the first orders: Wed 07 Jan 2026 21:00 JST (Asia/Tokyo)" in starts["russia@example.test"]
    assert "Deadline for the first orders: Wed 07 Jan 2026 13:00 CET (Europe/Rome)" in starts["france@example.test"]
    assert "13:00 CET (Europe/Rome)" in starts["master@example.test"]


def test_a_full_game_file_creates_and_starts_the_game(world: World) -> None:
    world.write_game("g", game_file())
    world.tick()
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game is not None and game.status == GameStatus.ACTIVE
        assert game.phase == "S1901M"
        assert {s.power: s.player.email for s in current_seats(game)}["France"] == "france@example.test"
        assert game.deadline == world.clock.now() + timedelta(hours=48)
        actions = [a.action for a in session.scalars(select(AuditEntry).order_by(AuditEntry.id))]
    assert actions[0] == "created" and "started" in actions
    joined = _mails(world, "joined")
    assert len(joined) == 7 and all("SIGNON" in m.body for m in joined)
    starts = _mails(world, "start")
    assert {m.to_address for m in starts} >= {"france@example.test", "master@example.test"}
    france = next(m for m in starts if m.to_address == "france@example.test")
    assert "You play France" in france.body and "13:00 CET (Europe/Rome)" in france.body  # no zone of its own: the game's


def test_powers_are_given_by_preference_then_at_random(world: World) -> None:
    world.write_game("g", game_file(preferences=False).replace(
        "  - {email: austria@example.test}", "  - {email: austria@example.test, power: Turkey}"))
    world.tick()
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        powers = {s.player.email: s.power for s in current_seats(game)}
    assert powers["austria@example.test"] == "Turkey"
    assert sorted(powers.values()) == sorted(["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"])


def test_players_join_a_forming_game_until_it_is_full(world: World) -> None:
    world.write_game("g", game_file(players=5))
    world.tick()
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        assert game.status == GameStatus.FORMING
        join(world.services, session, game, "sixth@example.test", preference="russia")
        with pytest.raises(GameError, match="already joined"):
            join(world.services, session, game, "sixth@example.test")
        with pytest.raises(GameError, match="not a power"):
            join(world.services, session, game, "x@example.test", preference="Narnia")
        join(world.services, session, game, "seventh@example.test")
    world.tick()  # nothing due, but nothing breaks
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        from gm.games.lifecycle import maybe_start

        assert maybe_start(world.services, session, game)
        assert seat_of(game, "Russia").player.email == "sixth@example.test"
        with pytest.raises(GameError, match="has started: JOIN g <power> asks for a power its player left"):
            join(world.services, session, game, "late@example.test")


def test_orders_revise_per_unit_and_the_phase_is_processed_at_the_deadline(world: World) -> None:
    world.write_game("g", game_file())
    world.tick()
    report = _submit(world, "France", "A Paris - Burgundy\nA Marseilles - Spain\nF Brest - English Channel\nA Paris - Picardy")
    assert [line.error for line in report.lines] == ["", "", "", ""]
    assert sorted(map(str, report.orders)) == ["A MAR - SPA", "A PAR - PIC", "F BRE - ENG"]
    assert report.missing == []
    report = _submit(world, "France", "A Paris - Moscow\nA Mar - Burgundi")
    assert "cannot" in report.lines[0].error or "not next" in report.lines[0].error
    assert "Burgundy" in report.lines[1].error  # the suggestion
    assert sorted(map(str, report.orders)) == ["A MAR - SPA", "A PAR - PIC", "F BRE - ENG"]
    _submit(world, "Germany", "A Munich - Burgundy")
    world.clock.advance(timedelta(hours=47))
    assert world.tick().processed == []
    world.clock.advance(timedelta(hours=1, seconds=1))
    assert world.tick().processed == ["g S1901M"]
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        record = session.scalar(select(PhaseRecord).where(PhaseRecord.game_id == game.id))
        assert record.phase == "S1901M" and sorted(record.orders["France"]) == ["A MAR - SPA", "A PAR - PIC", "F BRE - ENG"]
        assert "A PIC" in record.position_after["units"]["France"]
        assert game.phase == "F1901M" and game.phase_seq == 2
        versions = session.scalars(select(OrderSet.version).where(OrderSet.power == "France")).all()
        assert sorted(versions) == [1, 2]
        assert seat_of(game, "Italy").missed == 1 and seat_of(game, "France").missed == 0
    results = _mails(world, "results")
    assert len(results) == 8  # seven players and the GM
    body = next(m for m in results if m.to_address == "france@example.test").body
    assert "France:    Army Paris -> Picardy" in body
    assert "Germany:   Army Munich -> Burgundy" in body
    assert "The next phase of g is Fall 1901 movement (F1901M)." in body
    assert all(m.attach_phase_id == record.id for m in results)


def test_early_processing_when_everyone_is_in_unless_someone_waits(world: World) -> None:
    world.write_game("g", game_file(extra="early: {delay: 10m}\n"))
    world.tick()
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        position = world.services.position_of(game)
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        units = "\n".join(f"{u.type.letter} {u.location} H" for u in position.units_of(power))
        _submit(world, power, units)
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        seat_of(game, "Italy").wait_seq = game.phase_seq  # Italy said WAIT
        note_orders_changed(world.services, session, game)
    world.clock.advance(timedelta(minutes=11))
    assert world.tick().processed == []
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        seat_of(game, "Italy").wait_seq = None
        note_orders_changed(world.services, session, game)
    world.clock.advance(timedelta(minutes=1))
    assert world.tick().processed == ["g S1901M"]


def test_reminders_go_to_those_without_orders(world: World) -> None:
    world.write_game("g", game_file())
    world.tick()
    _submit(world, "France", "A PAR H\nA MAR H\nF BRE H")
    world.clock.advance(timedelta(hours=24, minutes=1))
    report = world.tick()
    assert "g France" not in report.reminded and "g Italy" in report.reminded
    assert len(_mails(world, "reminder")) == 6
    world.tick()
    assert len(_mails(world, "reminder")) == 6  # once only


def test_grace_period_and_late_notices(world: World) -> None:
    world.write_game("g", game_file(extra="grace: 12h\n"))
    world.tick()
    world.clock.advance(timedelta(hours=48, minutes=1))
    assert world.tick().processed == []
    assert len(_mails(world, "late")) == 7
    world.clock.advance(timedelta(hours=12))
    assert world.tick().processed == ["g S1901M"]


def test_a_reminder_the_clock_jumped_over_is_not_waited_for_in_the_grace(world: World) -> None:
    """Past the deadline, the game is next due at the end of its grace, not at every tick
    for a reminder that will never be sent."""
    world.write_game("g", game_file(extra="grace: 12h\n"))
    world.tick()
    world.clock.advance(timedelta(hours=48, minutes=1))  # over the 24-hour reminder, past the deadline
    assert world.tick().processed == []
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.notices.get("late_sent") and game.deadline is not None
        assert game.due_at == game.deadline + timedelta(hours=12)
    assert not _mails(world, "reminder")


def test_victory_ends_the_game(world: World) -> None:
    world.write_game("g", game_file())
    world.tick()
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        variant = world.services.variant_of(game)
        french = [u for u in world.services.position_of(game).units if u.power == "France" and u.province != "PAR"]
        french.append(Unit("France", ARMY, Location("PIC")))
        centres = {c: "France" for c in sorted(variant.map.supply_centres - {"BEL"})[:17]}
        position = Position(variant.calendar.parse("F1901M"), tuple(french), centres)
        game.position = encode_position(position)
        game.phase = "F1901M"
    _submit(world, "France", "A PIC - BEL")  # the eighteenth centre
    world.clock.advance(timedelta(hours=49))
    assert world.tick().processed == ["g F1901M"]
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.status == GameStatus.FINISHED and game.result == {"kind": "win", "winner": "France"}
        assert game.due_at is None
    end = _mails(world, "end")
    assert len(end) == 8 and "France has won." in end[0].body
    assert "France:    Army Picardy -> Belgium" in end[0].body


def test_a_draw_needs_every_survivor(world: World) -> None:
    world.write_game("g", game_file(extra="draw: {votes: open}\n"))
    world.tick()
    powers = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    for power in powers[:-1]:
        with world.services.db.unit_of_work() as session:
            assert not votes.vote_draw(world.services, session, find_game(session, "g"), power, True)
    with world.services.db.unit_of_work() as session:
        assert votes.vote_draw(world.services, session, find_game(session, "g"), "Turkey", True)
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.status == GameStatus.FINISHED
        assert game.result == {"kind": "draw", "powers": powers}
    assert len(_mails(world, "vote")) == 7 * 8  # open votes are announced to everyone


def test_a_concession_needs_all_the_others(world: World) -> None:
    world.write_game("g", game_file())
    world.tick()
    others = ["Austria", "England", "Germany", "Italy", "Russia", "Turkey"]
    with world.services.db.unit_of_work() as session:
        with pytest.raises(GameError, match="itself"):
            votes.concede(world.services, session, find_game(session, "g"), "France", "France")
    for power in others:
        with world.services.db.unit_of_work() as session:
            done = votes.concede(world.services, session, find_game(session, "g"), power, "France")
    assert done
    with world.services.db.sessions() as session:
        assert find_game(session, "g").result == {"kind": "concession", "winner": "France"}


def test_missed_orders_lead_to_civil_disorder(world: World) -> None:
    world.write_game("g", game_file(extra="missed: {policy: civil-disorder, after: 2}\n"))
    world.tick()
    for _ in range(2):
        world.clock.advance(timedelta(hours=49))
        world.tick()
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.phase_seq == 3
        assert all(s.status == SeatStatus.CIVIL_DISORDER for s in current_seats(game))
        assert all(s.missed == 2 for s in current_seats(game))
    assert len(_mails(world, "gm-alert")) == 7


def test_missed_orders_make_the_game_wait_for_a_replacement(world: World) -> None:
    world.write_game("g", game_file(extra="missed: {policy: wait-for-replacement, after: 1}\n"))
    world.tick()
    _submit_all_but(world, "Italy")
    world.clock.advance(timedelta(hours=49))
    world.tick()
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.status == GameStatus.PAUSED and "Italy" in game.paused_reason
        assert seat_of(game, "Italy").missed == 1 and seat_of(game, "France").missed == 0


def _submit_all_but(world: World, skip: str) -> None:
    with world.services.db.sessions() as session:
        position = world.services.position_of(find_game(session, "g"))
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        if power != skip:
            _submit(world, power, "\n".join(f"{u.type.letter} {u.location} H" for u in position.units_of(power)))


def test_no_miss_for_a_forced_removal_or_an_eliminated_power(world: World) -> None:
    world.write_game("g", game_file())
    world.tick()
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        variant = world.services.variant_of(game)
        start = world.services.position_of(game)
        units = [u for u in start.units if u.power not in ("Italy", "Turkey")]
        units.append(Unit("Italy", ARMY, Location("TUS")))  # Italy: one unit and no centre left
        centres = {c: p for c, p in start.centres.items() if p not in ("Italy", "Turkey")}
        game.position = encode_position(Position(variant.calendar.parse("W1901A"), tuple(units), centres))
        game.phase = "W1901A"
    world.clock.advance(timedelta(hours=49))  # the deadline set when the game started
    assert world.tick().processed == ["g W1901A"]
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert seat_of(game, "Italy").missed == 0  # its only unit had to go: no choice, no miss
        assert seat_of(game, "Turkey").missed == 0 and seat_of(game, "Turkey").status == SeatStatus.ELIMINATED
        assert seat_of(game, "Italy").status == SeatStatus.ELIMINATED
        assert "Italy" not in game.position["units"]
    world.clock.advance(timedelta(hours=49))
    world.tick()
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert seat_of(game, "Turkey").missed == 0 and seat_of(game, "France").missed == 1
