"""deploy/README.md, followed as written: every ```sh block in order, as root, on a machine made
of the real mail servers, PostgreSQL, a real user gm and a sandbox for /etc/gm and /srv/gm
(tests/deploy/machine.py says what stands in for what). After the blocks that matter the test
looks at what an operator would: the daemon answers mail by IMAP IDLE and SMTP with TLS
checked against ca_file, cron's line works with nothing of root's environment, the logs say
what happened and hold no secret, a backup restores. So the papers cannot drift from gm."""

from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.deploy.machine import REPO, Machine, Ran, readme_blocks
from tests.deploy.mail import Mailboxes
from tests.store.conftest import postgres_admin_url
from tests.transport.helpers import MailStack

README = REPO / "deploy" / "README.md"
MAIL_PASSWORD = "gmpass"  # the test mail servers' password of gm@


@pytest.fixture
def machine(mail_stack: MailStack) -> Iterator[tuple[Machine, Mailboxes]]:
    if os.geteuid() != 0:
        pytest.fail("this test plays root on a Debian machine (users, runuser): run it as root, as scripts/test does")
    admin_url = postgres_admin_url()
    server = make_url(admin_url)
    _drop_database(admin_url)
    boxes = Mailboxes(mail_stack, f"deploy{uuid.uuid4().hex[:10]}")
    boxes.create()
    root = Path(tempfile.mkdtemp(prefix="gm-deploy-", dir="/tmp"))
    machine = Machine(root, env={"PGHOST": str(server.host), "PGPORT": str(server.port), "GM_REPOSITORY": str(REPO)})
    machine.edits = _edits(server.host, server.port, mail_stack, boxes)
    try:
        yield machine, boxes
    finally:
        machine.stop_everything()
        _drop_database(admin_url)
        boxes.delete()
        if (root / "state" / "made-user-gm").exists():
            subprocess.run(["userdel", "gm"], capture_output=True, check=False)
        shutil.rmtree(root, ignore_errors=True)


def _drop_database(admin_url: str) -> None:
    engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text("DROP DATABASE IF EXISTS gm WITH (FORCE)"))
        connection.execute(text("DROP ROLE IF EXISTS gm"))
    engine.dispose()


def _edits(host: str | None, port: int | None, stack: MailStack, boxes: Mailboxes) -> dict[str, dict[str, object]]:
    """What a person types in the editor at each `editor` of the README."""
    return {
        "gm.yaml": {"replace": [
            ("postgresql+psycopg://gm@localhost/gm", f"postgresql+psycopg://gm@{host}:{port}/gm"),
            ("judge_address: judge@example.org", f"judge_address: {boxes.address('gm')}"),
            ("admin_address: postmaster@example.org", f"admin_address: {boxes.address('dave')}"),
            ("host: imap.example.org", f"host: {stack.host}"),
            ("port: 993 ", f"port: {stack.port('IMAPS_PORT')} "),
            ("host: smtp.example.org", f"host: {stack.host}"),
            ("port: 587 ", f"port: {stack.port('SUBMISSION_PORT')} "),
            ("# ca_file: /etc/gm/mail-ca.pem", f"ca_file: {stack.ca_file}"),
            ("username: judge@example.org", f"username: {stack.address('gm')}"),
            ("mailbox: INBOX", f"mailbox: {boxes.folder}"),
        ], "move_paths": True},
        "secrets.env": {"append": f"GM_IMAP_PASSWORD={MAIL_PASSWORD}\nGM_SMTP_PASSWORD='{MAIL_PASSWORD}'\n"},
        "example.yaml": {"replace": [
            ("gm: master@example.org", f"gm: {boxes.address('carol')}"),
            ("{email: alice@example.org, power: France}", f"{{email: {boxes.address('alice')}, power: France}}"),
            ("- bob@example.org", f"- {boxes.address('bob')}"),
        ]},
    }


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.mailserver
def test_the_readme_from_a_fresh_machine_to_a_running_judge(machine: tuple[Machine, Mailboxes]) -> None:
    host, boxes = machine
    checks = _checks(host, boxes)
    done: set[str] = set()
    for block in readme_blocks(README.read_text(encoding="utf-8")):
        ran = host.run(block)
        assert ran.returncode == 0, f"a README block failed:\n{ran}\n--- the daemon's journal:\n{host.journal()}"
        for key, check in checks.items():
            if key in block:
                check(ran)
                done.add(key)
    assert done == set(checks), f"the README has no step any more with {sorted(set(checks) - done)}"
    _no_secret_in_the_logs(host)


def _checks(host: Machine, boxes: Mailboxes) -> dict[str, Callable[[Ran], None]]:
    """After a block containing the key: what an operator would look at."""

    def packages(ran: Ran) -> None:
        (install,) = [args for args in host.calls("apt-get") if "install" in args]
        for package in (a for a in install if not a.startswith("-") and a != "install"):
            shown = subprocess.run(["apt-cache", "show", "--no-all-versions", package], capture_output=True, check=False)
            assert shown.returncode == 0, f"Debian has no package {package}"

    def user(ran: Ran) -> None:
        account = pwd.getpwnam("gm")
        assert account.pw_shell == "/usr/sbin/nologin" and account.pw_uid < 1000  # a system user

    def secrets(ran: Ran) -> None:
        file = host.path("/etc/gm/secrets.env")
        status = file.stat()
        assert oct(status.st_mode & 0o777) == "0o640" and status.st_uid == 0
        assert grp.getgrgid(status.st_gid).gr_name == "gm"
        names = {line.split("=", 1)[0] for line in file.read_text().splitlines() if "=" in line}
        assert names == {"GM_DB_PASSWORD", "GM_IMAP_PASSWORD", "GM_SMTP_PASSWORD"}

    def database(ran: Ran) -> None:
        engine = create_engine(postgres_admin_url())
        with engine.connect() as connection:
            owner = connection.execute(text(
                "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'gm'")).scalar()
            password_set = connection.execute(text(
                "SELECT rolpassword IS NOT NULL FROM pg_authid WHERE rolname = 'gm'")).scalar()
        engine.dispose()
        assert owner == "gm" and password_set

    def check(ran: Ran) -> None:
        lines = ran.stdout.splitlines()
        assert lines[-1].startswith("schema at "), ran  # gm db upgrade, after gm check
        report = lines[:-1]
        assert report[-1] == "gm check: ready (2 to look at)", ran  # no schema yet, no games yet
        assert [line for line in report if line.startswith("FAIL")] == []
        for part in ("secrets_file", "inbound", "outbound", "database", "schema"):
            assert any(re.match(rf"(OK|WARN)\s+{part}:", line) for line in report), (part, ran)
        assert any("TLS checked against" in line and "logged in" in line and "IDLE offered" in line
                   for line in report), ran

    def game(ran: Ran) -> None:
        assert "example.yaml: ok" in ran.stdout, ran

    def daemon(ran: Ran) -> None:
        reload, enable = (host.calls("systemctl").index(call) for call in (["daemon-reload"], ["enable", "--now", "gm"]))
        assert reload < enable
        created = boxes.wait_for("carol", "game example created")
        assert "example" in created.get_content()
        boxes.send("alice", boxes.address("gm"), "what is there", "LIST example\n")
        reply = boxes.wait_for("alice", "Re: what is there")
        assert "example" in reply.get_content()
        journal = host.journal()
        assert "\n<6>gm.run: gm run starting" in "\n" + journal, journal[:500]  # journald's priorities
        for said in ("role: the daemon", f"/{boxes.folder}: connected", "waiting for mail with IDLE",
                     f"mail 1 done: from {boxes.address('alice')}", "reply queued",
                     f"(reply) to {boxes.address('alice')}"):
            _journal_says(host, said)  # the sent line comes after the mail server took it, maybe after its delivery

    def cron(ran: Ran) -> None:
        lines = (host.root / "state" / "crontab-gm").read_text().splitlines()
        variables = dict(line.split("=", 1) for line in lines if re.match(r"^[A-Z_]+=", line))
        (entry,) = [line for line in lines if line and not line.startswith("#") and "=" not in line.split()[0]]
        assert entry.split()[:5] == ["*"] * 5
        assert host.run("systemctl stop gm").returncode == 0  # cron alone now
        assert "SIGTERM received: stopping" in host.journal() and host.journal().rstrip().endswith("gm run stopped")
        boxes.send("bob", boxes.address("gm"), "from cron", "LIST\n")
        boxes.wait_for("gm", "from cron")  # delivered, not yet read
        ran_by_cron = host.as_cron("gm", host.moved(entry), variables)
        assert (ran_by_cron.returncode, ran_by_cron.stdout, ran_by_cron.stderr) == (0, "", ""), ran_by_cron
        boxes.wait_for("bob", "Re: from cron")
        log = host.path("/srv/gm/var/gm.log").read_text()
        assert f"from {boxes.address('bob')}" in log and "reply queued" in log and "sent mail" in log, log
        assert host.run("systemctl start gm").returncode == 0

    def upgrade(ran: Ran) -> None:
        assert (host.root / "state" / "setup-ran").exists()
        _journal_says(host, "role: the daemon", times=3)  # restarted
        assert host.journal().count("SIGTERM received") == 2

    def backup(ran: Ran) -> None:
        for pattern in ("gm-*.dump", "etc-gm-*.tar.gz"):
            (found,) = host.path("/var/backups/gm").glob(pattern)
            assert found.stat().st_size > 0

    def restore(ran: Ran) -> None:
        checked = host.run("runuser -u gm -- /srv/gm/.venv/bin/gm --config /etc/gm/gm.yaml check")
        assert checked.returncode == 0 and checked.stdout.splitlines()[-1].startswith("gm check: ready"), checked
        assert "OK    example.yaml: game example" in checked.stdout
        engine = create_engine(postgres_admin_url().rsplit("/", 1)[0] + "/gm")
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM games WHERE name = 'example'")).scalar() == 1
        engine.dispose()
        _journal_says(host, "role: the daemon", times=4)
        boxes.send("alice", boxes.address("gm"), "after the restore", "LIST example\n")
        boxes.wait_for("alice", "Re: after the restore")

    return {"apt-get install": packages, "useradd": user, "editor /etc/gm/secrets.env": secrets,
            "createdb -O gm gm": database, "gm.yaml check": check, "gm.yaml reload": game,
            "systemctl enable --now gm": daemon, "crontab -u gm": cron, "git pull": upgrade, "tar -czf": backup,
            "pg_restore": restore}


def _journal_says(host: Machine, text: str, times: int = 1, within: float = 20.0) -> None:
    deadline = time.monotonic() + within
    while host.journal().count(text) < times:
        assert time.monotonic() < deadline, f"{text!r} not {times} times in the journal:\n{host.journal()}"
        time.sleep(0.1)


def _no_secret_in_the_logs(host: Machine) -> None:
    database_password = next(line.split("=", 1)[1] for line in host.path("/etc/gm/secrets.env").read_text().splitlines()
                             if line.startswith("GM_DB_PASSWORD="))
    logs = host.journal() + host.path("/srv/gm/var/gm.log").read_text()
    for secret in (MAIL_PASSWORD, database_password):
        assert secret not in logs
    assert "gm:***@" in logs  # the database URL, shown without its password


def test_the_readme_blocks_are_found() -> None:
    """The parser the test above relies on: it finds the blocks and leaves out the marked ones."""
    text = "a\n```sh\necho one\n```\n<!-- not run by tests/deploy: no -->\n```sh\necho two\n```\n```text\nx\n```\n"
    assert readme_blocks(text) == ["echo one\n"]
    blocks = readme_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 10 and not any("postalias" in block for block in blocks)
