"""The files in deploy/ are what a server uses: they must stay valid as gm changes."""

from __future__ import annotations

from pathlib import Path

from gm.config import load_config
from gm.settings.reader import read_settings
from gm.variants.catalog import VariantCatalog

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def test_the_server_configurations_load(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("GM_IMAP_PASSWORD", "imap-secret")
    monkeypatch.setenv("GM_SMTP_PASSWORD", "smtp-secret")
    config = load_config(DEPLOY / "gm.example.yaml")
    assert config.inbound.kind == "imap" and config.inbound.password == "imap-secret"
    assert config.outbound.kind == "smtp" and config.database_url.startswith("postgresql")
    embedded = load_config(DEPLOY / "gm.embedded.yaml")
    assert embedded.inbound.kind == "maildir" and embedded.database_url.startswith("sqlite")


def test_the_example_game_is_valid() -> None:
    catalog = VariantCatalog()
    (game,) = read_settings((DEPLOY / "game.example.yaml").read_text(), "game.example.yaml", lambda v: v in catalog.names())
    assert game.variant == "standard" and game.players[0].power == "France"


def test_the_service_and_cron_run_gm() -> None:
    assert "ExecStart=/srv/gm/.venv/bin/gm run" in (DEPLOY / "gm.service").read_text()
    assert "gm tick" in (DEPLOY / "gm.cron").read_text()
