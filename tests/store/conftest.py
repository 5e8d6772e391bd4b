"""Fixtures for the store and the game services: a fresh database (SQLite, and PostgreSQL when
scripts/test started one), a manual clock, and games written as settings files."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from gm.app import App
from gm.clock import ManualClock
from gm.config import AppConfig, default_config
from gm.games.context import Faults

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def postgres_admin_url() -> str:
    url = os.environ.get("GM_TEST_POSTGRES_URL")
    if not url:
        pytest.fail("GM_TEST_POSTGRES_URL is not set: run scripts/test (it starts PostgreSQL), "
                    "or deselect these tests with -m 'not postgres'")
    return url


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """The URL of a database of its own on the test server, dropped afterwards."""
    admin_url = postgres_admin_url()
    name = f"gm_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'gm.db'}"
        return
    with fresh_postgres_database() as url:
        yield url


@dataclass
class World:
    """A gm installation for one test: its config, clock and app."""

    config: AppConfig
    clock: ManualClock
    app: App

    @property
    def services(self):  # type: ignore[no-untyped-def]
        return self.app.services

    def write_game(self, name: str, body: str) -> Path:
        path = self.config.games_dir / f"{name}.yaml"
        path.write_text(body, encoding="utf-8")
        return path

    def tick(self):  # type: ignore[no-untyped-def]
        return self.app.scheduler.tick()


@pytest.fixture
def world(database_url: str, tmp_path: Path) -> Iterator[World]:
    base = default_config(tmp_path / "home")
    config = AppConfig(**{**base.__dict__, "database_url": database_url, "judge_address": "judge@example.test"})
    config.games_dir.mkdir(parents=True, exist_ok=True)
    clock = ManualClock()
    app = App(config, clock=clock, faults=Faults())
    yield World(config, clock, app)
    app.close()


STANDARD_PLAYERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"]


def game_file(players: int = 7, extra: str = "", preferences: bool = True) -> str:
    """A standard game whose players ask for the power in their address (when ``preferences``)."""
    lines = []
    for name in STANDARD_PLAYERS[:players]:
        power = f", power: {name.capitalize()}" if preferences else ""
        lines.append(f"  - {{email: {name}@example.test{power}}}")
    return (
        "variant: standard\n"
        "gm: master@example.test\n"
        "timezone: Europe/Rome\n"
        "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n"
        "reminders: [24h]\n"
        + extra
        + "players:\n" + "\n".join(lines) + "\n"
    )
