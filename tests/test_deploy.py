"""The files in deploy/ are what a server uses: they must stay valid as gm changes."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from gm.config import default_config, load_config
from gm.settings.reader import DEADLINE_KEYS, GAME_KEYS, read_settings
from gm.variants.catalog import VariantCatalog

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def test_the_server_configurations_load(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.env"
    secrets.write_text("GM_DB_PASSWORD=db-secret\nGM_IMAP_PASSWORD=imap-secret\nGM_SMTP_PASSWORD=smtp-secret\n")
    example = tmp_path / "gm.yaml"
    example.write_text((DEPLOY / "gm.example.yaml").read_text().replace("/etc/gm/secrets.env", str(secrets)))
    config = load_config(example)
    assert config.inbound.kind == "imap" and config.inbound.password == "imap-secret"
    assert config.outbound.kind == "smtp" and config.outbound.password == "smtp-secret"
    assert config.database_url.startswith("postgresql") and config.database_shown == "postgresql+psycopg://gm:***@localhost/gm"
    embedded = load_config(DEPLOY / "gm.embedded.yaml")
    assert embedded.inbound.kind == "maildir" and embedded.database_url.startswith("sqlite")


def test_the_example_game_is_valid() -> None:
    catalog = VariantCatalog()
    (game,) = read_settings((DEPLOY / "game.example.yaml").read_text(), "game.example.yaml", lambda v: v in catalog.names())
    assert game.variant == "standard" and game.players[0].power == "France"


def test_the_service_and_cron_run_gm() -> None:
    assert "ExecStart=/srv/gm/.venv/bin/gm run" in (DEPLOY / "gm.service").read_text()
    cron = (DEPLOY / "gm.cron").read_text()
    assert "--config /etc/gm/gm.yaml --log-file /srv/gm/var/gm.log tick" in cron and "MAILTO=" in cron


def test_every_key_gm_accepts_is_in_the_example_and_explained() -> None:
    """deploy/README.md promises the configuration key by key; gm.example.yaml shows them all."""
    from gm.config import KEYS, MailboxConfig

    example = (DEPLOY / "gm.example.yaml").read_text()
    readme = (DEPLOY / "README.md").read_text()
    for key in KEYS:
        assert re.search(rf"(?m)^(# )?{key}:", example), f"gm.example.yaml does not show {key}"
        assert f"| `{key}` |" in readme, f"deploy/README.md does not explain {key}"
    for key in MailboxConfig.__dataclass_fields__:
        assert f"| `{key}` |" in readme, f"deploy/README.md does not explain the mailboxes' {key}"


def test_the_unit_is_valid_for_systemd(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.fail("systemd-analyze (Debian's systemd package) is needed to check deploy/gm.service")
    program = tmp_path / "srv/gm/.venv/bin/gm"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    unit = tmp_path / "gm.service"
    unit.write_text((DEPLOY / "gm.service").read_text().replace("/srv/gm", str(tmp_path / "srv/gm")))
    checked = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0 and checked.stderr == "", checked.stderr


def test_the_embedded_configuration_written_out_is_what_gm_uses_without_one() -> None:
    """The file once said judge@localhost while gm sends as gm@localhost."""
    written, embedded = load_config(DEPLOY / "gm.embedded.yaml"), default_config()
    for key in ("judge_address", "judge_name", "admin_address", "max_mail_bytes", "sender_rate"):
        assert getattr(written, key) == getattr(embedded, key), key
    assert written.inbound.kind == embedded.inbound.kind == "maildir"


def test_the_example_game_shows_every_setting_with_a_comment() -> None:
    """Seats (which Eagles needs) and observers were missing."""
    text = (DEPLOY / "game.example.yaml").read_text()
    for key in sorted(GAME_KEYS | DEADLINE_KEYS):
        (line,) = [line for line in text.splitlines() if line.lstrip().startswith(f"{key}:")]
        assert "#" in line, line
