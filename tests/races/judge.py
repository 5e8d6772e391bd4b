"""A gm installation run by real processes, for the race tests: one database, one Maildir inbox
and one Maildir outbox shared by several `gm tick`, `gm run` and `gm receive` processes.

The test process plays the players (it drops mails into the inbox, or pipes them to `gm
receive` as a mail server would, again until it is taken) and reads the database and the
delivered mail afterwards to check what gm promised.
"""

from __future__ import annotations

import itertools
import mailbox
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import select

from gm.app import App
from gm.config import load_config
from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret
from gm.store.models import Game
from gm.transport.spool import Spool, spool_path
from tests.maildirs import mails_in

PLAYERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"]
EX_TEMPFAIL = 75


def secret_of(power: str) -> str:
    return f"{power.lower()}-race-secret"


@dataclass
class Judge:
    home: Path
    database_url: str
    config_file: Path = field(init=False)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))  # type: ignore[type-arg]
    crashes: Counter = field(default_factory=Counter)  # type: ignore[type-arg]  # crash point -> processes that died there
    kills: int = 0  # processes killed with SIGKILL
    piped: Counter = field(default_factory=Counter)  # type: ignore[type-arg]  # gm receive: "handed over" or "alone"
    sent_mails: list[str] = field(default_factory=list)  # Message-IDs of every mail the players sent
    meant_for: dict[str, int] = field(default_factory=dict)  # Message-ID -> the phase current when it was sent
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _app: App | None = None

    def __post_init__(self) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / "games").mkdir(exist_ok=True)
        self.inbox = self.home / "mail" / "inbox"
        self.outbox = self.home / "mail" / "outbox"
        self.config_file = self.home / "gm.yaml"
        self.config_file.write_text(
            f"home: {self.home}\n"
            f"database: {self.database_url}\n"
            "judge_address: judge@example.test\n"
            "sender_rate: 10000\n"
            "lock_timeout: 15\n"
            "outbox_lease: 3\n"
            f"inbound: {{kind: maildir, path: {self.inbox}}}\n"
            f"outbound: {{kind: maildir, path: {self.outbox}}}\n", encoding="utf-8")
        for box in (self.inbox, self.outbox):
            box.parent.mkdir(parents=True, exist_ok=True)
            mailbox.Maildir(box, create=True)

    # -- setting up -----------------------------------------------------------------

    def start_game(self, name: str = "g1") -> None:
        players = "\n".join(f"  - {{email: {p}@example.test, power: {p.capitalize()}}}" for p in PLAYERS)
        (self.home / "games" / f"{name}.yaml").write_text(
            "variant: standard\ngm: master@example.test\ntimezone: UTC\n"
            "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n"
            "early: {enabled: true, delay: 0m}\n"  # processed as soon as every order is in
            f"players:\n{players}\n", encoding="utf-8")
        app = self.app()
        app.scheduler.tick()
        with app.db.unit_of_work() as session:
            game = find_game(session, name)
            assert game is not None and game.phase, "the game did not start"
            for seat in current_seats(game):
                seat.secret_hash = hash_secret(secret_of(seat.power))

    def app(self) -> App:
        """The test's own view of the installation (one, kept: the players look often)."""
        if self._app is None:
            self._app = App(load_config(self.config_file))
        return self._app

    def close(self) -> None:
        if self._app is not None:
            self._app.close()
            self._app = None

    # -- processes --------------------------------------------------------------------

    def environment(self, crash_at: str | None = None) -> dict[str, str]:
        env = {**os.environ, "GM_CONFIG": str(self.config_file)}
        env.pop("GM_CRASH_AT", None)
        if crash_at:
            env["GM_CRASH_AT"] = crash_at
        return env

    def spawn(self, *args: str, crash_at: str | None = None) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", "gm.cli.main", *args], env=self.environment(crash_at),
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def finished(self, process: subprocess.Popen[bytes], crash_at: str | None = None) -> None:
        """Count how a process ended (70: it died at its crash point)."""
        _, err = process.communicate()
        with self._lock:
            if process.returncode == 70 and crash_at:
                self.crashes[crash_at] += 1
            elif process.returncode == -signal.SIGKILL:
                self.kills += 1
            elif process.returncode not in (0, EX_TEMPFAIL):
                raise AssertionError(f"gm exited {process.returncode}: {err.decode(errors='replace')[-2000:]}")

    # -- the players' mail ----------------------------------------------------------

    def mail(self, power: str, body: str, meant_for: int) -> bytes:
        message = EmailMessage()
        message["From"] = f"{power.lower()}@example.test"
        message["To"] = "judge@example.test"
        message["Subject"] = f"orders {next(self._ids)}"
        message["Message-ID"] = f"<race.{next(self._ids)}.{random.getrandbits(40)}@example.test>"
        message.set_content(f"SIGNON {power} g1 {secret_of(power)}\n{body}\n")
        with self._lock:
            self.sent_mails.append(message["Message-ID"])
            self.meant_for[message["Message-ID"]] = meant_for
        return bytes(message)

    def drop(self, raw: bytes) -> None:
        """Into the inbox, as a mail server's local delivery does."""
        mailbox.Maildir(self.inbox, create=False).add(raw)

    def pipe(self, raw: bytes) -> None:
        """To `gm receive`, again until it is taken, as a mail server does with a pipe."""
        for _ in range(50):
            process = subprocess.run([sys.executable, "-m", "gm.cli.main", "receive"], input=raw,
                                     env=self.environment(), capture_output=True, timeout=120)
            if process.returncode == 0:
                with self._lock:
                    self.piped["handed over" if b"mail handed to the running gm" in process.stderr else "alone"] += 1
                return
            assert process.returncode == EX_TEMPFAIL, process.stderr.decode(errors="replace")
            time.sleep(0.2)
        raise AssertionError("gm receive never took the mail")

    # -- what was delivered --------------------------------------------------------

    def delivered(self) -> list[EmailMessage]:
        return mails_in(self.outbox)  # type: ignore[return-value]

    def unread_in_inbox(self) -> int:
        """The mails not yet taken: in the inbox folder, and left in the spool by `gm receive`."""
        new = list((self.inbox / "new").iterdir())
        unseen = [p for p in (self.inbox / "cur").iterdir() if "S" not in p.name.partition(":2,")[2]]
        return len(new) + len(unseen) + len(Spool(spool_path(self.home)).waiting())

    def game_phase(self) -> tuple[int, str | None]:
        with self.app().db.reading() as session:
            game = session.scalars(select(Game).where(Game.name == "g1")).one()
            return game.phase_seq, game.phase
