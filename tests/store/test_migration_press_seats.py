"""Migration 0010: stored press gets the seats it belongs to, from the names it has (the seats of
one power share its first seat's key); going down keeps every row."""

from __future__ import annotations

import json

from sqlalchemy import text

from gm.store.database import downgrade, make_engine, upgrade

_AT = "'2026-01-01 00:00:00+00:00'"


def test_press_gets_its_seats_from_its_names(database_url: str) -> None:
    engine = make_engine(database_url)
    upgrade(engine, "0009")
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO games (id, name, variant, status, settings, settings_source, settings_digest, phase_seq,"
            " notices, paused_reason, created_at, version, gm_secret_hash, dice_seed)"
            f" VALUES (1, 'rd', 'roman-diplomacy-i', 'active', '{{}}', '', '', 1, '{{}}', '', {_AT}, 1, '', 'x')"))
        for player in (1, 2, 3):
            connection.execute(text("INSERT INTO players (id, email, name, timezone, preferences, created_at)"
                                    f" VALUES ({player}, 'p{player}@example.test', '', 'UTC', '{{}}', {_AT})"))
        for seat, power, player, left in ((1, "Pontus", 1, _AT), (2, "Latium", 2, "NULL"), (3, "Pontus", 3, "NULL")):
            connection.execute(text(
                "INSERT INTO seats (id, game_id, power, player_id, secret_hash, status, missed, missed_in_row,"
                f" draw_vote, joined_at, left_at) VALUES ({seat}, 1, '{power}', {player}, '', 'active', 0, 0, false,"
                f" {_AT}, {left})"))
        for press, sender, recipients in ((1, "'Pontus'", ["Latium"]), (2, "NULL", []), (3, "'Latium'", ["Pontus", "Ghost"])):
            connection.execute(text(
                "INSERT INTO press (id, game_id, phase, sender_power, recipients, grey, with_results, body, sent_at)"
                f" VALUES ({press}, 1, 'W99A', {sender}, :recipients, false, false, 'hello', {_AT})"),
                {"recipients": json.dumps(recipients)})
    upgrade(engine)
    with engine.connect() as connection:
        seats = dict(connection.execute(text("SELECT id, first_seat_id FROM seats")).all())
        press = {row[0]: (row[1], row[2]) for row in connection.execute(
            text("SELECT id, sender_seat, recipient_seats FROM press"))}
    assert seats == {1: None, 2: None, 3: 1}  # the replacement's seat carries on the first Pontus
    decoded = {k: (s, json.loads(r) if isinstance(r, str) else r) for k, (s, r) in press.items()}
    assert decoded == {1: (1, [2]), 2: (None, []), 3: (2, None)}  # an unknown name: read by names, as before
    downgrade(engine, "0009")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM press")).scalar() == 3
        assert connection.execute(text("SELECT count(*) FROM seats")).scalar() == 3
    engine.dispose()
