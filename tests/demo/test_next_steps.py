"""What a newcomer does after the demo, played literally: the demo's printed next steps and the
README's, each command line as printed, through gm's own command line; and the demo's clock and
deadlines agreeing (no deadline before the one named before it; a phase processed before its
deadline says so; the game left behind not overdue in real time)."""

from __future__ import annotations

import io
import mailbox
import os
import re
import shlex
import subprocess
import sys
import time
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gm.app import App
from gm.cli.main import build_parser, main
from gm.config import load_config
from gm.demo import Demo

REPO = Path(__file__).resolve().parents[2]
MOMENT = re.compile(r"Deadline[^:]*: (\w{3} \d\d \w{3} \d{4} \d\d:\d\d) (\w+)")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    home = tmp_path_factory.mktemp("demo") / "home"
    out = io.StringIO()
    Demo(home, out).run(years=1)
    return home, out.getvalue()


def next_steps(text: str) -> list[list[str]]:
    """The command lines the demo printed after "Play on from here", as words."""
    after = text.split("Play on from here", 1)[1]
    lines = [line.strip() for line in after.splitlines() if re.match(r"\s+\S*gm (demo|--config)", line)]
    return [shlex.split(line) for line in lines]


def run_gm(words: list[str], stdin: bytes = b"", capsys: pytest.CaptureFixture[str] | None = None) -> int:
    """A printed command line run as gm runs it: its words after the program, ``< file`` as stdin."""
    assert Path(words[0]).name == "gm", words
    argv = words[1:]
    if "<" in argv:
        argv = argv[: argv.index("<")]
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        return main(argv)
    finally:
        sys.stdin = saved


def test_no_deadline_comes_before_the_one_named_before_it(played: tuple[Path, str]) -> None:
    _, text = played
    moments = [datetime.strptime(m, "%a %d %b %Y %H:%M") for m, _zone in MOMENT.findall(text)]
    assert len(moments) > 5
    assert all(a <= b for a, b in zip(moments, moments[1:])), [str(m) for m in moments]


def test_each_results_mail_says_when_it_was_processed_before_its_deadline(played: tuple[Path, str]) -> None:
    _, text = played
    chunks = [" ".join(c.replace("      | ", " ").split()) for c in text.split("<-- ")]
    results = [k for k, c in enumerate(chunks) if re.match(r"\d+ readers \([^)]*\) receive: gm: demo, .*: results", c)]
    assert results
    for k in results:
        assert "Processed early," in chunks[k], chunks[k]
        assert "every order was in (its deadline was" in chunks[k] or "the game master processed it" in chunks[k]


def test_a_phase_a_unit_lacks_an_order_for_is_processed_by_the_game_master(tmp_path: Path) -> None:
    """Rise of Rome II's demo leaves a unit without an order once: the game master processes the
    phase then, the clock staying behind the real time the game goes on in."""
    out = io.StringIO()
    Demo(tmp_path / "home", out, variant="rise-of-rome-ii").run(years=1)
    text = " ".join(out.getvalue().replace("      | ", " ").split())
    assert "the game master processes the phase" in text and "PROCESS " in text
    assert "the game master processed it (its deadline was" in text
    app = App(load_config(tmp_path / "home" / "gm.yaml"))
    try:
        with app.db.sessions() as session:
            from sqlalchemy import func, select

            from gm.store.models import PhaseRecord

            last = session.scalar(select(func.max(PhaseRecord.processed_at)))
        assert last is not None and last.replace(tzinfo=UTC) <= datetime.now(UTC)
    finally:
        app.close()


def test_the_game_left_behind_is_not_overdue_in_real_time(played: tuple[Path, str]) -> None:
    home, _ = played
    config = load_config(home / "gm.yaml")
    app = App(config)
    try:
        with app.db.sessions() as session:
            from gm.games.lifecycle import find_game

            game = find_game(session, "demo")
            assert game is not None and game.status == "active"
            assert game.deadline is not None and game.deadline > datetime.now(UTC)
    finally:
        app.close()


def test_the_demos_next_steps_played_as_printed(played: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    home, text = played
    steps = next_steps(text)
    assert [w[1:3] for w in steps[:2]] == [["demo", "mail"], ["--config", str(home / "gm.yaml")]]
    capsys.readouterr()
    mail, receive, web, run = steps
    # a mail from a player, its sign-on written for it
    assert run_gm(mail, b"HELP LIST\nSTATUS\n") == 0
    printed = capsys.readouterr().out
    who = mail[3]
    assert f"<-- {who}@example.test receive: Re: orders" in printed
    assert "Signed on as" in printed and "ERROR" not in printed and "Current orders for" in printed
    # any whole mail, as printed: From:, To: judge@example.test, a body
    message = EmailMessage()
    message["From"] = "newcomer@example.test"
    message["To"] = "judge@example.test"
    message["Subject"] = "hello"
    message.set_content("LIST\n")
    outbox = mailbox.Maildir(str(home / "mail" / "outbox"), create=False)
    before = set(outbox.keys())
    assert receive[-2:] == ["<", "mail.eml"]
    assert run_gm(receive, bytes(message)) == 0
    answers = [outbox[k] for k in set(outbox.keys()) - before]
    assert [str(m["To"]) for m in answers] == ["newcomer@example.test"]
    assert "Next deadline" in answers[0].get_payload(decode=True).decode()
    # the web pages, on the configuration printed
    args = build_parser("web").parse_args(web[1:])
    assert args.command == "web" and Path(args.config) == home / "gm.yaml"
    app = App(load_config(Path(args.config)))
    try:
        page = TestClient(app.web_app()).get("/games/demo")
        assert page.status_code == 200 and "demo" in page.text
    finally:
        app.close()
    assert build_parser("run").parse_args(run[1:]).command == "run"


@pytest.mark.slow
def test_the_judge_printed_answers_a_mail_dropped_in_its_inbox(played: tuple[Path, str]) -> None:
    home, text = played
    run = next_steps(text)[-1]
    gm = str(REPO / ".venv" / "bin" / "gm") if run[0].startswith(".venv") else run[0]
    inbox = mailbox.Maildir(str(home / "mail" / "inbox"), create=False)
    outbox = mailbox.Maildir(str(home / "mail" / "outbox"), create=False)
    before = set(outbox.keys())
    message = EmailMessage()
    message["From"] = "visitor@example.test"
    message["To"] = "judge@example.test"
    message["Subject"] = "list"
    message.set_content("LIST\n")
    inbox.add(message)
    process = subprocess.Popen([gm, *run[1:]], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not set(outbox.keys()) - before:
            time.sleep(0.5)
        assert set(outbox.keys()) - before, "gm run answered nothing"
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_readmes_next_steps_played_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first = readme.split("\n## ", 1)[0]  # the README's first section
    assert ".venv/bin/gm" in first and ". .venv/bin/activate" in first
    block = first.split("```sh\n")[2].split("```", 1)[0]
    lines = [re.split(r"\s#", line, maxsplit=1)[0].strip() for line in block.splitlines()]
    commands = [shlex.split(line) for line in lines if line.startswith(".venv/bin/gm")]
    assert [c[1] for c in commands] == ["demo", "demo", "--config", "--config"]
    monkeypatch.setenv("HOME", str(tmp_path))
    commands = [[os.path.expanduser(w) for w in c] for c in commands]
    assert run_gm(commands[0]) == 0
    assert "Play on from here" in capsys.readouterr().out
    (tmp_path / "my-orders.txt").write_text("STATUS\n")
    assert run_gm(commands[1], (tmp_path / "my-orders.txt").read_bytes()) == 0
    assert "Re: orders" in capsys.readouterr().out
    message = EmailMessage()
    message["From"] = "reader@example.test"
    message["To"] = "judge@example.test"
    message.set_content("HELP\n")
    assert run_gm(commands[2], bytes(message)) == 0
    args = build_parser("web").parse_args(commands[3][1:])
    assert Path(args.config) == tmp_path / "gm-demo" / "gm.yaml" and args.config and Path(args.config).is_file()


def test_a_home_that_is_no_demos_is_never_emptied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "letters.txt").write_text("mine")
    assert main(["demo", "--home", str(tmp_path)]) == 2
    assert (tmp_path / "letters.txt").read_text() == "mine"
    assert "not a demo's" in capsys.readouterr().err
