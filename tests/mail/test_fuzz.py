"""The mail reader fuzzed with generated mails (tests/mail/fuzzmail.py: headers, MIME structure,
charsets, transfer encodings, line ends, sizes, senders, what the text says).

* 100,000 mails through everything that reads a mail before the database: cutting a large mail
  down, parsing, the sender and subject, the rules for mail never to answer, the text, and the
  commands in it. Nothing may raise.
* 100,000 more through the whole intake: tests/mail/test_fuzz_intake.py (a file of its own, so
  that the two long runs are not queued on one worker of the test suite).
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from gm.commands.registry import CommandTable
from gm.services.arrival import identity, parse_message
from gm.services.intake import read_commands
from gm.services.mail_rules import reason_to_ignore
from gm.services.mailtext import html_to_text
from gm.services.oversize import cut_down
from tests.mail.conftest import secret_of
from tests.mail.fuzzmail import PLAYERS, Maker, recipes

MAX_BYTES = 4 * 1024  # small, so that many generated mails are too large
PER_RECIPE = 50
SECRETS = {player: secret_of(player.capitalize()) for player in PLAYERS}


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck))


def _mails(recipe, seed: int, count: int, first: int) -> list[bytes]:  # type: ignore[no-untyped-def]
    maker, rnd = Maker(recipe, SECRETS, MAX_BYTES), random.Random(seed)
    return [maker.mail(rnd, n) for n in range(first, first + count)]


@pytest.mark.slow
def test_a_hundred_thousand_mails_are_read_without_an_exception() -> None:
    table = CommandTable()  # the reading needs no services (gm.services.intake.read_commands)
    read = {"mails": 0, "cut": 0, "ignored": 0, "commands": 0}

    @fuzz(2_000)
    @given(recipe=recipes, seed=st.integers(0, 2**64))
    def read_all(recipe, seed) -> None:  # type: ignore[no-untyped-def]
        for raw in _mails(recipe, seed, PER_RECIPE, read["mails"]):
            read["mails"] += 1
            if len(raw) > MAX_BYTES:
                raw = cut_down(raw, len(raw), MAX_BYTES).raw
                assert len(raw) <= MAX_BYTES
                read["cut"] += 1
            message = parse_message(raw)
            identity(message)
            if reason_to_ignore(message, "judge@example.test", lambda _: False):
                read["ignored"] += 1
            read["commands"] += len(read_commands(table, message))

    start = time.perf_counter()
    read_all()
    print(f"read {read} in {time.perf_counter() - start:.1f} s")
    assert read["mails"] >= 100_000 and read["cut"] > 1_000 and read["ignored"] > 1_000 and read["commands"] > 10_000


def test_an_html_mail_with_a_broken_declaration_is_read_as_text() -> None:
    """Found by the fuzz above: html.parser raises AssertionError on '<![' followed by junk."""
    assert html_to_text("<p>A PAR H</p><![\x18junk<p>F BRE H</p>").split("\n")[1:] == ["A PAR H", "<![\x18junk", "F BRE H"]
    assert html_to_text("<p>A PAR H</p><!-- a comment -->") == "\nA PAR H"  # well-formed: comments dropped
