"""Secrets where a mail's text is quoted: a secret masked as ``****`` wherever it stands as a word
of its own, and the reach within which a written word is taken for a command.

``REACH`` is how near a word must be to a command's spelling for "Did you mean ...?" to suggest
it. A line within that reach of a command that carries a secret (``Command.secret_forms``:
SIGNON, SET PASSWORD, CONFIRM ADDRESS) is masked as that command masks it, whatever its first
word: ``SINGON France g <secret>``, ``SIGN ON ...``, ``STE PASSWORD <secret>`` hide the secret as
``SIGNON`` and ``SET PASSWORD`` do, in the reply, on the web and in the stored mail
(gm.commands.registry.CommandTable.line_secrets)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher

MASK = "****"
SHORTEST = 4  # shorter words are no secret gm gives or takes (SET PASSWORD wants more), only noise
REACH = 0.75  # "Did you mean ...?": a command's spelling at least this near the word written
MISSPELT_REACH = 0.8  # nearer still, a word of letters that starts a line is a misspelt command


def mask_text(text: str, secrets: Iterable[str]) -> str:
    """Each secret masked where it stands as a word of its own (a short one inside other words
    is left: it is no secret there)."""
    for secret in longest_first(secrets):
        text = re.sub(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", MASK, text)
    return text


def longest_first(secrets: Iterable[str]) -> list[str]:
    """Worth masking, a secret inside a longer one after it."""
    return sorted({s for s in secrets if len(s) >= SHORTEST and s != MASK}, key=len, reverse=True)


def nearest(written: str, spellings: Iterable[str]) -> tuple[float, str] | None:
    """The spelling nearest to ``written`` within ``REACH`` and how near, measured as the
    suggester measures it (difflib.get_close_matches: ``written`` read once, the quick bounds
    tried first)."""
    matcher = SequenceMatcher()
    matcher.set_seq2(written)
    best: tuple[float, str] | None = None
    for spelling in spellings:
        matcher.set_seq1(spelling)
        if matcher.real_quick_ratio() >= REACH and matcher.quick_ratio() >= REACH:
            ratio = matcher.ratio()
            if ratio >= REACH and (best is None or ratio > best[0]):
                best = (ratio, spelling)
    return best
