"""Order mails per second, from the mailbox to stored orders and queued confirmations.

    .venv/bin/python bench/intake.py [--mails 2000] [--database sqlite|postgresql|both]
                                     [--statements] [--profile FILE]

Sets up a started standard game (untimed), drops N order mails from its seven players into a
local Maildir inbox (each: SIGNON, then the power's orders, as players write them), then times
one pass of gm's real intake: the Maildir inbox delivers each mail to the intake, which stores
it raw, reads it, checks the secret, parses and checks the orders, stores the new order set,
and queues the confirmation, one transaction per mail (two: the raw mail is committed first).
Prints mails per second and the median milliseconds per mail, SQLite's and PostgreSQL's
(``both``, the default), with the machine's load. PostgreSQL: $GM_TEST_POSTGRES_URL, else the
server scripts/start-postgres starts (bench/stores.py). ``--statements`` prints the SQL
statements per mail; ``--profile FILE`` runs the pass under cProfile.
"""

from __future__ import annotations

import argparse
import asyncio
import mailbox
import random
import statistics
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from sqlalchemy import func, select

from gm.app import App
from gm.bots.plausible import PlausiblePlayer
from gm.config import AppConfig, MailboxConfig, default_config
from gm.games import lifecycle
from gm.games.passwords import hash_secret
from gm.reports.names import Namer
from gm.services.intake import Intake
from gm.settings.reader import read_settings
from gm.store.models import OrderSet, OutboundMail
from gm.transport.maildir import MaildirInbox
from stores import Statements, database, load_average, profiled

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
SETTINGS = "name: bench\nvariant: standard\ngm: master@example.test\nplayers:\n" + "\n".join(
    f"  - {{email: {p.lower()}@example.test, power: {p}}}" for p in POWERS) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--statements", action="store_true", help="print the SQL statements per mail")
    parser.add_argument("--profile", metavar="FILE", help="run the timed pass under cProfile, statistics to FILE")
    args = parser.parse_args()
    print(f"{args.mails} order mails, {load_average()} at the start")
    for backend in ["sqlite", "postgresql"] if args.database == "both" else [args.database]:
        run(backend, args.mails, args.statements, args.profile)
    print(f"({load_average()} at the end)")
    return 0


def run(backend: str, mails: int, statements: bool = False, profile: str | None = None) -> float:
    """One timed pass over ``mails`` mails; mails per second."""
    with tempfile.TemporaryDirectory() as home_dir:
        home = Path(home_dir)
        with database(backend, home) as url:
            base = default_config(home)
            inbox_path = home / "inbox"
            config = AppConfig(**{**base.__dict__, "database_url": url, "judge_address": "judge@example.test",
                                  "sender_rate": 10**9,  # the bench's few players send thousands of mails
                                  "inbound": MailboxConfig(kind="maildir", path=inbox_path)})
            app = App(config)
            secrets = _set_up(app)
            _write_mails(app, inbox_path, secrets, mails)
            intake = Intake(app.services)
            counted = Statements(app.db.engine)
            timings: list[float] = []

            async def timed_deliver(raw: bytes, key: str) -> None:
                start = time.perf_counter()
                await intake.deliver(raw, key)
                timings.append((time.perf_counter() - start) * 1000)

            inbox = MaildirInbox(inbox_path)
            counted.counting = statements
            start = time.perf_counter()
            delivered = profiled(profile, lambda: asyncio.run(inbox.drain(timed_deliver)))
            elapsed = time.perf_counter() - start
            counted.counting = False
            with app.db.sessions() as session:
                stored = session.scalar(select(func.count()).select_from(OrderSet))
                replies = session.scalar(select(func.count()).select_from(OutboundMail)
                                         .where(OutboundMail.kind == "reply"))
            app.close()
    assert delivered == stored == replies == mails, (delivered, stored, replies)
    print(f"{backend:>10}: {delivered} order mails in {elapsed:.2f} s = {delivered / elapsed:.0f} mails/s "
          f"(median {statistics.median(timings):.2f} ms, p90 {sorted(timings)[int(len(timings) * 0.9)]:.2f} ms per mail)")
    if statements:
        print(counted.report(mails, "mail"))
    return delivered / elapsed


def _set_up(app: App) -> dict[str, str]:
    services = app.services
    (settings,) = read_settings(SETTINGS, "bench.yaml", services.known_variant)
    secrets = {p: f"{p.lower()}-bench-secret" for p in POWERS}
    with services.db.unit_of_work() as session:
        game = lifecycle.create_or_update(services, session, settings, SETTINGS, "bench.yaml")
        for seat in lifecycle.current_seats(game):
            seat.secret_hash = hash_secret(secrets[seat.power])
    return secrets


def _write_mails(app: App, path: Path, secrets: dict[str, str], count: int) -> None:
    services = app.services
    variant = services.catalog.get("standard")
    position = variant.initial_position()
    namer = Namer(variant)
    rng = random.Random(7)
    box = mailbox.Maildir(str(path), create=True)
    for n in range(count):
        power = POWERS[n % len(POWERS)]
        orders = [namer.order(o) for p, o in PlausiblePlayer(variant, rng).movement(position) if p == power]
        message = EmailMessage()
        message["From"] = f"{power.lower()}@example.test"
        message["To"] = "judge@example.test"
        message["Subject"] = "orders"
        message["Message-ID"] = make_msgid(domain="example.test")
        message.set_content(f"SIGNON {power} bench {secrets[power]}\n" + "\n".join(orders) + "\n")
        box.add(message)


if __name__ == "__main__":
    sys.exit(main())
