"""The server's configuration: secrets from secrets_file or the environment, never shown; every
value checked when read, with the key named."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from gm.config import ConfigError, load_config, read_secrets_file


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "gm.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_secrets_come_from_the_file_then_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = tmp_path / "secrets.env"
    secrets.write_text("# the judge's\nGM_IMAP_PASSWORD=imap secret with spaces\n"
                       "export GM_SMTP_PASSWORD='quoted $secret'\n\nGM_DB_PASSWORD=\"p@ss:/w?rd#1\"\n")
    monkeypatch.setenv("GM_IMAP_PASSWORD", "the environment's, not used")
    monkeypatch.setenv("GM_OTHER", "from the environment")
    config = load_config(_config(tmp_path, (
        f"secrets_file: {secrets}\n"
        "database: postgresql+psycopg://gm@db.example.org/gm\n"
        "database_password: $GM_DB_PASSWORD\n"
        "inbound: {kind: imap, host: imap.example.org, username: judge, password: $GM_IMAP_PASSWORD}\n"
        "outbound: {kind: smtp, host: smtp.example.org, username: judge, password: $GM_SMTP_PASSWORD}\n")))
    assert config.inbound.password == "imap secret with spaces"
    assert config.outbound.password == "quoted $secret"
    assert make_url(config.database_url).password == "p@ss:/w?rd#1"  # quoted into the URL, read back whole
    assert config.database_shown == "postgresql+psycopg://gm:***@db.example.org/gm"
    assert config.secrets_file == secrets
    shown = repr(config)
    for secret in config.secrets():
        assert secret not in shown
    assert sorted(config.secrets()) == sorted(["imap secret with spaces", "quoted $secret", "p@ss:/w?rd#1"])
    environment = load_config(_config(tmp_path, "inbound: {kind: imap, password: $GM_OTHER}\n"))
    assert environment.inbound.password == "from the environment"


def test_a_secret_found_nowhere_is_an_error_that_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GM_NOWHERE", raising=False)
    secrets = tmp_path / "secrets.env"
    secrets.write_text("GM_SOMETHING=else\n")
    with pytest.raises(ConfigError, match=r"inbound password is \$GM_NOWHERE, which is set neither in the secrets "
                                          r"file .*secrets.env nor in the environment: add the line GM_NOWHERE=\.\.\. "
                                          r"to .*secrets.env$"):
        load_config(_config(tmp_path, f"secrets_file: {secrets}\ninbound: {{kind: imap, password: $GM_NOWHERE}}\n"))
    # the earlier layout: the secrets in systemd's EnvironmentFile, beside a configuration that names none
    with pytest.raises(ConfigError, match=r"which is set neither in a secrets file \(the configuration names none\) "
                                          r"nor in the environment: add secrets_file: FILE to .*, FILE holding the "
                                          r"line GM_NOWHERE=\.\.\.; .*secrets.env is there \(an earlier layout's "
                                          r"systemd EnvironmentFile is such a file\)"):
        load_config(_config(tmp_path, "inbound: {kind: imap, password: $GM_NOWHERE}\n"))
    with pytest.raises(ConfigError, match=r"secrets_file .*missing.env: cannot be read"):
        load_config(_config(tmp_path, f"secrets_file: {tmp_path / 'missing.env'}\n"))
    secrets.write_text("GM_ONE=1\nnot a line of names\n")
    with pytest.raises(ConfigError, match="line 2: not NAME=value"):
        read_secrets_file(secrets)


@pytest.mark.parametrize(("text", "words"), [
    ("colour: blue\n", "unknown settings ['colour']"),
    ("inbound: {kind: pop3}\n", "inbound kind must be maildir or imap, not 'pop3'"),
    ("outbound: {kind: imap}\n", "outbound kind must be maildir or smtp"),
    ("inbound: {kind: imap, tls: tls}\n", "inbound tls must be ssl or starttls or none for imap, not 'tls'"),
    ("outbound: {kind: smtp, tls: yes}\n", "outbound tls must be starttls or ssl or none"),
    ("outbound: {kind: smtp, port: '587'}\n", "outbound port must be a whole number"),
    ("outbound: {kind: smtp, certificate: x}\n", "unknown outbound settings ['certificate']"),
    ("sender_rate: lots\n", "sender_rate must be a whole number"),
    ("lock_timeout: -1\n", "lock_timeout must be a number of seconds"),
    ("require_authentication_results: 'no'\n", "require_authentication_results must be true or false"),
    ("- a list\n", "must be a mapping"),
])
def test_every_value_is_checked_when_read(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(_config(tmp_path, text))
    assert words in str(raised.value)


def test_mail_servers_are_encrypted_unless_tls_says_otherwise(tmp_path: Path) -> None:
    config = load_config(_config(tmp_path, "inbound: {kind: imap, host: h}\noutbound: {kind: smtp, host: h}\n"))
    assert (config.inbound.tls, config.outbound.tls) == ("ssl", "starttls")
    plain = load_config(_config(tmp_path, "outbound: {kind: smtp, host: h, tls: none}\n"))
    assert plain.outbound.tls == "none"
