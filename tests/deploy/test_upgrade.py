"""An upgrade as deploy/README.md section 10 writes it, from the release before migration 0009
(the outbox's claims), taken from the repository's history: that release makes its database
and plays a phase with its configuration of then (secrets given by systemd's EnvironmentFile,
no secrets_file); today's gm first says where it looked for a secret and what to add, then,
the file named, upgrades the schema and every game goes on: orders, a phase processed, its
results sent."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

import pytest

from tests.maildirs import mails_in

ROOT = Path(__file__).resolve().parents[2]
FIRST_AFTER = "migrations/versions/0009_claims_and_mail_identity.py"
HOLDS = {
    "Austria": "A VIE H\nA BUD H\nF TRI H", "England": "F LON H\nF EDI H\nA LVP H",
    "France": "F BRE H\nA PAR - BUR\nA MAR H", "Germany": "F KIE H\nA BER H\nA MUN H",
    "Italy": "F NAP H\nA ROM H\nA VEN H", "Russia": "F STP/SC H\nA MOS H\nA WAR H\nF SEV H",
    "Turkey": "F ANK H\nA CON H\nA SMY H",
}
HOLDS_AUTUMN = {**HOLDS, "France": "F BRE H\nA BUR H\nA MAR H"}


def _git(*args: str) -> bytes:
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, timeout=120)
    assert done.returncode == 0, f"this test needs the repository's history (git {' '.join(args)}): {done.stderr!r}"
    return done.stdout


def _earlier_release(target: Path) -> Path:
    """The source of the release before migration 0009, as its commit holds it."""
    added = _git("log", "--diff-filter=A", "--format=%H", "--", FIRST_AFTER).split()
    assert added, f"{FIRST_AFTER} is in no commit"
    with tarfile.open(fileobj=BytesIO(_git("archive", "--format=tar", f"{added[-1].decode()}^"))) as archive:
        archive.extractall(target, filter="data")
    return target


class Judge:
    """One installation, run by the earlier release's gm or today's."""

    def __init__(self, root: Path):
        self.etc, self.var = root / "etc", root / "var"
        (self.etc / "games").mkdir(parents=True)
        for box in ("inbox", "outbox"):
            for sub in ("new", "cur", "tmp"):
                (self.var / box / sub).mkdir(parents=True)
        self.config = self.etc / "gm.yaml"
        self.secrets = self.etc / "secrets.env"
        # The earlier layout: every secret in systemd's EnvironmentFile, none named in gm.yaml
        self.secrets.write_text("GM_IMAP_PASSWORD=imap-pw-1\nGM_SMTP_PASSWORD=smtp-pw-1\n", encoding="utf-8")
        self.secrets.chmod(0o600)
        self.config.write_text(
            f"home: {self.var}\ndatabase: sqlite:///{self.var / 'gm.db'}\ngames_dir: {self.etc / 'games'}\n"
            "judge_address: judge@example.test\n"
            f"inbound: {{kind: maildir, path: {self.var / 'inbox'}, password: $GM_IMAP_PASSWORD}}\n"
            f"outbound: {{kind: maildir, path: {self.var / 'outbox'}, password: $GM_SMTP_PASSWORD}}\n",
            encoding="utf-8")
        players = "\n".join(f"  - {{email: {p.lower()}@example.test, power: {p}}}" for p in HOLDS)
        (self.etc / "games" / "g1.yaml").write_text(
            "variant: standard\ngm: master@example.test\ntimezone: UTC\n"
            "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\nearly: {enabled: true, delay: 0m}\n"
            f"players:\n{players}\n", encoding="utf-8")
        (self.etc / "games" / "g2.yaml").write_text(  # a game still forming when the upgrade comes
            "variant: standard\ngm: master@example.test\ntimezone: UTC\nplayers:\n"
            "  - {email: austria@example.test, power: Austria}\n", encoding="utf-8")
        self.count = 0

    def gm(self, source: Path, *args: str, environment: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith("GM_")}
        env.update(environment or {})
        if source != ROOT:
            env["GM_PURE_PYTHON"] = "1"  # its compiled modules are not in the history
        return subprocess.run([sys.executable, "-m", "gm.cli.main", "--config", str(self.config), *args],
                              cwd=source, env=env, capture_output=True, text=True, timeout=300)

    def mail(self, sender: str, body: str) -> None:
        self.count += 1
        raw = (f"From: {sender}\nTo: judge@example.test\nSubject: orders {self.count}\n"
               f"Message-ID: <upgrade.{self.count}@example.test>\n\n{body}\n").encode()
        (self.var / "inbox" / "new" / f"{self.count}.upgrade").write_bytes(raw)

    def sent(self) -> list:  # type: ignore[type-arg]
        return mails_in(self.var / "outbox")

    def secrets_mailed(self) -> dict[str, str]:
        found = {}
        for message in self.sent():
            if "g1" not in str(message["Subject"]):
                continue  # Austria plays in g2 too
            text = message.get_payload(decode=True) if not message.is_multipart() else \
                next(p for p in message.walk() if p.get_content_type() == "text/plain").get_payload(decode=True)
            match = re.search(r"Your secret for this game is:\s+(\S+)", text.decode())
            if match:
                found[str(message["To"]).split("@")[0].capitalize()] = match.group(1)
        return found


def _orders(judge: Judge, secrets: dict[str, str], orders: dict[str, str]) -> None:
    for power, lines in orders.items():
        judge.mail(f"{power.lower()}@example.test", f"SIGNON {power} g1 {secrets[power]}\n{lines}")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_judge_of_the_release_before_0009_is_upgraded_as_the_readme_says_and_plays_on(tmp_path: Path) -> None:
    earlier = _earlier_release(tmp_path / "earlier")
    judge = Judge(tmp_path / "judge")
    systemd = dict(line.split("=", 1) for line in judge.secrets.read_text().split())  # what EnvironmentFile gave

    done = judge.gm(earlier, "tick", environment=systemd)  # the earlier gm makes its schema, starts the game
    assert done.returncode == 0, done.stderr
    secrets = judge.secrets_mailed()
    assert sorted(secrets) == sorted(HOLDS), secrets
    _orders(judge, secrets, HOLDS)
    for _ in range(2):  # the orders read, then Spring 1901 processed by it (early: every order in)
        done = judge.gm(earlier, "tick", environment=systemd)
        assert done.returncode == 0, done.stderr
    before = len(judge.sent())
    assert any("results" in str(m["Subject"]) for m in judge.sent()), [str(m["Subject"]) for m in judge.sent()]

    # Today's gm, as root's shell runs it (no EnvironmentFile): the missing secret is named, with the fix
    done = judge.gm(ROOT, "db", "upgrade")
    assert done.returncode != 0
    assert (f"inbound password is $GM_IMAP_PASSWORD, which is set neither in a secrets file (the configuration "
            f"names none) nor in the environment: add secrets_file: FILE to {judge.config}") in done.stderr
    assert f"{judge.secrets} is there (an earlier layout's systemd EnvironmentFile is such a file)" in done.stderr

    # Section 10: the file made gm's to read, and named
    judge.secrets.chmod(0o640)
    with judge.config.open("a", encoding="utf-8") as config:
        config.write(f"secrets_file: {judge.secrets}\n")
    done = judge.gm(ROOT, "db", "upgrade")
    assert done.returncode == 0, done.stderr
    status = judge.gm(ROOT, "db", "status").stdout.split()
    assert status[1] == status[3], status  # at the newest revision

    # Every game goes on: g1's autumn ordered and processed, g2 still forming takes a player
    _orders(judge, secrets, HOLDS_AUTUMN)
    judge.mail("england@example.test", "JOIN g2 England")
    done = judge.gm(ROOT, "tick")
    assert done.returncode == 0, done.stderr
    new = judge.sent()[before:]
    replies = [m for m in new if m["X-GM-Kind"] in ("reply", "refusal")]
    assert len(replies) == 8 and all(m["X-GM-Kind"] == "reply" for m in replies), [m["Subject"] for m in replies]
    autumn = [m for m in new if m["X-GM-Kind"] == "results"]
    assert len(autumn) == 8 and all("Fall 1901" in str(m["Subject"]) or "Autumn 1901" in str(m["Subject"])
                                    for m in autumn), [m["Subject"] for m in autumn]
    joined = next(m for m in replies if m["To"] == "england@example.test" and "g2" in str(m.get_payload()))
    assert "England" in str(joined.get_payload())
    assert "Traceback" not in done.stderr
