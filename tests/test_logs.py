"""The log's formats and its masking of secrets (gm.cli.logs)."""

from __future__ import annotations

import logging
import os
import sys

import pytest

from gm.cli import logs


def _record(message: str, level: int = logging.INFO, exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise RuntimeError(f"login with {message} failed")
        except RuntimeError:
            exc_info = sys.exc_info()
    return logging.LogRecord("gm.test", level, __file__, 1, message, None, exc_info)


def test_secrets_are_masked_in_messages_and_tracebacks() -> None:
    formatter = logs.Masked("%(name)s: %(message)s", journald=False, secrets=["s3cret-pw", "ab"])
    formatter.mask(["s3cret-pw-longer"])
    text = formatter.format(_record("password s3cret-pw-longer and s3cret-pw, ab", exc=True))
    assert "s3cret" not in text and "password *** and ***, ab" in text  # too short to be a secret: left
    assert "RuntimeError: login with password *** and ***, ab failed" in text


def test_journald_lines_carry_the_priority_on_every_line() -> None:
    formatter = logs.Masked("%(name)s: %(message)s", journald=True)
    assert formatter.format(_record("started")) == "<6>gm.test: started"
    assert formatter.format(_record("gone", logging.WARNING)) == "<4>gm.test: gone"
    lines = formatter.format(_record("broken", logging.ERROR, exc=True)).splitlines()
    assert len(lines) > 3 and all(line.startswith("<3>") for line in lines)


def test_the_journal_is_recognised_by_its_stream(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    with (tmp_path / "journal").open("w") as journal:
        stat = os.fstat(journal.fileno())
        monkeypatch.setattr(sys, "stderr", journal)
        monkeypatch.setenv("JOURNAL_STREAM", f"{stat.st_dev}:{stat.st_ino}")
        assert logs.stderr_is_journal()
        monkeypatch.setenv("JOURNAL_STREAM", f"{stat.st_dev}:{stat.st_ino + 1}")  # a journal, but not our stderr
        assert not logs.stderr_is_journal()
        monkeypatch.delenv("JOURNAL_STREAM")
        assert not logs.stderr_is_journal()


def test_the_mail_libraries_never_log_below_info(tmp_path) -> None:  # type: ignore[no-untyped-def]
    logs.setup("DEBUG", "text", str(tmp_path / "gm.log"))
    try:
        assert logging.getLogger("aioimaplib").getEffectiveLevel() >= logging.WARNING  # its DEBUG has LOGIN's password
        assert logging.getLogger("gm.anything").isEnabledFor(logging.DEBUG)
    finally:
        for handler in list(logging.getLogger().handlers):
            if handler.get_name() == "gm":
                logging.getLogger().removeHandler(handler)
                handler.close()
        logging.getLogger().setLevel(logging.WARNING)
        for name in ("aioimaplib", "aiosmtplib", "alembic", "asyncio"):
            logging.getLogger(name).setLevel(logging.NOTSET)
