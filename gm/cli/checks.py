"""Everything ``gm check`` tries before a first run, each a small function returning what it
found: OK, WARN (gm runs, but look) or FAIL (what to fix). Nothing is changed: the schema is
not upgraded, no mail is read, marked or sent."""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gm.config import AppConfig, MailboxConfig

OK, WARN, FAIL = "OK", "WARN", "FAIL"
LOOPBACK = ("127.0.0.1", "::1", "localhost")


@dataclass(frozen=True)
class Finding:
    status: str  # OK | WARN | FAIL
    subject: str  # what was tried: "database", "inbound", "games/g1.yaml"...
    text: str  # what was found, or what is wrong and how to fix it

    def line(self) -> str:
        return f"{self.status:<4}  {self.subject}: {self.text}"


def everything(config: AppConfig, timeout: float = 20.0) -> Iterator[Finding]:
    if os.geteuid() == 0:
        yield Finding(WARN, "user", "running as root, which may read and write what the user gm runs as cannot: "
                                    "run gm check as that user (runuser -u gm -- gm check)")
    yield from secrets(config)
    yield from paths(config)
    yield spool(config)
    yield from database(config)
    yield mailbox("inbound", config.inbound, config, timeout)
    yield mailbox("outbound", config.outbound, config, timeout)
    yield from authentication(config)
    yield from game_masters(config)
    yield from web(config)
    yield from games(config)


def web(config: AppConfig) -> Iterator[Finding]:
    """Which gm process of this host serves the web (gm.web.lock): several `gm run` with one
    configuration serve it from one of them."""
    if config.web is None:
        return
    import socket

    from gm.web.lock import LOCK_FILE, WebLock

    where = f"{config.web.host}:{config.web.port}"
    holder = WebLock(config.home / LOCK_FILE).holder()
    if holder is not None:
        yield Finding(OK, "web", f"served on {where} by {holder}; any other gm run on this host serves none, and "
                                 "takes it over should that one stop")
        return
    with socket.socket(socket.AF_INET6 if ":" in config.web.host else socket.AF_INET) as probe:
        try:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((config.web.host, config.web.port))
        except OSError as exc:
            yield Finding(FAIL, "web", f"{where} cannot be listened on ({exc.strerror}), and no gm process of this "
                                       "home serves it: another program holds the port, or host is not this "
                                       "machine's; choose another web port or host")
            return
    yield Finding(OK, "web", f"no gm process serves {where} now; the first gm run started serves it, the others "
                             "take it over should it stop")


def authentication(config: AppConfig) -> Iterator[Finding]:
    """What ``require_authentication_results`` trusts (gm.services.authresults); the
    configuration is refused when it is on without ``authserv_id``."""
    if config.require_authentication_results:
        yield Finding(OK, "authentication", f"SIGNON counts only in mail with a DKIM or DMARC pass for its From "
                                            f"domain in the topmost Authentication-Results of {config.authserv_id}: "
                                            "that server must add one to every mail it delivers to gm")
    elif config.authserv_id:
        yield Finding(WARN, "authentication", f"authserv_id is {config.authserv_id}, but "
                                              "require_authentication_results is false: nothing uses it")


def game_masters(config: AppConfig) -> Iterator[Finding]:
    """Who may CREATE games by mail, and whether gm may write the files that CREATE and SETTINGS
    write (every game master changes its game's settings by mail, whoever created it)."""
    if not config.game_masters:
        yield Finding(OK, "game_masters", "none: CREATE by mail is refused (the reply says to ask you); games are "
                                          "made from the settings files you write")
    elif "*" in config.game_masters:
        yield Finding(WARN, "game_masters", "* lets anyone create games by mail; name addresses or domains "
                                            "(*@club.example) to keep it to your game masters")
    else:
        yield Finding(OK, "game_masters", f"may CREATE games by mail: {', '.join(config.game_masters)}")
    if config.games_dir.is_dir() and not os.access(config.games_dir, os.W_OK | os.X_OK):
        status = FAIL if config.game_masters else WARN
        yield Finding(status, "games_dir", f"{config.games_dir} is not writable by this user (uid {os.getuid()}): "
                                           "CREATE and SETTINGS by mail cannot write the games' settings files there "
                                           "(they answer so); make it writable by the user gm runs as")


def secrets(config: AppConfig) -> Iterator[Finding]:
    file = config.secrets_file
    if file is None:
        return
    mode = file.stat().st_mode
    if mode & stat.S_IROTH:
        yield Finding(FAIL, "secrets_file", f"{file} is readable by every user of this machine: "
                                           f"chmod 640 {file} (owner root, group of the user gm runs as)")
    else:
        yield Finding(OK, "secrets_file", f"{file}, readable by this user, not by others")


def _writable_dir(path: Path) -> str | None:
    """Why this process cannot make files in ``path`` (made when missing, as gm does), or None."""
    probe = path
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        return f"{probe} is not a directory"
    if not os.access(probe, os.W_OK | os.X_OK):
        return f"{probe} is not writable by this user (uid {os.getuid()})"
    return None


def paths(config: AppConfig) -> Iterator[Finding]:
    problem = _writable_dir(config.home)
    yield Finding(FAIL, "home", f"{problem}: gm keeps its files there") if problem else \
        Finding(OK, "home", f"{config.home} writable")
    if not config.games_dir.is_dir():
        yield Finding(WARN, "games_dir", f"{config.games_dir} does not exist: no games yet (make it, and put a "
                                         "settings file per game there: deploy/game.example.yaml)")
    elif not os.access(config.games_dir, os.R_OK | os.X_OK):
        yield Finding(FAIL, "games_dir", f"{config.games_dir} is not readable by this user (uid {os.getuid()})")
    else:
        yield Finding(OK, "games_dir", f"{config.games_dir} readable")
    if config.database_url.startswith("sqlite"):
        file = Path(config.database_url.split("///", 1)[-1])
        problem = _writable_dir(file.parent)
        if problem is None and file.exists():
            from gm.store.database import unusable_file

            problem = unusable_file(file)
        yield Finding(FAIL, "database file", problem) if problem else \
            Finding(OK, "database file", f"{file} and its directory writable")


SPOOL_LATE = 300  # seconds: a mail left in the spool longer than this was not taken when it should have been


def spool(config: AppConfig) -> Finding:
    """The mails `gm receive` left in the spool (gm.transport.spool): none kept waiting, none set
    aside as unreadable."""
    import time

    from gm.transport.spool import Spool, spool_path

    found = Spool(spool_path(config.home))
    problem = _writable_dir(found.path)
    if problem:
        return Finding(FAIL, "spool", f"{problem}: gm receive handles each mail in its own process (slower)")
    try:
        waiting = found.waiting()
        late = [f for f in waiting if time.time() - f.stat().st_mtime > SPOOL_LATE]
        aside = list((found.path / "unreadable").iterdir()) if (found.path / "unreadable").is_dir() else []
    except OSError as exc:
        return Finding(FAIL, "spool", f"{found.path} cannot be read: {exc}")
    if aside:
        return Finding(WARN, "spool", f"{len(aside)} files in {found.path / 'unreadable'} are no mail gm receive left: "
                                      "look at them (a mail server's or another program's?), then remove them")
    if late:
        return Finding(WARN, "spool", f"{len(late)} mails gm receive left in {found.path / 'new'} wait for more than "
                                      f"{SPOOL_LATE // 60} minutes: run gm tick (it takes them) and read what it says")
    return Finding(OK, "spool", f"{found.path}: {len(waiting)} mails from gm receive waiting")


def database(config: AppConfig) -> Iterator[Finding]:
    from sqlalchemy.exc import DBAPIError

    from gm.cli.startup import others
    from gm.store.database import Timeouts, head_revision, make_engine

    shown = config.database_shown
    engine = make_engine(config.database_url, timeouts=Timeouts(config.lock_timeout, config.statement_timeout))
    try:
        with engine.connect() as connection:
            server = connection.exec_driver_sql(
                "SELECT version()" if engine.dialect.name == "postgresql" else "SELECT 'SQLite ' || sqlite_version()"
            ).scalar()
        revision, newest = _revision(engine), head_revision()
        seen = others(engine, "check")
    except DBAPIError as exc:
        yield Finding(FAIL, "database", f"{shown}: {str(exc.orig).strip().splitlines()[0]}; check the database URL, "
                                        "database_password and that the server runs (deploy/README.md: PostgreSQL)")
        return
    except Exception as exc:  # noqa: BLE001 - a file SQLite cannot use, a URL SQLAlchemy cannot read
        yield Finding(FAIL, "database", f"{shown}: {exc}")
        return
    finally:
        engine.dispose()
    server = str(server).split(" on ")[0].split(",")[0]
    yield Finding(OK, "database", f"{shown} ({server})")
    if revision == newest:
        yield Finding(OK, "schema", f"at {revision}, the newest")
    elif revision is None:
        yield Finding(WARN, "schema", f"none yet: `gm db upgrade` makes it (every gm process does at start-up)")
    elif revision in _known_revisions():
        yield Finding(WARN, "schema", f"at {revision}, this gm brings {newest}: run `gm db upgrade` (every gm process "
                                      "does at start-up)")
    else:
        yield Finding(FAIL, "schema", f"at {revision}, which this gm does not know (its newest is {newest}): a newer gm "
                                      "wrote it; update this checkout (deploy/README.md: upgrades)")
    if seen:
        yield Finding(OK, "other processes", f"working on this database now: {', '.join(seen)} (any number may "
                                             "share it: docs/delivery.md)")


def _revision(engine) -> str | None:  # type: ignore[no-untyped-def]
    from gm.store.database import current_revision

    return current_revision(engine)


def _known_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    from gm.store.database import MIGRATIONS_DIR

    return {script.revision for script in ScriptDirectory(str(MIGRATIONS_DIR)).walk_revisions()}


def mailbox(side: str, box: MailboxConfig, config: AppConfig, timeout: float) -> Finding:
    if box.kind == "maildir":
        if box.path is None:
            return Finding(FAIL, side, "kind maildir needs a path")
        problem = _writable_dir(box.path)
        return Finding(FAIL, side, f"maildir {problem}") if problem else Finding(OK, side, f"maildir {box.path} writable")
    if box.ca_file is not None and box.tls != "none" and not os.access(box.ca_file, os.R_OK):
        return Finding(FAIL, side, f"ca_file {box.ca_file} cannot be read by this user (uid {os.getuid()})")
    try:
        found = asyncio.run(_probe(side, box, config, timeout))
    except Exception as exc:  # noqa: BLE001 - InboxUnavailable, ServerFailure: their words say what to fix
        return Finding(FAIL, side, str(exc))
    if box.tls == "none" and box.password and box.host not in LOOPBACK:
        return Finding(WARN, side, f"{found}; but tls is none: the password crosses the network in clear")
    return Finding(OK, side, found)


async def _probe(side: str, box: MailboxConfig, config: AppConfig, timeout: float) -> str:
    if side == "inbound":
        from gm.transport.imap import ImapInbox

        inbox = ImapInbox(box, _NoWatermarks(), timeout=timeout)
        return f"{inbox.watermark_name}: {await asyncio.wait_for(inbox.probe(), timeout * 3)}"
    from gm.transport.smtp import SmtpSender

    sender = SmtpSender(box, timeout=timeout)
    return f"smtp://{sender.server}: {await asyncio.wait_for(sender.probe(), timeout * 3)}"


class _NoWatermarks:
    """A probe reads no mail: it needs no watermark."""

    def load(self, mailbox: str) -> None:
        return None

    def save(self, mailbox: str, watermark: object) -> None:
        raise AssertionError("gm check reads no mail")


def games(config: AppConfig) -> Iterator[Finding]:
    from gm.settings.reader import SettingsError, read_settings
    from gm.variants.catalog import VariantCatalog
    from gm.variants.setup import setup_of

    if not config.games_dir.is_dir():
        return
    catalog = VariantCatalog()
    names = set(catalog.names())

    def rule_problems(variant: str, chosen):  # type: ignore[no-untyped-def]
        return setup_of(catalog.get(variant)).option_problems(chosen)

    files = sorted(p for p in config.games_dir.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    if not files:
        yield Finding(WARN, "games", f"no settings files in {config.games_dir} yet")
    for path in files:
        try:
            found = read_settings(path.read_text(encoding="utf-8"), str(path), names.__contains__, rule_problems)
        except OSError as exc:
            yield Finding(FAIL, path.name, f"cannot be read ({exc.strerror})")
        except SettingsError as exc:
            yield Finding(FAIL, path.name, "; ".join(str(problem) for problem in exc.problems))
        else:
            yield Finding(OK, path.name, ", ".join(f"game {g.name} ({g.variant}, GM {g.gm})" for g in found))
            if not os.access(path, os.W_OK):
                yield Finding(WARN, path.name, f"not writable by this user (uid {os.getuid()}): its game master's "
                                               "SETTINGS by mail cannot change it")
