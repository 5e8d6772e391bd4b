"""``require_authentication_results``: only the verdict of the judge's own mail server (the topmost
Authentication-Results with ``authserv_id``), and only a DKIM or DMARC pass for the From domain."""

from __future__ import annotations

import dataclasses
from email import message_from_bytes
from pathlib import Path

import pytest

from gm.config import ConfigError, load_config
from tests.mail.conftest import Post, secret_of

FRANCE = "france@example.test"
OURS = "mx.judge.test"


def _signon(post: Post, *results: str, sender: str = FRANCE) -> str:
    """A SIGNON from ``sender`` with these Authentication-Results (topmost first): the reply."""
    head = "".join(f"Authentication-Results: {value}\r\n" for value in results)
    post.intake.receive((f"{head}From: {sender}\r\nTo: judge@example.test\r\nSubject: orders\r\n"
                         f"Message-ID: <auth.{post.world.clock.now().timestamp()}.{len(post.mails())}@example.test>\r\n"
                         f"\r\nSIGNON France g {secret_of('France')}\r\nSTATUS\r\n").encode())
    return " ".join(post.reply(FRANCE).split())  # unwrapped


def _required(post: Post, authserv_id: str = OURS) -> None:
    services = post.world.services
    services.config = dataclasses.replace(services.config, require_authentication_results=True,
                                          authserv_id=authserv_id)


SIGNED_ON = "Current orders for France"
REFUSED = "a DKIM or DMARC pass"


@pytest.mark.parametrize("results", [
    ("evil.test; dkim=pass",),  # someone else's server, or the sender's own words
    ("evil.test; dkim=pass header.d=example.test", f"{OURS}; dkim=fail header.d=example.test"),
    (f"{OURS}; dkim=fail (not dkim=pass) header.d=example.test",),  # a pass in a comment
    (f'{OURS}; dkim=fail reason="dkim=pass" header.d=example.test',),  # a pass in a quoted string
    (f"{OURS}; dkim=pass header.d=evil.test",),  # signed, by another domain
    (f"{OURS}; dkim=pass header.d=test",),  # by a top-level domain
    (f"{OURS}; spf=pass smtp.mailfrom=france@example.test",),  # SPF alone: the envelope, not the From
    (f"{OURS}; dmarc=pass header.from=evil.test",),
    (f"{OURS}; dkim=none", f"{OURS}; dkim=pass header.d=example.test"),  # a forgery below ours
    (f"{OURS}; dkim=pass",),  # no domain named
    (f"{OURS}; dkim=pass header.d=evil.test header.d=example.test",),  # two, which one is meant?
    (f"{OURS}.evil.test; dkim=pass header.d=example.test",),
    (),
])
def test_a_sign_on_without_our_servers_pass_for_the_from_domain_is_refused(post: Post,
                                                                           results: tuple[str, ...]) -> None:
    _required(post)
    reply = _signon(post, *results)
    assert REFUSED in reply and SIGNED_ON not in reply


@pytest.mark.parametrize("results", [
    (f"{OURS}; dkim=pass header.d=example.test; spf=fail",),
    (f"{OURS.upper()} 1; DKIM=Pass (good signature) header.i=@example.test header.s=s1",),
    (f"{OURS}; dkim=pass header.d=mail.example.test",),  # a subdomain: aligned (relaxed)
    (f'"{OURS}";\r\n\tspf=fail smtp.mailfrom=x@evil.test;\r\n\tdmarc=pass (p=none) header.from=example.test',),
    (f"{OURS}; dkim=pass header.d=example.test", "evil.test; dkim=fail"),
    ("evil.test; dkim=fail", f"{OURS}; dkim/1=pass header.d=example.test"),  # someone else's above: passed over
])
def test_a_sign_on_with_our_servers_pass_for_the_from_domain_counts(post: Post, results: tuple[str, ...]) -> None:
    _required(post)
    assert SIGNED_ON in _signon(post, *results)


def test_two_from_addresses_are_never_authenticated(post: Post) -> None:
    _required(post)
    reply = _signon(post, f"{OURS}; dkim=pass header.d=example.test", sender=f"{FRANCE}, other@evil.test")
    assert REFUSED in reply


def test_without_an_authserv_id_nothing_is_authenticated(post: Post) -> None:
    _required(post, authserv_id="")
    assert REFUSED in _signon(post, "; dkim=pass header.d=example.test", "dkim=pass header.d=example.test")


def test_not_required_any_mail_signs_on(post: Post) -> None:
    assert SIGNED_ON in _signon(post, "evil.test; dkim=fail")


def test_the_configuration_names_the_server_it_trusts(tmp_path: Path) -> None:
    config = tmp_path / "gm.yaml"
    config.write_text("require_authentication_results: true\n")
    with pytest.raises(ConfigError, match="require_authentication_results needs authserv_id"):
        load_config(config)
    config.write_text("require_authentication_results: true\nauthserv_id: 'mx.example.org; dkim=pass'\n")
    with pytest.raises(ConfigError, match="authserv_id must be one word"):
        load_config(config)
    config.write_text("require_authentication_results: true\nauthserv_id: mx.example.org\n")
    loaded = load_config(config)
    assert loaded.require_authentication_results and loaded.authserv_id == "mx.example.org"


def test_the_topmost_header_is_the_first_in_the_mail() -> None:
    from gm.services.authresults import authenticated

    raw = (f"Authentication-Results: {OURS}; dkim=pass header.d=example.test\r\n"
           f"Authentication-Results: {OURS}; dkim=fail header.d=example.test\r\n"
           f"From: France <{FRANCE}>\r\n\r\n").encode()
    assert authenticated(message_from_bytes(raw), OURS)
    assert not authenticated(message_from_bytes(raw), "other.test")
