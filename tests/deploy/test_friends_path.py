"""deploy/README.md's hosted mailbox (section 17) and its game among friends on one's own computer
(section 18), as written: the configuration loads (SQLite in its home, IMAP and SMTP with TLS,
the app password from the environment), the game file is valid with the friends' addresses,
and the one command is gm's own."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from gm.cli.main import build_parser
from gm.config import load_config
from gm.settings.reader import read_settings
from gm.variants.catalog import VariantCatalog

README = Path(__file__).resolve().parents[2] / "deploy" / "README.md"


def section(number: int) -> str:
    text = README.read_text(encoding="utf-8")
    return text.split(f"\n## {number}. ", 1)[1].split("\n## ", 1)[0]


def yaml_blocks(text: str) -> list[str]:
    return re.findall(r"(?ms)^```yaml\n(.*?)^```$", text)


def test_the_hosted_mailbox_block_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_MAIL_PASSWORD", "app-password")
    (block,) = yaml_blocks(section(17))
    (tmp_path / "gm.yaml").write_text(block)
    config = load_config(tmp_path / "gm.yaml")
    assert (config.inbound.kind, config.inbound.tls, config.inbound.password) == ("imap", "ssl", "app-password")
    assert (config.outbound.kind, config.outbound.tls, config.outbound.port) == ("smtp", "starttls", 587)
    assert "Outlook.com" in section(17) and "app password" in section(17)


def test_the_friends_game_on_ones_own_computer_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_MAIL_PASSWORD", "app-password")
    monkeypatch.setenv("HOME", str(tmp_path))
    text = section(18)
    configuration, game = yaml_blocks(text)
    home = tmp_path / "gm-friends"
    (home / "games").mkdir(parents=True)
    (home / "gm.yaml").write_text(configuration)
    (home / "games" / "friends.yaml").write_text(game)
    config = load_config(home / "gm.yaml")
    assert config.home == home and config.database_url == f"sqlite:///{home / 'gm.db'}"  # the demo's SQLite
    assert config.inbound.tls == "ssl" and config.outbound.tls == "starttls" and config.web is not None
    catalog = VariantCatalog()
    (settings,) = read_settings(game, "friends.yaml", lambda v: v in catalog.names())
    assert len(settings.players) == 7 and all(p.power is None for p in settings.players)
    (command,) = [line.strip() for line in text.splitlines() if line.startswith("    GM_MAIL_PASSWORD=")]
    words = [w.replace("~", str(tmp_path)) for w in shlex.split(command)[1:]]
    assert words[0] == ".venv/bin/gm"
    args = build_parser("run").parse_args(words[1:])
    assert args.command == "run" and Path(args.config) == home / "gm.yaml"
