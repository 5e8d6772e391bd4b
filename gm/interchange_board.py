"""The board of an interchange document (docs/adjudicate-interchange.md) read into domain values,
and a phase's result written back as the document's JSON values.

These are the loops over every unit and centre of a phase that ``gm adjudicate --jsonl`` runs on
every line, compiled with mypyc (setup.py) like the adjudicator. What a text means is asked of
``Spelling`` (gm.interchange, the order grammar's reading) only for a text not met before in the
variant; everything met is kept in the variant's ``Memo``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Protocol

from mypy_extensions import mypyc_attr

from gm.adjudicator.engine import PhaseReport
from gm.adjudicator.kept import PerVariant
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location, new_tuple
from gm.domain.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, UnitRef
from gm.domain.outcomes import OrderResult, Reason, Roll
from gm.domain.phases import Phase
from gm.domain.position import Dislodgement, PendingMove, Position
from gm.domain.units import Unit, UnitType
from gm.reports.notes import notes_text


@mypyc_attr(native_class=False)  # an exception stays an ordinary Python class
class InterchangeError(ValueError):
    """The input is not a position (bad JSON, unknown variant, unknown province...)."""


class Spelling(Protocol):
    """Reads a unit or a place as players may write it, raising ``InterchangeError``."""

    def unit(self, power: str, text: object) -> tuple[UnitType, Location]: ...

    def location(self, text: object) -> Location: ...


def is_mapping(value: object) -> bool:
    """``isinstance(value, Mapping)``, a dict (as JSON gives) told at once: the check against the
    abstract class runs Python code."""
    return isinstance(value, dict) or isinstance(value, Mapping)


_MEMO_LIMIT = 4096


class Known:
    """A unit as a document writes it: the unit, and its rank, a whole number that orders units
    as ``sorted_units`` does (power, province, coast) and that native code compares, where a key
    of three strings would be compared by the interpreter's sort."""

    rank: int
    place: int  # the number of its province, in the map's order

    def __init__(self, unit: Unit, rank: int, place: int) -> None:
        self.unit = unit
        self.rank = rank
        self.place = place
        self.text = unit_text(unit)  # as results write it


class Ranks:
    """What units' ranks are made of: a number for each place (province and coast) of the map,
    in their order, and a base for each power, by name, above all places. Powers are numbered as
    they are met (a variant may let players name their powers), all again in name order when a
    new one comes."""

    def __init__(self, variant: Variant) -> None:
        self.provinces = _numbered(variant.map.provinces)
        self.coasts = _numbered(["", *[c for province in variant.map.provinces.values() for c in province.coasts]])
        self.places = len(self.provinces) * len(self.coasts)
        self.bases: dict[str, int] = {}
        # A flag for each province, raised while a document's units are read: units that share
        # a province are told by flags, not by a set of the provinces' names made each time.
        self.taken = [False] * len(self.provinces)

    def of(self, unit: Unit) -> int:
        location = unit.location
        province = self.provinces.get(location.province)
        coast = self.coasts.get(location.coast or "")
        if province is None or coast is None:  # the grammar reads no such place
            raise InterchangeError(f"unit {unit} of {unit.power}: not a place on the map of this variant")
        return self.bases[unit.power] + province * len(self.coasts) + coast

    def place(self, rank: int) -> int:
        """The number of the province of the unit of this rank."""
        return rank % self.places // len(self.coasts)

    def number(self, powers: Iterable[str]) -> bool:
        """Gives each of ``powers`` its base; whether that numbered the powers again (at most
        ``_MEMO_LIMIT`` are kept: past that, only these)."""
        new = [power for power in powers if power not in self.bases]
        if not new:
            return False
        names = {*self.bases, *new} if len(self.bases) + len(new) <= _MEMO_LIMIT else {*powers}
        self.bases = {name: number * self.places for number, name in enumerate(sorted(names))}
        return True


def _numbered(names: Iterable[str]) -> dict[str, int]:
    return {name: number for number, name in enumerate(sorted(set(names)))}


class Memo:
    """What reading positions and writing results of one variant keep from phase to phase, each
    by the exact value (at most ``_MEMO_LIMIT`` entries each, the oldest dropped first): power
    names as written, units as written by power, centres and places as written, phases as
    written, and the text of units and orders (``str``, which the results print)."""

    def __init__(self, variant: Variant) -> None:
        self.ranks = Ranks(variant)  # the units' order
        self.spelling: Spelling | None = None  # the grammar's reading (gm.interchange), made once
        self.powers: dict[str, str] = {}
        self.units: dict[str, dict[str, Known]] = {}  # canonical power -> text as written -> unit
        self.centres: dict[str, str] = {}
        self.locations: dict[str, Location] = {}
        self.phases: dict[str, Phase] = {}
        self.texts: dict[Unit, str] = {}
        # Orders' texts by the order's identity: an order's hash is Python code (a dataclass's),
        # and the orders results name are mostly the very objects the grammar's cache gave.
        # Each entry keeps its order alive, so an id found with its own order is that order's.
        self.order_texts: dict[int, tuple[Order, str]] = {}
        # The centres of the last position read, and each power's as the document gave them
        # when it gave each power and each centre once: a phase that changes no ownership
        # writes them back from there.
        self.centres_read: tuple[Mapping[str, str], dict[str, list[str]]] = (MappingProxyType({}), {})
        # The units of the last position read, in its order: most stay on the board, and in
        # that order, so writing the units after the phase finds each one's text by identity.
        self.units_read: list[Known] = []

    def number(self, powers: Iterable[str]) -> None:
        """Gives each of ``powers`` its rank's base; if that numbers the powers again, the units
        known are forgotten (they keep the ranks they were given)."""
        if self.ranks.number(powers):
            self.units.clear()

    def text(self, unit: Unit) -> str:
        """``str(unit)`` (a named tuple: hashed in C)."""
        text = self.texts.get(unit)
        if text is None:
            text = unit_text(unit)
            _keep(self.texts, unit, text)
        return text

    def order_text(self, order: Order) -> str:
        """``str(order)`` (orders are immutable)."""
        kept = self.order_texts.get(id(order))
        if kept is not None and kept[0] is order:
            return kept[1]
        text = order_text(order)
        _keep(self.order_texts, id(order), (order, text))
        return text


# The texts results print, as the domain's own ``__str__`` writes them, made here in compiled
# code: those are Python, a call each for the order, its units and its places, and they run for
# every unit and order a process meets for the first time. tests/test_interchange.py holds the two
# to each other for every kind of order.

def unit_text(unit: Unit) -> str:
    """``str(unit)``."""
    return f"{unit.type.letter} {_place(unit.location)}"


def order_text(order: Order) -> str:
    """``str(order)``: the orders of the standard rules written here, any other by its own."""
    if type(order) is Move:
        via = " VIA CONVOY" if order.via_convoy else ""
        return f"{_ref(order.unit)} - {_place(order.destination)}{via}"
    if type(order) is Hold:
        return f"{_ref(order.unit)} H"
    if type(order) is SupportMove:
        return f"{_ref(order.unit)} S {_ref(order.supported)} - {_place(order.destination)}"
    if type(order) is SupportHold:
        return f"{_ref(order.unit)} S {_ref(order.supported)}"
    if type(order) is Convoy:
        return f"{_ref(order.unit)} C {_ref(order.army)} - {_place(order.destination)}"
    if type(order) is Retreat:
        return f"{_ref(order.unit)} R {_place(order.destination)}"
    if type(order) is Disband:
        return f"DISBAND {_ref(order.unit)}"
    if type(order) is Build:
        return f"BUILD {_ref(order.unit)}"
    return str(order)


def _ref(ref: UnitRef) -> str:
    unit_type = ref.type
    return f"{unit_type.letter} {_place(ref.location)}" if unit_type else _place(ref.location)


def _place(location: Location) -> str:
    coast = location.coast
    return f"{location.province}/{coast}" if coast else location.province


def _memo(variant: Variant) -> Memo:
    return Memo(variant)


# Each variant's Memo, kept here by the variant.
memo_of: PerVariant[Variant, Memo] = PerVariant(_memo)


def _keep(memo: dict, key: object, value: object) -> None:
    if len(memo) >= _MEMO_LIMIT:
        del memo[next(iter(memo))]
    memo[key] = value


class BoardReader:
    """Reads the sections of one document that describe the board."""

    def __init__(self, variant: Variant, spelling: Spelling) -> None:
        self.variant = variant
        self.spelling = spelling
        self.memo = memo_of(variant)
        # The centres as ``centres`` read them by power, which the result writes back unchanged
        # where no owner changes (``Memo.centres_read``).
        self._centres_written: dict[str, list[str]] | None = None

    def phase(self, text: object) -> Phase:
        key = text if isinstance(text, str) else str(text)
        phase = self.memo.phases.get(key)
        if phase is None:
            try:
                phase = self.variant.calendar.parse(key)
            except ValueError as exc:
                raise InterchangeError(f"phase: {exc}") from None
            _keep(self.memo.phases, key, phase)
        return phase

    def power(self, name: object) -> str:
        if isinstance(name, str):
            found = self.memo.powers.get(name)
            if found is not None:
                return found
        canonical = self.variant.power_named(str(name))
        if canonical is None:
            known = [*self.variant.map.powers, *self.variant.unplayed_powers]
            raise InterchangeError(f"unknown power {name!r} (known: {', '.join(known)})")
        if isinstance(name, str):
            _keep(self.memo.powers, name, canonical)
        return canonical

    def per_power(self, section: object, what: str) -> list[tuple[str, list[Any]]]:
        pairs: dict[Any, Any]  # a dict: iterated as one when compiled
        if isinstance(section, dict):
            pairs = section
        elif isinstance(section, Mapping):
            pairs = dict(section)
        else:
            raise InterchangeError(f"{what} must be an object of power names to lists")
        found: list[tuple[str, list[Any]]] = []
        for name, items in pairs.items():
            if not isinstance(items, list):
                raise InterchangeError(f"{what} of {name} must be a list")
            found.append((self.power(name), items))
        return found

    def unit(self, power: str, text: object) -> Unit:
        return self._known(power, text, self._units_of(power)).unit

    def _units_of(self, power: str) -> dict[str, Known]:
        """The units of ``power`` met, by their text (the powers are the variant's: bounded)."""
        found = self.memo.units.get(power)
        if found is None:
            found = self.memo.units[power] = {}
        return found

    def _known(self, power: str, text: object, met: dict[str, Known]) -> Known:
        known = met.get(text) if isinstance(text, str) else None
        if known is None:
            unit = self._new_unit(power, text)
            rank = self._rank(unit)
            known = Known(unit, rank, self.memo.ranks.place(rank))
            if isinstance(text, str):
                _keep(met, text, known)
        return known

    def _rank(self, unit: Unit) -> int:
        self.memo.number((unit.power,))
        return self.memo.ranks.of(unit)

    def location(self, text: object) -> Location:
        if not isinstance(text, str):
            return self.spelling.location(text)
        location = self.memo.locations.get(text)
        if location is None:
            location = self.spelling.location(text)
            _keep(self.memo.locations, text, location)
        return location

    def _new_unit(self, power: str, text: object) -> Unit:
        unit_type, location = self.spelling.unit(power, text)
        return new_tuple(Unit, (power, unit_type, self._standing_location(unit_type, location, text)))

    def _standing_location(self, unit_type: UnitType, location: Location, text: object) -> Location:
        variant = self.variant
        if variant.can_stand(unit_type, location):
            return location
        province = variant.map.provinces[location.province]
        if location.coast and variant.can_stand(unit_type, location.whole):
            return location.whole  # a coast written for an army or a one-coast province
        if province.coasts and location.coast is None:
            raise InterchangeError(f"unit {text!r}: name the coast of {province.name}")
        raise InterchangeError(f"unit {text!r}: a {unit_type.name} cannot stand in {province.name}")

    def units(self, section: object, sides: Mapping[str, str] | None = None) -> list[Unit]:
        """The units in their order on the board (``sorted_units``), as written where that is
        the order: each unit read is put in its place among those before it, found from the end
        (units come power by power, so few are out of place, and each moves a few places)."""
        blocks = self.per_power(section, "units")
        self.memo.number([power for power, _ in blocks])  # before any unit is read
        taken = self.memo.ranks.taken
        read: list[Known] = []
        last = -1
        shared = False
        try:
            for power, items in blocks:
                met = self._units_of(power)
                for text in items:
                    known = self._known(power, text, met)
                    place = known.place
                    if taken[place]:
                        shared = True
                    taken[place] = True
                    rank = known.rank
                    if rank >= last:
                        read.append(known)
                        last = rank
                        continue
                    at = len(read) - 1
                    while at > 0 and read[at - 1].rank > rank:
                        at -= 1
                    read.insert(at, known)
        finally:  # the flags down again for the next document, even after a unit that is not one
            for known in read:
                taken[known.place] = False
        units = [known.unit for known in read]
        if shared:
            self._check_stacks(units, sides)
        self.memo.units_read = read
        return units

    def _check_stacks(self, units: list[Unit], sides: Mapping[str, str] | None) -> None:
        by_province: dict[str, list[Unit]] = {}
        for unit in units:
            by_province.setdefault(unit.location.province, []).append(unit)
        for together in by_province.values():
            problem = self.variant.stack_problem(together, sides) if len(together) > 1 else None
            if problem:
                raise InterchangeError(problem)

    def centres(self, section: object) -> dict[str, str]:
        centres: dict[str, str] = {}
        known = self.memo.centres
        written: dict[str, list[str]] = {}  # each power's, to write back if no owner changes
        once = True  # each power and each centre came once
        count = 0
        for power, items in self.per_power(section, "centers"):
            provinces: list[str] = []
            for text in items:
                province = known.get(text) if isinstance(text, str) else None
                if province is None:
                    province = self.location(text).province
                    if province not in self.variant.map.supply_centres:
                        raise InterchangeError(f"{text!r} is not a supply centre")
                    if isinstance(text, str):
                        _keep(known, text, province)
                centres[province] = power
                provinces.append(province)
            if provinces:
                once = once and power not in written
                written[power] = provinces
                count += len(provinces)
        self._centres_written = written if once and count == len(centres) else None
        return centres

    def dislodged(self, section: object) -> tuple[Dislodgement, ...]:
        result: list[Dislodgement] = []
        for power, items in self.per_power(section, "dislodged"):
            for item in items:
                if not is_mapping(item) or "unit" not in item:
                    raise InterchangeError(f"dislodged units of {power} must be objects with 'unit'")
                entry: dict[str, Any] = item if isinstance(item, dict) else dict(item)  # a dict's get is native
                unit = self.unit(power, entry["unit"])
                options: list[Location] = []
                for text in entry.get("retreats") or []:
                    wanted = self.location(text)
                    reachable = self.variant.destinations(unit, wanted.province)
                    if wanted.coast:
                        reachable = tuple([loc for loc in reachable if loc.coast == wanted.coast]) or (wanted,)
                    options.extend(reachable or (wanted,))
                attacker = entry.get("attacker_from")
                attacker_from = self.location(attacker).province if attacker else None
                result.append(Dislodgement(unit, attacker_from, tuple(options)))
        return tuple(result)

    def second_moves(self, section: object) -> tuple[PendingMove, ...]:
        moves: list[PendingMove] = []
        for power, items in self.per_power(section, "second_moves"):
            for item in items:
                if not is_mapping(item) or "unit" not in item or not isinstance(item.get("then"), list):
                    raise InterchangeError(f"second moves of {power} must be objects with 'unit' and 'then' (a list)")
                path = tuple([self.location(t) for t in item["then"]])
                moves.append(PendingMove(self.unit(power, item["unit"]), path))
        return tuple(moves)

    def position(self, phase: Phase, units: list[Unit], centres: dict[str, str],
                 dislodged: tuple[Dislodgement, ...], extra: dict[str, Any],
                 second_moves: tuple[PendingMove, ...]) -> Position:
        """The position read: ``units`` as ``units`` gives them, in order; the centres and extra
        made read-only as they are, not copied."""
        position = Position(phase, tuple(units), MappingProxyType(centres), dislodged, MappingProxyType(extra),
                            second_moves)
        written = self._centres_written
        if written is not None:
            self.memo.centres_read = (position.centres, written)
        return position


def write_result(variant: Variant, phase: Phase, lines: list[tuple[str, str, Order | None, str]],
                 report: PhaseReport) -> dict[str, Any]:
    """The result document of a phase whose order lines (power, text, order read, why unreadable)
    were adjudicated into ``report``."""
    memo = memo_of(variant)
    results: dict[str, list[dict[str, Any]]] = {}
    engine_results = iter(report.results)
    for power, text, order, why in lines:
        if order is None:
            entry: dict[str, Any] = {"order": text, "unit": None, "outcome": "fails",
                                     "reason": f"{Reason.ILLEGAL.value}: {why}"}
        else:
            entry = _result_entry(next(engine_results), memo)
        entries = results.get(power)
        if entries is None:
            results[power] = [entry]
        else:
            entries.append(entry)
    for carried_out in engine_results:  # second moves, carried out with the retreats
        results.setdefault(carried_out.power, []).append(_result_entry(carried_out, memo))
    resolved = report.resolved
    following = report.next
    document: dict[str, Any] = {
        "phase": str(phase),
        "results": results,
        "units": _units_by_power(following.units, memo),  # the board after the phase, season's end included
        "dislodged": _dislodged_by_power(resolved.dislodged) if resolved.dislodged else {},
        "centers": _centres_written(following.centres, memo),
        "next_phase": str(following.phase),
        "winner": report.winner,
        "extra": following.extra.copy(),  # type: ignore[attr-defined]  # a read-only dict's own copy
    }
    if resolved.second_moves:
        pending: dict[str, list[dict[str, Any]]] = {}
        for move in resolved.second_moves:
            pending.setdefault(move.unit.power, []).append(
                {"unit": str(move.unit), "then": [str(loc) for loc in move.path]})
        document["second_moves"] = dict(sorted(pending.items()))
    if report.destroyed:
        document["destroyed"] = [{"power": u.power, "unit": str(u), "reason": why} for u, why in report.destroyed]
    if report.announcements:
        document["announcements"] = list(report.announcements)
    if report.draw:
        document["draw"] = list(report.draw)
    if report.rolls:
        document["rolls"] = [_roll_entry(r) for r in report.rolls]
    return document


def _dislodged_by_power(dislodged: tuple[Dislodgement, ...]) -> dict[str, list[dict[str, Any]]]:
    result: dict[str, list[dict[str, Any]]] = {}
    for d in sorted(dislodged, key=_dislodged_key):
        result.setdefault(d.unit.power, []).append(
            {"unit": str(d.unit), "attacker_from": d.attacker_from, "retreats": sorted([str(r) for r in d.retreats])})
    return result


def _dislodged_key(d: Dislodgement) -> tuple[str, str]:
    return (d.unit.power, str(d.unit.location))


def _roll_entry(roll: Roll) -> dict[str, Any]:
    entry: dict[str, Any] = {"phase": roll.phase, "purpose": roll.purpose, "sides": roll.sides, "value": roll.value,
                             "effect": roll.effect}
    if roll.units:
        entry["units"] = [{"power": u.power, "unit": str(u)} for u in roll.units]
    return entry


def _result_entry(result: OrderResult, memo: Memo) -> dict[str, Any]:
    unit = result.unit
    unit_text = None if unit is None else memo.text(unit)
    entry: dict[str, Any]
    if result.succeeded:
        entry = {"order": memo.order_text(result.order), "unit": unit_text, "outcome": "succeeds"}
    else:
        entry = {"order": memo.order_text(result.order), "unit": unit_text, "outcome": "fails",
                 "reason": result.reason_text or "fails"}
    if result.notes:
        entry["notes"] = notes_text(result.notes)
    return entry


_LOOK_AHEAD = 4  # units read that may leave the board one after another, for the rest to be found


def _units_by_power(units: tuple[Unit, ...], memo: Memo) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    read = memo.units_read
    count = len(read)
    at = 0  # where to look for the next unit among those read: the units that stay keep their order
    for unit in units:
        found = at
        end = min(count, at + _LOOK_AHEAD)
        while found < end and read[found].unit is not unit:
            found += 1  # past units read that left the board
        if found < end:
            text = read[found].text
            at = found + 1
        else:  # a unit that moved, retreated or was built
            text = memo.text(unit)
        items = result.get(unit.power)
        if items is None:
            result[unit.power] = [text]
        else:
            items.append(text)
    return _sorted_lists(result)


def _centres_written(centres: Mapping[str, str], memo: Memo) -> dict[str, list[str]]:
    read, written = memo.centres_read
    if centres is read:  # the very centres of the position read, each power's as the document gave them
        return _sorted_lists(written)
    return _centres_by_power(centres)


def _centres_by_power(centres: Mapping[str, str]) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for province, power in centres.items():
        items = result.get(power)
        if items is None:
            result[power] = [province]
        else:
            items.append(province)
    return _sorted_lists(result)


def _sorted_lists(lists: dict[str, list[str]]) -> dict[str, list[str]]:
    """The lists by power in the order of the powers' names, each sorted in place (each is made
    for the result; a sorted copy would cost a list more)."""
    for items in lists.values():
        items.sort()
    return {power: lists[power] for power in sorted(lists)}
