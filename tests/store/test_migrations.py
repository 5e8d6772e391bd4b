"""Every Alembic revision goes down and up again, and the head matches the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

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
