"""The server's own configuration (not a game's): where the database, the settings files and
the mailboxes are. Every value has an embedded default, so `gm` runs with no file at all."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm.yamlfile import YamlProblem, load_strict


@dataclass(frozen=True)
class MailboxConfig:
    """Where mail comes from or goes to: a local Maildir, or a real server."""

    kind: str = "maildir"  # maildir | imap | smtp
    path: Path | None = None  # maildir
    host: str = "127.0.0.1"
    port: int = 0
    username: str = ""
    password: str = ""
    tls: str = "none"  # none | starttls | ssl
    mailbox: str = "INBOX"  # imap
    ca_file: str | None = None
    idle_seconds: int = 300


@dataclass(frozen=True)
class AppConfig:
    home: Path  # where embedded defaults keep their files
    database_url: str
    games_dir: Path
    judge_address: str = "gm@localhost"
    judge_name: str = "gm"
    admin_address: str = "postmaster@localhost"  # told of problems that belong to no game
    inbound: MailboxConfig = field(default_factory=MailboxConfig)
    outbound: MailboxConfig = field(default_factory=MailboxConfig)
    max_mail_bytes: int = 512 * 1024  # larger mails are kept cut down and refused
    sender_rate: int = 30  # replies a sender gets per hour (its mails are all handled)
    require_authentication_results: bool = False  # demand a passing DKIM/SPF verdict
    lock_timeout: float = 20.0  # seconds a process waits for a lock before leaving the work to the next run
    statement_timeout: float = 120.0  # seconds one SQL statement may run (PostgreSQL)
    outbox_lease: float = 300.0  # seconds a sending process holds the mails it claimed

    @property
    def read_limit(self) -> int:
        """How much of one message an inbox reads: enough to find the text parts of a mail with
        a large attachment; of anything larger only the size is counted."""
        return self.max_mail_bytes * 16

    @property
    def domain(self) -> str:
        return self.judge_address.rsplit("@", 1)[-1]


class ConfigError(Exception):
    pass


def default_config(home: Path | None = None) -> AppConfig:
    home = (home or Path(os.environ.get("GM_HOME", "var"))).resolve()
    return AppConfig(
        home=home,
        database_url=f"sqlite:///{home / 'gm.db'}",
        games_dir=home / "games",
        inbound=MailboxConfig(kind="maildir", path=home / "mail" / "inbox"),
        outbound=MailboxConfig(kind="maildir", path=home / "mail" / "outbox"),
    )


def load_config(path: Path | None) -> AppConfig:
    """The defaults, overridden by the file at ``path`` (or $GM_CONFIG) when there is one."""
    path = path or (Path(os.environ["GM_CONFIG"]) if os.environ.get("GM_CONFIG") else None)
    if path is None:
        return default_config()
    try:
        raw = load_strict(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror})") from None
    except YamlProblem as exc:
        raise ConfigError(f"{path}: {exc}") from None
    base = default_config(path.parent / str(raw.get("home", "var")))  # relative to the file
    known = {"home", "database", "games_dir", "judge_address", "judge_name", "admin_address", "inbound", "outbound",
             "max_mail_bytes", "sender_rate", "require_authentication_results", "lock_timeout", "statement_timeout",
             "outbox_lease"}
    unknown = set(raw) - known
    if unknown:
        raise ConfigError(f"{path}: unknown settings {sorted(unknown)} (known: {sorted(known)})")
    return AppConfig(
        home=base.home,
        database_url=str(raw.get("database", base.database_url)),
        games_dir=Path(raw.get("games_dir", base.games_dir)),
        judge_address=str(raw.get("judge_address", base.judge_address)),
        judge_name=str(raw.get("judge_name", base.judge_name)),
        admin_address=str(raw.get("admin_address", base.admin_address)),
        inbound=_mailbox(raw.get("inbound"), base.inbound, path),
        outbound=_mailbox(raw.get("outbound"), base.outbound, path),
        max_mail_bytes=int(raw.get("max_mail_bytes", base.max_mail_bytes)),
        sender_rate=int(raw.get("sender_rate", base.sender_rate)),
        require_authentication_results=bool(raw.get("require_authentication_results", False)),
        lock_timeout=_seconds(raw, "lock_timeout", base.lock_timeout, path),
        statement_timeout=_seconds(raw, "statement_timeout", base.statement_timeout, path),
        outbox_lease=_seconds(raw, "outbox_lease", base.outbox_lease, path),
    )


def _seconds(raw: dict[str, Any], key: str, default: float, source: Path) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ConfigError(f"{source}: {key} must be a number of seconds (0 or more), not {value!r}")
    return float(value)


def _mailbox(raw: Any, default: MailboxConfig, source: Path) -> MailboxConfig:
    if raw is None:
        return default
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: mailbox settings must be a mapping")
    fields = set(MailboxConfig.__dataclass_fields__)
    unknown = set(raw) - fields
    if unknown:
        raise ConfigError(f"{source}: unknown mailbox settings {sorted(unknown)} (known: {sorted(fields)})")
    values = dict(raw)
    if "path" in values:
        values["path"] = Path(values["path"])
    password_env = values.get("password", "")
    if isinstance(password_env, str) and password_env.startswith("$"):
        values["password"] = os.environ.get(password_env[1:], "")
    return MailboxConfig(**{**default.__dict__, **values})
