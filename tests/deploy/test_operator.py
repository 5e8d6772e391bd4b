"""What an operator meets on the first day, with real processes and servers: `gm check` names
what to fix, `gm tick` exits non-zero saying why when it could not read the inbox or use the
database, a second daemon says it shares the database, and no log holds a secret."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy.mail import Mailboxes
from tests.store.conftest import fresh_postgres_database
from tests.transport.helpers import MailStack

WRONG = "not-the-password-4711"


def _gm(config: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GM_")}
    return subprocess.run([sys.executable, "-m", "gm.cli.main", "--config", str(config), *args], env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def boxes(mail_stack: MailStack) -> Iterator[Mailboxes]:
    made = Mailboxes(mail_stack, f"op{uuid.uuid4().hex[:10]}")
    made.create()
    yield made
    made.delete()


def _write(tmp_path: Path, stack: MailStack, boxes: Mailboxes, *, imap_password: str = "gmpass",
           ca: bool = True, secrets_mode: int = 0o600, database: str | None = None) -> Path:
    secrets = tmp_path / "secrets.env"
    secrets.write_text(f"GM_IMAP_PASSWORD={imap_password}\nGM_SMTP_PASSWORD=gmpass\n")
    secrets.chmod(secrets_mode)
    ca_file = f", ca_file: {stack.ca_file}" if ca else ""
    config = tmp_path / "gm.yaml"
    config.write_text(
        f"home: {tmp_path / 'var'}\n"
        f"database: {database or f'sqlite:///{tmp_path}/var/gm.db'}\n"
        f"secrets_file: {secrets}\n"
        f"games_dir: {tmp_path / 'games'}\n"
        f"judge_address: {boxes.address('gm')}\n"
        f"inbound: {{kind: imap, host: {stack.host}, port: {stack.port('IMAPS_PORT')}, username: gm@example.test, "
        f"password: $GM_IMAP_PASSWORD, mailbox: {boxes.folder}{ca_file}}}\n"
        f"outbound: {{kind: smtp, host: {stack.host}, port: {stack.port('SUBMISSION_PORT')}, "
        f"username: gm@example.test, password: $GM_SMTP_PASSWORD{ca_file}}}\n", encoding="utf-8")
    (tmp_path / "games").mkdir(exist_ok=True)
    return config


@pytest.mark.mailserver
def test_gm_check_names_what_to_fix_then_says_ready(mail_stack: MailStack, boxes: Mailboxes, tmp_path: Path) -> None:
    root = int(os.geteuid() == 0)  # gm check warns that it runs as root
    config = _write(tmp_path, mail_stack, boxes, ca=False, secrets_mode=0o644)
    (tmp_path / "games" / "bad.yaml").write_text("variant: standard\ngm: master@example.test\nplayers: 3\n")
    checked = _gm(config, "check")
    assert checked.returncode == 1, checked
    lines = checked.stdout.splitlines()
    failed = {line.split(":")[0].split()[-1]: line for line in lines if line.startswith("FAIL")}
    assert set(failed) == {"secrets_file", "inbound", "outbound", "bad.yaml"}, checked.stdout
    assert "chmod 640" in failed["secrets_file"]
    assert "set inbound ca_file to the certificate of the CA" in failed["inbound"]
    assert "set outbound ca_file" in failed["outbound"] and "CERTIFICATE_VERIFY_FAILED" in failed["outbound"]
    assert "line 3" in failed["bad.yaml"]
    assert lines[-1] == f"gm check: 4 to fix, {1 + root} to look at"  # and the schema, not made yet

    config = _write(tmp_path, mail_stack, boxes)
    (tmp_path / "games" / "bad.yaml").unlink()
    checked = _gm(config, "check")
    assert checked.returncode == 0, checked
    assert checked.stdout.splitlines()[-1] == f"gm check: ready ({2 + root} to look at)", checked.stdout  # no schema, games
    assert f"{boxes.folder} selected (0 messages), IDLE offered" in checked.stdout
    assert "gmpass" not in checked.stdout + checked.stderr


def test_gm_check_says_when_the_configuration_cannot_be_read(tmp_path: Path) -> None:
    config = tmp_path / "gm.yaml"
    config.write_text("inbound: {kind: imap, password: $GM_NOT_SET_ANYWHERE}\n")
    checked = _gm(config, "check")
    assert checked.returncode == 78
    assert checked.stdout.startswith("FAIL  configuration: ") and "$GM_NOT_SET_ANYWHERE" in checked.stdout
    ticked = _gm(config, "tick")
    assert ticked.returncode == 1 and "$GM_NOT_SET_ANYWHERE" in ticked.stderr and "Traceback" not in ticked.stderr


@pytest.mark.mailserver
def test_tick_exits_75_when_it_cannot_read_the_inbox(mail_stack: MailStack, boxes: Mailboxes, tmp_path: Path) -> None:
    config = _write(tmp_path, mail_stack, boxes, imap_password=WRONG)
    ticked = _gm(config, "--log-level", "DEBUG", "tick")
    assert ticked.returncode == 75, ticked
    said = [line for line in ticked.stderr.splitlines() if line.startswith("gm tick: ")]
    assert len(said) == 1 and "the inbox could not be read" in said[0], ticked.stderr
    assert "login as 'gm@example.test' refused" in said[0] and "check the inbound username and password" in said[0]
    assert WRONG not in ticked.stderr + ticked.stdout and "gmpass" not in ticked.stderr  # even at DEBUG
    config = _write(tmp_path, mail_stack, boxes)
    assert _gm(config, "tick").returncode == 0


def test_tick_exits_75_when_it_cannot_use_the_database(tmp_path: Path) -> None:
    config = tmp_path / "gm.yaml"
    config.write_text(f"home: {tmp_path}\ndatabase: postgresql+psycopg://gm@127.0.0.1:{_closed_port()}/gm\n")
    ticked = _gm(config, "tick")
    assert ticked.returncode == 75, ticked
    assert ticked.stderr.startswith("gm tick: cannot use the database: ") and "refused" in ticked.stderr, ticked.stderr
    assert "Traceback" not in ticked.stderr


@pytest.fixture
def postgres_database() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


def _wait_for(file: Path, words: str, within: float = 30) -> str:
    deadline = time.monotonic() + within
    while words not in (said := file.read_text() if file.exists() else ""):
        assert time.monotonic() < deadline, f"{words!r} not in {file} within {within} s:\n{said}"
        time.sleep(0.1)
    return said


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'var' / 'gm.db'}"
    return str(request.getfixturevalue("postgres_database"))


def test_a_second_daemon_says_it_shares_the_database(database: str, tmp_path: Path) -> None:
    config = tmp_path / "gm.yaml"
    config.write_text(f"home: {tmp_path / 'var'}\ndatabase: {database}\n")
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    daemons: list[subprocess.Popen[bytes]] = []
    try:
        for log in logs:
            daemons.append(subprocess.Popen(
                [sys.executable, "-m", "gm.cli.main", "--config", str(config), "--log-file", str(log), "run"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            _wait_for(log, "role: the daemon")
        second = _wait_for(logs[1], f"another gm daemon works on this database (gm run {socket.gethostname()}:"
                                    f"{daemons[0].pid})")
        assert " WARNING gm.run: another gm daemon" in second and "safe, the daemons share the work" in second
        checked = _gm(config, "check")
        assert "other processes: working on this database now: gm run " in checked.stdout, checked.stdout
    finally:
        for daemon in daemons:
            daemon.send_signal(signal.SIGTERM)
        codes = [daemon.wait(30) for daemon in daemons]
    assert codes == [0, 0]
    for log in logs:
        said = log.read_text()
        assert "SIGTERM received: stopping" in said and said.rstrip().endswith("gm run stopped"), said
    assert "other processes" not in _gm(config, "check").stdout  # gone, and known to be (SQLite: its file unlocked)


def test_a_stop_while_the_daemon_starts_ends_it_as_cleanly_as_later(tmp_path: Path) -> None:
    """systemctl stop right after start on a busy host: the signal meets gm creating its schema."""
    config = tmp_path / "gm.yaml"
    config.write_text(f"home: {tmp_path / 'var'}\n")
    log = tmp_path / "gm.log"
    daemon = subprocess.Popen([sys.executable, "-m", "gm.cli.main", "--config", str(config), "--log-file", str(log),
                               "run"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for(log, "gm run starting")
        daemon.send_signal(signal.SIGTERM)
        _, err = daemon.communicate(timeout=60)
    finally:
        daemon.kill()
    said = log.read_text()
    assert daemon.returncode == 0, err.decode()
    assert "SIGTERM received: stopping" in said and said.rstrip().endswith("gm run stopped"), said
    assert not err.strip(), err.decode()  # no traceback


@pytest.mark.parametrize("swallowed_by", [Exception, BaseException])
def test_a_stop_that_code_starting_up_swallows_still_stops_the_daemon(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        swallowed_by: type[BaseException]) -> None:
    """The signal may land in code that catches every error (a database probe that treats any
    failure as "no schema yet", a library): gm stops all the same, before serving anything."""
    from gm.cli import run_cmd, startup
    from gm.cli.main import build_parser

    summary = startup.summary

    def summary_meeting_the_signal(config: object) -> list[str]:
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.5)  # the handler runs here, in this thread
        except swallowed_by:
            pass
        return summary(config)  # type: ignore[arg-type]

    served: list[object] = []

    async def serve(daemon: object, interval: float) -> None:
        served.append(daemon)

    monkeypatch.setattr(startup, "summary", summary_meeting_the_signal)
    monkeypatch.setattr(run_cmd, "_serve", serve)
    config = tmp_path / "gm.yaml"
    config.write_text(f"home: {tmp_path / 'var'}\n")
    args = build_parser("run").parse_args(["--config", str(config), "run"])
    before = signal.getsignal(signal.SIGTERM)
    try:
        with caplog.at_level("INFO", logger="gm.run"):
            assert run_cmd.run_daemon(args) == 0
    finally:
        signal.signal(signal.SIGTERM, before)
    assert not served
    said = caplog.text
    assert said.count("SIGTERM received: stopping") == 1 and said.rstrip().endswith("gm run stopped"), said
