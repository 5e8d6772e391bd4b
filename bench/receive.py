"""Seconds for `gm receive` to take a HELP mail from a mail server's pipe, as a mail server runs it
(a new process each mail), with and without a `gm run` of the same home to hand it to.

    .venv/bin/python bench/receive.py [--mails 15] [--burst 20]

On the embedded defaults (SQLite, local mail folders) in a fresh home, the time until gm receive
exits, and until the answer is in the outbound folder, medians (and the slowest) of:

- *spooled*: no judge runs: gm receive leaves the mail in the spool and starts a process of its
  own to take it (gm.transport.spool);
- *--wait*: no judge runs: gm receive loads gm and handles the mail itself, its answer sent
  when it exits;
- *handed over*: a `gm run` runs: gm receive hands the mail over (gm.transport.handoff), the
  judge stores, handles and answers it.

Alternates the three, mail by mail (each waiting for the one before to be answered). Then a
burst: ``--burst`` mails piped at once, as a mail server with mail queued delivers them, spooled
and with --wait: the time until the last gm receive exits, and until the last answer is out.
Prints the machine's load.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _mail(n: int) -> bytes:
    return (f"From: alice@example.org\nTo: judge@example.test\nSubject: help\n"
            f"Message-ID: <bench.{n}.{time.time_ns()}@example.org>\n\nHELP\n").encode()


def _answers(outbox: Path) -> int:
    return sum(len(os.listdir(outbox / sub)) for sub in ("new", "cur") if (outbox / sub).exists())


def _pipe(config: Path, raw: bytes, *options: str) -> None:
    done = subprocess.run([str(ROOT / ".venv/bin/gm"), "--config", str(config), "--log-level", "warning", "receive",
                           *options], input=raw, capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"gm receive exited {done.returncode}: {done.stderr.decode()}")


def _answered(outbox: Path, count: int, start: float) -> float:
    """Seconds from ``start`` until the outbox holds ``count`` answers."""
    while _answers(outbox) < count:
        if time.perf_counter() - start > 120:
            raise SystemExit("no answer within 120 s")
        time.sleep(0.002)
    return time.perf_counter() - start


def _receive(config: Path, raw: bytes, outbox: Path, *options: str) -> tuple[float, float]:
    """Seconds until gm receive exits, and until the answer is in the outbox."""
    before = _answers(outbox)
    start = time.perf_counter()
    _pipe(config, raw, *options)
    exited = time.perf_counter() - start
    return exited, _answered(outbox, before + 1, start)


def _burst(config: Path, outbox: Path, mails: int, *options: str) -> tuple[float, float]:
    """``mails`` piped at once: seconds until the last gm receive exits, and the last answer is out."""
    before = _answers(outbox)
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=mails) as pipes:
        list(pipes.map(lambda n: _pipe(config, _mail(1000 + n), *options), range(mails)))
    exited = time.perf_counter() - start
    return exited, _answered(outbox, before + mails, start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=15)
    parser.add_argument("--burst", type=int, default=20, help="mails piped at once (0: none)")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        homes = {name: Path(folder) / name for name in ("spooled", "wait", "judged")}
        configs = {}
        for name, home in homes.items():
            configs[name] = Path(folder) / f"{name}.yaml"
            configs[name].write_text(f"home: {home}\njudge_address: judge@example.test\nsender_rate: 100000\n")
            if name != "judged":
                subprocess.run([str(ROOT / ".venv/bin/gm"), "--config", str(configs[name]), "db", "upgrade"],
                               check=True, capture_output=True)
        outboxes = {name: home / "mail" / "outbox" for name, home in homes.items()}
        log = Path(folder) / "run.log"
        judge = subprocess.Popen([str(ROOT / ".venv/bin/gm"), "--config", str(configs["judged"]), "--log-file",
                                  str(log), "run"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while "taking mails from gm receive" not in (log.read_text() if log.exists() else ""):
                time.sleep(0.05)
            times: dict[str, list[tuple[float, float]]] = {"spooled": [], "--wait": [], "handed over": []}
            for n in range(args.mails + 1):  # the first of each warms the files' caches
                times["spooled"].append(_receive(configs["spooled"], _mail(n), outboxes["spooled"]))
                times["--wait"].append(_receive(configs["wait"], _mail(n), outboxes["wait"], "--wait"))
                times["handed over"].append(_receive(configs["judged"], _mail(n), outboxes["judged"]))
        finally:
            judge.send_signal(signal.SIGTERM)
            judge.wait(60)
        bursts = {"spooled": _burst(configs["spooled"], outboxes["spooled"], args.burst),
                  "--wait": _burst(configs["wait"], outboxes["wait"], args.burst, "--wait")} if args.burst else {}
    print(f"gm receive of a HELP mail, {args.mails} mails each, load {load_before:.2f} at the start, "
          f"{os.getloadavg()[0]:.2f} at the end:")
    for name, found in times.items():
        exits, answered = [t[0] for t in found[1:]], [t[1] for t in found[1:]]
        print(f"  {name:12} exits after {statistics.median(exits):.3f} s (slowest {max(exits):.3f}), "
              f"answer out after {statistics.median(answered):.3f} s (slowest {max(answered):.3f})")
    for name, (exited, answered) in bursts.items():
        print(f"  {args.burst} at once, {name}: the last exits after {exited:.2f} s, the last answer is out after "
              f"{answered:.2f} s")


if __name__ == "__main__":
    sys.exit(main())
