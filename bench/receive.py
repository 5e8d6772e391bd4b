"""Seconds for `gm receive` to take a HELP mail from a mail server's pipe, as a mail server runs it
(a new process each mail), with and without a `gm run` of the same home to hand it to.

    .venv/bin/python bench/receive.py [--mails 15]

On the embedded defaults (SQLite, local mail folders) in a fresh home, medians (and the
slowest) of:

- *alone*: no judge runs: gm receive loads gm and handles the mail itself, its answer sent
  when it exits;
- *handed over*: a `gm run` runs: gm receive hands the mail over (gm.transport.handoff), the
  judge stores, handles and answers it; the time until gm receive exits, and until the
  answer is in the outbound folder.

Alternates the two, mail by mail, and prints the machine's load.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _mail(n: int) -> bytes:
    return (f"From: alice@example.org\nTo: judge@example.test\nSubject: help\n"
            f"Message-ID: <bench.{n}.{time.time_ns()}@example.org>\n\nHELP\n").encode()


def _answers(outbox: Path) -> int:
    return sum(len(os.listdir(outbox / sub)) for sub in ("new", "cur") if (outbox / sub).exists())


def _receive(config: Path, raw: bytes, outbox: Path) -> tuple[float, float]:
    """Seconds until gm receive exits, and until the answer is in the outbox."""
    before = _answers(outbox)
    start = time.perf_counter()
    done = subprocess.run([str(ROOT / ".venv/bin/gm"), "--config", str(config), "--log-level", "warning", "receive"],
                          input=raw, capture_output=True)
    exited = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"gm receive exited {done.returncode}: {done.stderr.decode()}")
    while _answers(outbox) <= before:
        if time.perf_counter() - start > 30:
            raise SystemExit("no answer within 30 s")
        time.sleep(0.002)
    return exited, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        alone_home, judged_home = Path(folder) / "alone", Path(folder) / "judged"
        configs = []
        for home in (alone_home, judged_home):
            config = Path(folder) / f"{home.name}.yaml"
            config.write_text(f"home: {home}\njudge_address: judge@example.test\nsender_rate: 100000\n")
            configs.append(config)
        subprocess.run([str(ROOT / ".venv/bin/gm"), "--config", str(configs[0]), "db", "upgrade"],
                       check=True, capture_output=True)
        log = Path(folder) / "run.log"
        judge = subprocess.Popen([str(ROOT / ".venv/bin/gm"), "--config", str(configs[1]), "--log-file", str(log),
                                  "run"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while "taking mails from gm receive" not in (log.read_text() if log.exists() else ""):
                time.sleep(0.05)
            alone, handed = [], []
            for n in range(args.mails + 1):  # the first of each warms the files' caches
                alone.append(_receive(configs[0], _mail(n), alone_home / "mail" / "outbox"))
                handed.append(_receive(configs[1], _mail(n), judged_home / "mail" / "outbox"))
        finally:
            judge.send_signal(signal.SIGTERM)
            judge.wait(60)
    load = os.getloadavg()[0]
    print(f"gm receive of a HELP mail, {args.mails} mails each, load {load:.2f}:")
    for name, times in (("alone", alone[1:]), ("handed over", handed[1:])):
        exits, answered = [t[0] for t in times], [t[1] for t in times]
        print(f"  {name:12} exits after {statistics.median(exits):.3f} s (slowest {max(exits):.3f}), "
              f"answer out after {statistics.median(answered):.3f} s (slowest {max(answered):.3f})")


if __name__ == "__main__":
    sys.exit(main())
