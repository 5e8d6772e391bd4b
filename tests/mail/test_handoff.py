"""`gm receive` hands its mail to the `gm run` of the same home when there is one
(gm.transport.handoff): the mail is stored, handled and answered by the judge, and `gm receive`
itself loads neither SQLAlchemy nor gm's application. Without a judge, or with one that goes
away before answering, `gm receive` leaves the mail in the spool for a process of its own
(tests/mail/test_spool.py), or handles it itself with --wait; the judge's answers become the exit
codes a mail server understands (0 done, 75 try again)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gm.store.retry import DatabaseBusy
from gm.transport.handoff import SOCKET_NAME, Answer, Outcome, hand_over, reachable
from gm.transport.handoff_server import HandoffServer
from tests.mail.conftest import wait_until
from tests.maildirs import mails_in
from tests.store.conftest import fresh_postgres_database

# Runs `gm receive` as a mail server does, then says which heavy modules it had loaded.
RECEIVE = ("import sys\nfrom gm.cli.main import main\ncode = main(['--config', sys.argv[1], 'receive', *sys.argv[2:]])\n"
           "print(sorted(m for m in ('sqlalchemy', 'gm.app', 'gm.services.intake', 'asyncio') if m in sys.modules))\n"
           "sys.exit(code)\n")


def _help_mail(n: int) -> bytes:
    return (f"From: alice@example.org\nTo: judge@example.test\nSubject: help\nMessage-ID: <help.{n}@example.org>\n"
            "\nHELP\n").encode()


def _home(tmp_path: Path, database: str | None = None) -> Path:
    """A judge's configuration on the embedded defaults (SQLite unless ``database``, local mail
    folders)."""
    config = tmp_path / "gm.yaml"
    config.write_text(f"home: {tmp_path / 'var'}\njudge_address: judge@example.test\n"
                      + (f"database: {database}\n" if database else ""))
    return config


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    if request.param == "sqlite":
        yield None
        return
    with fresh_postgres_database() as url:
        yield url


def _receive(config: Path, raw: bytes, *options: str) -> tuple[int, list[str], str]:
    done = subprocess.run([sys.executable, "-c", RECEIVE, str(config), *options], input=raw, capture_output=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if not k.startswith("GM_")})
    loaded = json.loads(done.stdout.decode().strip().replace("'", '"') or "null")
    return done.returncode, loaded, done.stderr.decode()


def _answers_to(outbox: Path, to: str) -> list[str]:
    """The subjects of the mails sent to ``to``."""
    return [m["Subject"] for m in mails_in(outbox) if to in m["To"]]


@contextlib.contextmanager
def _gm_run(config: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    daemon = subprocess.Popen([sys.executable, "-m", "gm.cli.main", "--config", str(config), "--log-file", str(log),
                               "run"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              env={k: v for k, v in os.environ.items() if not k.startswith("GM_")})
    try:
        wait_until(lambda: "taking mails from gm receive" in (log.read_text() if log.exists() else ""), 60)
        yield daemon
    finally:
        daemon.send_signal(signal.SIGTERM)
        _, err = daemon.communicate(timeout=60)
        assert daemon.returncode == 0, err.decode()


@pytest.mark.slow
def test_mails_piped_while_gm_run_runs_are_handled_by_it(tmp_path: Path, database: str | None) -> None:
    config, log = _home(tmp_path, database), tmp_path / "gm.log"
    outbox = tmp_path / "var" / "mail" / "outbox"
    with _gm_run(config, log):
        path = tmp_path / "var" / SOCKET_NAME
        assert stat.S_IMODE(path.stat().st_mode) == 0o600  # the judge's owner's only
        with ThreadPoolExecutor(max_workers=4) as pipes:  # several at once, the first delivered twice
            done = list(pipes.map(lambda n: _receive(config, _help_mail(n)), [0, 1, 2, 3, 0]))
        for code, loaded, err in done:
            assert (code, loaded) == (0, []), err  # handed over: nothing of gm's application loaded here
        wait_until(lambda: len(_answers_to(outbox, "alice@example.org")) >= 4)
    said = log.read_text()
    assert said.count("from alice@example.org, no game: 1 answered") == 4, said  # the repeated one recognised
    assert not path.exists()  # the judge took its socket away when it stopped
    assert len(_answers_to(outbox, "alice@example.org")) == 4


@pytest.mark.parametrize("wait", [False, True])
def test_without_a_judge_gm_receive_spools_the_mail_or_handles_it_itself(tmp_path: Path, wait: bool) -> None:
    config = _home(tmp_path)
    (tmp_path / "var").mkdir()
    with socket.socket(socket.AF_UNIX) as gone:  # the socket a judge killed left behind
        gone.bind(str(tmp_path / "var" / SOCKET_NAME))
    code, loaded, err = _receive(config, _help_mail(1), *(["--wait"] if wait else []))
    assert code == 0, err
    if wait:  # answered before it exits
        assert "sqlalchemy" in loaded and "gm.app" in loaded
        assert _answers_to(tmp_path / "var" / "mail" / "outbox", "alice@example.org")
    else:  # left in the spool: the process it started answers
        assert loaded == []
        wait_until(lambda: _answers_to(tmp_path / "var" / "mail" / "outbox", "alice@example.org"), 60)


class _Silent:
    """A judge that takes the mail and then says nothing: closes (it died), or waits."""

    def __init__(self, path: Path, closes: bool):
        self.server = socket.socket(socket.AF_UNIX)
        self.server.bind(str(path))
        self.server.listen()
        self.closes = closes
        self.taken: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        connection, _ = self.server.accept()
        with connection:
            self.taken.append(connection.recv(65536))
            if not self.closes:
                time.sleep(5)


def test_a_judge_that_dies_before_answering_leaves_the_mail_to_gm_receive(tmp_path: Path) -> None:
    config = _home(tmp_path)
    (tmp_path / "var").mkdir()
    judge = _Silent(tmp_path / "var" / SOCKET_NAME, closes=True)
    code, loaded, err = _receive(config, _help_mail(2))
    assert code == 0, err
    assert judge.taken and b"HELP" in judge.taken[0]  # it was handed over first
    assert loaded == []  # then left in the spool, and answered by the process taking it
    wait_until(lambda: _answers_to(tmp_path / "var" / "mail" / "outbox", "alice@example.org"), 60)


def test_a_judge_that_does_not_answer_in_time_means_try_again_later(tmp_path: Path) -> None:
    path = tmp_path / SOCKET_NAME
    _Silent(path, closes=False)
    answer = hand_over(path, _help_mail(3), "pipe:x", None, timeout=0.5)
    assert answer is not None and answer.outcome is Outcome.BUSY and "did not answer within 0.5 s" in answer.why


def _server(path: Path, receive, read_limit: int = 10_000) -> HandoffServer:  # type: ignore[no-untyped-def]
    async def then() -> None:
        pass

    def classify(exc: BaseException) -> Answer:
        if isinstance(exc, DatabaseBusy):
            return Answer(Outcome.BUSY, str(exc))
        return Answer(Outcome.FAILED, f"cannot store the mail now: {exc}")

    return HandoffServer(path, receive, classify, read_limit, then)


def _serving(server: HandoffServer, client) -> list[object]:  # type: ignore[no-untyped-def]
    """Runs ``client`` (blocking, in a thread) against ``server``; what it returned, in order."""
    async def run() -> list[object]:
        serving = asyncio.ensure_future(server.serve())
        while not server.path.exists():
            await asyncio.sleep(0.01)
        try:
            return await asyncio.to_thread(client)
        finally:
            serving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await serving

    return asyncio.run(run())


def test_the_judge_answers_each_outcome_and_takes_no_unreadable_or_oversized_hand_over(tmp_path: Path) -> None:
    got: list[tuple[bytes, str, int | None]] = []

    async def receive(raw: bytes, key: str, size: int | None) -> None:
        got.append((raw, key, size))
        if b"busy" in raw:
            raise DatabaseBusy("gave up waiting for the game's lock")
        if b"broken" in raw:
            raise RuntimeError("disk full")

    path = tmp_path / ("a" * 60) / SOCKET_NAME  # longer than a socket's address may be: reached through its folder
    path.parent.mkdir(parents=True)
    assert len(str(path)) > 107

    def client() -> list[object]:
        def raw_exchange(data: bytes) -> bytes:
            with reachable(path) as address, socket.socket(socket.AF_UNIX) as connection:
                connection.connect(address)
                connection.sendall(data)
                connection.shutdown(socket.SHUT_WR)
                return connection.makefile("rb").readline()

        return [
            hand_over(path, b"a mail", "pipe:1", None, 10),
            hand_over(path, b"a mail cut short", "pipe:2", 5_000_000, 10),
            hand_over(path, b"busy", "pipe:3", None, 10),
            hand_over(path, b"broken", "pipe:4", None, 10),
            raw_exchange(b"not json\n"),
            raw_exchange(b'{"source_key": "pipe:5", "size": null, "length": 20000}\n' + b"x" * 20000),
            raw_exchange(b'{"source_key": "pipe:6", "size": null, "length": 10}\nshort'),
            hand_over(path, b"still serving", "pipe:7", None, 10),
        ]

    said = _serving(_server(path, receive), client)
    assert said[:4] == [Answer(Outcome.DONE), Answer(Outcome.DONE),
                        Answer(Outcome.BUSY, "gave up waiting for the game's lock"),
                        Answer(Outcome.FAILED, "cannot store the mail now: disk full")]
    assert all(line.startswith(b"failed ") for line in said[4:7]), said[4:7]  # type: ignore[union-attr]
    assert said[7] == Answer(Outcome.DONE)
    assert got == [(b"a mail", "pipe:1", None), (b"a mail cut short", "pipe:2", 5_000_000), (b"busy", "pipe:3", None),
                   (b"broken", "pipe:4", None), (b"still serving", "pipe:7", None)]
    assert not path.exists()


def test_a_second_judge_leaves_the_socket_to_the_first(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO")
    path = tmp_path / SOCKET_NAME
    first: list[str] = []

    async def receive(raw: bytes, key: str, size: int | None) -> None:
        first.append(key)

    def client() -> list[object]:
        async def nothing(raw: bytes, key: str, size: int | None) -> None:
            raise AssertionError("the second judge took a mail")

        asyncio.run(_server(path, nothing).serve())  # returns at once: the first serves
        return [hand_over(path, b"mail", "pipe:1", None, 10)]

    assert _serving(_server(path, receive), client) == [Answer(Outcome.DONE)]
    assert first == ["pipe:1"]
    assert "another gm run takes them" in caplog.text
    assert "WARNING" not in caplog.text  # its look at the socket is no mail


def test_a_mail_server_is_told_75_when_the_judge_could_not_handle_the_mail(tmp_path: Path) -> None:
    config = _home(tmp_path)
    (tmp_path / "var").mkdir()

    async def receive(raw: bytes, key: str, size: int | None) -> None:
        raise DatabaseBusy("gave up waiting for the game's lock")

    def client() -> list[object]:
        return [_receive(config, _help_mail(4))]

    [(code, loaded, err)] = _serving(_server(tmp_path / "var" / SOCKET_NAME, receive), client)
    assert (code, loaded) == (75, []) and "gave up waiting for the game's lock" in err
    assert not _answers_to(tmp_path / "var" / "mail" / "outbox", "alice@example.org")
