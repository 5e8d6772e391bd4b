"""``gm tick`` (everything due, once: for cron), ``gm run`` (the daemon), ``gm reload``, ``gm db``."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded by the commands themselves: `gm --help` loads every command's module
    from gm.app import App

log = logging.getLogger("gm.run")


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
    up.add_argument("revision", nargs="?", default="head", help="the schema revision to reach (default: head, the newest)")
    up.set_defaults(run=run_db_upgrade)
    down = actions.add_parser("downgrade", help="downgrade the schema to a revision")
    down.add_argument("revision", help="the schema revision to go back to (gm db status names the current one)")
    down.set_defaults(run=run_db_downgrade)
    status = actions.add_parser("status", help="the schema revision in the database and the newest one")
    status.set_defaults(run=run_db_status)


EX_TEMPFAIL = 75  # sysexits.h: cron reports it; the next tick goes on where this one stopped


def run_tick(args: argparse.Namespace) -> int:
    """Exit 0 when everything due was done; 75, with the reasons on stderr, when some of it
    waits (on a broken mail server, or on a lock held too long by another process)."""
    from gm.cli.startup import exposed, loaded, prepared
    from gm.clock import SystemClock
    from gm.runtime.idle import what_is_due

    config = loaded(args)
    due = what_is_due(config, SystemClock().now())
    if not due:
        exposed(config)  # warned of at every start, as the whole tick does
        return 0
    import asyncio

    from gm.app import App

    from gm.cli import logs
    from gm.runtime.daemon import RoundReport

    app = App(prepared(config, args.command))
    log.debug("tick: %s", due)  # after ``prepared``: the log masks the configuration's secrets from there
    report = RoundReport()  # filled in as the work is done: what was done is said if the rest fails
    try:
        asyncio.run(app.daemon().once(report))
        for line in report.tick.processed:
            log.info("processed %s", line)
        if report.received or report.sent:
            log.info("received %d mails, sent %d", report.received, report.sent)
        problems = report.problems()
        for problem in problems:
            print(f"gm tick: {problem}", file=sys.stderr)
            logs.also_in_file(args, f"gm tick: {problem}")
        return EX_TEMPFAIL if problems else 0
    except Exception:
        args.done = f"before that it {report.done()}"  # said with the error (gm.cli.main)
        raise
    finally:
        app.close()


class _Stopped(BaseException):
    """SIGTERM while the daemon was starting up (before its event loop took the signal over).
    Not an ``Exception``: code that catches every error (a database probe, a library) lets it by."""


class _StopWhileStarting:
    """Takes SIGTERM until the event loop does: stops the start where it is, and remembers the
    request in case the code that met it swallowed even that."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: object) -> None:
        if not self.requested:
            log.info("%s received: stopping", signal.Signals(signum).name)
        self.requested = True
        raise _Stopped


def run_daemon(args: argparse.Namespace) -> int:
    # A stop that comes while gm starts (a slow start on a busy host) ends it as cleanly as later.
    import asyncio

    from gm.app import App
    from gm.cli import startup
    from gm.cli.startup import config_from
    from gm.store.database import current_revision

    stop = _StopWhileStarting()
    signal.signal(signal.SIGTERM, stop)
    app: App | None = None
    try:
        config = config_from(args)
        log.info("gm run starting, pid %d on %s: %s", os.getpid(), socket.gethostname(), startup.versions())
        for line in startup.summary(config):
            log.info("%s", line)
        app = _app_once_the_database_answers(config, args.interval)
        daemon = app.daemon()
        if stop.requested:
            raise _Stopped
        if args.once:
            asyncio.run(daemon.once())
            return 0
        asyncio.run(_serve(daemon, args.interval))
    except KeyboardInterrupt:
        log.info("interrupted: stopping")
    except _Stopped:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # stopping already: closing is not cut short
        if app is not None:
            app.close()
    log.info("gm run stopped")
    return 0


def _app_once_the_database_answers(config: Any, interval: float) -> App:
    """The daemon's App, its schema and role said; a database that does not answer yet
    (restarting, or started after gm) is waited for, said once when it goes and once when it
    is back (gm.outages)."""
    import time

    from gm.app import App
    from gm.outages import Part
    from gm.store.database import connection_lost, current_revision, shown

    health = Part(shown(config.database_url), log)
    tries = 0
    while True:
        app = None
        try:
            app = App(config)
            app.preload()
            log.info("schema at %s", current_revision(app.db.engine))
            _say_role(app, interval)
        except Exception as exc:
            if app is not None:
                app.close()
            lost = connection_lost(exc)
            if lost is None:
                raise
            health.away(lost, "the start of gm run")
            tries += 1
            time.sleep(min(2.0, 0.2 * 2 ** tries))
            continue
        health.back()
        return app


def _say_role(app: App, interval: float) -> None:
    """What this daemon does, and which other gm processes share its database (gm.cli.startup)."""
    log.info("role: the daemon: the inbox (IDLE or polling), the deadlines every %g s and the outbox; any number "
             "of gm processes may share this database, each mail and game is taken by one at a time "
             "(docs/delivery.md)", interval)
    from gm.cli import startup

    startup.register(app.db.engine, "run")
    others = startup.others(app.db.engine, "run")
    if app.db.engine.dialect.name == "sqlite":
        log.info("SQLite: gm processes on this host share the database one write at a time")
    daemons = [name for name in others if name.startswith("gm run ")]
    if daemons:
        log.warning("another gm daemon works on this database (%s): safe, the daemons share the work; stop one if it "
                    "was started by mistake", ", ".join(daemons))
    passing = [name for name in others if name not in daemons]  # a cron tick, a piped mail: no daemon
    if passing:
        log.info("other gm processes on this database now: %s", ", ".join(passing))


async def _serve(daemon: Any, interval: float) -> None:
    """Runs the daemon until SIGTERM (systemctl stop) or SIGINT: the loops are cancelled where
    they wait; a mail being handled is committed or rolled back whole, a mail being sent goes
    again after outbox_lease (docs/delivery.md)."""
    import asyncio

    running = asyncio.ensure_future(daemon.run(tick_seconds=interval))
    loop = asyncio.get_running_loop()

    def stop(signum: int) -> None:
        log.info("%s received: stopping", signal.Signals(signum).name)
        running.cancel()

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop, signum)
    try:
        await running
    except asyncio.CancelledError:
        if not running.cancelled():
            raise


def run_reload(args: argparse.Namespace) -> int:
    from gm.app import App
    from gm.cli.startup import config_from

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
    from gm.cli.startup import config_from
    from gm.store.database import current_revision, make_engine, upgrade

    engine = make_engine(config_from(args).database_url)
    upgrade(engine, args.revision)
    print(f"schema at {current_revision(engine)}")
    return 0


def run_db_downgrade(args: argparse.Namespace) -> int:
    from gm.cli.startup import config_from
    from gm.store.database import current_revision, downgrade, make_engine

    engine = make_engine(config_from(args).database_url)
    downgrade(engine, args.revision)
    print(f"schema at {current_revision(engine)}")
    return 0


def run_db_status(args: argparse.Namespace) -> int:
    from gm.cli.startup import config_from
    from gm.store.database import current_revision, head_revision, make_engine

    engine = make_engine(config_from(args).database_url)
    print(f"database: {current_revision(engine)}  newest: {head_revision()}")
    return 0
