"""``gm tick`` (everything due, once: for cron), ``gm run`` (the daemon), ``gm reload``, ``gm db``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

from gm.app import App
from gm.config import ConfigError, load_config
from gm.store.database import current_revision, downgrade, head_revision, make_engine, upgrade


def register(commands: Any) -> None:
    tick = commands.add_parser("tick", help="do everything that is due once, then exit (for cron)")
    tick.set_defaults(run=run_tick)
    daemon = commands.add_parser("run", help="run continuously (the daemon)")
    daemon.add_argument("--interval", type=float, default=30.0, help="seconds between scheduler ticks")
    daemon.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    daemon.set_defaults(run=run_daemon)
    reload = commands.add_parser("reload", help="read the game settings files now")
    reload.set_defaults(run=run_reload)
    db = commands.add_parser("db", help="the database schema")
    actions = db.add_subparsers(dest="action", required=True, metavar="ACTION")
    up = actions.add_parser("upgrade", help="create or upgrade the schema")
    up.add_argument("revision", nargs="?", default="head")
    up.set_defaults(run=run_db_upgrade)
    down = actions.add_parser("downgrade", help="downgrade the schema to a revision")
    down.add_argument("revision")
    down.set_defaults(run=run_db_downgrade)
    status = actions.add_parser("status", help="the schema revision in the database and the newest one")
    status.set_defaults(run=run_db_status)


def config_from(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    try:
        return load_config(Path(args.config) if getattr(args, "config", None) else None)
    except ConfigError as exc:
        raise SystemExit(f"gm: {exc}") from None


EX_TEMPFAIL = 75  # sysexits.h: cron reports it; the next tick goes on where this one stopped


def run_tick(args: argparse.Namespace) -> int:
    """Exit 0 when everything due was done; 75, with the reasons on stderr, when some of it
    waits (on a broken mail server, or on a lock held too long by another process)."""
    app = App(config_from(args))
    try:
        report = asyncio.run(app.daemon().once())
        for line in report.tick.processed:
            print(f"processed {line}")
        for line in report.tick.refused_settings:
            print(line)
        if report.received or report.sent:
            print(f"received {report.received} mails, sent {report.sent}")
        problems = report.problems()
        for problem in problems:
            print(f"gm tick: {problem}", file=sys.stderr)
        return EX_TEMPFAIL if problems else 0
    finally:
        app.close()


def run_daemon(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = App(config_from(args))
    try:
        daemon = app.daemon()
        if args.once:
            asyncio.run(daemon.once())
            return 0
        asyncio.run(daemon.run(tick_seconds=args.interval))
    except KeyboardInterrupt:
        return 0
    finally:
        app.close()
    return 0


def run_reload(args: argparse.Namespace) -> int:
    app = App(config_from(args))
    try:
        report = app.scheduler.settings_files.sync(force=True)
        for path in report.read:
            print(f"{path}: ok")
        for message in report.refused:
            print(message)
        return 1 if report.refused else 0
    finally:
        app.close()


def run_db_upgrade(args: argparse.Namespace) -> int:
    engine = make_engine(config_from(args).database_url)
    upgrade(engine, args.revision)
    print(f"schema at {current_revision(engine)}")
    return 0


def run_db_downgrade(args: argparse.Namespace) -> int:
    engine = make_engine(config_from(args).database_url)
    downgrade(engine, args.revision)
    print(f"schema at {current_revision(engine)}")
    return 0


def run_db_status(args: argparse.Namespace) -> int:
    engine = make_engine(config_from(args).database_url)
    print(f"database: {current_revision(engine)}  newest: {head_revision()}")
    return 0
