"""`gm receive` with no `gm run` to hand its mail to leaves it in the spool (gm.transport.spool)
and starts a process of its own to store, handle and answer it: the mail server's pipe ends once
the mail is on the disk. Every mail is taken once, by one process at a time; one left there
(nobody started, the database away) is taken by the next `gm tick` or `gm run`."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import func, select

from gm.app import App
from gm.cli import checks
from gm.clock import SystemClock
from gm.config import load_config
from gm.runtime.idle import what_is_due
from gm.store.models import InboundMail, InboundStatus
from gm.transport.spool import Spool, spool_path
from tests.mail.conftest import wait_until
from tests.maildirs import mails_in
from tests.store.conftest import fresh_postgres_database

# Runs gm as a mail server's pipe does; says whether SQLAlchemy was loaded.
GM = ("import sys\nfrom gm.cli.main import main\ncode = main(sys.argv[1:])\n"
      "print('sqlalchemy' in sys.modules)\nsys.exit(code)\n")


def _mail(n: int) -> bytes:
    return (f"From: player{n}@example.org\nTo: judge@example.test\nSubject: help\n"
            f"Message-ID: <spool.{n}@example.org>\n\nHELP\n").encode()


def _gm(config: Path, *argv: str, stdin: bytes = b"") -> tuple[int, bool, str]:
    done = subprocess.run([sys.executable, "-c", GM, "--config", str(config), *argv], input=stdin,
                          capture_output=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if not k.startswith("GM_")})
    return done.returncode, done.stdout.decode().strip().endswith("True"), done.stderr.decode()


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "gm.yaml"
    path.write_text(f"home: {tmp_path / 'var'}\njudge_address: judge@example.test\n")
    return path


def _answered(config: Path) -> list[str]:
    """Whom the outbox folder's mails went to."""
    outbox = load_config(config).outbound.path
    assert outbox is not None
    return sorted(m["To"] for m in mails_in(outbox))


def _free(spool: Spool) -> bool:
    """No taker holds the spool. Asked only once no mail waits: holding the lock for the asking
    would send away a taker starting just then, leaving its mail to the next."""
    with spool.taking() as free:
        return free


def _stored(config: Path) -> dict[str, int]:
    app = App(load_config(config))
    try:
        with app.db.sessions() as session:
            rows = session.execute(select(InboundMail.status, func.count()).group_by(InboundMail.status))
            return {str(status): count for status, count in rows}
    finally:
        app.close()


# ---- the spool itself ----------------------------------------------------------------------------


class _Taken:
    def __init__(self, failing: int | None = None):
        self.mails: list[tuple[bytes, str, int | None]] = []
        self.failing = failing

    async def __call__(self, raw: bytes, source_key: str, size: int | None = None) -> None:
        if len(self.mails) == self.failing:
            raise RuntimeError("the database is away")
        self.mails.append((raw, source_key, size))


def test_mails_are_taken_oldest_first_as_piped_and_removed_once_taken(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool")
    files = [spool.put(b"first", "pipe:1", None), spool.put(b"second\n\x00\xff", "pipe:2", 70_000_000),
             spool.put(b"", "pipe:3", None)]
    assert spool.waiting() == files
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)  # a mail may carry a password
    assert stat.S_IMODE(spool.path.stat().st_mode) == 0o700
    assert not list((spool.path / "tmp").iterdir())
    taken = _Taken()
    assert asyncio.run(spool.drain(taken)) == 3
    assert taken.mails == [(b"first", "pipe:1", None), (b"second\n\x00\xff", "pipe:2", 70_000_000), (b"", "pipe:3", None)]
    assert spool.waiting() == []


def test_a_failure_leaves_that_mail_and_the_later_ones(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool")
    files = [spool.put(f"mail {n}".encode(), f"pipe:{n}", None) for n in range(3)]
    with pytest.raises(RuntimeError):
        asyncio.run(spool.drain(_Taken(failing=1)))
    assert spool.waiting() == files[1:]


def test_a_file_that_is_no_spooled_mail_is_set_aside_and_kept(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    spool = Spool(tmp_path / "spool")
    spool.put(b"good", "pipe:1", None)
    stray = spool.path / "new" / "0-stray"
    stray.write_bytes(b"From: someone\n\nnot a spooled mail\n")
    taken = _Taken()
    assert asyncio.run(spool.drain(taken)) == 1
    assert taken.mails == [(b"good", "pipe:1", None)]
    assert (spool.path / "unreadable" / "0-stray").read_bytes() == b"From: someone\n\nnot a spooled mail\n"
    assert "not a spooled mail" in caplog.text


def test_a_mail_not_written_whole_is_not_in_the_spool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spool = Spool(tmp_path / "spool")

    def full(handle: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        spool.put(b"mail", "pipe:1", None)
    assert spool.waiting() == [] and not list((spool.path / "tmp").iterdir())


def test_one_process_takes_them_at_a_time_and_looks_again_after_letting_go(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool")
    spool.put(b"one", "pipe:1", None)
    with spool.taking() as mine:  # another process holds it: it takes them
        assert mine
        assert asyncio.run(spool.take_all(_Taken())) == 0
        assert len(spool.waiting()) == 1

    class LeavesAnother(_Taken):
        """While this process takes the first, a gm receive leaves another, finds the lock held
        and starts nobody: the holder must find it."""

        async def __call__(self, raw: bytes, source_key: str, size: int | None = None) -> None:
            await super().__call__(raw, source_key, size)
            if len(self.mails) == 1:
                spool.put(b"two", "pipe:2", None)

    taken = LeavesAnother()
    assert asyncio.run(spool.take_all(taken)) == 2
    assert [m[0] for m in taken.mails] == [b"one", b"two"] and spool.waiting() == []


# ---- gm receive, gm tick and gm run with it ----------------------------------------------------


def test_gm_receive_ends_once_the_mail_is_spooled_and_its_own_process_answers(config: Path) -> None:
    code, loaded, err = _gm(config, "receive", stdin=_mail(1))
    assert code == 0, err
    assert not loaded  # nothing of SQLAlchemy loaded by the pipe's process
    wait_until(lambda: _answered(config) == ["player1@example.org"])
    spool = Spool(spool_path(load_config(config).home))
    wait_until(lambda: spool.waiting() == [])
    assert _stored(config) == {InboundStatus.DONE: 1}
    code, _, err = _gm(config, "receive", stdin=_mail(1))  # the same mail again, as a mail server may
    assert code == 0, err
    wait_until(lambda: spool.waiting() == [])
    wait_until(lambda: _free(spool))  # its taker done (it lets go just after taking the last), or never started
    assert _stored(config) == {InboundStatus.DONE: 1} and _answered(config) == ["player1@example.org"]


def test_the_mail_servers_pipe_ends_while_the_taker_still_works(config: Path) -> None:
    """The taker holds none of the pipe's descriptors: a mail server reading gm receive's output
    to its end (as capture_output does) is done before the mail is even stored."""
    App(load_config(config)).close()  # the schema made
    config.write_text(config.read_text() + "lock_timeout: 60\n")
    holder = sqlite3.connect(load_config(config).database_url.split("///", 1)[1])
    holder.execute("BEGIN IMMEDIATE")  # the taker waits for the write lock
    try:
        start = time.monotonic()
        code, _, err = _gm(config, "receive", stdin=_mail(7))
        assert code == 0, err
        assert time.monotonic() - start < 30 and _answered(config) == []
    finally:
        holder.rollback()
        holder.close()
    wait_until(lambda: _answered(config) == ["player7@example.org"])


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def any_database(request: pytest.FixtureRequest, config: Path) -> Iterator[Path]:
    """``config``, on SQLite or on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield config
        return
    with fresh_postgres_database() as url:
        config.write_text(config.read_text() + f"database: {url}\n")
        yield config


@pytest.mark.slow
def test_mails_piped_at_once_are_each_answered_once(any_database: Path) -> None:
    config = any_database
    with ThreadPoolExecutor(max_workers=6) as pipes:
        done = list(pipes.map(lambda n: _gm(config, "receive", stdin=_mail(n)), range(12)))
    assert all(code == 0 for code, _, _ in done), [err for _, _, err in done]
    everyone = sorted(f"player{n}@example.org" for n in range(12))
    wait_until(lambda: _answered(config) == everyone, 120)
    spool = Spool(spool_path(load_config(config).home))
    wait_until(lambda: spool.waiting() == [])
    assert _stored(config) == {InboundStatus.DONE: 12}


def test_a_mail_nobody_took_waits_for_gm_tick(config: Path) -> None:
    spool = Spool(spool_path(load_config(config).home))
    with spool.taking() as mine:  # as if a taker were busy: gm receive starts none
        assert mine
        code, _, err = _gm(config, "receive", stdin=_mail(2))
        assert code == 0, err
    time.sleep(0.5)
    assert len(spool.waiting()) == 1 and _answered(config) == []
    assert what_is_due(load_config(config), SystemClock().now()) == "mail left in the spool by gm receive"
    code, _, err = _gm(config, "tick")
    assert code == 0, err
    assert spool.waiting() == [] and _answered(config) == ["player2@example.org"]


def test_a_taker_that_finds_the_spool_taken_ends_without_loading_gm(config: Path) -> None:
    spool = Spool(spool_path(load_config(config).home))
    spool.put(_mail(8), "pipe:eight", None)
    with spool.taking() as mine:
        assert mine
        code, loaded, err = _gm(config, "receive", "--from-spool")
    assert (code, loaded) == (0, False), err
    assert len(spool.waiting()) == 1  # the holder's to take
    code, loaded, err = _gm(config, "receive", "--from-spool")
    assert (code, loaded) == (0, True), err
    assert spool.waiting() == [] and _answered(config) == ["player8@example.org"]


def test_with_the_database_unusable_the_mail_stays_in_the_spool(tmp_path: Path) -> None:
    (tmp_path / "not-a-directory").write_text("")
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"home: {tmp_path / 'var'}\ndatabase: sqlite:///{tmp_path}/not-a-directory/gm.db\n")
    code, _, err = _gm(broken, "receive", stdin=_mail(3))
    assert code == 0, err  # stored in the spool: the mail server is done with it
    spool = Spool(spool_path(load_config(broken).home))
    wait_until(lambda: (tmp_path / "var" / "gm-receive.log").exists()
          and "waits in the spool" in (tmp_path / "var" / "gm-receive.log").read_text())
    assert len(spool.waiting()) == 1
    code, _, err = _gm(broken, "tick")
    assert code == 1 and "folder" in err and "not-a-directory cannot be made" in err, err  # no traceback
    assert len(spool.waiting()) == 1


def test_a_spool_that_cannot_be_written_means_handled_here(config: Path) -> None:
    home = load_config(config).home
    home.mkdir(parents=True)
    spool_path(home).write_text("")  # a file where the spool's folder should be
    code, loaded, err = _gm(config, "receive", stdin=_mail(4))
    assert code == 0, err
    assert loaded and _answered(config) == ["player4@example.org"]  # answered before it exited


def test_gm_run_takes_what_gm_receive_left(config: Path) -> None:
    app = App(load_config(config))
    try:
        Spool(spool_path(app.config.home)).put(_mail(5), "pipe:five", None)
        report = asyncio.run(app.daemon().once())
        assert report.received == 1 and report.problems() == []
    finally:
        app.close()
    assert _answered(config) == ["player5@example.org"]


def test_gm_check_says_what_waits_in_the_spool_too_long_or_was_set_aside(config: Path) -> None:
    app_config = load_config(config)
    spool = Spool(spool_path(app_config.home))
    assert checks.spool(app_config).status == checks.OK
    late = spool.put(_mail(6), "pipe:six", None)
    assert checks.spool(app_config).status == checks.OK  # just left: its taker comes
    os.utime(late, (time.time() - 3600, time.time() - 3600))
    finding = checks.spool(app_config)
    assert finding.status == checks.WARN and "1 mails" in finding.text and "gm tick" in finding.text
    (spool.path / "new" / "0-stray").write_bytes(b"not a spooled mail")
    asyncio.run(spool.drain(_Taken()))
    finding = checks.spool(app_config)
    assert finding.status == checks.WARN and "unreadable" in finding.text
