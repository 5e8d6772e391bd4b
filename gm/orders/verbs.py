"""The core verbs: their words and the handlers that read what follows them.

A handler is ``handler(unit, cursor) -> Order``: ``unit`` is the unit already read before the
verb (None for a verb that starts the line), ``cursor`` stands just after the verb word. The
grammar checks afterwards that the line is used up. Variants add or replace entries of
``UNIT_VERBS`` / ``LINE_VERBS`` through ``OrderGrammar.extended`` (see ``gm.orders``), with
their own handlers or ones made here: ``moves`` (moves of several steps and second moves),
``by_next_word`` ("BUILD CITY X" beside "BUILD A X"), ``province_order`` ("RAZE X").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from gm.domain.geography import Location
from gm.domain.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from gm.domain.units import UnitType
from gm.maps.model import normalise_name
from gm.orders.cursor import Cursor, first_success, is_number
from gm.orders.diagnostics import OrderSyntaxError
from gm.orders.names import closest_word

VerbHandler = Callable[[UnitRef | None, Cursor], Order]
# What a move of several steps becomes: MoveInRounds or MoveAlongPath, or a function choosing
# by the unit, where None means "read it as the standard does" (a convoy path).
StepsShape = Callable[[UnitRef, tuple[Location, ...]], Order | None]
# What a move with "then" becomes: MoveThen, or a function where None refuses the second move.
ThenShape = Callable[[UnitRef, tuple[Location, ...], tuple[Location, ...]], Order | None]

HOLD_WORDS = ("h", "hold", "holds", "stand", "stands")
MOVE_WORDS = ("-", "to", "m", "mv", "move", "moves", "moving", "attack", "attacks")
SUPPORT_WORDS = ("s", "support", "supports", "sup", "supp")
CONVOY_WORDS = ("c", "convoy", "convoys")
RETREAT_WORDS = ("r", "retreat", "retreats")
DISBAND_WORDS = ("d", "disband", "disbands", "remove", "removes")
BUILD_WORDS = ("b", "build", "builds")
WAIVE_WORDS = ("waive", "waives")
WAIVE_FILLERS = ("build", "builds", "a", "one")
THEN_WORDS = frozenset({"then"})


def _unit(unit: UnitRef | None) -> UnitRef:
    assert unit is not None  # unit verbs are only called after a unit
    return unit


def destination(c: Cursor, unit_type: UnitType | None) -> tuple[Location, bool]:
    """Where a move goes, and whether "via convoy" was written.

    A path ("A LON - NTH - BEL") is read and ignored but for its last place, with a warning
    (DATC 4.A.6, choice a): the adjudicator finds convoy routes itself.
    """
    places, via = c.route(unit_type)
    if len(places) > 1:
        _ignore_path(c, places)
    return places[-1], via


def _ignore_path(c: Cursor, places: list[Location]) -> None:
    path = " - ".join(str(p) for p in places[:-1])
    c.warn(f"convoy path {path} ignored: only the destination {places[-1]} counts")


def hold(unit: UnitRef | None, c: Cursor) -> Order:
    return Hold(_unit(unit))


def move(unit: UnitRef | None, c: Cursor) -> Order:
    unit = _unit(unit)
    c.accept("to")  # "move to", "moves to", "- to"
    dest, via = destination(c, unit.type)
    return Move(unit, dest, via)


def support(unit: UnitRef | None, c: Cursor) -> Order:
    unit = _unit(unit)

    def rest(supported: UnitRef, c: Cursor) -> Order:
        if c.at_end() or c.accept(*HOLD_WORDS):  # "S A BER", "S A BER H"
            return SupportHold(unit, supported)
        if c.accept(*MOVE_WORDS):  # "S A BER - SIL", "S A BER to SIL"; else "S A BER SIL"
            c.accept("to")
        dest, _via = destination(c, supported.type)  # a convoy route does not matter to a support
        return SupportMove(unit, supported, dest)

    return c.each_unit(rest, nationality=True, what="supported unit")


def convoy(unit: UnitRef | None, c: Cursor) -> Order:
    unit = _unit(unit)

    def rest(army: UnitRef, c: Cursor) -> Order:
        if c.at_end():
            raise c.error(f"convoy of {army} needs a destination (e.g. {unit} C {army} - province)")
        if c.accept(*MOVE_WORDS):
            c.accept("to")
        dest, _via = destination(c, army.type)
        return Convoy(unit, army, dest)

    return c.each_unit(rest, nationality=True, what="convoyed army")


def moves(steps: StepsShape | None = None, then: ThenShape | None = None) -> VerbHandler:
    """A move verb that also reads moves of several steps and a second move.

    ``moves(MoveInRounds)``, ``moves(MoveAlongPath, MoveThen)``: places are chained as
    ``Cursor.chain`` reads them ("I HIS - NAR - ITA", "HISPANIA move to Nar, Ita, Dal, MAC"),
    optionally followed by "then [move to]" and a second chain ("C NUM - CEA then TIN").
    One place is a standard ``Move`` (with "via convoy" if written); several become
    ``steps(unit, places)``, unless ``steps`` is missing or answers None or "via convoy" was
    written: then, as in standard play, a convoy path of which only the last place counts.
    With "then", the order is ``then(unit, first, second)``; None there refuses the line.
    """

    def handler(unit: UnitRef | None, c: Cursor) -> Order:
        unit = _unit(unit)
        c.accept("to")  # "move to"
        first = c.chain(unit.type, stop=THEN_WORDS)
        via = c.via()
        if then is not None and c.accept("then"):
            return _second_move(then, unit, first, via, c)
        if len(first) == 1:
            return Move(unit, first[0], via)
        order = None if via or steps is None else steps(unit, tuple(first))
        if order is None:
            _ignore_path(c, first)
            return Move(unit, first[-1], via)
        return order

    return handler


def _second_move(then: ThenShape, unit: UnitRef, first: list[Location], via: bool, c: Cursor) -> Order:
    said_then = c.i - 1
    if c.accept(*MOVE_WORDS):  # "then move to Tingitana", "then - TIN"
        c.accept("to")
    if c.at_end():
        raise c.error('missing destination after "then"')
    second = c.chain(unit.type, stop=THEN_WORDS)
    if c.key == "then":
        raise c.error('a second "then": a unit makes one second move at most')
    if via:
        c.warn('"via convoy" ignored in a move with a second move: the route is found from the board')
    order = then(unit, tuple(first), tuple(second))
    if order is None:
        raise c.error(f'no second move ("then") for {unit}', pos=said_then)
    return order


def by_next_word(words: Mapping[str, VerbHandler], otherwise: VerbHandler) -> VerbHandler:
    """A verb whose next word may say what it does: ``by_next_word({"city": build_city,
    "fort": build_fort}, build_line)`` reads "BUILD CITY Neapolis" with ``build_city`` (the
    cursor after "city") and "BUILD A PAR" with ``build_line``. As for every verb, the reading
    through the next word comes first and ``otherwise`` is tried if it fails ("city" may be the
    start of a province's name)."""
    table = {normalise_name(word): handler for word, handler in words.items()}

    def attempt(handler: VerbHandler, skip: int, unit: UnitRef | None, c: Cursor) -> tuple[Order, Cursor]:
        f = c.fork()
        f.advance(skip)
        order = handler(unit, f)
        f.expect_end()
        return order, f

    def handler(unit: UnitRef | None, c: Cursor) -> Order:
        chosen = table.get(c.word or "")
        if chosen is None:
            return _otherwise_or_near_word(otherwise, table, unit, c)
        _, (order, after) = first_success([partial(attempt, chosen, 1, unit, c), partial(attempt, otherwise, 0, unit, c)])
        c.commit(after)
        return order

    return handler


def _otherwise_or_near_word(
    otherwise: VerbHandler, table: Mapping[str, VerbHandler], unit: UnitRef | None, c: Cursor
) -> Order:
    """``otherwise``; if it fails on the very next word and that word is nearly one of the
    table's ("BUILD CITTY Neapolis"), the error suggests that word."""
    i = c.i
    try:
        return otherwise(unit, c)
    except OrderSyntaxError as error:
        near = closest_word(c.tokens[i].norm, table) if i < len(c.tokens) and error.pos == i else None
        if near is None:
            raise
        raise c.error(f'unknown word "{c.tokens[i].text}"', near[0], pos=i) from None


def province_order(make: Callable[[Location], Order], what: str = "province") -> VerbHandler:
    """A verb followed by one province, making ``make(location)``: "RAZE Galatia"."""
    return lambda _unit, c: make(c.location(None, what))


def retreat(unit: UnitRef | None, c: Cursor) -> Order:
    unit = _unit(unit)
    if c.accept(*DISBAND_WORDS):  # "A SER R DISBAND"
        return Disband(unit)
    if c.accept(*MOVE_WORDS):  # "R - ALB", "retreat to ALB"
        c.accept("to")
    if c.at_end():
        raise c.error(f"retreat of {unit} needs a destination")
    return Retreat(unit, c.location(unit.type, "destination"))


def build_after(unit: UnitRef | None, c: Cursor) -> Order:
    return Build(_unit(unit))  # "A PAR B"


def disband_after(unit: UnitRef | None, c: Cursor) -> Order:
    return Disband(_unit(unit))  # "F TRI D"


def build_line(_unit_: UnitRef | None, c: Cursor) -> Order:
    if c.accept(*WAIVE_WORDS):  # "build waive"
        return waive_line(None, c)
    return c.each_unit(lambda ref, _c: Build(ref), what="unit to build")


def disband_line(_unit_: UnitRef | None, c: Cursor) -> Order:
    return c.each_unit(lambda ref, _c: Disband(ref), what="unit to disband")


def retreat_line(_unit_: UnitRef | None, c: Cursor) -> Order:
    return c.each_unit(retreat, what="unit to retreat")  # "RETREAT A SER TO ALB"


def waive_line(_unit_: UnitRef | None, c: Cursor) -> Order:
    """"WAIVE", "waive build", "waive 1": one build waived per line."""
    while not c.at_end():
        if c.accept(*WAIVE_FILLERS):
            continue
        word = c.word
        if word is not None and is_number(word):
            if int(word) != 1:
                c.warn("WAIVE waives one build; write one WAIVE line for each build to waive")
            c.advance()
            continue
        break
    return Waive()


def _table(*groups: tuple[tuple[str, ...], VerbHandler]) -> dict[str, VerbHandler]:
    return {word: handler for words, handler in groups for word in words}


# Verbs written after the unit: "A PAR - BUR", "F TRI D", "A PAR B".
UNIT_VERBS: dict[str, VerbHandler] = _table(
    (HOLD_WORDS, hold),
    (MOVE_WORDS, move),
    (SUPPORT_WORDS, support),
    (CONVOY_WORDS, convoy),
    (RETREAT_WORDS, retreat),
    (DISBAND_WORDS, disband_after),
    (BUILD_WORDS, build_after),
)

# Verbs that start the line: "BUILD A PAR", "REMOVE A MUN", "WAIVE".
LINE_VERBS: dict[str, VerbHandler] = _table(
    (BUILD_WORDS, build_line),
    (DISBAND_WORDS, disband_line),
    (RETREAT_WORDS, retreat_line),
    (WAIVE_WORDS, waive_line),
)
