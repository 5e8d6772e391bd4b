"""Every kind of mail gm sends, rendered from one scripted game and compared with reviewed text
kept in tests/golden/ (GM_UPDATE_GOLDEN=1 rewrites them after a deliberate change: review the diff).
Every line of every mail fits 72 columns."""

from __future__ import annotations

import itertools
import os
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from gm.store.models import OutboundMail
from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

GOLDEN = Path(__file__).parent / "golden"
WIDTH = 72


@pytest.fixture
def scripted(world: World, monkeypatch: pytest.MonkeyPatch) -> list[OutboundMail]:
    counter = itertools.count(1)
    fixed = lambda: f"secret-word-{next(counter)}"  # noqa: E731 - deterministic secrets
    monkeypatch.setattr("gm.games.lifecycle.new_secret", fixed)
    monkeypatch.setattr("gm.commands.gm_actions.new_secret", fixed)
    body = game_file(extra="grace: 12h\npress: grey\ndraw: {votes: open}\n").replace("timezone: Europe/Rome", "timezone: Europe/Paris")
    world.write_game("g", body)
    world.tick()
    post = Post(world)
    secrets = {p: f"secret-word-{n + 2}" for n, p in enumerate(
        ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"])}
    france, gm = "france@example.test", "master@example.test"
    post.send(france, f"SIGNON France g {secrets['France']}\nA Paris - Burgundy\nA Mar - Spian\nF Brest - English Channel\n"
                      "PRESS TO England\nThe Channel is mine.\nENDPRESS\n")
    post.send("england@example.test", "HELP\n")
    post.send("germany@example.test", f"SIGNON Germany g {secrets['Germany']}\nA Munich - Burgundy\nF Kiel - Holland\n"
                                      "A Berlin - Kiel\n")
    world.clock.advance(timedelta(hours=24, minutes=1))
    world.tick()  # reminders
    world.clock.advance(timedelta(hours=24))
    world.tick()  # late notices (12 hours of grace)
    post.send(gm, "SIGNON GM g secret-word-1\nPREVIEW\nSET DEADLINE +1h\n")
    _until_processed(world)  # Spring 1901
    post.send(france, f"SIGNON France g {secrets['France']}\nF English Channel - Belgium\nA Paris - Burgundy\n"
                      "A Spain H\n")
    post.send(gm, "SIGNON GM g secret-word-1\nBECOME Germany\nA Munich - Burgundy\nA Kiel - Holland\n"
                  "F Denmark - Sweden\n")
    _until_processed(world)  # Fall 1901: centres change hands, adjustments follow
    path = world.config.games_dir / "g.yaml"
    path.write_text(body.replace("grace: 12h", "grace: half a day"))
    os.utime(path, (path.stat().st_atime + 5, path.stat().st_mtime + 5))
    world.tick()  # a refused edit
    for power in secrets:
        post.send(f"{power.lower()}@example.test", f"SIGNON {power} g {secrets[power]}\nDRAW\n")
    with world.services.db.sessions() as session:
        return list(session.scalars(select(OutboundMail).order_by(OutboundMail.id)))


def _until_processed(world: World) -> None:
    """Jump from one due moment to the next until the current phase is processed."""
    from gm.games.lifecycle import find_game

    with world.services.db.sessions() as session:
        seq = find_game(session, "g").phase_seq
    while True:
        with world.services.db.sessions() as session:
            game = find_game(session, "g")
            if game.phase_seq != seq:
                return
            world.clock.set(max(world.clock.now(), game.due_at))
        world.tick()


def _rendered(mail: OutboundMail) -> str:
    return f"To: {mail.to_address}\nSubject: {mail.subject}\nKind: {mail.kind}\n\n{mail.body}"


def test_mails_match_the_reviewed_text(scripted: list[OutboundMail], database_url: str) -> None:
    chosen: dict[str, OutboundMail] = {}
    for mail in scripted:  # the first mail of each kind to each kind of reader
        reader = "gm" if mail.to_address.startswith("master") else ("france" if mail.to_address.startswith("france") else "other")
        kind = mail.kind
        if kind == "results":  # every phase's results: movement, retreats, adjustments read differently
            kind = "results-" + mail.body.split(":: Phase: ", 1)[1].split()[0]
        chosen.setdefault(f"{kind}-{reader}", mail)
    expected_names = set()
    for number, (key, mail) in enumerate(sorted(chosen.items(), key=lambda item: item[1].id), start=1):
        name = f"{number:02d}-{key}.txt"
        expected_names.add(name)
        path = GOLDEN / name
        text = _rendered(mail)
        if os.environ.get("GM_UPDATE_GOLDEN") and database_url.startswith("sqlite"):
            GOLDEN.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
        assert path.exists(), f"no golden file {name}: run with GM_UPDATE_GOLDEN=1 and review it"
        assert text == path.read_text(encoding="utf-8"), f"{name} differs from the reviewed text"
    assert {p.name for p in GOLDEN.glob("*.txt")} == expected_names, "golden files without a mail, or the reverse"


def test_every_line_fits_72_columns(scripted: list[OutboundMail]) -> None:
    kinds = {m.kind for m in scripted}
    assert kinds >= {"created", "joined", "start", "reply", "press", "reminder", "late", "preview", "deadline",
                     "results", "gm-alert", "vote", "end"}, kinds
    for mail in scripted:
        for line in mail.body.splitlines():
            assert len(line) <= WIDTH, f"{mail.kind} to {mail.to_address}: {len(line)} columns: {line!r}"
