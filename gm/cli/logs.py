"""Where gm's log goes and how it looks: one line per event.

* ``text``: ``2026-01-05 12:00:00,123 INFO gm.services.intake: mail 17 from ...``, for a terminal or
  a file (``--log-file``: appended, so cron's runs write one log; logrotate may move it away at
  any time, since each process opens it anew).
* ``journald``: ``<6>gm.services.intake: mail 17 from ...``: the priority as systemd reads it on
  a service's stderr (SyslogLevelPrefix), no time (the journal has it). Chosen by itself when
  stderr is the journal ($JOURNAL_STREAM).

Whatever the format, every secret of the configuration (mail and database passwords) is
replaced by ``***`` in what is written, and the mail libraries never log below INFO: at DEBUG,
aioimaplib would write the LOGIN command with its password.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterable
from typing import Any

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
FORMATS = ("text", "journald")
_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}
# Libraries whose INFO is noise for an operator (alembic's "Context impl", "Will assume
# transactional DDL" at every start) or whose DEBUG may carry a secret (aioimaplib).
_QUIET = {"alembic": logging.WARNING, "aioimaplib": logging.WARNING, "aiosmtplib": logging.WARNING,
          "asyncio": logging.WARNING}


def stderr_is_journal() -> bool:
    """systemd sets $JOURNAL_STREAM to the device and inode of the journal's stream."""
    stream = os.environ.get("JOURNAL_STREAM", "")
    device, _, inode = stream.partition(":")
    try:
        stat = os.fstat(sys.stderr.fileno())
        return bool(stream) and (stat.st_dev, stat.st_ino) == (int(device), int(inode))
    except (OSError, ValueError, AttributeError):
        return False


class Masked(logging.Formatter):
    """A formatter that never writes a secret it knows, in the message or a traceback."""

    def __init__(self, fmt: str, journald: bool, secrets: Iterable[str] = ()):
        super().__init__(fmt)
        self.journald = journald
        self.secrets: list[str] = []
        self.mask(secrets)

    def mask(self, secrets: Iterable[str]) -> None:
        # Longest first, so that a secret containing another is masked whole; very short
        # ones would mask ordinary words and are no secret worth the name anyway.
        self.secrets = sorted({*self.secrets, *(s for s in secrets if len(s) >= 4)}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self.secrets:
            text = text.replace(secret, "***")
        if self.journald:  # every line of a traceback keeps the record's priority
            priority = _PRIORITY.get(record.levelno, 6)
            text = "\n".join(f"<{priority}>{line}" for line in text.splitlines())
        return text


def setup(level: str = "INFO", fmt: str | None = None, file: str | None = None) -> Masked:
    """Configure the root logger once for this process; returns the formatter (``mask`` it with
    the configuration's secrets once they are read)."""
    journald = (fmt or ("journald" if file is None and stderr_is_journal() else "text")) == "journald"
    formatter = Masked("%(name)s: %(message)s" if journald else "%(asctime)s %(levelname)s %(name)s: %(message)s",
                       journald)
    handler: logging.Handler = logging.FileHandler(file, encoding="utf-8") if file else logging.StreamHandler()
    handler.setFormatter(formatter)
    handler.set_name("gm")
    root = logging.getLogger()
    for old in list(root.handlers):
        if old.get_name() == "gm":  # one of ours, from an earlier call (tests run main() often)
            root.removeHandler(old)
            old.close()
    root.addHandler(handler)
    root.setLevel(level)
    for name, floor in _QUIET.items():
        logging.getLogger(name).setLevel(max(floor, logging.getLevelName(level)))
    logging.captureWarnings(True)  # Python's warnings are events too
    return formatter


def mask(secrets: Iterable[str]) -> None:
    """Add ``secrets`` to what every handler of the root logger masks."""
    secrets = list(secrets)
    for handler in logging.getLogger().handlers:
        if isinstance(handler.formatter, Masked):
            handler.formatter.mask(secrets)


# Commands that run unattended log what they do; the others (gm check, gm outbox, gm db ...)
# print their answer and log only warnings.
ACTIVE = ("run", "tick", "receive", "unshunt")


def add_options(parser: Any) -> None:
    parser.add_argument("--log-level", choices=LEVELS, type=str.upper,
                        help=f"the least important events logged (default: INFO for {', '.join(ACTIVE)}; WARNING "
                             "otherwise); DEBUG adds gm's own details, never a library's")
    parser.add_argument("--log-format", choices=FORMATS,
                        help="text (time, level, source, event), or journald (priority prefix; the default when "
                             "stderr is the journal)")
    parser.add_argument("--log-file", metavar="FILE", help="append the log to FILE instead of stderr (cron)")


def setup_from(args: Any) -> None:
    level = args.log_level or ("INFO" if getattr(args, "command", None) in ACTIVE else "WARNING")
    try:
        setup(level, args.log_format, args.log_file)
    except OSError as exc:
        raise SystemExit(f"gm: --log-file {args.log_file}: cannot be written ({exc.strerror})") from None


def also_in_file(args: Any, text: str, exc: BaseException | None = None) -> None:
    """``text`` (a fatal error that goes to stderr) in the --log-file as well, with ``exc``'s
    traceback when it is one nobody expected."""
    if getattr(args, "log_file", None):
        logging.getLogger("gm").critical("%s", text, exc_info=exc)

