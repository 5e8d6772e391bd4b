"""What an operator sees when gm cannot do its work now, with real processes: a mail
server that is not there, a database kept locked by another process, a database file left
read-only. gm says what it waited for or what is wrong, exits non-zero so cron reports it, and
leaves the work for the next run."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.races.judge import Judge
from tests.store.conftest import database_url  # noqa: F401  (fixture)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _gm(judge: Judge, *args: str, stdin: bytes = b"", timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "gm.cli.main", *args], input=stdin, env=judge.environment(),
                          capture_output=True, timeout=timeout)


@pytest.mark.slow
def test_tick_says_when_mail_waits_on_a_server_that_is_not_there(database_url: str, tmp_path: Path) -> None:  # noqa: F811
    judge = Judge(tmp_path / "judge", database_url)
    try:
        judge.start_game()  # seven joined mails and the start mails wait in the outbox
        with judge.config_file.open("a", encoding="utf-8") as config:
            config.write(f"outbound: {{kind: smtp, host: 127.0.0.1, port: {_closed_port()}, tls: none}}\n")
        judge.config_file.write_text(judge.config_file.read_text().replace(
            f"outbound: {{kind: maildir, path: {judge.outbox}}}\n", ""), encoding="utf-8")
        done = _gm(judge, "tick")
        assert done.returncode == 75, done
        assert b"outgoing mail waits: the outbound server takes no mail" in done.stderr
        assert b"ConnectionRefusedError" in done.stderr or b"Connect" in done.stderr
        listing = _gm(judge, "outbox")
        assert listing.returncode == 0
        assert b"The outbound server takes no mail since" in listing.stdout and b"mails waiting to be sent" in listing.stdout
    finally:
        judge.close()


def _hold_the_lock(database_url: str, release: threading.Event, held: threading.Event) -> None:
    """Another process's long transaction: the games table locked (PostgreSQL), or the write
    lock (SQLite), until told to let go."""
    engine = create_engine(database_url)
    with engine.connect() as connection:
        if database_url.startswith("sqlite"):
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            connection.execute(text("BEGIN"))
            connection.execute(text("LOCK TABLE games, inbound_mail IN ACCESS EXCLUSIVE MODE"))
        held.set()
        release.wait(120)
        connection.rollback()
    engine.dispose()


@pytest.mark.slow
def test_a_wait_for_a_lock_is_bounded_and_the_work_left_for_the_next_run(database_url: str, tmp_path: Path) -> None:  # noqa: F811
    judge = Judge(tmp_path / "judge", database_url)
    try:
        judge.start_game()
        judge.config_file.write_text(judge.config_file.read_text().replace("lock_timeout: 15", "lock_timeout: 1"),
                                     encoding="utf-8")
        judge.drop(judge.mail("France", "A PAR - BUR", meant_for=1))
        judge.close()  # the test's own connection must not hold anything either
        release, held = threading.Event(), threading.Event()
        holder = threading.Thread(target=_hold_the_lock, args=(database_url, release, held))
        holder.start()
        try:
            assert held.wait(30)
            start = time.monotonic()
            ticked = _gm(judge, "tick")
            piped = _gm(judge, "receive", "--wait", stdin=judge.mail("Italy", "A ROM H", meant_for=1))
            elapsed = time.monotonic() - start
        finally:
            release.set()
            holder.join()
        assert ticked.returncode == 75 and piped.returncode == 75, (ticked, piped)
        assert b"gave up waiting for" in ticked.stderr, ticked.stderr
        assert elapsed < 60  # not the 120 s the other process held its lock
        assert _gm(judge, "tick").returncode == 0  # the next run does the work
        assert judge.unread_in_inbox() == 0
    finally:
        judge.close()


# Root as any other user: without the capabilities that let root write where a file's mode says no.
AS_A_USER = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search"]


@pytest.mark.slow
def test_a_database_file_left_read_only_is_named(tmp_path: Path) -> None:
    """SQLite's own words name only the database, and a run on a read-only database leaves its
    -wal and -shm files read-only behind it: gm names the file that is wrong."""
    if shutil.which("setpriv") is None:
        pytest.fail("this test needs setpriv (util-linux) to run gm without root's override of file modes")
    config = tmp_path / "gm.yaml"
    config.write_text(f"home: {tmp_path}\n", encoding="utf-8")
    gm = [*AS_A_USER, sys.executable, "-m", "gm.cli.main", "--config", str(config), "tick"]

    def tick_with_mail_waiting() -> subprocess.CompletedProcess[bytes]:
        (tmp_path / "mail" / "inbox" / "new").mkdir(parents=True, exist_ok=True)
        (tmp_path / "mail" / "inbox" / "new" / f"{time.time_ns()}.mail").write_bytes(
            b"From: someone@example.test\r\nSubject: help\r\nMessage-ID: <" + str(time.time_ns()).encode()
            + b"@example.test>\r\n\r\nHELP\r\n")
        return subprocess.run(gm, capture_output=True, timeout=120, cwd=tmp_path)

    assert tick_with_mail_waiting().returncode == 0
    database = tmp_path / "gm.db"
    database.chmod(0o444)
    refused = tick_with_mail_waiting()
    assert refused.returncode == 1 and b"Traceback" not in refused.stderr
    assert re.search(rf"{re.escape(str(database))} (is|and) .*not writable by this user", refused.stderr.decode()), refused
    database.chmod(0o644)
    again = tick_with_mail_waiting()
    assert again.returncode == 1 and b"Traceback" not in again.stderr
    named = re.search(r"cannot be used \(attempt to write a readonly database\): (.*) (is|are) not writable",
                      again.stderr.decode())
    assert named and f"{database}-shm" in named.group(1) and f"{database} " not in named.group(1) + " ", again.stderr
    for left in tmp_path.glob("gm.db-*"):
        left.chmod(0o644)
    assert tick_with_mail_waiting().returncode == 0
