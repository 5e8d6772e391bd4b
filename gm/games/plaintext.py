"""Text as gm writes it into mails: nothing that does not print, and other people's words framed.

Every mail body and Subject gm queues passes through ``printable`` or ``header_text`` (in
gm.games.mailer), whoever wrote the text: control characters (terminal escapes, bell, clear
screen, a lone carriage return), Unicode's format characters (bidirectional overrides and
isolates that reorder a line, zero-width characters) and its line and paragraph separators are
shown escaped, as ``\\x1b`` or ``\\u202e``, never sent. Tabs and line ends stay in a body; a
Subject is one line, with no encoded word in it.

What a player wrote and gm relays to others (press) is ``quoted``: every line starts with
``QUOTE``, which no line the judge writes starts with, between a heading and the end of the
mail or a blank line the judge writes, so no line of it can pass for the judge's.
"""

from __future__ import annotations

import unicodedata

QUOTE = "| "

# Kept as they are: the line end and tab in a body; the joiners some scripts need between
# letters (ZWNJ and ZWJ, e.g. in Persian and in emoji).
_KEPT = frozenset("\n\t\u200c\u200d")


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _unsafe(ch: str) -> bool:
    return ch not in _KEPT and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")


def printable(text: str) -> str:
    """A mail body: line ends made \\n, anything else that does not print shown escaped."""
    text = text.replace("\r\n", "\n")
    if text.replace("\n", "").replace("\t", "").isprintable():  # nearly every text: no character looked at
        return text
    return "".join(_escape(ch) if _unsafe(ch) else ch for ch in text)


def header_text(text: str) -> str:
    """A Subject: one line (line ends and tabs as spaces), the rest as ``printable``, and no
    encoded word in it (``=?`` written ``= ?``): the text is meant as it reads, and an encoded
    word would be decoded again (by Python's email package on the way out, by the reader's
    mail program), into anything."""
    return printable(" ".join(text.replace("\t", " ").splitlines())).replace("=?", "= ?")


def quoted(text: str, mark: str = QUOTE) -> str:
    """Someone else's text, every line marked (an empty line too), as in a reply's quote."""
    return "\n".join(f"{mark}{line}".rstrip() for line in text.split("\n"))
