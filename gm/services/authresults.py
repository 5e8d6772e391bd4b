"""Whether a mail was authenticated by the judge's own mail server (``require_authentication_results``):
its verdict in the Authentication-Results header it added (RFC 8601), for the From address.

* **Only the operator's server is believed.** Anyone can write an Authentication-Results header
  into a mail; the one that counts is the topmost whose authserv-id (the word before the first
  ``;``) is the configured ``authserv_id``: a receiving server adds its own above the ones the
  mail came with (RFC 8601 section 5, which also asks it to remove forgeries of its own name).
  No ``authserv_id``: nothing is authenticated.
* **Only a pass for the From domain counts**: ``dkim=pass`` whose signing domain (``header.d``,
  else the domain of ``header.i``) is aligned with it, or ``dmarc=pass`` whose ``header.from``
  is it. Aligned is relaxed and simple: the same domain, or one a subdomain of the other (at
  least two labels: never a bare top-level domain). SPF alone counts for nothing: it checks the
  envelope sender (MAIL FROM), which a forger chooses along with the From.
* Comments in parentheses are ignored, quoted strings read as values, a result that cannot be
  read is no pass; a mail with more than one From address is never authenticated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import Message
from email.utils import getaddresses

from gm.services.mailtext import sender_address


@dataclass(frozen=True)
class Result:
    """One ``method=result`` of a header, with its properties (``header.d`` -> value), lower case."""

    method: str
    result: str
    properties: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdicts:
    authserv_id: str
    results: tuple[Result, ...]


def authenticated(message: Message, authserv_id: str) -> bool:
    """A DKIM or DMARC pass for the From domain in the topmost Authentication-Results that
    ``authserv_id`` added."""
    if not authserv_id:
        return False
    froms = [address for _, address in getaddresses([str(v) for v in message.get_all("From", [])])]
    domain = sender_address(message).rpartition("@")[2]
    if len(froms) != 1 or not domain:
        return False
    for value in message.get_all("Authentication-Results", []):
        verdicts = parse(str(value))
        if verdicts is not None and verdicts.authserv_id == authserv_id.lower():
            return any(passes(result, domain) for result in verdicts.results)
    return False


def passes(result: Result, domain: str) -> bool:
    if result.result != "pass":
        return False
    if result.method == "dkim":
        signer = result.properties.get("header.d") or result.properties.get("header.i", "").rpartition("@")[2]
        return aligned(signer, domain)
    if result.method == "dmarc":
        return result.properties.get("header.from", "") == domain
    return False


def aligned(signer: str, domain: str) -> bool:
    signer, domain = signer.strip(".").lower(), domain.strip(".").lower()
    if not signer or not domain:
        return False
    if signer == domain:
        return True
    shorter, longer = sorted((signer, domain), key=len)
    return shorter.count(".") >= 1 and longer.endswith("." + shorter)


def parse(value: str) -> Verdicts | None:
    """The header's authserv-id and results (RFC 8601 section 2.2), or None when it has no
    authserv-id. A result that cannot be read is left out."""
    statements = _split(_tokens(value))
    if not statements or not statements[0]:
        return None
    first = statements[0][0]
    if _special(first):
        return None
    results = []
    for statement in statements[1:]:
        result = _result(statement)
        if result is not None:
            results.append(result)
    return Verdicts(first.lower(), tuple(results))


_SPECIALS = ("=", ";", "/")


class _Quoted(str):
    """A quoted string's text: a value, whatever it reads."""


def _special(token: str, *which: str) -> bool:
    return not isinstance(token, _Quoted) and token in (which or _SPECIALS)


def _tokens(value: str) -> list[str]:
    """Words, quoted strings (their text) and ``= ; /``; comments and white space dropped."""
    tokens: list[str] = []
    word: list[str] = []
    depth = 0
    quoted: list[str] | None = None
    characters = iter(value)

    def end_word() -> None:
        if word:
            tokens.append("".join(word))
            word.clear()

    for ch in characters:
        if quoted is not None:
            if ch == "\\":
                quoted.append(next(characters, ""))
            elif ch == '"':
                tokens.append(_Quoted("".join(quoted)))
                quoted = None
            else:
                quoted.append(ch)
        elif depth:
            if ch == "\\":
                next(characters, "")
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
        elif ch == "(":
            end_word()
            depth = 1
        elif ch == '"':
            end_word()
            quoted = []
        elif ch in _SPECIALS:
            end_word()
            tokens.append(ch)
        elif ch.isspace():
            end_word()
        else:
            word.append(ch)
    end_word()
    return tokens


def _split(tokens: list[str]) -> list[list[str]]:
    statements: list[list[str]] = [[]]
    for token in tokens:
        if _special(token, ";"):
            statements.append([])
        else:
            statements[-1].append(token)
    return statements


def _result(tokens: list[str]) -> Result | None:
    """``method [/ version] = result [reason = value] [ptype.property = value ...]``."""
    if len(tokens) < 3 or _special(tokens[0]):
        return None
    method, rest = tokens[0].lower(), tokens[1:]
    if _special(rest[0], "/"):
        rest = rest[2:]  # the method's version
    if len(rest) < 2 or not _special(rest[0], "=") or _special(rest[1]):
        return None
    result, rest = rest[1].lower(), rest[2:]
    properties: dict[str, str] = {}
    while len(rest) >= 3 and _special(rest[1], "=") and not _special(rest[0]) and not _special(rest[2]):
        key = rest[0].lower()
        if key in properties:
            return None  # said twice: which is meant cannot be known
        properties[key] = rest[2].lower()
        rest = rest[3:]
    if rest:
        return None  # not the grammar: no verdict is read from it
    return Result(method, result, properties)
