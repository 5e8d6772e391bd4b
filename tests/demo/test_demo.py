"""``gm demo --variant NAME``: a short game of any catalog variant by mail on the embedded defaults."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from sqlalchemy import select

from gm.cli.main import main
from gm.demo import Demo, DemoUnsupported, players_of
from gm.store.database import Database
from gm.store.models import Game, PhaseRecord
from gm.variants.catalog import VariantCatalog
from tests.engine.deltas import Garrisons


def test_a_game_of_classical_is_played_by_mail_end_to_end(tmp_path: Path) -> None:
    out = io.StringIO()
    Demo(tmp_path / "home", out, seed=7, variant="classical").run(years=1)
    text = out.getvalue()
    powers = list(VariantCatalog().get("classical").map.powers)
    assert text.startswith("gm demo: Classical Diplomacy;")
    for power in powers:  # every player joins, mails orders and reads the results
        address = f"{power.lower()}@example.test"
        assert f"<-- {address} receive: gm: you joined demo" in text
        assert f"--> {address} mails the judge (orders):" in text
        assert f"SIGNON {power} demo " in text and f"SIGNON {power} demo ?" not in text
    everyone = sorted([p.lower() for p in powers] + ["master"])  # alike: all see the game's zone
    readers = f"<-- 6 readers ({', '.join(everyone)}) receive: gm: demo, "
    for phase in ("Spring 273 B.C. movement", "Fall 273 B.C. movement", "Winter 273 B.C. adjustments"):
        assert f"{readers}{phase}: results  [attached: demo-" in text, phase
    # the first writer's mistake is answered line by line, then corrected
    assert re.search(r'ERROR: unknown province "(\w+ ?)+" — did you mean', text)
    corrected = text.split("receive: Re: corrected orders", 1)[1].split("<--", 1)[0]
    assert "ERROR" not in corrected and "Current orders for Carthage" in corrected
    assert "<-- 2 readers (egypt, master) receive: gm: demo press from Carthage" in text
    assert text.rstrip().endswith(str(tmp_path / "home"))
    # the pictures are kept where the demo says (it once said "attached" and lost them)
    pictures = tmp_path / "home" / "pictures"
    named = set(re.findall(r"\[attached: ([\w.-]+), kept in " + re.escape(str(pictures)) + r"\]", text))
    assert named and all((pictures / name).read_bytes().startswith(b"\x89PNG") for name in named), named
    assert f"The pictures the players received are in {pictures}." in text
    db = Database(re.search(r"database (\S+)", text).group(1), migrate=False)  # type: ignore[union-attr]
    try:
        with db.sessions() as session:
            game = session.scalar(select(Game).where(Game.name == "demo"))
            assert game is not None and game.variant == "classical" and game.status == "active"
            phases = session.scalars(select(PhaseRecord.phase).where(PhaseRecord.game_id == game.id)).all()
            assert phases[:3] == ["S-273M", "F-273M", "W-273A"]
    finally:
        db.dispose()


def test_players_come_from_the_variants_powers() -> None:
    players = players_of(VariantCatalog().get("standard"))
    assert players == {p: p.lower() for p in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")}


def test_a_variant_whose_players_found_their_powers_has_none_to_seat_and_one_without_choices_is_refused() -> None:
    assert players_of(VariantCatalog().get("roman-diplomacy-i")) == {}
    with pytest.raises(DemoUnsupported, match="offers no choice to join with"):
        players_of(Garrisons())


def test_players_found_their_empires_by_mail_first_come_first_served_and_one_joins_later(tmp_path: Path) -> None:
    out = io.StringIO()
    Demo(tmp_path / "home", out, seed=3, variant="roman-diplomacy-i").run(years=1)
    text = out.getvalue()
    joins = re.findall(r"--> (\w+)@example.test mails the judge \(joining\):\n      \| JOIN demo (.+) as (\w+)", text)
    assert [who for who, _, _ in joins] == ["latins", "punics", "punics", "hellenes", "scythians", "iberians"]
    assert joins[1][1] == joins[0][1]  # the second asks for the first one's city, and is told to choose again
    assert f"ERROR: {joins[0][1]} is no longer neutral or already asked for: choose another city" in text
    assert "The game is full and has started: you play Scythians." in text
    assert "You come into the game at its next adjustment phase." in text
    assert f"Iberians joins the game with its Imperial City in {joins[-1][1]}." in text
    assert "SIGNON Iberians demo ?" not in text and "has no power" not in text
    assert "Neutral:   Garrison" not in text.split("Spring A.D. 100 movement: results", 1)[1].split("<--")[0]


def test_the_command_refuses_an_unknown_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--variant", "nosuch", "--home", str(tmp_path / "h")]) == 2
    assert "unknown variant 'nosuch'" in capsys.readouterr().err


@pytest.mark.parametrize("name", [n for n in VariantCatalog().names() if n != "classical"])
def test_every_variant_of_the_catalog_plays_by_mail(tmp_path: Path, name: str) -> None:
    out = io.StringIO()
    Demo(tmp_path / "home", out, variant=name).run(years=1)
    text = out.getvalue()
    variant = VariantCatalog().get(name)
    first = variant.calendar.first_phase(variant.first_year)
    assert f"receive: gm: demo, {variant.title(first)}: results" in text
    results = {line.split("receive: ")[1] for line in text.splitlines() if "receive: gm: demo, " in line}
    assert len(results) >= 3  # three phases' results (each to the players and the GM, alike ones shown once)
    assert "Demo over." in text
