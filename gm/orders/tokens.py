"""Splitting one order line into tokens, after removing the noise people type around orders.

Words keep their letters, digits, dots and apostrophes ("St.", "n.c.", "England's"); each
carries ``norm``, its ``normalise_name`` form, which is what the grammar compares. Dashes and
arrows (``-``, ``->``, ``=>``, ``>``, Unicode dashes and arrows) become one kind of token; so do
``/``, brackets and parentheses. A hyphen written between two words with no space ("Mid-Atlantic",
"Lon-Bel") is marked ``tight``: a name may run across it, otherwise it is a move. Commas make no
token: a word followed by one is marked ``comma`` (a separator in a path: "Nar, Ita, Dal"), and
the standard grammar never looks at the mark.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gm.maps.model import normalise_name

WORD = "word"
DASH = "dash"
SLASH = "slash"
OPEN = "open"
CLOSE = "close"

_TRANSLATE = str.maketrans(
    {
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
        "\u2015": "-", "\u2212": "-", "\u2192": "->", "\u21d2": "=>", "\u27f6": "->",
        "\u2794": "->", "\u279c": "->", "\u279e": "->", "\u00a0": " ", "\u2018": "'",
        "\u2019": "'", "\uff08": "(", "\uff09": ")", "\u2022": "*", "\u00b7": "*",
        "\u2023": "*", "\u25cf": "*", "\u25e6": "*", "\u2043": "*",
        "\ufeff": None, "\u200b": None, "\u200c": None, "\u200d": None, "\u2060": None,
    }
)
# A leading bullet or item number: "-", "*", "+", "1.", "1)", "(1)", "1:", "#1".
_LEADING = re.compile(r"^\s*(?:[-*+]+(?![->])\s*|\(?#?\d{1,3}[.):]\s*|#\d{1,3}\s+)")
_TRAILING = re.compile(r"[\s.;,!?:]+$")
_TOKEN = re.compile(
    r"""
      (?P<dash>-+>|=+>|-+|=+|>+|~+>?)
    | (?P<slash>[/\\])
    | (?P<open>[(\[{])
    | (?P<close>[)\]}])
    | (?P<skip>[,;:!?"*]+)
    | (?P<word>[^\s\-/\\()\[\]{}=>~,;:!?"*]+)
    """,
    re.VERBOSE,
)


class Token:
    __slots__ = ("kind", "text", "norm", "start", "end", "tight", "comma")

    def __init__(self, kind: str, text: str, norm: str, start: int, end: int):
        self.kind = kind
        self.text = text
        self.norm = norm  # normalised word; "-" for every dash or arrow; the text otherwise
        self.start = start
        self.end = end
        self.tight = False  # a hyphen joining two words with no space around it
        self.comma = False  # a comma follows (before the next token, or ends the line)

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.text!r})"


@lru_cache(maxsize=8192)
def normalise_word(text: str) -> str:
    return normalise_name(text)


def clean_line(text: str) -> str:
    """The line without surrounding noise: bullets, item numbers, trailing punctuation.

    A trailing comma is kept (it makes no token): a path ending "Dal," lacks its last place.
    """
    line = text.translate(_TRANSLATE).strip()
    for _ in range(2):
        stripped = _LEADING.sub("", line, count=1)
        if stripped == line:
            break
        line = stripped
    tail = _TRAILING.search(line)
    if tail is None:
        return line
    return line[: tail.start()] + ("," if "," in tail.group() else "")


def tokenize(line: str) -> list[Token]:
    """Tokens of an already cleaned line (see ``clean_line``)."""
    tokens: list[Token] = []
    for match in _TOKEN.finditer(line):
        kind = match.lastgroup
        text = match.group()
        if kind == "skip":
            if tokens and "," in text:
                tokens[-1].comma = True
            continue
        if kind == "word":
            norm = normalise_word(text)
            if not norm:  # only dots or apostrophes
                continue
            tokens.append(Token(WORD, text, norm, match.start(), match.end()))
        elif kind == "dash":
            tokens.append(Token(DASH, text, "-", match.start(), match.end()))
        else:
            tokens.append(Token(kind, text, text, match.start(), match.end()))  # type: ignore[arg-type]
    for k in range(1, len(tokens) - 1):
        t = tokens[k]
        if (
            t.kind == DASH
            and t.text == "-"
            and tokens[k - 1].kind == WORD
            and tokens[k + 1].kind == WORD
            and tokens[k - 1].end == t.start
            and tokens[k + 1].start == t.end
        ):
            t.tight = True
    return tokens
