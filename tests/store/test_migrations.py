"""Every Alembic revision goes down and up again, and the head matches the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from gm.store.database import MIGRATIONS_DIR, current_revision, downgrade, head_revision, make_engine, upgrade
from gm.store.models import Base


def test_every_revision_walks_down_and_up(database_url: str) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    assert current_revision(engine) == head_revision()
    revisions = list(ScriptDirectory(str(MIGRATIONS_DIR)).walk_revisions())  # newest first
    for revision in revisions:
        below = revision.down_revision or "base"
        downgrade(engine, below)
        assert current_revision(engine) == (None if below == "base" else below)
        upgrade(engine, revision.revision)
        assert current_revision(engine) == revision.revision
        downgrade(engine, below)
    assert current_revision(engine) is None
    upgrade(engine)
    assert current_revision(engine) == head_revision()
    engine.dispose()


def test_the_newest_revision_matches_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection, opts={"compare_type": True}), Base.metadata)
    engine.dispose()
    assert differences == [], "the models changed without a migration: run alembic revision --autogenerate"


def test_games_from_before_dice_seeds_get_a_seed_each_and_going_down_keeps_their_seats(database_url: str) -> None:
    """0007: each existing game gets a fresh secret seed of its own (none can have rolled a die
    before); going down drops only the column, never the games' seats (no table copy)."""
    engine = make_engine(database_url)
    upgrade(engine, "0006")
    with engine.begin() as connection:
        for game_id in (1, 2):
            connection.execute(text(
                "INSERT INTO games (id, name, variant, status, settings, settings_source, settings_digest, phase_seq,"
                " notices, paused_reason, created_at, version, gm_secret_hash)"
                f" VALUES ({game_id}, 'g{game_id}', 'standard', 'active', '{{}}', '', '', 1, '{{}}', '',"
                " '2026-01-01 00:00:00+00:00', 1, '')"))
        connection.execute(text("INSERT INTO players (id, email, name, timezone, preferences, created_at)"
                                " VALUES (1, 'a@example.test', '', 'UTC', '{}', '2026-01-01 00:00:00+00:00')"))
        connection.execute(text("INSERT INTO seats (game_id, player_id, secret_hash, status, missed, missed_in_row,"
                                " draw_vote, joined_at) VALUES (1, 1, '', 'active', 0, 0, false,"
                                " '2026-01-01 00:00:00+00:00')"))
    upgrade(engine)
    with engine.connect() as connection:
        seeds = connection.execute(text("SELECT dice_seed FROM games ORDER BY id")).scalars().all()
    assert len(seeds) == 2 and seeds[0] != seeds[1] and all(len(s) == 64 and int(s, 16) >= 0 for s in seeds)
    downgrade(engine, "0006")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM seats")).scalar() == 1
        assert connection.execute(text("SELECT count(*) FROM games")).scalar() == 2
    engine.dispose()


def test_going_down_to_the_first_revision_and_up_again_keeps_every_games_seats(database_url: str) -> None:
    """A batch migration on SQLite copies tables; it must never delete the rows that refer to
    them (migrations/env.py turns foreign keys off while migrating)."""
    engine = make_engine(database_url)
    upgrade(engine)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO games (id, name, variant, status, settings, settings_source, settings_digest, phase_seq,"
            " notices, paused_reason, created_at, version, gm_secret_hash, dice_seed)"
            " VALUES (1, 'g', 'standard', 'active', '{}', '', '', 1, '{}', '', '2026-01-01 00:00:00+00:00', 1, '', 'x')"))
        connection.execute(text("INSERT INTO players (id, email, name, timezone, preferences, created_at)"
                                " VALUES (1, 'a@example.test', '', 'UTC', '{}', '2026-01-01 00:00:00+00:00')"))
        connection.execute(text("INSERT INTO seats (game_id, player_id, secret_hash, status, missed, missed_in_row,"
                                " draw_vote, joined_at) VALUES (1, 1, '', 'active', 0, 0, false,"
                                " '2026-01-01 00:00:00+00:00')"))
    downgrade(engine, "0001")
    upgrade(engine)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM seats")).scalar() == 1
        assert connection.execute(text("SELECT count(*) FROM games")).scalar() == 1
    engine.dispose()
