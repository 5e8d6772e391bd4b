"""Every address gm writes to is a plain one (gm.mailsyntax): a From it answers, an address a
player or a GM gives by mail, one in a settings file or in the configuration. An encoded word in
an address would be decoded on the way out, into anything (a line end and headers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.config import ConfigError, load_config
from gm.mailsyntax import mail_address, message_id
from gm.settings.reader import SettingsError, read_settings
from tests.mail.conftest import GM_SECRET, Post, secret_of

BREAK = "=?utf-8?q?b=0D=0AX-Injected:_yes?="


@pytest.mark.parametrize("written", [
    f"a@{BREAK}", f"{BREAK}@example.test", '"a b"@example.test', "a@[127.0.0.1]", "a@example.test,b@example.test",
    "a b@example.test", "a@example.test\r\nX: y", "@example.test", "a@", "a@-example.test", "a..b@example.test",
    "a@example..test", "é@example.test", "a" * 250 + "@example.test", "<a@example.test>", "a@example.test>",
])
def test_what_is_not_a_plain_address(written: str) -> None:
    assert mail_address(written) is None


@pytest.mark.parametrize(("written", "kept"), [
    ("France@Example.TEST", "france@example.test"), (" a.b+c@mail.example.test ", "a.b+c@mail.example.test"),
    ("gm@localhost", "gm@localhost"), ("o'neil@example.test", "o'neil@example.test"),
])
def test_a_plain_address(written: str, kept: str) -> None:
    assert mail_address(written) == kept


@pytest.mark.parametrize("written", [
    "=?utf-8?q?<x1@attacker.test>=0D=0AX-Injected:_yes?=", f"<a{BREAK}@example.test>", "<a@example.test> (comment)",
    "<a b@example.test>", "a@example.test", "<a@example.test", "<@example.test>", "<a@>", "<a@b@example.test>",
    "<" + "x" * 990 + "@example.test>", "<a\x00@example.test>", "<a@example.test>\r\nX-Injected: yes",
    "<é@example.test>", '<"a"@example.test>',
])
def test_what_is_not_a_msg_id(written: str) -> None:
    assert message_id(written) is None


@pytest.mark.parametrize("written", [
    "<a@example.test>", " <a.b.c@example.test>\t", "<1.2$3!x@[127.0.0.1]>", "<CAF=Sx+y_z@mail.gmail.com>",
])
def test_a_msg_id(written: str) -> None:
    assert message_id(written) == written.strip()


@pytest.mark.parametrize("address", [f"x@{BREAK}.test", "a@example.test,b.test", '"x"@example.test'])
def test_a_settings_file_names_only_plain_addresses(address: str) -> None:
    for text in (f"variant: standard\ngm: '{address}'\n",
                 f"variant: standard\ngm: m@example.test\nobservers: ['{address}']\n",
                 f"variant: standard\ngm: m@example.test\nplayers:\n  - {{email: '{address}'}}\n"):
        with pytest.raises(SettingsError, match="mail address"):
            read_settings(text, "games/bad.yaml", {"standard"}.__contains__)


def test_the_configuration_names_only_plain_addresses(tmp_path: Path) -> None:
    config = tmp_path / "gm.yaml"
    for text, refused in ((f"judge_address: 'x@{BREAK}'\n", "judge_address must be a plain mail address"),
                          ("admin_address: 'a@example.test, b@example.test'\n", "admin_address must be"),
                          (f"judge_name: '{BREAK}'\n", "judge_name must be one line")):
        config.write_text(text)
        with pytest.raises(ConfigError, match=refused):
            load_config(config)
    config.write_text("judge_address: judge@example.org\njudge_name: The Judge (Rome)\n")
    assert load_config(config).judge_name == "The Judge (Rome)"


def test_a_player_moves_only_to_a_plain_address(post: Post) -> None:
    post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nSET ADDRESS new@{BREAK}.test\n")
    assert "not a plain mail address" in post.reply("france@example.test")
    assert all("new@" not in m.to_address for m in post.mails())


def test_a_game_master_replaces_a_player_only_by_a_plain_address(post: Post) -> None:
    post.send("master@example.test", f"SIGNON GM g {GM_SECRET}\nREPLACE France x@{BREAK}.test\n")
    assert "a plain address" in post.reply("master@example.test")
    assert all("x@" not in m.to_address for m in post.mails())
