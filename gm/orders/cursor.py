"""A position in a line's tokens, with the reading primitives every verb handler uses.

Verb handlers (core or a variant's) receive a ``Cursor`` just after their verb word and read
the rest of the order with it: ``location``, ``route``, ``chain``, ``unit``/``each_unit``,
``accept``, ``number``, ``power``, ``bracketed``. They return an ``Order`` or raise the
``OrderSyntaxError`` made by ``error``; the grammar checks afterwards that the whole line was
used. ``warn`` records something ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from gm.domain.geography import Location
from gm.domain.orders import Order, UnitRef
from gm.domain.units import Mobility, UnitType
from gm.orders.diagnostics import Diagnostic, OrderSyntaxError
from gm.orders.names import closest_word, word_run
from gm.orders.tokens import CLOSE, DASH, OPEN, SLASH, WORD, Token

if TYPE_CHECKING:
    from gm.orders.grammar import OrderGrammar

R = TypeVar("R")

ARTICLES = frozenset({"a", "an", "the"})
FILLERS = frozenset({"in", "at"})  # "build fleet in Kiel", "army at Paris"
ROUTE_WORDS = frozenset({"-", "to"})
CHAIN_VERBS = frozenset({"move", "moves"})  # "Tin move to Cea" inside a chain of places
VIA_WORDS = frozenset({"via", "by"})
VIA_SECOND = frozenset({"convoy", "c", "sea"})
WORD_WEIGHT = 0.01  # what each word of a misspelt name adds to its similarity: names are read whole


def first_success(attempts: Sequence[Callable[[], R]]) -> tuple[int, R]:
    """Try readings in order of preference; the first that works wins.

    If none works, raise the error of the reading that got furthest into the line (the
    earliest such reading on a tie): it is the one that best explains what went wrong.
    """
    errors: list[OrderSyntaxError] = []
    for index, attempt in enumerate(attempts):
        try:
            return index, attempt()
        except OrderSyntaxError as error:
            errors.append(error)
    raise furthest(errors)


def furthest(errors: Sequence[OrderSyntaxError]) -> OrderSyntaxError:
    """The error that got furthest into the line (the first of them on a tie)."""
    if not errors:
        return OrderSyntaxError(Diagnostic.error("nothing to read"), 0)
    return max(errors, key=lambda e: -1 if e.pos is None else e.pos)


class Cursor:
    __slots__ = ("grammar", "line", "tokens", "i", "warnings", "_context", "_consulted")

    def __init__(
        self,
        grammar: OrderGrammar,
        line: str,
        tokens: Sequence[Token],
        i: int = 0,
        warnings: list[Diagnostic] | None = None,
        context: Any = None,
        *,
        consulted: list[bool] | None = None,
    ):
        self.grammar = grammar
        self.line = line  # the cleaned line the tokens index into
        self.tokens = tokens
        self.i = i
        self.warnings = warnings if warnings is not None else []
        self._context = context
        self._consulted = consulted if consulted is not None else [False]  # shared with forks

    @property
    def context(self) -> Any:
        """Whatever the caller passed to parse_line (e.g. a position). A line whose reading
        looked at it is read again each time, never taken from the grammar's cache."""
        self._consulted[0] = True
        return self._context

    @property
    def consulted(self) -> bool:
        """Whether reading this line (on this cursor or a fork of it) looked at the context."""
        return self._consulted[0]

    # -- looking and moving ------------------------------------------------------------

    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.tokens[j] if j < len(self.tokens) else None

    def at_end(self) -> bool:
        return self.i >= len(self.tokens)

    @property
    def word(self) -> str | None:
        """The current token's normalised form if it is a word."""
        t = self.peek()
        return t.norm if t is not None and t.kind == WORD else None

    @property
    def key(self) -> str | None:
        """What verb tables are looked up by: a word's norm, or "-" for any dash or arrow."""
        t = self.peek()
        return t.norm if t is not None and t.kind in (WORD, DASH) else None

    def advance(self, n: int = 1) -> None:
        self.i += n

    def accept(self, *words: str) -> bool:
        """Step over the current token if its key is one of ``words``."""
        if self.key in words:
            self.i += 1
            return True
        return False

    def fork(self) -> Cursor:
        return Cursor(self.grammar, self.line, self.tokens, self.i, list(self.warnings), self._context,
                      consulted=self._consulted)

    def commit(self, other: Cursor) -> None:
        self.i = other.i
        self.warnings = other.warnings

    def text(self, start: int, end: int | None = None) -> str:
        """The line as written from token ``start`` up to (not including) token ``end``."""
        end = len(self.tokens) if end is None else end
        if start >= end or start >= len(self.tokens):
            return ""
        return self.line[self.tokens[start].start : self.tokens[end - 1].end]

    # -- diagnostics -------------------------------------------------------------------

    def error(self, message: str, suggestion: str | None = None, pos: int | None = None) -> OrderSyntaxError:
        """An error to raise; ``pos`` defaults to the current token."""
        return OrderSyntaxError(Diagnostic.error(message, suggestion), self.i if pos is None else pos)

    def warn(self, message: str, suggestion: str | None = None) -> None:
        self.warnings.append(Diagnostic.warning(message, suggestion))

    def expect_end(self) -> None:
        if self.at_end():
            return
        i = self.i

        def diagnose() -> Diagnostic:
            misspelt = self._misspelt_name_before(i)
            if misspelt is not None:
                return Diagnostic.unknown(f'unknown province "{misspelt[0]}"', misspelt[1])
            return Diagnostic.error(f'unexpected "{self.text(i)}" at the end of the order')

        raise OrderSyntaxError(diagnose, i)

    def _misspelt_name_before(self, i: int) -> tuple[str, str] | None:
        """Left-over words that, with the words just before them, spell a province name
        nearly: "Norwegian See" is read as Norwegian Sea plus "See" before this catches it."""
        best = self.name_before(i)
        return None if best is None else (best[0], best[1])

    def name_before(self, i: int) -> tuple[str, str, float] | None:
        """(words as written, the province name they nearly spell, similarity) for the words at
        ``i`` read with one or two words before them (across a tight hyphen: "Mid-Atlantik",
        whose "Mid" was read as a name of its own), where that spells a longer name."""
        return self._nearest_name(i, back=(1, 2))

    def province_guess(self, i: int) -> tuple[str, str, float] | None:
        """For unknown words at ``i``: (words as written, nearest province name, similarity)."""
        return self._nearest_name(i, back=(0,))

    def _nearest_name(self, i: int, back: Sequence[int]) -> tuple[str, str, float] | None:
        """The name nearest to the words around ``i``: each run of words (joined by spaces or
        tight hyphens) that starts ``back`` words before ``i`` and reaches at least to ``i``.

        A name is read whole: the runs that spell a name closely (similarity 0.8 or more) come
        first, and among them each word more counts a little ("Hercynian Forekt" is Hercynian
        Forest misspelt, not Hercynia and a word more); an order word at either end of a run is no
        part of a name unless the name has it. A run that starts before ``i`` only counts where it
        spells closely a name of more words than it has before ``i``."""
        starts = self._word_starts_before(i, max(back))
        limit = self.grammar.provinces.max_words + 1
        best: tuple[tuple[bool, float], tuple[str, str, float]] | None = None
        for before in back:
            if before >= len(starts):
                break
            start = starts[before]
            parts, ends = word_run(self.tokens, start, before + limit)
            for k in range(before + 1, len(parts) + 1):
                found = self.grammar.provinces.closest_entry(" ".join(parts[:k]))
                if found is None:
                    continue
                close = found[2] >= 0.8
                if before and not (close and len(found[0].split()) > before):
                    continue  # "Kiel X" is Kiel plus junk
                if self._order_word_at_edge(parts[0], parts[k - 1], found[0]):
                    continue  # "S Aegekn Sea", "Aegekn Sea H"
                rank = (close, found[2] + WORD_WEIGHT * k if close else found[2])
                if best is None or rank >= best[0]:
                    best = (rank, (self.text(start, ends[k - 1]), found[1], found[2]))
        return None if best is None else best[1]

    def _order_word_at_edge(self, first: str, last: str, spelling: str) -> bool:
        """Whether a run of words starts or ends with an order word the spelling it nearly
        matches does not have."""
        g = self.grammar
        words = spelling.split()
        return any(
            (w in g.unit_verbs or w in g.line_verbs or w in ROUTE_WORDS) and w not in words
            for w in (first.split()[0], last.split()[-1])
        )

    def _word_starts_before(self, i: int, most: int) -> list[int]:
        """Token indexes of the word at ``i`` and of up to ``most`` words before it, nearest
        first, going back over words and tight hyphens only."""
        if i >= len(self.tokens) or self.tokens[i].kind != WORD:
            return []
        starts = [i]
        j = i
        while len(starts) <= most:
            if j >= 1 and self.tokens[j - 1].kind == WORD:
                j -= 1
            elif j >= 2 and self.tokens[j - 1].tight and self.tokens[j - 2].kind == WORD:
                j -= 2
            else:
                break
            starts.append(j)
        return starts

    def unknown_province(self, i: int, what: str = "province") -> OrderSyntaxError:
        t = self.tokens[i] if i < len(self.tokens) else None
        if t is None:
            return self.error(f"missing {what}", pos=i)
        if t.kind != WORD:
            return self.error(f'expected a {what}, found "{t.text}"', pos=i)

        def diagnose() -> Diagnostic:
            # The word may end a name of several words whose first was read as a name of its
            # own: "New Carthagee" is New Carthage misspelt, not "New" then "Carthagee".
            guess = self._nearest_name(i, back=(0, 1, 2))
            if guess:
                return Diagnostic.unknown(f'unknown province "{guess[0]}"', guess[1])
            return Diagnostic.unknown(f'unknown province "{t.text}"')

        return OrderSyntaxError(diagnose, i)

    # -- places ------------------------------------------------------------------------

    def starts_location(self) -> bool:
        return self.grammar.provinces.match(self.tokens, self.i) is not None

    def location(self, unit_type: UnitType | None = None, what: str = "province") -> Location:
        """A province (id, name or alias; longest match) and its coast if one is written.

        A coast the province does not have is dropped with a warning (DATC 4.B.6), and so is
        any coast given to a unit that moves on land. No coast is ever guessed.
        """
        found = self.grammar.provinces.match(self.tokens, self.i)
        if found is None:
            raise self.unknown_province(self.i, what)
        pid, self.i = found
        coast = self._coast(pid)
        if coast is None:
            return Location(pid)
        province = self.grammar.map.provinces[pid]
        coast_name = self.grammar.map.coast_names.get(coast, coast)
        if coast not in province.coasts:
            self.warn(f"{province.name} has no {coast_name}; the coast is ignored")
            return Location(pid)
        if unit_type is not None and unit_type.mobility is Mobility.LAND:
            self.warn(f"an {unit_type.name} takes no coast; {coast_name} of {province.name} ignored")
            return Location(pid)
        return Location(pid, coast)

    def _coast(self, pid: str) -> str | None:
        t = self.peek()
        if t is None:
            return None
        g = self.grammar
        if t.kind == SLASH:  # stp/nc, spa/n
            found = g.coasts.match(self.tokens, self.i + 1)
            if found is None:
                after = self.peek(1)
                if after is None or after.kind != WORD:
                    raise self.error('missing coast after "/"', pos=self.i + 1)
                raise OrderSyntaxError(Diagnostic.unknown(f'unknown coast "{after.text}"'), self.i + 1)
            coast, self.i = found
            return coast
        if t.kind == OPEN:  # stp(nc), St Petersburg (north coast); "(via convoy)" is not a coast
            found = g.coasts.match(self.tokens, self.i + 1)
            if found is not None and found[1] < len(self.tokens) and self.tokens[found[1]].kind == CLOSE:
                self.i = found[1] + 1
                return found[0]
            return None
        start = self.i
        if t.kind == DASH and t.tight:  # spa-nc, but never "lon-nth"
            start += 1
        elif t.kind != WORD:
            return None
        if start < len(self.tokens) and self.tokens[start].norm in g.unit_verbs:
            return None  # "F SPA S C ...": a verb, never the start of a coast ("s c")
        # A bare coast ("stp nc", "Spain north coast") must not swallow a province name that
        # starts there: the longer reading wins; on a tie, the coast only if the province has it.
        found = g.bare_coasts.match(self.tokens, start)
        if found is None:
            return None
        coast, end = found
        other = g.provinces.match(self.tokens, start)
        if other is not None:
            if other[1] > end:
                return None
            if other[1] == end and coast not in g.map.provinces[pid].coasts:
                return None
        if t.kind == DASH and other is not None:
            return None
        self.i = end
        return coast

    def route(self, unit_type: UnitType | None = None, what: str = "destination") -> tuple[list[Location], bool]:
        """Locations separated by dashes or "to" (``LON - NTH - BEL``), then an optional
        "via convoy" / "by convoy" / "via" (also in brackets). Returns (locations, via)."""
        places = [self.location(unit_type, what)]
        while self.key in ROUTE_WORDS:
            self.advance()
            places.append(self.location(unit_type, what))
        return places, self.via()

    def chain(
        self, unit_type: UnitType | None = None, what: str = "destination", stop: frozenset[str] = frozenset()
    ) -> list[Location]:
        """Places one after another, as players write moves of several steps: separated by a
        dash or arrow, "to", "move to" or a comma ("NAR - ITA", "Nar, Ita, Dal", "TIN to CEA").

        A comma must be followed by a place, or by one of the ``stop`` words that end the chain
        ("Cea, then Tin"): a comma with nothing after it is an error, not a shorter chain.
        """
        start = self.i
        places = [self._place_before(stop, unit_type, what)]
        while True:
            comma = self.tokens[self.i - 1].comma
            if self.accept("-", *CHAIN_VERBS):
                self.accept("to")
            elif self.accept("to"):
                pass
            elif not comma or self.key in stop:
                return places
            elif self.at_end():
                raise self.error(f'missing {what} after "{self.text(start, self.i)},"')
            start = self.i
            places.append(self._place_before(stop, unit_type, what))

    def _place_before(self, stop: frozenset[str], unit_type: UnitType | None, what: str) -> Location:
        if self.key in stop:  # "C NUM - then TIN"
            raise self.error(f'missing {what} before "{self.text(self.i, self.i + 1)}"')
        return self.location(unit_type, what)

    def via(self) -> bool:
        """Step over "via convoy", "by convoy", "via", "(via convoy)"; say whether it was there."""
        start = self.i
        t = self.peek()
        bracket = t is not None and t.kind == OPEN
        if bracket:
            self.advance()
        if not self.accept(*VIA_WORDS):
            self.i = start
            return False
        self.accept(*VIA_SECOND)
        if bracket:
            t = self.peek()
            if t is None or t.kind != CLOSE:
                self.i = start
                return False
            self.advance()
        return True

    # -- units -------------------------------------------------------------------------

    def _type_at(self, i: int) -> tuple[UnitType, int] | None:
        g = self.grammar
        tokens = self.tokens
        if i < len(tokens) and tokens[i].norm in ARTICLES and i + 1 < len(tokens):
            after = g.types.match(tokens, i + 1)  # "build a fleet", "an army"
            if after is not None and tokens[i + 1].norm in g.type_names:
                return after
        return g.types.match(tokens, i)

    def starts_typed_unit(self) -> bool:
        """A unit type or a named unit starts here."""
        return self._type_at(self.i) is not None or self.grammar.named_units.match(self.tokens, self.i) is not None

    def starts_unit(self) -> bool:
        g = self.grammar
        return (
            self._type_at(self.i) is not None
            or g.provinces.match(self.tokens, self.i) is not None
            or g.named_units.match(self.tokens, self.i) is not None
        )

    def unit_readings(self, *, nationality: bool = False, what: str = "unit") -> list[tuple[UnitRef, Cursor]]:
        """Every way the tokens here read as a unit, best first, each with the cursor after it.

        Readings, in order: a named unit the variant registered; type then location ("A PAR",
        "Fleet St Petersburg (north coast)"); location alone ("PAR", type left to the
        adjudicator). With ``nationality``, a leading power name or adjective ("German A BER",
        "England's F LON") is also tried as a word to skip (DATC 4.C.5, 4.C.6): first, unless
        it is also a province name not followed by a unit type.
        """
        g = self.grammar
        starts = [self]
        if nationality:
            power = g.powers.match(self.tokens, self.i)
            if power is not None:
                skipped = self.fork()
                skipped.i = power[1]
                place = g.provinces.match(self.tokens, self.i)
                # A power word that also names a province (Rome, Carthage) is skipped first
                # only if a unit type follows ("S Rome A NEA"); otherwise it is the province
                # first ("S Rome - NEA", "S Carthage Numidia": support from Carthage).
                if place is not None and place[1] >= power[1] and not skipped.starts_typed_unit():
                    starts.append(skipped)
                else:
                    starts.insert(0, skipped)
        readings: list[tuple[UnitRef, Cursor]] = []
        errors: list[OrderSyntaxError] = []
        for start in starts:
            i = start.i
            tried = False
            named = g.named_units.match(self.tokens, i)
            if named is not None:
                tried = True
                resolve, end = named
                f = start.fork()
                f.i = end
                ref = resolve(f.context)
                if ref is None:
                    errors.append(f.error(f'cannot tell which unit "{self.text(i, end)}" is', pos=end))
                else:
                    readings.append((ref, f))
            typed = start._type_at(i)
            if typed is not None:
                tried = True
                unit_type, end = typed
                f = start.fork()
                f.i = end
                if f.word in FILLERS and not f.starts_location():
                    f.advance()
                try:
                    readings.append((UnitRef(f.location(unit_type), unit_type), f))
                except OrderSyntaxError as error:
                    errors.append(error)
            if g.provinces.match(self.tokens, i) is not None:
                tried = True
                f = start.fork()
                try:
                    readings.append((UnitRef(f.location(None, what)), f))
                except OrderSyntaxError as error:
                    errors.append(error)
            if not tried:
                errors.append(start.unknown_province(i, what))
        if not readings:
            raise furthest(errors)
        return readings

    def unit(self, *, nationality: bool = False, what: str = "unit") -> UnitRef:
        """The preferred reading of a unit here (for handlers that need no backtracking)."""
        ref, after = self.unit_readings(nationality=nationality, what=what)[0]
        self.commit(after)
        return ref

    def each_unit(
        self,
        then: Callable[[UnitRef, Cursor], Order],
        *,
        nationality: bool = False,
        what: str = "unit",
    ) -> Order:
        """Read a unit, then the rest of the line with ``then``; if that fails for the
        preferred reading of the unit, try the others (the rest must use the whole line)."""

        def attempt(ref: UnitRef, after: Cursor) -> tuple[Order, Cursor]:
            order = then(ref, after)
            after.expect_end()
            return order, after

        readings = self.unit_readings(nationality=nationality, what=what)
        _, (order, after) = first_success([partial(attempt, r, a) for r, a in readings])
        self.commit(after)
        return order

    def power(self, what: str = "power") -> str:
        """A power by name, adjective or alias ("Alexandria", "Roman", "England's")."""
        found = self.grammar.powers.match(self.tokens, self.i)
        if found is not None:
            name, self.i = found
            return name
        t = self.peek()
        if t is None:
            raise self.error(f"missing {what}")
        if t.kind != WORD:
            raise self.error(f'expected a {what}, found "{t.text}"')
        i = self.i
        entries = self.grammar.powers.entries

        def diagnose() -> Diagnostic:
            parts, ends = word_run(self.tokens, i, self.grammar.powers.max_words)
            best: tuple[str, str, float] | None = None
            for k in range(1, len(parts) + 1):
                found = closest_word(" ".join(parts[:k]), entries)
                if found is not None and (best is None or found[1] >= best[2]):
                    best = (self.text(i, ends[k - 1]), entries[found[0]], found[1])
            if best is None:
                return Diagnostic.error(f'unknown {what} "{t.text}"')
            return Diagnostic.error(f'unknown {what} "{best[0]}"', best[1])

        raise OrderSyntaxError(diagnose, i)

    def bracketed(self, read: Callable[[], R]) -> R | None:
        """What ``read`` reads inside the brackets that open here ("(Alexandria)"); None, and
        nothing read, if no bracket opens here."""
        t = self.peek()
        if t is None or t.kind != OPEN:
            return None
        self.advance()
        value = read()
        t = self.peek()
        if t is None or t.kind != CLOSE:
            raise self.error('missing ")"' if t is None else f'expected ")", found "{t.text}"')
        self.advance()
        return value

    def number(self) -> int:
        """A whole number written in digits."""
        t = self.peek()
        if t is None or t.kind != WORD or not is_number(t.norm):
            raise self.error("expected a number" if t is None else f'expected a number, found "{t.text}"')
        self.advance()
        return int(t.norm)


def is_number(word: str) -> bool:
    return word.isascii() and word.isdigit() and len(word) <= 12
