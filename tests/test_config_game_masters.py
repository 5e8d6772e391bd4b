"""game_masters: who may CREATE games by mail, read and checked with the rest of the configuration,
and what `gm check` says of it (and of the files CREATE and SETTINGS write)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gm.cli.checks import FAIL, OK, WARN, game_masters, games
from gm.config import ConfigError, load_config


def _config(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "gm.yaml"
    path.write_text(f"games_dir: {tmp_path / 'games'}\n" + text, encoding="utf-8")
    (tmp_path / "games").mkdir(exist_ok=True)
    return load_config(path)


def test_addresses_and_patterns_none_by_default(tmp_path: Path) -> None:
    assert _config(tmp_path, "").game_masters == ()
    config = _config(tmp_path, "game_masters: [GM@Club.Example, '*@games.example', '*@*.league.example']\n")
    assert config.game_masters == ("gm@club.example", "*@games.example", "*@*.league.example")
    assert config.may_create("gm@club.example") and config.may_create("Anyone@GAMES.example")
    assert config.may_create("x@north.league.example") and not config.may_create("x@league.example")
    assert not config.may_create("other@club.example") and not config.may_create("")
    assert _config(tmp_path, "game_masters: gm@club.example\n").game_masters == ("gm@club.example",)


@pytest.mark.parametrize("value", ["[not an address]", "['@club.example']", "[club.example]", "{a: b}", "['gm@']"])
def test_anything_else_is_refused_naming_the_key(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="game_masters"):
        _config(tmp_path, f"game_masters: {value}\n")


def test_gm_check_says_who_may_create_and_whether_the_files_can_be_written(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    none = list(game_masters(_config(tmp_path, "")))
    assert [(f.status, f.subject) for f in none] == [(OK, "game_masters")] and "CREATE by mail is refused" in none[0].text
    (anyone,) = game_masters(_config(tmp_path, "game_masters: ['*']\n"))
    assert anyone.status == WARN and "anyone" in anyone.text
    config = _config(tmp_path, "game_masters: ['*@club.example']\n")
    assert [f.status for f in game_masters(config)] == [OK]
    (tmp_path / "games" / "g.yaml").write_text("variant: standard\ngm: gm@club.example\n", encoding="utf-8")
    assert [f.status for f in games(config)] == [OK]
    # as the user gm runs as would find them, were they not writable (root writes everywhere)
    monkeypatch.setattr("gm.cli.checks.os.access", lambda path, mode: not mode & os.W_OK)
    assert [(f.status, "SETTINGS by mail cannot change it" in f.text) for f in games(config)][-1] == (WARN, True)
    found = list(game_masters(config))
    assert found[-1].status == FAIL and "CREATE and SETTINGS by mail cannot write" in found[-1].text
    assert list(game_masters(_config(tmp_path, "")))[-1].status == WARN  # SETTINGS needs it all the same
