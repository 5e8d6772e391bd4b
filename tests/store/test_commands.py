"""The commands a server runs: `gm db`, `gm reload`, `gm tick`, `gm run`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gm.store.database import head_revision
from tests.store.conftest import game_file


def gm(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GM_CONFIG": str(config)}
    env.pop("GM_CRASH_AT", None)
    return subprocess.run([sys.executable, "-m", "gm.cli.main", *args], env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_server_commands(database_url: str, tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    config = tmp_path / "gm.yaml"
    config.write_text(f"database: {database_url}\ngames_dir: {games}\njudge_address: judge@example.test\n")
    done = gm(config, "db", "upgrade")
    assert done.returncode == 0 and f"schema at {head_revision()}" in done.stdout
    done = gm(config, "db", "status")
    assert f"database: {head_revision()}" in done.stdout
    (games / "g.yaml").write_text(game_file(players=3))
    done = gm(config, "reload")
    assert done.returncode == 0 and "g.yaml: ok" in done.stdout
    (games / "bad.yaml").write_text("variant: standard\ngm: nobody\n")
    done = gm(config, "reload")
    assert done.returncode == 1 and "line 2" in done.stdout
    assert gm(config, "tick").returncode == 0
    done = gm(config, "run", "--once")
    assert done.returncode == 0, done.stderr
