"""The web in the same event loop as the mail: pages a second served to many readers at once by a
running `gm run`, and how soon a mail that comes meanwhile is answered.

    .venv/bin/python bench/web_load.py [--readers 50] [--seconds 10] [--mails 5] [--years 15]

Plays a standard game of ``--years`` years on SQLite (as bench/web_page.py, untimed), then starts
a real `gm run` on that home with its web on a free port of 127.0.0.1. The set-up queued the
game's mails (its results, eight a phase, with their pictures): the bench waits until `gm run`
has sent them all (else they would take the cores, their pictures drawn, during the run). After a
warm-up round (each page drawn once), for ``--seconds``: ``--readers`` readers, each on its own
keep-alive connection, ask for the game's page and four phase pages spread over its history in
turn, each as soon as the last came; meanwhile ``--mails`` HELP mails, spaced over the run, are
handed to the judge as a mail server's pipe hands them (gm.transport.handoff), each timed until
its own answer (the mail whose In-Reply-To names it) is in the outbound Maildir.

Loopback only, bounded in count and time: every request has 5 s, every mail 30 s, the run its
``--seconds``, and `gm run` is stopped at the end whatever happened. Prints pages a second, the
pages' latency, any error or refusal (503: more than the server's connection limit), each mail's
answer time, the processor time the judge and the readers took, and the machine's load. The
readers run in this process, on the same two cores as the judge.
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
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gm.store.models import OutboundMail, OutboundStatus, PhaseRecord
from web_page import played_home

ROOT = Path(__file__).resolve().parent.parent
REQUEST_TIMEOUT = 5.0
MAIL_TIMEOUT = 30.0
SENT_TIMEOUT = 300.0  # for `gm run` to send the set-up's mails


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


def _cpu_seconds(pid: int) -> float:
    """The processor time (user and system) process ``pid`` has taken so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


@dataclass
class Served:
    """What the readers were answered."""

    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)  # -1: no answer in time, or the connection lost

    def count(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1


async def _reader(port: int, pages: list[str], until: float, offset: int, served: Served) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    n = offset
    try:
        while time.perf_counter() < until:
            started = time.perf_counter()
            try:
                status = await asyncio.wait_for(_get(reader, writer, pages[n % len(pages)]), REQUEST_TIMEOUT)
            except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
                status = -1
            else:
                served.latencies.append(time.perf_counter() - started)
            served.count(status)
            if status != 200:
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            n += 1
    finally:
        writer.close()


class Outbox:
    """The outbound Maildir: how many mails are in it, and whether the answer to one mail is."""

    def __init__(self, path: Path):
        self.path = path
        self.seen: set[str] = set()
        self.replies: set[str] = set()  # the In-Reply-To of every mail read so far

    def _names(self) -> list[str]:
        return [f"{sub}/{name}" for sub in ("new", "cur") if (self.path / sub).exists()
                for name in os.listdir(self.path / sub)]

    def count(self) -> int:
        return len(self._names())

    def answered(self, message_id: str) -> bool:
        names = self._names()
        if len(names) > len(self.seen):
            for name in set(names) - self.seen:  # a Maildir file is whole once it is in new/ or cur/
                self.seen.add(name)
                head = (self.path / name).read_bytes().partition(b"\n\n")[0]
                self.replies.update(line.split(b":", 1)[1].strip().decode("latin-1")
                                    for line in head.splitlines() if line.lower().startswith(b"in-reply-to:"))
        return message_id in self.replies


def _mail(home: Path, outbox: Outbox, n: int) -> float:
    """Seconds from handing a HELP mail to the judge until its answer is in the outbox."""
    from gm.transport.handoff import Outcome, hand_over, socket_path

    unique = f"web-load.{n}.{time.time_ns()}"  # a delivery's source key seen before is a duplicate, not answered
    message_id = f"<{unique}@example.org>"
    raw = (f"From: alice@example.org\nTo: judge@example.test\nSubject: help\nMessage-ID: {message_id}\n\n"
           "HELP\n").encode()
    started = time.perf_counter()
    answer = hand_over(socket_path(home), raw, unique, None, timeout=MAIL_TIMEOUT)
    if answer is None or answer.outcome is not Outcome.DONE:
        raise SystemExit(f"the judge did not take the mail: {answer}")
    while not outbox.answered(message_id):
        if time.perf_counter() - started > MAIL_TIMEOUT:
            raise SystemExit(f"no answer within {MAIL_TIMEOUT:g} s")
        time.sleep(0.002)
    return time.perf_counter() - started


@dataclass
class Run:
    elapsed: float  # seconds the readers read
    served: Served
    answered: list[float]  # each mail's seconds until its answer
    cpu_readers: float  # processor seconds this process took while the readers read


async def _load_run(port: int, pages: list[str], readers: int, seconds: float, home: Path, outbox: Outbox,
                    mails: int) -> Run:
    served = Served()
    answered: list[float] = []

    def mailing() -> None:
        for n in range(mails):
            time.sleep(seconds / (mails + 1))
            answered.append(_mail(home, outbox, n))

    started, cpu = time.perf_counter(), time.process_time()
    until = started + seconds
    mailer = threading.Thread(target=mailing)
    mailer.start()
    await asyncio.gather(*(_reader(port, pages, until, k, served) for k in range(readers)))
    run = Run(time.perf_counter() - started, served, answered, time.process_time() - cpu)
    await asyncio.to_thread(mailer.join)
    return run


def _pages(session: Session) -> list[str]:
    """The game's page, and four of its movement phases spread over its history."""
    phases = [code for code in session.scalars(select(PhaseRecord.phase).order_by(PhaseRecord.seq))
              if code.endswith("M")]
    picked = dict.fromkeys(phases[i * (len(phases) - 1) // 3] for i in range(4)) if phases else {}
    return ["/games/g", *(f"/games/g/phases/{code}" for code in picked)]


def _serving(judge: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if judge.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"gm run did not serve the web: {log.read_text() if log.exists() else ''}")
            time.sleep(0.1)


def _sent(outbox: Outbox, queued: int) -> float:
    """Seconds until the ``queued`` mails are in the outbox, and no other came for a second (the
    set-up's clock ran behind the real one: `gm run` may process the phase in play at once)."""
    started = last = time.perf_counter()
    count = outbox.count()
    while count < queued or time.perf_counter() - last < 1.0:
        if time.perf_counter() - started > SENT_TIMEOUT:
            raise SystemExit(f"gm run sent {count} of the set-up's {queued} mails in {SENT_TIMEOUT:g} s")
        time.sleep(0.05)
        if (now := outbox.count()) != count:
            count, last = now, time.perf_counter()
    return last - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--mails", type=int, default=5)
    parser.add_argument("--years", type=int, default=15)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gm-bench-web-load-") as folder:
        home = Path(folder) / "home"
        port = _free_port()
        config_file = Path(folder) / "gm.yaml"
        config_file.write_text(f"home: {home}\njudge_address: judge@example.test\nsender_rate: 1000000\n"
                               f"web: {{host: 127.0.0.1, port: {port}}}\n")
        app = played_home(home, args.years, 4)
        with app.services.db.reading() as session:
            queued = session.scalar(select(func.count()).select_from(OutboundMail)
                                    .where(OutboundMail.status == OutboundStatus.PENDING)) or 0
            pages = _pages(session)
        app.close()
        log = Path(folder) / "run.log"
        outbox = Outbox(home / "mail" / "outbox")
        judge = subprocess.Popen([str(ROOT / ".venv/bin/gm"), "--config", str(config_file), "--log-file", str(log),
                                  "--log-level", "warning", "run"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        try:
            _serving(judge, port, log)
            took = _sent(outbox, queued)
            print(f"gm run sent the set-up's {queued} mails (and any of a phase it processed at once: "
                  f"{outbox.count()} in all) in {took:.1f} s before the run")
            asyncio.run(_load_run(port, pages, len(pages), 2.0, home, outbox, 1))  # warm: pages drawn
            load_before = _load()
            cpu_judge = _cpu_seconds(judge.pid)
            run = asyncio.run(_load_run(port, pages, args.readers, args.seconds, home, outbox, args.mails))
            cpu_judge = _cpu_seconds(judge.pid) - cpu_judge  # the mails' last answers may come after the readers
            load_after = _load()
        finally:
            judge.send_signal(signal.SIGTERM)
            try:
                judge.wait(30)
            except subprocess.TimeoutExpired:
                judge.kill()
    ok = run.served.statuses.get(200, 0)
    latencies = sorted(run.served.latencies) or [0.0]
    print(f"{args.readers} readers for {run.elapsed:.1f} s of a {args.years}-year game's pages ({', '.join(pages)} "
          f"in turn): {ok / run.elapsed:.0f} pages/s; latency median {statistics.median(latencies) * 1000:.0f} ms, "
          f"p90 {latencies[int(len(latencies) * 0.9)] * 1000:.0f} ms; other answers "
          f"{ {k: v for k, v in run.served.statuses.items() if k != 200} or 'none'} (-1: no answer within "
          f"{REQUEST_TIMEOUT:g} s)")
    if run.answered:
        print(f"mails meanwhile, handed over to the judge until their answer is in the outbox: "
              f"{', '.join(f'{t:.2f}' for t in run.answered)} s (median {statistics.median(run.answered):.2f} s)")
    print(f"processor time a second: the judge {cpu_judge / run.elapsed:.2f} s, the readers (this process) "
          f"{run.cpu_readers / run.elapsed:.2f} s")
    print(f"  {load_before} at the start, {load_after} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
