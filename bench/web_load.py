"""The web in the same event loop as the mail: pages a second served to many readers at once by a
running `gm run`, and how soon a mail that comes meanwhile is answered.

    .venv/bin/python bench/web_load.py [--readers 50] [--seconds 10] [--mails 5] [--years 15]

Plays a standard game of ``--years`` years on SQLite (as bench/web_page.py, untimed), then starts
a real `gm run` on that home with its web on a free port of 127.0.0.1, and after a warm-up round
(each page drawn once), for ``--seconds``: ``--readers`` readers, each on its own keep-alive
connection, ask for the game's page and four phase pages in turn, each as soon as the last came;
meanwhile ``--mails`` HELP mails, spaced over the run, are handed to the judge as a mail server's
pipe hands them (gm.transport.handoff), each timed until its answer is in the outbound Maildir.

Loopback only, bounded in count and time: every request has 5 s, the run its ``--seconds``, and
`gm run` is stopped at the end whatever happened. Prints pages a second, the pages' latency, any
error or refusal (503: more than the server's connection limit), each mail's answer time, and the
machine's load. The readers run in this process, so the judge has one of the two cores to itself
at most.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from gm.app import App
from gm.clock import ManualClock
from gm.config import AppConfig, default_config
from web_page import SETTINGS, play

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("/games/g", "/games/g/phases/S1901M", "/games/g/phases/F1905M", "/games/g/phases/F1910M",
         "/games/g/phases/S1915M")
REQUEST_TIMEOUT = 5.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


async def _get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str) -> int:
    """One GET on a keep-alive connection; the status."""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = next((int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:")), 0)
    await reader.readexactly(length)
    return status


async def _reader(port: int, until: float, offset: int, latencies: list[float], statuses: dict[int, int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    n = offset
    try:
        while time.perf_counter() < until:
            started = time.perf_counter()
            try:
                status = await asyncio.wait_for(_get(reader, writer, PAGES[n % len(PAGES)]), REQUEST_TIMEOUT)
            except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
                statuses[-1] = statuses.get(-1, 0) + 1
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                continue
            latencies.append(time.perf_counter() - started)
            statuses[status] = statuses.get(status, 0) + 1
            if status != 200:
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            n += 1
    finally:
        writer.close()


def _answers(outbox: Path) -> int:
    return sum(len(os.listdir(outbox / sub)) for sub in ("new", "cur") if (outbox / sub).exists())


def _mail(home: Path, outbox: Path, n: int) -> float:
    """Seconds from handing a HELP mail to the judge until its answer is in the outbox."""
    from gm.transport.handoff import Outcome, hand_over, socket_path

    raw = (f"From: alice@example.org\nTo: judge@example.test\nSubject: help\n"
           f"Message-ID: <web-load.{n}.{time.time_ns()}@example.org>\n\nHELP\n").encode()
    before = _answers(outbox)
    started = time.perf_counter()
    answer = hand_over(socket_path(home), raw, f"web-load-{n}", None, timeout=30)
    if answer is None or answer.outcome is not Outcome.DONE:
        raise SystemExit(f"the judge did not take the mail: {answer}")
    while _answers(outbox) <= before:
        if time.perf_counter() - started > 30:
            raise SystemExit("no answer within 30 s")
        time.sleep(0.002)
    return time.perf_counter() - started


async def _load_run(port: int, readers: int, seconds: float, home: Path, outbox: Path,
                    mails: int) -> tuple[float, list[float], dict[int, int], list[float]]:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    answered: list[float] = []

    def mailing() -> None:
        for n in range(mails):
            time.sleep(seconds / (mails + 1))
            answered.append(_mail(home, outbox, n))

    started = time.perf_counter()
    until = started + seconds
    mailer = threading.Thread(target=mailing)
    mailer.start()
    await asyncio.gather(*(_reader(port, until, k, latencies, statuses) for k in range(readers)))
    elapsed = time.perf_counter() - started
    await asyncio.to_thread(mailer.join)
    return elapsed, latencies, statuses, answered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--mails", type=int, default=5)
    parser.add_argument("--years", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-bench-web-load-") as folder:
        home = Path(folder) / "home"
        port = _free_port()
        config_file = Path(folder) / "gm.yaml"
        config_file.write_text(f"home: {home}\njudge_address: judge@example.test\nsender_rate: 1000000\n"
                               f"web: {{host: 127.0.0.1, port: {port}}}\n")
        base = default_config(home)
        config = AppConfig(**{**base.__dict__, "judge_address": "judge@example.test"})
        config.games_dir.mkdir(parents=True)
        (config.games_dir / "g.yaml").write_text(SETTINGS)
        clock = ManualClock()
        app = App(config, clock=clock)
        app.scheduler.tick()
        started = time.perf_counter()
        phases = play(app, clock, args.years, 4)
        app.close()
        print(f"set-up: {phases} phases of a {args.years}-year standard game played in "
              f"{time.perf_counter() - started:.1f} s")
        log = Path(folder) / "run.log"
        judge = subprocess.Popen([str(ROOT / ".venv/bin/gm"), "--config", str(config_file), "--log-file", str(log),
                                  "--log-level", "warning", "run"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    if judge.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(f"gm run did not serve the web: {log.read_text() if log.exists() else ''}")
                    time.sleep(0.1)
            asyncio.run(_load_run(port, len(PAGES), 2.0, home, home / "mail" / "outbox", 1))  # warm: pages drawn
            load_before = _load()
            elapsed, latencies, statuses, answered = asyncio.run(
                _load_run(port, args.readers, args.seconds, home, home / "mail" / "outbox", args.mails))
            load_after = _load()
        finally:
            judge.send_signal(signal.SIGTERM)
            try:
                judge.wait(30)
            except subprocess.TimeoutExpired:
                judge.kill()
    served = statuses.get(200, 0)
    latencies.sort()
    print(f"{args.readers} readers for {elapsed:.1f} s of a {args.years}-year game's pages ({len(PAGES)} in turn): "
          f"{served / elapsed:.0f} pages/s; latency median {statistics.median(latencies) * 1000:.0f} ms, "
          f"p90 {latencies[int(len(latencies) * 0.9)] * 1000:.0f} ms; other answers "
          f"{ {k: v for k, v in statuses.items() if k != 200} or 'none'} (-1: no answer within "
          f"{REQUEST_TIMEOUT:g} s)")
    print(f"mails meanwhile, handed over to the judge until their answer is in the outbox: "
          f"{', '.join(f'{t:.2f}' for t in answered)} s (median {statistics.median(answered):.2f} s)")
    print(f"  {load_before} at the start, {load_after} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
