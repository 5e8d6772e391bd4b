"""Several `gm run` on one host with one configuration that has a web section: all of them run;
the web is served by one (the holder of the lock in the home), the others say so in one line
and one of them takes it over when that one stops; `gm check` names the one that serves it.
Real processes, real HTTP."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.races.judge import Judge
from tests.races.own_postgres import free_port


def _log(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _wait(condition, what: str, within: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def _answers(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
        return int(response.status)


@pytest.mark.slow
@pytest.mark.parametrize("daemons", [2, 3])
def test_several_daemons_run_and_one_serves_the_web(daemons: int, tmp_path: Path) -> None:
    judge = Judge(tmp_path / "judge", f"sqlite:///{tmp_path / 'judge' / 'gm.db'}")
    port = free_port()
    with judge.config_file.open("a", encoding="utf-8") as config:
        config.write(f"web: {{host: 127.0.0.1, port: {port}}}\n")
    logs = [tmp_path / f"daemon{i}.log" for i in range(daemons)]
    running: list[subprocess.Popen[bytes]] = []
    try:
        running.append(judge.spawn("--log-file", str(logs[0]), "run"))
        _wait(lambda: "web: serving on" in _log(logs[0]), "the first daemon never served the web")
        for log in logs[1:]:
            running.append(judge.spawn("--log-file", str(log), "run"))
        for log in logs[1:]:
            _wait(lambda log=log: "web: served by" in _log(log), "a daemon never said who serves the web")
        time.sleep(2)
        assert all(process.poll() is None for process in running), [process.poll() for process in running]
        assert _answers(port) == 200
        for log in logs[1:]:
            said = [line for line in _log(log).splitlines() if " gm.web.server: " in line]
            assert len(said) == 1, said  # one line, nothing more while it waits
            assert said[0].endswith(f"web: served by gm process {running[0].pid} on {_hostname()} on this host; "
                                    "this process serves none, and takes it over should that one stop"), said

        check = subprocess.run([sys.executable, "-m", "gm.cli.main", "check"], env=judge.environment(),
                               capture_output=True, text=True, timeout=120)
        assert (f"web: served on 127.0.0.1:{port} by gm process {running[0].pid} on {_hostname()}; any other gm run "
                "on this host serves none") in check.stdout, check.stdout

        running[0].send_signal(signal.SIGTERM)  # the one serving stops: another takes the web over
        running[0].wait(timeout=60)
        _wait(lambda: sum("this one serves it now" in _log(log) for log in logs[1:]) == 1,
              "no daemon took the web over", within=40)
        _wait(lambda: _port_answers(port), "the web did not answer again", within=20)
        time.sleep(1)
        assert sum("web: serving on" in _log(log) for log in logs[1:]) == 1
        assert all(process.poll() is None for process in running[1:])
    finally:
        for process in running:
            if process.poll() is None:
                process.terminate()
        for process in running:
            process.wait(timeout=60)
        judge.close()
    for process, log in zip(running, logs):
        assert process.returncode == 0, _log(log)[-2000:]
        assert "Traceback" not in _log(log) and "address already in use" not in _log(log)


def _port_answers(port: int) -> bool:
    try:
        return _answers(port) == 200
    except OSError:
        return False


def _hostname() -> str:
    import socket

    return socket.gethostname()
