"""``OrderGrammar``: one variant's order vocabulary, and how a line is read.

How a line is read
------------------
1. If the first word is a line verb (BUILD, DISBAND/REMOVE, RETREAT, WAIVE, or a variant's),
   its handler reads the rest.
2. Otherwise (or if that fails) the line starts with a unit: ``[type] location`` or a named
   unit, and the word after it is a unit verb (H, -, S, C, R, D, B, ... or a variant's) whose
   handler reads the rest; a location right after the unit is a move ("A PAR BUR").

Ambiguity rules (each tested in tests/orders/test_ambiguity.py)
---------------------------------------------------------------
* Where a word could be a verb or a province ("A MUN S BER" on a map where "S" is also
  Spain), the verb is read first; the province reading is used only if the verb reading
  fails for the whole line ("A MAR S" is then a move to Spain, with a warning saying so).
* At the start of a line the same: a line verb ("B", "D", "R") first, then a unit.
* A unit type word ("A", "F", "Army") is read as the type first, then as a province.
* A power name or adjective before a supported or convoyed unit ("S German A BER") is
  skipped first; read as a province only if skipping it fails (DATC 4.C.5 / 4.C.6). A power
  word that is also a province (Rome, Carthage in the ancient maps) is skipped first only when
  a unit type follows it ("S Rome A NEA"); otherwise it is the province first ("S Rome - NEA",
  "S Carthage Numidia" = support Carthage to Numidia).
* A bare coast word after a province ("Spain north coast", "stp nc") is a coast only if no
  longer province name starts there, and on a tie only if the province has that coast:
  "F BUL EAST" is Bulgaria's east coast, but "F SPA WEST" moves to the Western Mediterranean.
  Single-letter coasts ("n", "s") are only read after "/" or in brackets, and a bare coast
  never starts with a verb word, so "F SPA S ..." and "F SPA S C ..." stay supports.
* Names are matched longest first and run across a hyphen only when it has no spaces
  around it ("Mid-Atlantic"); "Lon-Bel" is still a move because "lon bel" is no name.
* A variant's unit letter that is also a verb word is the verb where a verb may stand and the
  type where a unit is expected. Diplomacy of the Empire's cavalry "C": "C NUM - CEA" moves
  the cavalry (no line verb is "C"), "F MSA C C NUM - SIC" convoys it (right after a unit "C"
  is CONVOY), "I AFR S C NUM - CEA" supports it. Roman Diplomacy's barbarian army "B": at the
  start of a line BUILD is read first ("B Celtica" builds there), the barbarian army if that
  fails ("B Celtica - Belgica"), then without the warning a province would get.
* Unit letters with digits are one word: "2A SYR" is a double army, never item number 2 ("2 A
  SYR" still is).
* Where no unit type of the variant is written "A" or "Army" (Diplomacy of the Empire's infantry,
  cavalry and catapults), those standard words are read as a stand-in type (``stand_ins``): the
  land unit standing there, which the board decides when the order arrives (gm.games.reading).
* A move's order word before its unit ("move Nisibis to Osrhoene", "move A PAR - BUR") is read
  as that move; any other order word of three letters or more there is answered as being
  before its unit ("support A NIS - OSR").
* A line that fails after its order word carries that word (``Diagnostic.form``), so that a
  reply can show the order's form (gm.orders.forms).
* Moves of several steps (variants using ``verbs.moves``): places are chained by "-", "to",
  "move to" or commas; "then" ends a chain and starts the second move. A comma after a place
  must be followed by another place or by "then" ("Cea, then Tin"): "Nar, Ita, Dal," lacks a
  place. Commas anywhere else are noise, as in standard play, which reads no chains of commas
  and no "then": there "A PAR - BUR - MAR" is a convoy path to MAR.

Extension
---------
See the ``gm.orders`` package docstring: ``OrderGrammar.extended(unit_verbs=...,
line_verbs=..., named_units=...)``, or a variant's part ``ORDER_GRAMMAR`` (a function
grammar -> grammar, declared in gm.variants.catalog), and the verbs ``gm.orders.verbs`` makes
for variants (``moves``, ``by_next_word``, ``province_order``). A bare move ("A PAR BUR") is read by the grammar's own "-" verb.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property, partial
from typing import Any, Final

from gm.adjudicator.kept import PerVariant
from gm.adjudicator.parts import Part
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Order, UnitRef
from gm.domain.units import STANDARD_UNIT_TYPES, Mobility, UnitType
from gm.maps.model import GameMap, normalise_name
from gm.orders import verbs
from gm.orders.cursor import Cursor, first_success, is_number
from gm.orders.diagnostics import Diagnostic, OrderSyntaxError
from gm.orders.fastlane import FastLane
from gm.orders.names import (
    PhraseIndex,
    ProvinceNames,
    closest_word,
    coast_spellings,
    power_words,
)
from gm.orders.tokens import WORD, clean_line, tokenize
from gm.orders.verbs import VerbHandler

NamedUnitResolver = Callable[[Any], UnitRef | None]
LEADING_VERBS = frozenset({"move", "moves"})  # unit verbs also read before their unit
CACHE_LIMIT = 4096  # lines (and units, and locations) a grammar remembers the reading of


def _verb_key(word: str) -> str:
    word = word.strip()
    return "-" if word and set(word) <= set("-=>~") else normalise_name(word)


class OrderGrammar:
    def __init__(
        self,
        game_map: GameMap,
        unit_types: Iterable[UnitType] = STANDARD_UNIT_TYPES,
        *,
        unit_verbs: Mapping[str, VerbHandler | None] | None = None,
        line_verbs: Mapping[str, VerbHandler | None] | None = None,
        named_units: Mapping[str, NamedUnitResolver] | None = None,
    ):
        self.map = game_map
        self.unit_types = tuple(unit_types)
        self.provinces = ProvinceNames(game_map)
        spellings, bare = coast_spellings(game_map.coast_names)
        self.coasts: PhraseIndex[str] = PhraseIndex(spellings)
        self.bare_coasts: PhraseIndex[str] = PhraseIndex(bare)
        self.powers: PhraseIndex[str] = PhraseIndex(power_words(game_map))
        types: dict[str, UnitType] = {}
        for t in self.unit_types:
            types.setdefault(normalise_name(t.letter), t)
        for t in self.unit_types:
            types.setdefault(normalise_name(t.name), t)
        types.pop("", None)
        # Standard players write "A" and "Army" whatever a variant calls its land units: where none
        # is called so (Diplomacy of the Empire's infantry, cavalry, catapults), those words stand
        # for "the land unit there", whose type the board tells (gm.games.reading says so).
        self.stand_ins: dict[UnitType, Mobility] = {}
        for standard in STANDARD_UNIT_TYPES:
            words = (normalise_name(standard.letter), normalise_name(standard.name))
            if any(s in types for s in words) or not any(t.mobility is standard.mobility for t in self.unit_types):
                continue
            self.stand_ins[standard] = standard.mobility
            for spelling in words:
                types[spelling] = standard
        self.types: PhraseIndex[UnitType] = PhraseIndex(types)
        self.type_names = frozenset(normalise_name(t.name) for t in (*self.unit_types, *self.stand_ins))
        self.unit_verbs: dict[str, VerbHandler] = dict(verbs.UNIT_VERBS)
        self.line_verbs: dict[str, VerbHandler] = dict(verbs.LINE_VERBS)
        self.named_units: PhraseIndex[NamedUnitResolver] = PhraseIndex({})
        self.unit_names: dict[str, str] = {}  # a named unit's normalised name -> as registered
        self._add(unit_verbs, line_verbs, named_units)

    def _forget(self) -> None:
        """Empty the caches: made anew for every grammar, and whenever its vocabulary changes.

        ``lines``: the reading of a line (``gm.orders.parser.parse_line``) by its exact text, kept
        only when reading it did not consult the caller's context (a named unit does) and its
        order is immutable; ``units`` and ``locations`` the same for ``parse_unit`` and
        ``parse_location``. Each holds at most ``CACHE_LIMIT`` entries, the oldest dropped first.
        """
        self.lines: dict[str, Any] = {}
        self.units: dict[str, tuple[UnitType, Location]] = {}
        self.locations: dict[str, Location] = {}
        self.__dict__.pop("fast_lane", None)

    @cached_property  # an attribute once built: read on every line, by code that is compiled
    def fast_lane(self) -> FastLane:
        """The tables for reading plain lines fast (``gm.orders.fastlane``), built on first use."""
        return FastLane(self)

    # -- construction and extension -----------------------------------------------------

    @classmethod
    def for_variant(cls, variant: Variant) -> OrderGrammar:
        """The grammar of a variant, built once and kept while the variant lives.

        A variant may declare the part ``ORDER_GRAMMAR``, a function grammar -> grammar that adds
        its verbs and named units (usually by returning ``grammar.extended(...)``).
        """
        return _GRAMMARS(variant)

    def extended(
        self,
        *,
        unit_verbs: Mapping[str, VerbHandler | None] | None = None,
        line_verbs: Mapping[str, VerbHandler | None] | None = None,
        named_units: Mapping[str, NamedUnitResolver] | None = None,
    ) -> OrderGrammar:
        """A copy with more verbs or named units; a verb mapped to None is removed."""
        grammar = copy.copy(self)
        grammar.unit_verbs = dict(self.unit_verbs)
        grammar.line_verbs = dict(self.line_verbs)
        grammar.named_units = PhraseIndex(self.named_units.entries)
        grammar.unit_names = dict(self.unit_names)
        grammar._add(unit_verbs, line_verbs, named_units)
        return grammar

    def _add(
        self,
        unit_verbs: Mapping[str, VerbHandler | None] | None,
        line_verbs: Mapping[str, VerbHandler | None] | None,
        named_units: Mapping[str, NamedUnitResolver] | None,
    ) -> None:
        for table, extra in ((self.unit_verbs, unit_verbs), (self.line_verbs, line_verbs)):
            for word, handler in (extra or {}).items():
                key = _verb_key(word)
                if " " in key or not key:
                    raise ValueError(f"a verb is one word: {word!r}")
                if handler is None:
                    table.pop(key, None)
                else:
                    table[key] = handler
        if named_units:
            entries = dict(self.named_units.entries)
            entries.update((normalise_name(name), resolve) for name, resolve in named_units.items())
            self.named_units = PhraseIndex(entries)
            self.unit_names.update((normalise_name(name), name) for name in named_units)
        self._forget()

    # -- reading -------------------------------------------------------------------------

    def cursor(self, text: str, context: Any = None) -> Cursor:
        line = clean_line(text)
        return Cursor(self, line, tokenize(line), context=context)

    def read(self, c: Cursor) -> Order:
        """The order on the cursor's line; raises ``OrderSyntaxError``."""
        if c.at_end():
            raise c.error("no order on this line")
        t = c.peek()
        assert t is not None
        if t.kind == WORD and is_number(t.norm) and len(c.tokens) > 1 and not c.starts_location():
            c.advance()  # an item number without punctuation: "1 A PAR - BUR"
        attempts = []
        handler = self.line_verbs.get(c.key or "")
        if handler is not None:
            attempts.append(lambda: self._verb(handler, None, c))
        if c.starts_unit():
            attempts.append(lambda: self._unit_first(c))
        leading = self.unit_verbs.get(c.key or "") if c.key in LEADING_VERBS and handler is None else None
        if leading is not None:  # "move Nisibis to Osrhoene": the order word before its unit
            attempts.append(lambda: self._verb_first(leading, c))
        if not attempts:
            raise self._unknown_word(c, self.line_verbs, None)
        index, (order, after) = first_success(attempts)
        if index and handler is not None and t.norm not in self.types:
            after.warn(f'"{t.text}" read as part of a unit, not as an order word')
        c.commit(after)
        return order

    def _verb(self, handler: VerbHandler, unit: UnitRef | None, c: Cursor, skip: int = 1) -> tuple[Order, Cursor]:
        f = c.fork()
        word = (c.key or "-") if skip else "-"
        f.advance(skip)
        try:
            order = handler(unit, f)
            f.expect_end()
        except OrderSyntaxError as error:
            if error.pos is None:
                error.pos = f.i
            if error.form is None:
                error.form = word
            raise
        if not isinstance(order, Order):
            raise TypeError(f"verb handler {handler!r} returned {order!r}, not an Order")
        return order, f

    def _verb_first(self, handler: VerbHandler, c: Cursor) -> tuple[Order, Cursor]:
        """A move written with its order word first ("move A PAR to BUR"), as players say it."""
        f = c.fork()
        f.advance()
        readings = f.unit_readings(what="unit")
        for _, after in readings:
            after.accept("-")  # "move A PAR - BUR" as "move A PAR to BUR"
        return first_success([partial(self._verb, handler, u, a, 0) for u, a in readings])[1]

    def _unit_first(self, c: Cursor) -> tuple[Order, Cursor]:
        readings = c.unit_readings(what="unit")
        return first_success([partial(self._after_unit, u, a) for u, a in readings])[1]

    def _after_unit(self, unit: UnitRef, c: Cursor) -> tuple[Order, Cursor]:
        if c.at_end():
            raise c.error(f'no order for {unit}: write e.g. "{unit} H" to hold or "{unit} - province" to move')
        handler = self.unit_verbs.get(c.key or "")
        attempts = []
        if handler is not None:
            attempts.append(lambda: self._verb(handler, unit, c))
        if c.starts_location():  # "A PAR BUR": a move with no separator, read as after "-"
            attempts.append(lambda: self._verb(self.unit_verbs.get("-", verbs.move), unit, c, skip=0))
        if not attempts:
            raise self._unknown_word(c, self.unit_verbs, unit)
        index, (order, after) = first_success(attempts)
        if index and handler is not None:
            t = c.peek()
            assert t is not None
            dest = getattr(order, "destination", None)
            where = self.map.provinces[dest.province].name if isinstance(dest, Location) else "a province"
            after.warn(f'"{t.text}" read as {where}, not as an order word')
        return order, after

    def _unknown_word(self, c: Cursor, table: Mapping[str, VerbHandler], unit: UnitRef | None) -> OrderSyntaxError:
        t = c.peek()
        assert t is not None
        where = f'after "{unit}"' if unit is not None else "at the start of the line"
        if t.kind != WORD:
            return c.error(f'unexpected "{t.text}" {where}')

        def diagnose() -> Diagnostic:
            if unit is None and len(t.norm) > 2 and t.norm in self.unit_verbs:  # "support A NIS - OSR": whose?
                return Diagnostic.error(f'"{t.text}" comes after the unit it orders: write the unit first',
                                        form=t.norm)
            words = list(table)
            if unit is None:
                words += [*self.type_names, *self.unit_names]
            verb = closest_word(t.norm, words)
            province = c.province_guess(c.i)
            longer = c.name_before(c.i)  # "A New Carthagee": New Carthage misspelt, "New" read as a name
            if longer is not None and (province is None or longer[2] >= province[2]):
                return Diagnostic.unknown(f'unknown province "{longer[0]}"', longer[1])
            if province is not None and province[2] < 0.8:
                province = None  # here the word may be anything: only suggest close names
            if verb is not None and (province is None or verb[1] >= province[2]):
                if verb[0] in self.unit_names:  # "Hanibal - Numidia"
                    return Diagnostic.error(f'unknown unit "{t.text}"', self.unit_names[verb[0]])
                if unit is None and verb[0] in self.type_names and verb[0] not in table:  # "Flet Sinope - Pontus"
                    return Diagnostic.error(f'unknown unit type "{t.text}"', verb[0].capitalize())
                return Diagnostic.error(f'unknown order "{t.text}" {where}', verb[0])
            if province is not None:
                return Diagnostic.unknown(f'unknown province "{province[0]}"', province[1])
            expected = "an order" if unit is not None else "a unit or an order"
            return Diagnostic.error(f'expected {expected} {where}, found "{t.text}"')

        return OrderSyntaxError(diagnose, c.i)

    # -- small entry points --------------------------------------------------------------

    def parse_location(self, text: str) -> Location:
        """A location written any way the parser accepts ("St Petersburg (south coast)")."""
        location = self.locations.get(text)
        if location is None:
            location = self.fast_lane.location(text)
            if location is None:
                c = self.cursor(text)
                location = c.location(None, "location")
                c.expect_end()
            remember(self.locations, text, location)
        return location

    def parse_unit(self, text: str) -> tuple[UnitType, Location]:
        """A unit with its type ("F St Petersburg (south coast)", "Army Paris")."""
        unit = self.units.get(text)
        if unit is None:
            unit = self.fast_lane.unit(text) or self._parse_unit(text)
            remember(self.units, text, unit)
        return unit

    def _parse_unit(self, text: str) -> tuple[UnitType, Location]:
        c = self.cursor(text)
        for ref, after in c.unit_readings():
            if ref.type is not None and after.at_end():
                return ref.type, ref.location
        for ref, after in c.unit_readings():
            if ref.type is None:
                raise c.error(f'missing unit type before "{c.text(0)}" (e.g. A or F)', pos=0)
            after.expect_end()
        raise c.error(f'cannot read "{c.text(0)}" as a unit')

    def province_suggestion(self, text: str) -> str | None:
        """The full name of the province nearest to ``text`` (itself if it is a name)."""
        return self.provinces.suggestion(text)


GrammarExtension = Callable[[OrderGrammar], OrderGrammar]
# A variant's own verbs and named units: the grammar of standard play, extended.
ORDER_GRAMMAR: Final = Part[GrammarExtension]("order_grammar")


def _grammar_of(variant: Variant) -> OrderGrammar:
    grammar = OrderGrammar(variant.map, variant.unit_types)
    extend = variant.parts.get(ORDER_GRAMMAR)
    return extend(grammar) if extend is not None else grammar


# Each variant's grammar, kept here by the variant (so by the catalog that made it).
_GRAMMARS: PerVariant[Variant, OrderGrammar] = PerVariant(_grammar_of)


def remember(cache: dict[str, Any], key: str, value: Any) -> None:
    """Keep ``value`` under ``key``, dropping the oldest entry when the cache is full."""
    if len(cache) >= CACHE_LIMIT:
        del cache[next(iter(cache))]
    cache[key] = value
