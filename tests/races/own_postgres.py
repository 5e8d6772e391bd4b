"""A PostgreSQL server of the test's own, with durable settings, to restart under gm's feet
(never the shared test server: other tests use it). Started by scripts/start-postgres on a free
port in a directory of its own, restarted with ``pg_ctl restart``, purged afterwards."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _pg_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: [int(x) for x in p.parent.name.split(".")])
    assert found, "PostgreSQL server binaries missing (scripts/start-postgres installs them as root)"
    return found[-1]


@dataclass
class OwnPostgres:
    directory: Path
    port: int
    admin_url: str

    @classmethod
    def start(cls) -> OwnPostgres:
        directory = Path(f"/tmp/gm-pg-restarts-{uuid.uuid4().hex[:8]}")  # under /tmp: the postgres user reaches it
        port = free_port()
        done = subprocess.run([str(ROOT / "scripts" / "start-postgres")], env=cls._env(directory, port),
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"scripts/start-postgres failed: {done.stderr}"
        return cls(directory, port, done.stdout.strip().splitlines()[-1])

    @staticmethod
    def _env(directory: Path, port: int) -> dict[str, str]:
        return {**os.environ, "GM_PG_DIR": str(directory), "GM_PG_PORT": str(port), "GM_PG_DURABLE": "1"}

    def pg_ctl(self, *args: str) -> float:
        """Run pg_ctl on this server (as the postgres user when root); the seconds it took."""
        run_as = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        started = time.monotonic()
        # The server's output to its log (-l), never to a pipe of ours: it would hold it open for ever.
        done = subprocess.run([*run_as, str(_pg_bin() / "pg_ctl"), "-D", str(self.directory / "data"), *args],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=120)
        assert done.returncode == 0, f"pg_ctl {' '.join(args)} exited {done.returncode}"
        return time.monotonic() - started

    def restart(self, mode: str) -> float:
        """``pg_ctl restart -m fast|immediate``, waiting until the server takes connections."""
        return self.pg_ctl("restart", "-m", mode, "-w", "-l", str(self.directory / "server.log"))

    def stop(self) -> None:
        self.pg_ctl("stop", "-m", "fast", "-w")

    def start_again(self) -> None:
        self.pg_ctl("start", "-w", "-l", str(self.directory / "server.log"),
                    "-o", f"-h 127.0.0.1 -p {self.port} -k {self.directory} -c max_connections=200")

    def new_database(self) -> str:
        name = f"gm_restart_{uuid.uuid4().hex[:10]}"
        admin = create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        return self.admin_url.rsplit("/", 1)[0] + f"/{name}"

    def purge(self) -> None:
        subprocess.run([str(ROOT / "scripts" / "stop-postgres"), "--purge"], env=self._env(self.directory, self.port),
                       capture_output=True, timeout=120)
