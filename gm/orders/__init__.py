"""The order parser: text as players write it -> typed orders (``gm.domain.orders``).

    grammar = OrderGrammar.for_variant(variant)     # built once per variant, cached
    lines = parse_orders(text, grammar)             # one ParsedLine per non-blank line
    pl = parse_line("A Lon - Nth", grammar, line_no=1)
    pl.order, pl.diagnostics, pl.ok

The parser is as forgiving as the best judges (njudge, DPjudge, MILA): unit types optional,
provinces by id, name or alias in any case, separators or none ("A PAR BUR"), postfix forms
("A PAR B", "F TRI D"), coasts in every usual spelling, noise around the order. It never
raises and never guesses a coast. Ambiguity rules: see ``gm.orders.grammar``.

Modules: ``tokens`` (cleaning, tokens), ``names`` (name indexes, suggestions), ``cursor``
(reading primitives), ``verbs`` (core verbs), ``grammar`` (``OrderGrammar``, line dispatch),
``parser`` (``ParsedLine``, ``parse_line``, ``parse_orders``), ``diagnostics``, ``fastlane``
(plain lines read straight from the name tables, exactly as ``grammar`` reads them).

Speed: a plain line ("A PAR - BUR", "Army Munich supports Army Berlin -> Silesia") takes the
fast lane, a few microseconds; any other line the general parser, tens of microseconds (a
misspelt one, with its suggestion, about a hundred). Each grammar also keeps the readings of the
last 4,096 lines by their exact text (``OrderGrammar.lines``; ``parse_line(..., cached=False)``
reads without it): a line read before costs well under a microsecond.

Extension point for variants
----------------------------
A variant adds vocabulary without touching the core grammar, either by calling

    grammar = OrderGrammar.for_variant(v).extended(
        unit_verbs={"sack": sack},          # after a unit: "A Syracuse sack"
        line_verbs={"pay": pay},            # starting the line: "PAY 35 Egyptus"
        named_units={"Hannibal": where_is_hannibal},   # "Hannibal - Numidia"
    )

or, so that ``for_variant`` does it, by declaring the part ``grammar.ORDER_GRAMMAR`` in the
catalog (gm.variants.catalog): a function ``grammar -> grammar.extended(...)``.

* A verb is one word (matched in its ``normalise_name`` form; any dash or arrow is "-"). Its
  handler is ``handler(unit: UnitRef | None, cursor: Cursor) -> Order``: ``unit`` is the unit
  read before the verb (None for a line verb), and the cursor stands just after the verb. The
  handler reads the rest with ``cursor.location()``, ``cursor.route()``, ``cursor.unit()`` /
  ``cursor.each_unit()``, ``cursor.number()``, ``cursor.accept(word, ...)``, ``cursor.word``,
  records ignored parts with ``cursor.warn()``, and fails with ``raise cursor.error(msg)``. It
  may return any ``Order`` subclass, including the variant's own. The grammar checks that the
  handler used the whole line (orders are stored as ``str(order)`` and read again, so a
  variant's ``Order.__str__`` must read back to the same order). Mapping a word to None
  removes a core verb. Core verbs and the variant's share the same tables
  (``gm.orders.verbs``), so the rules above for choosing between a verb and a province apply
  to them too.
* New unit types need nothing here: every letter and name in ``variant.unit_types`` is read
  ("L Rome", "Leader Rome"), letters of several characters and digits too ("2A SYR"). A
  letter that is also a verb ("C" cavalry / convoy, "B" barbarian army / build) follows the
  rules in ``gm.orders.grammar``.
* A named unit ("Hannibal", "Scipio Africanus") maps its name to a resolver
  ``resolve(context) -> UnitRef | None``; ``context`` is whatever the caller passed to
  ``parse_line``/``parse_orders`` (e.g. the current position). Returning None is an error
  ("cannot tell which unit ..."); a near miss at the start of a line suggests the name.

Pieces to build verbs from (``gm.orders.verbs``, ``Cursor``):

* ``verbs.moves(steps=None, then=None) -> VerbHandler``: a move verb that also reads moves of
  several steps and a second move, to map every word of ``verbs.MOVE_WORDS`` to:

      grammar.extended(unit_verbs=dict.fromkeys(verbs.MOVE_WORDS, verbs.moves(MoveAlongPath, MoveThen)))

  reads "I HIS - NAR - ITA", "HISPANIA move to Nar, Ita, Dal, MACIDONIA" (``MoveAlongPath``),
  "C NUM - CEA then TIN", "Beatica move to Tingitana then move to Cea, Num, Africa Procons"
  (``MoveThen``); ``verbs.moves(MoveInRounds)`` reads "F TYS - LYO - SPA/SC". One place is a
  plain ``Move``. ``steps(unit, places)`` and ``then(unit, first, second)`` may be functions
  choosing by the unit: None from ``steps`` keeps the standard reading (a convoy path, only
  its destination counts, with a warning), None from ``then`` refuses the line. A path
  written "via convoy" is always a convoy path.
* ``Cursor.chain(unit_type, what, stop)``: places separated by "-", "to", "move to" or commas;
  a comma with nothing after it, or a place missing before a ``stop`` word, is an error.
* ``verbs.by_next_word({"city": build_city, "fort": build_fort}, verbs.build_line)``: a verb
  whose next word may choose what it does ("Build City Neapolis" beside "Build Fleet
  Hispania(SC)"); a near miss of those words is suggested ("Build Citty" -> city).
* ``verbs.province_order(Raze)``: a verb followed by one province ("Raze Galatia").
* ``Cursor.power()`` (a power by name, adjective or alias, "did you mean" on a near miss) and
  ``Cursor.bracketed(read)`` ("F MIN attacks F MIN (Alexandria)" reads the owner with
  ``c.bracketed(c.power)``); ``Cursor.number()`` ("PAY 35 Egyptus").

tests/orders/variant_grammars.py extends the grammar of each coming variant's real board with
these, as its rules module will.
"""

from gm.orders.cursor import Cursor
from gm.orders.diagnostics import Diagnostic, OrderSyntaxError, Severity
from gm.orders.grammar import NamedUnitResolver, OrderGrammar
from gm.orders.parser import ParsedLine, parse_line, parse_orders
from gm.orders.verbs import VerbHandler

__all__ = [
    "Cursor",
    "Diagnostic",
    "NamedUnitResolver",
    "OrderGrammar",
    "OrderSyntaxError",
    "ParsedLine",
    "Severity",
    "VerbHandler",
    "parse_line",
    "parse_orders",
]
