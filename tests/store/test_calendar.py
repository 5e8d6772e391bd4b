"""A whole game's calendar in a moment: the clock is injected, so deadlines, reminders and
weekday rules play out over simulated weeks while the test takes a second or two."""

from __future__ import annotations

import random

from zoneinfo import ZoneInfo

from sqlalchemy import select

from gm.bots.plausible import PlausiblePlayer
from gm.games import orderbook
from gm.games.lifecycle import find_game
from gm.games.orderbook import note_orders_changed
from gm.store.models import GameStatus, OutboundMail, PhaseRecord
from tests.store.conftest import World, game_file

ROME = ZoneInfo("Europe/Rome")


def test_a_season_of_daily_deadlines_on_weekdays(world: World) -> None:
    body = game_file(extra="early: false\n").replace(
        "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}",
        "deadlines: {movement: every day at 21:00, retreats: every day at 21:00, adjustments: every day at 21:00, "
        "weekdays: [mon, tue, wed, thu, fri], never_before: 12h}",
    ).replace("reminders: [24h]", "reminders: [6h]")
    world.write_game("g", body)
    world.tick()
    rng = random.Random(7)
    for _ in range(30):  # thirty phases, every power ordering at a random moment before the deadline
        with world.services.db.unit_of_work() as session:
            game = find_game(session, "g")
            if game.status != GameStatus.ACTIVE:
                break
            position = world.services.position_of(game)
            player = PlausiblePlayer(world.services.variant_of(game), rng)
            lines: dict[str, list[str]] = {}
            for power, order in player.orders(position):
                lines.setdefault(power, []).append(str(order))
            for power, texts in lines.items():
                if rng.random() < 0.8:
                    orderbook.submit(world.services, session, game, power, "\n".join(texts), by="bot")
            note_orders_changed(world.services, session, game)
        while True:  # jump from one due moment to the next until the phase is processed
            with world.services.db.sessions() as session:
                game = find_game(session, "g")
                due, seq = game.due_at, game.phase_seq
            world.clock.set(due)
            world.tick()
            with world.services.db.sessions() as session:
                if find_game(session, "g").phase_seq != seq:
                    break
    with world.services.db.sessions() as session:
        records = list(session.scalars(select(PhaseRecord).order_by(PhaseRecord.seq)))
        reminders = session.scalars(select(OutboundMail).where(OutboundMail.kind == "reminder")).all()
    assert len(records) >= 20
    for record in records:
        local = record.deadline.astimezone(ROME)
        assert (local.hour, local.minute) == (21, 0), record.deadline
        assert local.weekday() < 5, f"{record.phase} due on a weekend"
        assert record.processed_at == record.deadline  # processed at its deadline, not before
    assert reminders, "players without orders were reminded"
