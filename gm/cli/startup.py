"""What a long-running gm process says about itself when it starts: its versions, its
configuration without secrets, its role, and the other gm processes working on its database.

Several gm processes on one database are safe by design (docs/delivery.md): each mail and each
game is taken by one of them at a time. A daemon says so at start-up, naming the others it sees
(on PostgreSQL each gm connection carries the process's name, ``application_name``; on SQLite
each daemon keeps a locked file beside the database), so that a second daemon started by
mistake is never unnoticed.
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from gm.cli import logs
from gm.config import AppConfig, ConfigError, MailboxConfig, load_config

if TYPE_CHECKING:
    from sqlalchemy import Engine

LIBRARIES = ("SQLAlchemy", "alembic", "aioimaplib", "aiosmtplib", "psycopg")


def process_name(command: str) -> str:
    """How this process names itself to PostgreSQL (at most 63 bytes are kept)."""
    return f"gm {command} {socket.gethostname()}:{os.getpid()}"[:63]


def config_from(args: argparse.Namespace) -> AppConfig:
    """The configuration; its secrets are masked in the log from here on, and on PostgreSQL the
    database connections carry this process's name."""
    return prepared(loaded(args), getattr(args, "command", None) or "")


def prepared(config: AppConfig, command: str) -> AppConfig:
    """``config`` as ``config_from`` gives it: its secrets masked in the log from here on, the
    database connections carrying this process's name."""
    logs.mask(config.secrets())
    exposed(config)
    cache_in_home(config)
    return named(config, command)


def cache_in_home(config: AppConfig) -> None:
    """What gm keeps between processes (gm.maps.cache: maps read, boards' layers drawn) goes to
    ``HOME/cache`` unless ``$GM_CACHE_DIR`` says where: beside the database, where the daemon,
    cron's ticks and a mail server's pipes all write as gm, and the drawing workers with them."""
    os.environ.setdefault("GM_CACHE_DIR", str(config.home / "cache"))


def exposed(config: AppConfig) -> None:
    """A secrets file every user of the machine may read is a WARNING at every start (gm check
    fails on it): the daemon's and cron's logs are where an operator looks."""
    file = config.secrets_file
    try:
        readable = file is not None and bool(file.stat().st_mode & 0o004)
    except OSError:
        return  # the configuration's reader has said what is wrong with it
    if readable:
        logging.getLogger("gm.config").warning(
            "secrets_file %s is readable by every user of this machine: chmod 640 %s (owner root, group of the "
            "user gm runs as)", file, file)


def loaded(args: argparse.Namespace) -> AppConfig:
    """The configuration as read, nothing more (nothing of SQLAlchemy loaded)."""
    try:
        return load_config(Path(args.config) if getattr(args, "config", None) else None)
    except ConfigError as exc:
        raise SystemExit(f"gm: {exc}") from None


def named(config: AppConfig, command: str) -> AppConfig:
    """``config`` whose database connections carry this process's name (PostgreSQL)."""
    if not config.database_url.startswith("postgresql"):
        return config
    from sqlalchemy.engine import make_url

    url = make_url(config.database_url)
    if "application_name" in url.query:
        return config
    url = url.update_query_dict({"application_name": process_name(command)})
    return replace(config, database_url=url.render_as_string(hide_password=False))


def versions() -> str:
    import platform
    from importlib import metadata

    found = []
    for name in ("gm", *LIBRARIES):
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            continue
    return f"{', '.join(found)}; Python {platform.python_version()}; adjudicator {compiled()}"


def compiled() -> str:
    from gm.adjudicator import engine

    module = Path(engine.__file__ or "engine.py")
    if module.suffix != ".py":
        return "compiled"
    if any(module.parent.glob(f"{module.stem}.*.so")):
        return "running as Python (GM_PURE_PYTHON=1, or changed since compiled: run scripts/setup)"
    return "not compiled (no C compiler at install): runs as Python, about half as fast"


def mailbox(box: MailboxConfig) -> str:
    if box.kind == "maildir":
        return f"maildir {box.path}"
    where = f"{box.kind}://{box.username + '@' if box.username else ''}{box.host}:{box.port or 'default port'}"
    tls = box.tls if box.tls == "none" else f"{box.tls}, certificate checked against {box.ca_file or 'the system CAs'}"
    extra = f", mailbox {box.mailbox}, IDLE rounds of {box.idle_seconds} s" if box.kind == "imap" else ""
    return f"{where} (tls {tls}{extra})"


def summary(config: AppConfig) -> list[str]:
    """The configuration in a few lines, without a secret."""
    return [
        f"configuration: {config.source or 'embedded defaults'}"
        f"{f', secrets from {config.secrets_file}' if config.secrets_file else ''}; database {config.database_shown}",
        f"judge {config.judge_name} <{config.judge_address}>, administrator {config.admin_address}; games in "
        f"{config.games_dir}; home {config.home}",
        f"inbound: {mailbox(config.inbound)}",
        f"outbound: {mailbox(config.outbound)}",
        f"limits: mails up to {config.max_mail_bytes // 1024} KB, {config.sender_rate} replies per sender an hour; "
        f"lock_timeout {config.lock_timeout:g} s, statement_timeout {config.statement_timeout:g} s, "
        f"outbox_lease {config.outbox_lease:g} s",
    ]


def others(engine: Engine, command: str) -> list[str]:
    """The other gm processes working on this database now: on PostgreSQL every one connected,
    on SQLite the daemons (`register`)."""
    if engine.dialect.name == "sqlite":
        return sorted(name for name, _ in _registered(engine) if name != process_name(command))
    from sqlalchemy import text

    with engine.connect() as connection:
        rows = connection.execute(text(
            "SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name LIKE 'gm %' AND application_name <> :me"), {"me": process_name(command)})
        return sorted(name for (name,) in rows)


_held: list[int] = []  # the locked files of this process (kept open while it runs)


def register(engine: Engine, command: str) -> None:
    """Makes this process known to the others on SQLite (PostgreSQL knows its connections): a
    file beside the database, locked as long as the process runs, so that one left by a process
    that died is recognised as such."""
    folder = _folder(engine)
    if folder is None:
        return
    import fcntl

    folder.mkdir(exist_ok=True)
    name = process_name(command)
    ready = folder / f".{os.getpid()}.new"
    ready.write_text(name)
    handle = os.open(ready, os.O_RDONLY)
    fcntl.flock(handle, fcntl.LOCK_EX)  # locked before it can be seen: never taken for a dead one's
    ready.rename(folder / name.replace(" ", "-").replace("/", "-"))
    _held.append(handle)


def _registered(engine: Engine) -> list[tuple[str, Path]]:
    folder = _folder(engine)
    if folder is None or not folder.is_dir():
        return []
    import fcntl

    alive = []
    for file in folder.iterdir():
        if file.name.startswith("."):
            continue
        try:
            handle = os.open(file, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:  # held: its process runs
            alive.append((file.read_text().strip(), file))
        else:
            file.unlink(missing_ok=True)  # left by a process that is gone
        finally:
            os.close(handle)
    return alive


def _folder(engine: Engine) -> Path | None:
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    return Path(database).with_name(Path(database).name + ".processes")
