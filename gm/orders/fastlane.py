"""The fast lane: the common well-formed line read straight from precomputed name tables.

Most lines players and programs write are plain: "A PAR - BUR", "F NTH C A LON - BEL",
"Army Munich supports Army Berlin -> Silesia", "f stp/nc - bar", "BUILD A PAR". Read through
the general parser (``OrderGrammar.read``: tokens, a cursor, forks for every reading tried) such a
line costs tens of microseconds; read here it costs a few.

The fast lane is not a second grammar. It takes the very steps ``OrderGrammar.read`` takes, with
the same tables (the grammar's name indexes and verb tables, the core verbs found by identity), but
only as long as the line is one the general parser reads in exactly one way without a word of
comment. At every point where the general parser would try another reading, warn, backtrack,
consult the caller's context or report an error, the fast lane gives up (``None``) and the line
is read by the general parser from the start. So a line the fast lane reads gets the very order
the general parser gives it and no diagnostic; every other line, and every diagnostic, comes from
the general parser as before. ``tests/orders/test_fastlane.py`` holds the two to each other on
every line the tests know and on generated ones, on every map.

What makes it give up: once the noise ``clean_line`` removes is gone (bullets, item numbers,
trailing punctuation, Unicode dashes and arrows), a character other than ASCII letters, digits,
spaces, dashes and arrows, "/" and round brackets (dots, commas, quotes...); a number before the
order; a line verb other than the core BUILD and DISBAND, or a unit verb other
than the core HOLD, MOVE, SUPPORT, CONVOY, RETREAT, DISBAND and BUILD (a variant's own verbs); a
named unit; a power word before a supported or convoyed unit; a filler word; a coast the general
parser would drop with a warning; a path of several places; "via convoy" in brackets; anything
left at the end of the line. Each is rare in orders as written, and correct through the general
parser.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from gm.domain.geography import Location, new_tuple
from gm.domain.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, UnitRef
from gm.domain.units import Mobility, UnitType
from gm.orders import verbs
from gm.orders.cursor import ARTICLES, FILLERS, VIA_SECOND, VIA_WORDS
from gm.orders.names import PhraseIndex
from gm.orders.tokens import clean_line

if TYPE_CHECKING:
    from gm.orders.grammar import OrderGrammar

T = TypeVar("T")

# Tokens are kept as their normalised text only. Punctuation: "-" any dash or arrow written
# apart from words, "~" a hyphen joining two words ("Mid-Atlantic"), "/", "(", ")".
PUNCT = frozenset({"-", "~", "/", "(", ")"})
_PIECES = re.compile(r"[A-Za-z0-9]+|-+>?|=+>?|>+|[/()]")
_ROUTE = frozenset({"-", "to"})
_HOLD = frozenset(verbs.HOLD_WORDS)
_MOVE = frozenset(verbs.MOVE_WORDS)
_DISBAND = frozenset(verbs.DISBAND_WORDS)
_WAIVE = frozenset(verbs.WAIVE_WORDS)
_VIA = frozenset(VIA_WORDS)
_VIA_SECOND = frozenset(VIA_SECOND)
# The core verbs, found by identity: final, so compiled code holds them itself rather than
# asking the verbs module for each on every line.
_BUILD_LINE_VERB: Final = verbs.build_line
_DISBAND_LINE_VERB: Final = verbs.disband_line
_MOVE_VERB: Final = verbs.move
_HOLD_VERB: Final = verbs.hold
_SUPPORT_VERB: Final = verbs.support
_CONVOY_VERB: Final = verbs.convoy
_RETREAT_VERB: Final = verbs.retreat
_DISBAND_AFTER_VERB: Final = verbs.disband_after
_BUILD_AFTER_VERB: Final = verbs.build_after


class GiveUp(Exception):
    """The general parser must read this line."""


_GIVE_UP = GiveUp()


def tokens(line: str) -> list[str] | None:
    """The normalised tokens of a plain line, as ``tokens.tokenize(clean_line(line))`` gives
    them; None if the line is not plain (the general tokenizer must read it)."""
    if not line.isascii():
        return None
    norms = line.lower().split()
    for k, part in enumerate(norms):
        if not part.isalnum():
            alone = _ALONE.get(part)
            if alone is None:
                return _pieces(norms)
            norms[k] = alone
    if not norms or norms[0] in PUNCT or norms[0].isdigit():
        return None  # nothing, or a leading bullet, bracket or item number for clean_line
    return norms


# Punctuation written apart from words, and its token.
_ALONE = {"-": "-", "->": "-", "--": "-", "-->": "-", "=>": "-", "=": "-", ">": "-", "/": "/", "(": "(", ")": ")"}


def _pieces(parts: list[str]) -> list[str] | None:
    """``tokens`` for lines with punctuation inside words ("stp/nc", "Mid-Atlantic", "(nc)")."""
    norms: list[str] = []
    for part in parts:
        if part.isalnum():
            norms.append(part)
            continue
        pieces = _PIECES.findall(part)
        if sum(map(len, pieces)) != len(part):
            return None  # a character the fast lane does not read
        last = len(pieces) - 1
        for k, piece in enumerate(pieces):
            first = piece[0]
            if first.isalnum():
                norms.append(piece)
            elif first in "-=>":
                # A lone hyphen between two words of the same part joins them ("Mid-Atlantic").
                tight = piece == "-" and 0 < k < last and pieces[k - 1][0].isalnum() and pieces[k + 1][0].isalnum()
                norms.append("~" if tight else "-")
            else:
                norms.append(piece)
    if not norms or norms[0] in PUNCT or norms[0].isdigit():
        return None
    return norms


class Index(Generic[T]):
    """A ``PhraseIndex`` for token lists: the same entries, and the first words of its phrases
    of several words (a word starting none of them is looked up alone)."""

    __slots__ = ("entries", "single", "max_words", "firsts")

    def __init__(self, index: PhraseIndex[T]):
        self.entries = index.entries
        self.single = {word: value for word, value in index.entries.items() if " " not in word and word not in PUNCT}
        self.max_words = index.max_words
        self.firsts = frozenset(phrase.split()[0] for phrase in index.entries if " " in phrase)

    def match(self, norms: list[str], i: int) -> tuple[T, int] | None:
        """As ``PhraseIndex.match``: the value of the longest phrase at ``i``, the index after."""
        n = len(norms)
        if i >= n:
            return None
        first = norms[i]
        if first not in self.firsts or i + 1 >= n:
            value = self.single.get(first)
            return None if value is None else (value, i + 1)
        if first in PUNCT:
            return None  # a name starts with a word
        parts = [first]
        ends = [i + 1]
        j = i + 1
        if j < n and norms[j] == "~":
            j += 1
        while j < n and len(parts) < self.max_words and norms[j] not in PUNCT:
            parts.append(norms[j])
            j += 1
            ends.append(j)
            if j < n and norms[j] == "~":
                j += 1
        for k in range(len(parts), 0, -1):
            value = self.entries.get(" ".join(parts[:k]))
            if value is not None:
                return value, ends[k - 1]
        return None

    def word(self, word: str) -> T | None:
        """The value of a one-word phrase that starts no longer one (else None)."""
        return None if word in self.firsts else self.single.get(word)


class FastLane:
    """One grammar's tables for the fast lane (``OrderGrammar.fast_lane`` builds it once)."""

    def __init__(self, grammar: OrderGrammar):
        self.grammar = grammar
        self.provinces: Index[str] = Index(grammar.provinces)
        self.coasts: Index[str] = Index(grammar.coasts)
        self.bare_coasts: Index[str] = Index(grammar.bare_coasts)
        self.types: Index[UnitType] = Index(grammar.types)
        self.powers: Index[str] = Index(grammar.powers)
        self.named: Index[Any] | None = Index(grammar.named_units) if grammar.named_units.entries else None
        self.type_names = grammar.type_names
        self.unit_verbs = grammar.unit_verbs
        self.line_verbs = grammar.line_verbs
        self.whole = {pid: Location(pid) for pid in grammar.map.provinces}
        self.coasts_of = {pid: frozenset(province.coasts) for pid, province in grammar.map.provinces.items()}

    # -- entry points: the order, unit or location, or None for the general parser ----------

    def order(self, line: str) -> Order | None:
        norms = tokens(line)
        if norms is None:
            # Plain once the noise around it is gone ("1. A PAR - BUR.", "* F BRE H", "A PAR – BUR"):
            # the general parser reads the cleaned line too, and clean_line leaves a plain one as it is.
            cleaned = clean_line(line)
            if cleaned == line:
                return None
            norms = tokens(cleaned)
            if norms is None:
                return None
        try:
            order, i = self._line(norms)
        except GiveUp:
            return None
        return order if i == len(norms) else None

    def unit(self, text: str) -> tuple[UnitType, Location] | None:
        """As ``OrderGrammar.parse_unit`` for a unit with its type, alone on the text."""
        norms = tokens(text.strip())
        if norms is None:
            return None
        try:
            ref, i = self._unit(norms, 0, False)
        except GiveUp:
            return None
        if ref.type is None or i != len(norms):
            return None
        return ref.type, ref.location

    def location(self, text: str) -> Location | None:
        """As ``OrderGrammar.parse_location``."""
        norms = tokens(text.strip())
        if norms is None:
            return None
        try:
            location, i = self._location(norms, 0, None)
        except GiveUp:
            return None
        return location if i == len(norms) else None

    # -- the steps of OrderGrammar.read --------------------------------------------------

    def _line(self, norms: list[str]) -> tuple[Order, int]:
        handler = self.line_verbs.get(norms[0])
        if handler is not None:  # the line verb is read first; the fast lane reads no other
            if len(norms) > 1 and norms[1] in _WAIVE:
                raise _GIVE_UP
            if handler is _BUILD_LINE_VERB:
                ref, i = self._unit(norms, 1, False)
                return Build(ref), i
            if handler is _DISBAND_LINE_VERB:
                ref, i = self._unit(norms, 1, False)
                return Disband(ref), i
            raise _GIVE_UP
        unit, i = self._unit(norms, 0, False)
        n = len(norms)
        if i >= n:
            raise _GIVE_UP  # no order for the unit
        key = norms[i]
        if key in PUNCT and key != "-":
            raise _GIVE_UP
        handler = self.unit_verbs.get(key)
        if handler is None:  # "A PAR BUR": a move with no separator
            if self.provinces.match(norms, i) is None or self.unit_verbs.get("-", _MOVE_VERB) is not _MOVE_VERB:
                raise _GIVE_UP
            return self._move(unit, norms, i)
        i += 1
        if handler is _MOVE_VERB:
            return self._move(unit, norms, i)
        if handler is _HOLD_VERB:
            return Hold(unit), i
        if handler is _SUPPORT_VERB:
            return self._support(unit, norms, i)
        if handler is _CONVOY_VERB:
            return self._convoy(unit, norms, i)
        if handler is _RETREAT_VERB:
            return self._retreat(unit, norms, i)
        if handler is _DISBAND_AFTER_VERB:
            return Disband(unit), i
        if handler is _BUILD_AFTER_VERB:
            return Build(unit), i
        raise _GIVE_UP

    def _move(self, unit: UnitRef, norms: list[str], i: int) -> tuple[Order, int]:
        if i < len(norms) and norms[i] == "to":
            i += 1
        destination, i = self._destination(unit.type, norms, i)
        via, i = self._via(norms, i)
        return Move(unit, destination, via), i

    def _support(self, unit: UnitRef, norms: list[str], i: int) -> tuple[Order, int]:
        supported, i = self._unit(norms, i, True)
        n = len(norms)
        if i >= n:
            return SupportHold(unit, supported), i
        word = norms[i]
        if word in _HOLD:
            return SupportHold(unit, supported), i + 1
        if word in _MOVE:
            i += 1
            if i < n and norms[i] == "to":
                i += 1
        destination, i = self._destination(supported.type, norms, i)
        _, i = self._via(norms, i)
        return SupportMove(unit, supported, destination), i

    def _convoy(self, unit: UnitRef, norms: list[str], i: int) -> tuple[Order, int]:
        army, i = self._unit(norms, i, True)
        n = len(norms)
        if i >= n:
            raise _GIVE_UP
        if norms[i] in _MOVE:
            i += 1
            if i < n and norms[i] == "to":
                i += 1
        destination, i = self._destination(army.type, norms, i)
        _, i = self._via(norms, i)
        return Convoy(unit, army, destination), i

    def _retreat(self, unit: UnitRef, norms: list[str], i: int) -> tuple[Order, int]:
        n = len(norms)
        if i < n and norms[i] in _DISBAND:
            return Disband(unit), i + 1
        if i < n and norms[i] in _MOVE:
            i += 1
            if i < n and norms[i] == "to":
                i += 1
        if i >= n:
            raise _GIVE_UP
        destination, i = self._location(norms, i, unit.type)
        return Retreat(unit, destination), i

    def _destination(self, unit_type: UnitType | None, norms: list[str], i: int) -> tuple[Location, int]:
        destination, i = self._location(norms, i, unit_type)
        if i < len(norms) and norms[i] in _ROUTE:
            raise _GIVE_UP  # a path: the general parser warns that only its end counts
        return destination, i

    @staticmethod
    def _via(norms: list[str], i: int) -> tuple[bool, int]:
        n = len(norms)
        if i < n and norms[i] in _VIA:
            i += 1
            if i < n and norms[i] in _VIA_SECOND:
                i += 1
            return True, i
        return False, i

    # -- units and places, as Cursor.unit_readings and Cursor.location --------------------

    def _unit(self, norms: list[str], i: int, nationality: bool) -> tuple[UnitRef, int]:
        """The first reading ``Cursor.unit_readings`` would give, if it is sure to be the one."""
        if nationality and self.powers.match(norms, i) is not None:
            raise _GIVE_UP
        if self.named is not None and self.named.match(norms, i) is not None:
            raise _GIVE_UP
        n = len(norms)
        if i >= n:
            raise _GIVE_UP
        word = norms[i]
        typed = None
        if word in ARTICLES and i + 1 < n:
            after = self.types.match(norms, i + 1)
            if after is not None and norms[i + 1] in self.type_names:
                typed = after
        if typed is None:
            unit_type = self.types.word(word)
            if unit_type is not None:
                typed = unit_type, i + 1
            else:
                typed = self.types.match(norms, i)
        if typed is None:
            location, i = self._location(norms, i, None)
            return new_tuple(UnitRef, (location, None)), i
        unit_type, i = typed
        if i < n and norms[i] in FILLERS:
            raise _GIVE_UP
        location, i = self._location(norms, i, unit_type)
        return new_tuple(UnitRef, (location, unit_type)), i

    def _location(self, norms: list[str], i: int, unit_type: UnitType | None) -> tuple[Location, int]:
        n = len(norms)
        pid = self.provinces.word(norms[i]) if i < n else None
        if pid is not None:
            i += 1
        else:
            found = self.provinces.match(norms, i)
            if found is None:
                raise _GIVE_UP
            pid, i = found
        if i >= n:
            return self.whole[pid], i
        after = norms[i]
        if after == "-" or (after in self.unit_verbs and after not in PUNCT):
            return self.whole[pid], i  # the usual case: no coast (Cursor._coast says the same)
        coast, i = self._coast(pid, norms, i)
        if coast is None:
            return self.whole[pid], i
        if coast not in self.coasts_of[pid]:
            raise _GIVE_UP  # the general parser drops it with a warning
        if unit_type is not None and unit_type.mobility is Mobility.LAND:
            raise _GIVE_UP  # the same
        return Location(pid, coast), i

    def _coast(self, pid: str, norms: list[str], i: int) -> tuple[str | None, int]:
        """As ``Cursor._coast``."""
        n = len(norms)
        if i >= n:
            return None, i
        t = norms[i]
        if t == "/":
            found = self.coasts.match(norms, i + 1)
            if found is None:
                raise _GIVE_UP  # an error
            return found
        if t == "(":
            found = self.coasts.match(norms, i + 1)
            if found is not None and found[1] < n and norms[found[1]] == ")":
                return found[0], found[1] + 1
            return None, i
        if t in PUNCT:
            if t == "~":
                raise _GIVE_UP  # "spa-nc"
            return None, i
        if t in self.unit_verbs:
            return None, i
        found = self.bare_coasts.match(norms, i)
        if found is None:
            return None, i
        coast, end = found
        other = self.provinces.match(norms, i)
        if other is not None:
            if other[1] > end:
                return None, i
            if other[1] == end and coast not in self.coasts_of[pid]:
                return None, i
        return coast, end

