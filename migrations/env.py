"""Alembic environment: gm passes its engine in; no alembic.ini needed."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from gm.store.models import Base

target_metadata = Base.metadata


def run() -> None:
    engine = context.config.attributes.get("engine")
    if engine is None:
        engine = create_engine(context.config.get_main_option("sqlalchemy.url"))
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


run()
