"""The notes the adjudicator makes as facts (amounts of strength) put in players' words."""

from __future__ import annotations

import pytest

from gm.domain.outcomes import SupportedInto, SupportLeft
from gm.reports.notes import amount_text, note_text, notes_text


@pytest.mark.parametrize(("amount", "text"), [(0, "0"), (0.5, "½"), (1, "1"), (1.5, "1½"), (2.5, "2½"), (3, "3")])
def test_amounts_in_halves(amount: float, text: str) -> None:
    assert amount_text(amount) == text


def test_each_note_in_words_the_rules_own_words_as_given() -> None:
    assert note_text(SupportLeft(1.5)) == "support reduced to 1½ by the attack on it"
    assert note_text(SupportedInto("ITA", 0.5)) == "supported into ITA (+½)"
    assert notes_text(["led by Hannibal: +½", SupportLeft(0)]) == [
        "led by Hannibal: +½", "support reduced to 0 by the attack on it"]
