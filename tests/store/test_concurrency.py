"""Several `gm tick` processes at once never process a phase twice; a crash inside a phase's
transaction leaves the old phase untouched, and the next run does it completely."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from gm.app import App
from gm.clock import SystemClock
from gm.config import AppConfig, default_config
from gm.store.models import Game, OutboundMail, PhaseRecord
from tests.store.conftest import game_file

GAMES = 4


def _install(database_url: str, tmp_path: Path) -> tuple[Path, AppConfig]:
    """A gm installation with GAMES started games, all already past their deadline."""
    base = default_config(tmp_path / "home")
    config = AppConfig(**{**base.__dict__, "database_url": database_url})
    config.games_dir.mkdir(parents=True)
    for n in range(GAMES):
        body = game_file().replace("@example.test", f"{n}@example.test")
        (config.games_dir / f"g{n}.yaml").write_text(body, encoding="utf-8")
    app = App(config, clock=SystemClock())
    app.scheduler.tick()  # creates and starts the games
    past = datetime.now(UTC) - timedelta(minutes=1)
    with app.db.unit_of_work() as session:
        session.execute(update(Game).values(deadline=past, due_at=past))
    app.close()
    config_file = tmp_path / "gm.yaml"
    config_file.write_text(f"home: {config.home}\ndatabase: {database_url}\ngames_dir: {config.games_dir}\n")
    return config_file, config


def _gm(config_file: Path, *args: str, crash_at: str | None = None) -> subprocess.Popen:
    env = {**os.environ, "GM_CONFIG": str(config_file)}
    env.pop("GM_CRASH_AT", None)
    if crash_at:
        env["GM_CRASH_AT"] = crash_at
    return subprocess.Popen([sys.executable, "-m", "gm.cli.main", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _state(database_url: str) -> tuple[list[str], int, int]:
    config = AppConfig(**{**default_config().__dict__, "database_url": database_url})
    app = App(config)
    with app.db.sessions() as session:
        phases = sorted(session.scalars(select(Game.phase)))
        records = session.scalar(select(func.count()).select_from(PhaseRecord))
        results = session.scalar(select(func.count()).select_from(OutboundMail).where(OutboundMail.kind == "results"))
    app.close()
    return phases, records, results


@pytest.mark.slow
def test_racing_ticks_process_each_phase_once(database_url: str, tmp_path: Path) -> None:
    config_file, _ = _install(database_url, tmp_path)
    racers = [_gm(config_file, "tick") for _ in range(4)]
    outputs = [racer.communicate(timeout=120) for racer in racers]
    assert all(racer.returncode == 0 for racer in racers), outputs
    # each phase processed is one log line (gm tick logs what it did on stderr)
    processed = [found.group(1) for _, err in outputs for found in re.finditer(r"processed (g\d \S+)$", err, re.M)]
    assert sorted(processed) == sorted(f"g{n} S1901M" for n in range(GAMES))
    phases, records, results = _state(database_url)
    assert phases == ["F1901M"] * GAMES
    assert records == GAMES
    assert results == GAMES * 8


@pytest.mark.slow
@pytest.mark.parametrize("crash_at", ["after-adjudication", "after-phase-record", "after-mails-queued"])
def test_a_crash_inside_the_transaction_leaves_the_old_phase(database_url: str, tmp_path: Path, crash_at: str) -> None:
    config_file, _ = _install(database_url, tmp_path)
    crashed = _gm(config_file, "tick", crash_at=crash_at)
    crashed.communicate(timeout=120)
    assert crashed.returncode == 70
    assert _state(database_url) == (["S1901M"] * GAMES, 0, 0)
    healthy = _gm(config_file, "tick")
    healthy.communicate(timeout=120)
    assert healthy.returncode == 0
    assert _state(database_url) == (["F1901M"] * GAMES, GAMES, GAMES * 8)


@pytest.mark.slow
def test_a_crash_after_the_commit_keeps_the_new_phase(database_url: str, tmp_path: Path) -> None:
    config_file, _ = _install(database_url, tmp_path)
    crashed = _gm(config_file, "tick", crash_at="after-commit")
    crashed.communicate(timeout=120)
    assert crashed.returncode == 70
    phases, records, results = _state(database_url)
    assert records == 1 and results == 8 and sorted(phases) == ["F1901M"] + ["S1901M"] * (GAMES - 1)
