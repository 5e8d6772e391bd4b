"""A sign-on mistyped keeps its secret as a right one does: a line within the suggester's reach
of SIGNON, SET PASSWORD or CONFIRM ADDRESS (the reach of "Did you mean ...?") is masked like that
command in the reply, whatever its first word, and in the stored mail. Lines that only look
alike by chance (SET ADDRESS, orders) are left as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.store.models import InboundMail
from tests.mail.conftest import Post, secret_of

FRANCE = "france@example.test"
SECRET = secret_of("France")
NEW = "brand-new-secret-7"
CODE = "c0de-4711-abcd"
SIGNON = f"SIGNON France g {SECRET}\n"


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """SQLite only: these tests are about what a reply says and what is kept, not how."""
    return f"sqlite:///{tmp_path / 'gm.db'}"


def _stored(post: Post, mail_id: int | None) -> bytes:
    assert mail_id is not None
    with post.world.services.db.sessions() as session:
        row = session.get(InboundMail, mail_id)
        assert row is not None
        return row.raw.replace(b"\r\n", b"\n")


# (the mail, the secret in it, the line as the reply must quote it)
MISTYPED = [
    (f"SINGON France g {SECRET}\n", SECRET, "> SINGON France g ****"),
    (f"SIGNNO France g {SECRET}\n", SECRET, "> SIGNNO France g ****"),
    (f"SIGN ON France g {SECRET}\n", SECRET, "> SIGN ON France g ****"),
    (f"SGNON France g {SECRET}\n", SECRET, "> SGNON France g ****"),
    (f"signon: France g {SECRET}\n", SECRET, "> signon: France g ****"),  # the word as a command: no mistake
    (f"LOGN France g {SECRET}\n", SECRET, "> LOGN France g ****"),
    (f"SIGN-0N France g {SECRET}\n", SECRET, "> SIGN-0N France g ****"),  # no word of letters: read as orders
    (f"SIGNON France g {SECRET}\nSTE PASSWORD {NEW}\n", NEW, "> STE PASSWORD ****"),
    (f"SIGNON France g {SECRET}\nSET PASWORD {NEW}\n", NEW, "> SET PASWORD ****"),
    (f"SIGNON France g {SECRET}\nSETPASSWORD {NEW}\n", NEW, "> SETPASSWORD ****"),
    (f"STE PASSWORD {NEW}\n", NEW, "> STE PASSWORD ****"),  # before any sign-on: refused, echoed
    (f"CONFRIM ADDRESS {CODE}\n", CODE, "> CONFRIM ADDRESS ****"),
    (f"CONFIRM ADRESS {CODE}\n", CODE, "> CONFIRM ADRESS ****"),
]


@pytest.mark.parametrize(("mail", "secret", "quoted"), MISTYPED,
                         ids=[f"{n}-{q.split()[1]}" for n, (_, _, q) in enumerate(MISTYPED)])
def test_a_mistyped_sign_on_is_masked_in_the_reply_and_the_stored_mail(
        post: Post, mail: str, secret: str, quoted: str) -> None:
    mail_id = post.send(FRANCE, mail + "A PAR H\n")
    reply = post.reply(FRANCE)
    assert secret not in reply, reply
    assert quoted in reply.splitlines(), reply
    stored = _stored(post, mail_id)
    assert secret.encode() not in stored
    assert b"A PAR H" in stored


def test_a_misspelt_signon_is_still_told_what_was_meant(post: Post) -> None:
    post.send(FRANCE, f"SINGON France demo {SECRET}\n")
    reply = post.reply(FRANCE)
    assert "unknown command 'SINGON'. Did you mean SIGNON?" in reply
    assert "> SINGON France demo ****" in reply and SECRET not in reply


def test_a_secret_written_once_is_masked_wherever_the_reply_quotes_it(post: Post) -> None:
    """The secret of a right SIGNON, written again on a line of orders, is masked there too."""
    post.send(FRANCE, SIGNON + f"A PAR - {SECRET}\nA Paris - Burgundy\n")
    reply = post.reply(FRANCE)
    assert SECRET not in reply and "A PAR - ****" in reply
    assert "Army Paris -> Burgundy" in reply


@pytest.mark.parametrize("line", ["SET ADDRESS france.new@example.test", "SET TIMEZONE Europe/Paris",
                                  "A Paris - Burgundy", "F Brest - Mid-Atlantic"])
def test_lines_that_carry_no_secret_are_quoted_as_written(post: Post, line: str) -> None:
    post.send(FRANCE, SIGNON + line + "\n")
    reply = post.reply(FRANCE)
    assert "****" not in reply.replace("> SIGNON France g ****", "")
    assert f"> {line}" in reply.splitlines()
