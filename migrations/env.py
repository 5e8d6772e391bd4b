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
        sqlite = connection.dialect.name == "sqlite"
        # A batch migration on SQLite copies a table and drops the old one: with foreign keys
        # on, the drop would delete the rows that refer to it (seats, phases...) by cascade.
        # The pragma only takes effect outside a transaction, hence the driver's connection.
        if sqlite:
            connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
        try:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=sqlite,
                compare_type=True,
            )
            with context.begin_transaction():
                if connection.dialect.name == "postgresql":  # a migration may rightly take long
                    connection.exec_driver_sql("SET LOCAL statement_timeout = 0")
                context.run_migrations()
            connection.commit()
        finally:
            if sqlite:
                connection.connection.driver_connection.execute("PRAGMA foreign_keys=ON")  # type: ignore[union-attr]


run()
