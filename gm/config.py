"""The server's own configuration (not a game's): where the database, the settings files and
the mailboxes are. Every value has an embedded default, so `gm` runs with no file at all.

Secrets are never written in the configuration itself: a value ``$NAME`` (the mailboxes'
``password``, ``database_password``) is read from ``secrets_file`` (``NAME=value`` lines, the
syntax of a systemd EnvironmentFile) or else from the environment, so that the daemon, cron,
an MTA pipe and ``gm check`` all find them the same way. A name found in neither is an error
that names it, never an empty password sent to a server.
"""

from __future__ import annotations

import os
import re
from fnmatch import fnmatchcase
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm.mailsyntax import ENCODED_WORD, mail_address
from gm.yamlfile import YamlProblem, load_strict

INBOUND_KINDS = ("maildir", "imap")
OUTBOUND_KINDS = ("maildir", "smtp")
TLS_MODES = {"imap": ("ssl", "starttls", "none"), "smtp": ("starttls", "ssl", "none")}
_TOKEN = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`{|}~-]+")  # RFC 2045's token: an authserv-id as mail servers write it


@dataclass(frozen=True)
class MailboxConfig:
    """Where mail comes from or goes to: a local Maildir, or a real server."""

    kind: str = "maildir"  # maildir | imap | smtp
    path: Path | None = None  # maildir
    host: str = "127.0.0.1"
    port: int = 0  # 0: the usual port for the kind and tls (IMAP 993/143/143, SMTP 587/465/25)
    username: str = ""
    password: str = ""
    tls: str = "none"  # none | starttls | ssl
    mailbox: str = "INBOX"  # imap
    ca_file: str | None = None  # the CA (or the server's own certificate) to check the server against
    idle_seconds: int = 300

    def __repr__(self) -> str:  # never the password, whatever prints a configuration
        shown = {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "password"}
        return f"MailboxConfig({', '.join(f'{k}={v!r}' for k, v in shown.items())}, password=***)"


@dataclass(frozen=True)
class WebConfig:
    """The web window on the games (docs/web.md): where `gm web` (and `gm run`, when the
    configuration has a ``web:`` section) serves it, and the address its mailed links name."""

    host: str = "127.0.0.1"
    port: int = 8080
    base_url: str = ""  # as readers reach it (behind a proxy: https://...); "": http://host:port
    trusted_proxies: str = "127.0.0.1"  # whose X-Forwarded-For / -Proto is believed (comma-separated)
    link_minutes: int = 30  # how long a mailed sign-in link works
    session_days: int = 14  # how long a session lasts without a visit

    @property
    def url(self) -> str:
        return (self.base_url or f"http://{self.host}:{self.port}").rstrip("/")


@dataclass(frozen=True)
class AppConfig:
    home: Path  # where embedded defaults keep their files
    database_url: str  # with database_password in it, when one is configured
    games_dir: Path
    judge_address: str = "gm@localhost"
    judge_name: str = "gm"
    admin_address: str = "postmaster@localhost"  # told of problems that belong to no game
    inbound: MailboxConfig = field(default_factory=MailboxConfig)
    outbound: MailboxConfig = field(default_factory=MailboxConfig)
    max_mail_bytes: int = 512 * 1024  # larger mails are kept cut down and refused
    sender_rate: int = 30  # replies a sender gets per hour (its mails are all handled)
    require_authentication_results: bool = False  # SIGNON only in mail authenticated by authserv_id's verdict
    authserv_id: str = ""  # the name the mail server writes first in the Authentication-Results it adds
    lock_timeout: float = 20.0  # seconds a process waits for a lock before leaving the work to the next run
    statement_timeout: float = 120.0  # seconds one SQL statement may run (PostgreSQL)
    outbox_lease: float = 300.0  # seconds a sending process holds the mails it claimed
    source: Path | None = None  # the file this was read from (None: the embedded defaults)
    secrets_file: Path | None = None  # NAME=value lines that $NAME values are read from
    web: WebConfig | None = None  # None: no web: section (`gm web` then serves on WebConfig's defaults)
    # Who may CREATE a game by mail: addresses, or patterns of them (*@club.example); none by default.
    game_masters: tuple[str, ...] = ()

    @property
    def read_limit(self) -> int:
        """How much of one message an inbox reads: enough to find the text parts of a mail with
        a large attachment; of anything larger only the size is counted."""
        return self.max_mail_bytes * 16

    @property
    def domain(self) -> str:
        return self.judge_address.rsplit("@", 1)[-1]

    @property
    def database_shown(self) -> str:
        """The database URL as logs and messages show it: without its password."""
        return shown_url(self.database_url)

    def may_create(self, address: str) -> bool:
        """Whether ``address`` may CREATE games by mail (``game_masters``: an address, or a
        pattern with ``*`` and ``?`` as in file names, compared without regard to case)."""
        address = address.strip().lower()
        return bool(address) and any(fnmatchcase(address, pattern) for pattern in self.game_masters)

    def secrets(self) -> list[str]:
        """Every secret in this configuration (logs mask them, whatever writes them)."""
        from sqlalchemy.engine import make_url

        found = [self.inbound.password, self.outbound.password, make_url(self.database_url).password or ""]
        return [str(secret) for secret in found if secret]

    def __repr__(self) -> str:
        return (f"AppConfig(source={self.source}, database={self.database_shown}, home={self.home}, "
                f"games_dir={self.games_dir}, inbound={self.inbound!r}, outbound={self.outbound!r})")


class ConfigError(Exception):
    pass


KEYS = ("home", "database", "database_password", "secrets_file", "games_dir", "judge_address", "judge_name",
        "admin_address", "inbound", "outbound", "max_mail_bytes", "sender_rate", "require_authentication_results",
        "authserv_id", "lock_timeout", "statement_timeout", "outbox_lease", "web", "game_masters")


def shown_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).difference_update_query(["application_name"]).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - not a URL SQLAlchemy reads: show no part of it that might be secret
        return url.split("@", 1)[-1] if "@" in url else url


def default_config(home: Path | None = None) -> AppConfig:
    home = (home or Path(os.environ.get("GM_HOME", "var"))).resolve()
    return AppConfig(
        home=home,
        database_url=f"sqlite:///{home / 'gm.db'}",
        games_dir=home / "games",
        inbound=MailboxConfig(kind="maildir", path=home / "mail" / "inbox"),
        outbound=MailboxConfig(kind="maildir", path=home / "mail" / "outbox"),
    )


def config_path(path: Path | None) -> Path | None:
    """The file a command reads: ``path`` (--config), else $GM_CONFIG, else none (the defaults)."""
    return path or (Path(os.environ["GM_CONFIG"]) if os.environ.get("GM_CONFIG") else None)


def load_config(path: Path | None) -> AppConfig:
    """The defaults, overridden by the file at ``path`` (or $GM_CONFIG) when there is one."""
    path = config_path(path)
    if path is None:
        return default_config()
    try:
        raw = load_strict(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror})") from None
    except YamlProblem as exc:
        raise ConfigError(f"{path}: {exc}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: must be a mapping of settings (deploy/README.md lists them)")
    unknown = set(raw) - set(KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown settings {sorted(unknown)} (known: {sorted(KEYS)})")
    base = default_config(path.parent / str(raw.get("home", "var")))  # relative to the file
    secrets = Secrets(path, Path(raw["secrets_file"]) if raw.get("secrets_file") else None)
    return AppConfig(
        home=base.home,
        database_url=_database(raw, base.database_url, secrets),
        games_dir=Path(raw.get("games_dir", base.games_dir)),
        judge_address=_address(raw, "judge_address", base.judge_address, path),
        judge_name=_name(raw, "judge_name", base.judge_name, path),
        admin_address=_address(raw, "admin_address", base.admin_address, path),
        inbound=_mailbox("inbound", raw.get("inbound"), base.inbound, path, secrets),
        outbound=_mailbox("outbound", raw.get("outbound"), base.outbound, path, secrets),
        max_mail_bytes=_count(raw, "max_mail_bytes", base.max_mail_bytes, path),
        sender_rate=_count(raw, "sender_rate", base.sender_rate, path),
        require_authentication_results=_flag(raw, "require_authentication_results", path),
        authserv_id=_authserv_id(raw, path),
        lock_timeout=_seconds(raw, "lock_timeout", base.lock_timeout, path),
        statement_timeout=_seconds(raw, "statement_timeout", base.statement_timeout, path),
        outbox_lease=_seconds(raw, "outbox_lease", base.outbox_lease, path),
        source=path.resolve(),
        secrets_file=secrets.file,
        web=_web(raw.get("web", None), "web" in raw, path),
        game_masters=_game_masters(raw.get("game_masters"), path),
    )


class Secrets:
    """``$NAME`` values: from the secrets file, else the environment."""

    def __init__(self, config: Path, file: Path | None):
        self.config = config
        self.file = file
        self.values: dict[str, str] = read_secrets_file(file) if file is not None else {}

    def resolve(self, key: str, value: Any) -> str:
        if not isinstance(value, str) or not value.startswith("$"):
            return "" if value is None else str(value)
        name = value[1:].strip("{}")
        if name in self.values:
            return self.values[name]
        if name in os.environ:
            return os.environ[name]
        raise ConfigError(f"{self.config}: {key} is {value}, which is set neither {self._looked(name)}")

    def _looked(self, name: str) -> str:
        """Where a ``$NAME`` was looked for, and what to add (deploy/README.md, section 10)."""
        if self.file is not None:
            return (f"in the secrets file {self.file} nor in the environment: add the line {name}=... to "
                    f"{self.file}")
        beside = self.config.parent / "secrets.env"
        found = (f"; {beside} is there (an earlier layout's systemd EnvironmentFile is such a file): make it "
                 f"readable by the user gm runs as (chown root:gm, chmod 640) and name it"
                 if beside.is_file() and beside != self.config else "")
        return (f"in a secrets file (the configuration names none) nor in the environment: add "
                f"secrets_file: FILE to {self.config}, FILE holding the line {name}=...{found}")


def read_secrets_file(file: Path) -> dict[str, str]:
    """``NAME=value`` lines (``#`` comments, blank lines and an ``export`` before the name
    allowed; a value in single or double quotes is taken without them, otherwise as written)."""
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"secrets_file {file}: cannot be read ({exc.strerror}); it must be readable by the user "
                          f"gm runs as (uid {os.getuid()})") from None
    values: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, value = line.removeprefix("export ").partition("=")
        name = name.strip()
        if not equals or not name.isidentifier():
            raise ConfigError(f"secrets_file {file}, line {number}: not NAME=value")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[name] = value
    return values


def _database(raw: dict[str, Any], default: str, secrets: Secrets) -> str:
    url = str(raw.get("database", default))
    if raw.get("database_password") is None:
        return url
    from sqlalchemy.engine import make_url

    password = secrets.resolve("database_password", raw["database_password"])
    try:
        return make_url(url).set(password=password).render_as_string(hide_password=False)
    except Exception as exc:  # noqa: BLE001 - SQLAlchemy's words for a malformed URL
        raise ConfigError(f"{secrets.config}: database is not a database URL ({exc})") from None


def _seconds(raw: dict[str, Any], key: str, default: float, source: Path) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ConfigError(f"{source}: {key} must be a number of seconds (0 or more), not {value!r}")
    return float(value)


def _count(raw: dict[str, Any], key: str, default: int, source: Path) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{source}: {key} must be a whole number (1 or more), not {value!r}")
    return value


def _flag(raw: dict[str, Any], key: str, source: Path) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(f"{source}: {key} must be true or false, not {value!r}")
    return value


def _address(raw: dict[str, Any], key: str, default: str, source: Path) -> str:
    value = str(raw.get(key, default)).strip()
    if mail_address(value) is None:
        raise ConfigError(f"{source}: {key} must be a plain mail address (as judge@example.org), not {value!r}")
    return value


def _name(raw: dict[str, Any], key: str, default: str, source: Path) -> str:
    value = str(raw.get(key, default))
    if not value.isprintable() or ENCODED_WORD in value:
        raise ConfigError(f"{source}: {key} must be one line of text, without '=?', not {value!r}")
    return value


def _authserv_id(raw: dict[str, Any], source: Path) -> str:
    """Without it nothing is authenticated, so ``require_authentication_results`` needs it."""
    value = str(raw.get("authserv_id") or "").strip()
    if value and not _TOKEN.fullmatch(value):
        raise ConfigError(f"{source}: authserv_id must be one word (your mail server's name, as mx.example.org), "
                          f"not {value!r}")
    if raw.get("require_authentication_results") is True and not value:
        raise ConfigError(f"{source}: require_authentication_results needs authserv_id: the name your mail server "
                          "writes first in the Authentication-Results header it adds to each mail (deploy/README.md)")
    return value


def _mailbox(side: str, raw: Any, default: MailboxConfig, source: Path, secrets: Secrets) -> MailboxConfig:
    if raw is None:
        return default
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: {side} must be a mapping of mailbox settings")
    fields = set(MailboxConfig.__dataclass_fields__)
    unknown = set(raw) - fields
    if unknown:
        raise ConfigError(f"{source}: unknown {side} settings {sorted(unknown)} (known: {sorted(fields)})")
    values = {**default.__dict__, **raw}
    kinds = INBOUND_KINDS if side == "inbound" else OUTBOUND_KINDS
    if values["kind"] not in kinds:
        raise ConfigError(f"{source}: {side} kind must be {' or '.join(kinds)}, not {values['kind']!r}")
    if values.get("path") is not None:
        values["path"] = Path(values["path"])
    if values["kind"] != "maildir":
        modes = TLS_MODES[values["kind"]]
        if "tls" not in raw:
            values["tls"] = modes[0]  # encrypted unless said otherwise
        if values["tls"] not in modes:
            raise ConfigError(f"{source}: {side} tls must be {' or '.join(modes)} for {values['kind']}, "
                              f"not {values['tls']!r}")
    for key in ("port", "idle_seconds"):
        if isinstance(values[key], bool) or not isinstance(values[key], int) or values[key] < 0:
            raise ConfigError(f"{source}: {side} {key} must be a whole number, not {values[key]!r}")
    if values.get("ca_file") is not None:
        values["ca_file"] = str(values["ca_file"])
    values["password"] = secrets.resolve(f"{side} password", raw.get("password", default.password))
    for key in ("host", "username", "mailbox"):
        values[key] = str(values[key])
    return MailboxConfig(**values)


def _game_masters(raw: Any, source: Path) -> tuple[str, ...]:
    """Addresses (gm@club.example) or patterns with ``*`` and ``?`` (*@club.example, *@*.club.example;
    ``*`` alone: anyone), kept in lower case."""
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        raise ConfigError(f"{source}: game_masters must be a list of addresses or patterns (*@club.example)")
    patterns = []
    for item in raw:
        text = str(item).strip().lower()
        local, at, domain = text.rpartition("@")
        plain = mail_address(text.replace("*", "x").replace("?", "x")) is not None
        if text != "*" and not (at and local and domain and plain):
            raise ConfigError(f"{source}: game_masters: {item!r} is neither an address nor a pattern of them "
                              "(gm@club.example, *@club.example, or * for anyone)")
        patterns.append(text)
    return tuple(patterns)


def _web(raw: Any, present: bool, source: Path) -> WebConfig | None:
    if not present:
        return None
    if raw is None:
        return WebConfig()  # `web:` alone: serve on the defaults
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: web must be a mapping of web settings (docs/web.md)")
    fields = set(WebConfig.__dataclass_fields__)
    unknown = set(raw) - fields
    if unknown:
        raise ConfigError(f"{source}: unknown web settings {sorted(unknown)} (known: {sorted(fields)})")
    values = {**WebConfig().__dict__, **raw}
    for key in ("port", "link_minutes", "session_days"):
        if isinstance(values[key], bool) or not isinstance(values[key], int) or values[key] < (0 if key == "port" else 1):
            raise ConfigError(f"{source}: web {key} must be a whole number, not {values[key]!r}")
    for key in ("host", "base_url", "trusted_proxies"):
        values[key] = str(values[key] or "")
    if values["base_url"] and not values["base_url"].startswith(("http://", "https://")):
        raise ConfigError(f"{source}: web base_url must start with http:// or https://, not {values['base_url']!r}")
    return WebConfig(**values)
