"""The plain forms of RFC 5322 gm accepts wherever text it did not write becomes part of a mail
it writes: a mail address (a To), a Message-ID (an In-Reply-To, References).

Checked strictly, never repaired: printable ASCII only, no quotes, comments or domain
literals in an address, no encoded word (``=?``) anywhere. Python's email package decodes an
encoded word wherever it meets one, even inside an address or a Message-ID, and what it
decodes may hold a line end, that is, a header of its own choosing.
"""

from __future__ import annotations

import re

MAX_MESSAGE_ID = 998  # a header line's limit (RFC 5322 2.1.1)
MAX_ADDRESS = 254  # what SMTP carries (RFC 5321 4.5.3.1, a path's 256 less the brackets)

_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]"
_DOT_ATOM = rf"{_ATEXT}+(?:\.{_ATEXT}+)*"
_NO_FOLD_LITERAL = r"\[[\x21-\x5a\x5e-\x7e]*\]"
_MESSAGE_ID = re.compile(rf"<{_DOT_ATOM}@(?:{_DOT_ATOM}|{_NO_FOLD_LITERAL})>")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_ADDRESS = re.compile(rf"{_DOT_ATOM}@{_LABEL}(?:\.{_LABEL})*")
ENCODED_WORD = "=?"


def message_id(text: str) -> str | None:
    """``text`` without the white space around it when it is one ``msg-id`` as RFC 5322 writes
    it (``<dot-atom-text@dot-atom-text>``, or ``[no-fold-literal]`` on the right), else None."""
    text = text.strip(" \t\r\n")
    if len(text) > MAX_MESSAGE_ID or ENCODED_WORD in text or not _MESSAGE_ID.fullmatch(text):
        return None
    return text


def mail_address(text: str) -> str | None:
    """``text``, stripped and lower case, when it is a plain address (``local@domain``: a
    dot-atom before the @, host name labels after it, at most 254 characters), else None."""
    text = text.strip().lower()
    if len(text) > MAX_ADDRESS or ENCODED_WORD in text or not _ADDRESS.fullmatch(text):
        return None
    return text
