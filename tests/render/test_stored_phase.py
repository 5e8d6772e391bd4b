"""``gm render-map --game NAME --phase PHASE`` draws a stored phase with its orders."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from gm.adjudicator.engine import adjudicate
from gm.cli.main import main
from gm.domain.geography import Location
from gm.domain.orders import Move, UnitRef
from gm.domain.units import ARMY
from gm.store.codec import encode_position
from gm.store.database import Database
from gm.store.models import Game, PhaseRecord
from gm.variants.catalog import VariantCatalog


@pytest.fixture
def config(tmp_path: Path) -> Path:
    variant = VariantCatalog().get("standard")
    start = variant.initial_position()
    report = adjudicate(variant, start, [("France", Move(UnitRef(Location("PAR"), ARMY), Location("BUR")))])
    db_url = f"sqlite:///{tmp_path / 'gm.db'}"
    db = Database(db_url)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    with db.unit_of_work() as session:
        game = Game(name="demo", variant="standard", created_at=now, phase=str(report.next.phase),
                    position=encode_position(report.next))
        session.add(game)
        session.flush()
        session.add(PhaseRecord(game_id=game.id, seq=1, phase="S1901M", position_before=encode_position(start),
                                orders={"France": ["A PAR - BUR"]}, results={},
                                position_after=encode_position(report.next), processed_at=now))
    db.dispose()
    path = tmp_path / "gm.yaml"
    path.write_text(f"database: {db_url}\n")
    return path


def test_a_processed_phase_is_drawn_with_its_orders(config: Path, tmp_path: Path) -> None:
    out = tmp_path / "s1901m.svg"
    assert main(["--config", str(config), "render-map", "standard", "--game", "demo", "--phase", "S1901M",
                 "-o", str(out)]) == 0
    assert out.read_text().count('class="order move"') == 1


def test_the_current_phase_is_drawn_without_orders(config: Path, tmp_path: Path) -> None:
    out = tmp_path / "f1901m.svg"
    assert main(["--config", str(config), "render-map", "standard", "--game", "demo", "--phase", "F1901M",
                 "-o", str(out)]) == 0
    assert 'class="order' not in out.read_text()


def test_unknown_games_and_phases_are_named(config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "x.png")
    assert main(["--config", str(config), "render-map", "standard", "--game", "nope", "--phase", "S1901M",
                 "-o", out]) == 2
    assert "no game named 'nope'" in capsys.readouterr().err
    assert main(["--config", str(config), "render-map", "standard", "--game", "demo", "--phase", "S1905M",
                 "-o", out]) == 2
    assert "has no phase S1905M (its phases: S1901M, F1901M)" in capsys.readouterr().err
    assert main(["render-map", "standard", "--game", "demo", "-o", out]) == 2
    assert "--game and --phase go together" in capsys.readouterr().err
