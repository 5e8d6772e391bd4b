"""The position interchange format of ``gm adjudicate`` (docs/adjudicate-interchange.md).

JSON in, JSON out, nothing stored: one position and its orders become one result. Input
that is not a position raises ``InterchangeError`` (the command exits 2); illegal orders
are not errors, they are reported and the unit holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gm.adjudicator.dice import DiceError
from gm.adjudicator.engine import PhaseReport, adjudicate
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Order
from gm.domain.outcomes import OrderResult, Reason, Roll
from gm.domain.position import Dislodgement, PendingMove, Position, sorted_units
from gm.domain.units import Unit
from gm.orders import OrderGrammar, OrderSyntaxError, Severity
from gm.orders.parser import read_line
from gm.variants.catalog import UnknownVariant, VariantCatalog


class InterchangeError(ValueError):
    """The input is not a position (bad JSON, unknown variant, unknown province...)."""


@dataclass(frozen=True)
class Request:
    variant: Variant
    position: Position
    lines: list[tuple[str, str, Order | None, str]]  # power, line, order, why unreadable
    seed: str | None = None  # the dice seed for the phase


def adjudicate_json(document: Any, catalog: VariantCatalog) -> dict[str, Any]:
    request = read_request(document, catalog)
    submitted = [(power, order) for power, _, order, _ in request.lines if order is not None]
    try:
        report = adjudicate(request.variant, request.position, submitted, seed=request.seed)
    except DiceError as exc:
        raise InterchangeError(f"{exc} (give one as \"seed\")") from None
    return write_result(request, report)


def read_request(document: Any, catalog: VariantCatalog) -> Request:
    if not isinstance(document, Mapping):
        raise InterchangeError("a position must be a JSON object")
    try:
        variant = catalog.get(str(document.get("variant", "")))
    except UnknownVariant as exc:
        raise InterchangeError(str(exc)) from None
    grammar = OrderGrammar.for_variant(variant)
    reader = _Reader(variant, grammar)
    try:
        phase = variant.calendar.parse(str(document.get("phase", "")))
    except ValueError as exc:
        raise InterchangeError(f"phase: {exc}") from None
    extra = document.get("extra") or {}
    if not isinstance(extra, Mapping):
        raise InterchangeError("extra must be a JSON object (the variant's state)")
    # Powers that fight as one may share provinces as one power (Variant.sides_share): a side
    # is read from the variant's state alone.
    sides = variant.sides(Position(phase, (), {}, extra=dict(extra))) if variant.sides_share else None
    units = reader.units(document.get("units") or {}, sides)
    if document.get("centers") is None:
        centres = variant.default_centres(units)
    else:
        centres = reader.centres(document["centers"])
    dislodged = reader.dislodged(document.get("dislodged") or {})
    seed = document.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise InterchangeError("seed must be a string")
    position = Position(phase, reader.sorted_units(units), centres, dislodged, extra=dict(extra),
                        second_moves=reader.second_moves(document.get("second_moves") or {}))
    return Request(variant, position, reader.orders(document.get("orders") or {}, position), seed)


_MEMO_KEY = "interchange"  # where a variant keeps what the interchange remembers (Variant.memo)
_MEMO_LIMIT = 4096


class _Memo:
    """What reading positions and writing results of one variant keep from phase to phase, each
    by the exact value (at most ``_MEMO_LIMIT`` entries each, the oldest dropped first): power
    names as written, units as written with their power (the ``Unit``, its type and where it
    stands), centres as written (their province), and the text of units and orders (``str``,
    which the results print)."""

    def __init__(self) -> None:
        self.powers: dict[str, str] = {}
        self.units: dict[tuple[str, str], Unit] = {}
        self.unit_keys: dict[Unit, tuple[str, str, str]] = {}  # each of those units' sort key
        self.centres: dict[str, str] = {}
        self.texts: dict[Any, str] = {}

    @staticmethod
    def of(variant: Variant) -> _Memo:
        memo = variant.memo.get(_MEMO_KEY)
        if not isinstance(memo, _Memo):
            memo = variant.memo[_MEMO_KEY] = _Memo()
        return memo

    def text(self, thing: Any) -> str:
        """``str(thing)`` of a unit or an order (immutable values, hashed in C or by their fields)."""
        text = self.texts.get(thing)
        if text is None:
            text = str(thing)
            _keep(self.texts, thing, text)
        return text


def _keep(memo: dict[Any, Any], key: Any, value: Any) -> None:
    if len(memo) >= _MEMO_LIMIT:
        del memo[next(iter(memo))]
    memo[key] = value


class _Reader:
    def __init__(self, variant: Variant, grammar: OrderGrammar):
        self.variant = variant
        self.grammar = grammar
        self.memo = _Memo.of(variant)

    def power(self, name: Any) -> str:
        found = self.memo.powers.get(name) if isinstance(name, str) else None
        if found is not None:
            return found
        found = self.variant.power_named(str(name))
        if found is None:
            known = [*self.variant.map.powers, *self.variant.unplayed_powers]
            raise InterchangeError(f"unknown power {name!r} (known: {', '.join(known)})")
        if isinstance(name, str):
            _keep(self.memo.powers, name, found)
        return found

    def per_power(self, section: Any, what: str) -> Iterable[tuple[str, list]]:
        if not isinstance(section, Mapping):
            raise InterchangeError(f"{what} must be an object of power names to lists")
        for name, items in section.items():
            if not isinstance(items, list):
                raise InterchangeError(f"{what} of {name} must be a list")
            yield self.power(name), items

    def unit(self, power: str, text: Any) -> Unit:
        key = (power, text) if isinstance(text, str) else None
        unit = self.memo.units.get(key) if key is not None else None
        if unit is not None:
            return unit
        try:
            unit_type, location = self.grammar.parse_unit(str(text))
        except OrderSyntaxError as exc:
            raise InterchangeError(f"unit {text!r} of {power}: {exc}") from None
        unit = Unit(power, unit_type, self.standing_location(unit_type, location, text))
        if key is not None:
            _keep(self.memo.units, key, unit)
            _keep(self.memo.unit_keys, unit, (unit.power, unit.location.province, unit.location.coast or ""))
        return unit

    def sorted_units(self, units: list[Unit]) -> tuple[Unit, ...]:
        """``gm.domain.position.sorted_units``, with the sort keys of units met before."""
        try:
            return tuple(sorted(units, key=self.memo.unit_keys.__getitem__))
        except KeyError:
            return sorted_units(units)

    def standing_location(self, unit_type, location: Location, text: Any) -> Location:
        if self.variant.can_stand(unit_type, location):
            return location
        province = self.variant.map.provinces[location.province]
        if location.coast and self.variant.can_stand(unit_type, location.whole):
            return location.whole  # a coast written for an army or a one-coast province
        if province.coasts and location.coast is None:
            raise InterchangeError(f"unit {text!r}: name the coast of {province.name}")
        raise InterchangeError(f"unit {text!r}: a {unit_type.name} cannot stand in {province.name}")

    def units(self, section: Any, sides: Mapping[str, str] | None = None) -> list[Unit]:
        units = [self.unit(power, text) for power, items in self.per_power(section, "units") for text in items]
        if len({unit.location.province for unit in units}) == len(units):
            return units  # no two units share a province
        by_province: dict[str, list[Unit]] = {}
        for unit in units:
            by_province.setdefault(unit.location.province, []).append(unit)
        for together in by_province.values():
            problem = self.variant.stack_problem(together, sides) if len(together) > 1 else None
            if problem:
                raise InterchangeError(problem)
        return units

    def location(self, text: Any) -> Location:
        try:
            return self.grammar.parse_location(str(text))
        except OrderSyntaxError as exc:
            raise InterchangeError(f"{text!r}: {exc}") from None

    def centres(self, section: Any) -> dict[str, str]:
        centres: dict[str, str] = {}
        known = self.memo.centres
        for power, items in self.per_power(section, "centers"):
            for text in items:
                province = known.get(text) if isinstance(text, str) else None
                if province is None:
                    province = self.location(text).province
                    if province not in self.variant.map.supply_centres:
                        raise InterchangeError(f"{text!r} is not a supply centre")
                    if isinstance(text, str):
                        _keep(known, text, province)
                centres[province] = power
        return centres

    def dislodged(self, section: Any) -> tuple[Dislodgement, ...]:
        result = []
        for power, items in self.per_power(section, "dislodged"):
            for item in items:
                if not isinstance(item, Mapping) or "unit" not in item:
                    raise InterchangeError(f"dislodged units of {power} must be objects with 'unit'")
                unit = self.unit(power, item["unit"])
                options: list[Location] = []
                for text in item.get("retreats") or []:
                    wanted = self.location(text)
                    reachable = self.variant.destinations(unit, wanted.province)
                    if wanted.coast:
                        reachable = tuple(loc for loc in reachable if loc.coast == wanted.coast) or (wanted,)
                    options.extend(reachable or (wanted,))
                attacker = item.get("attacker_from")
                result.append(Dislodgement(unit, self.location(attacker).province if attacker else None, tuple(options)))
        return tuple(result)

    def second_moves(self, section: Any) -> tuple[PendingMove, ...]:
        moves = []
        for power, items in self.per_power(section, "second_moves"):
            for item in items:
                if not isinstance(item, Mapping) or "unit" not in item or not isinstance(item.get("then"), list):
                    raise InterchangeError(f"second moves of {power} must be objects with 'unit' and 'then' (a list)")
                moves.append(PendingMove(self.unit(power, item["unit"]), tuple(self.location(t) for t in item["then"])))
        return tuple(moves)

    def orders(self, section: Any, position: Position) -> list[tuple[str, str, Order | None, str]]:
        lines: list[tuple[str, str, Order | None, str]] = []
        for power, items in self.per_power(section, "orders"):
            for item in items:
                text = item if isinstance(item, str) else str(item)
                _, order, diagnostics = read_line(text, self.grammar, context=position)
                if order is not None and not diagnostics:  # the usual line, read cleanly
                    lines.append((power, text, order, "not an order"))
                    continue
                errors = [str(d) for d in diagnostics if d.severity is Severity.ERROR]
                lines.append((power, text, None if errors else order, "; ".join(errors) or "not an order"))
        return lines


_ENCODER = json.JSONEncoder(check_circular=False)


def encode_result(result: dict[str, Any]) -> str:
    """A result as one line of JSON: ``json.dumps(result)``, without its check for circular
    references (a result has none), which costs a fifth of the time."""
    return _ENCODER.encode(result)


def write_result(request: Request, report: PhaseReport) -> dict[str, Any]:
    memo = _Memo.of(request.variant)
    results: dict[str, list[dict[str, Any]]] = {}
    engine_results = iter(report.results)
    for power, text, order, why in request.lines:
        if order is None:
            entry = {"order": text, "unit": None, "outcome": "fails", "reason": f"{Reason.ILLEGAL.value}: {why}"}
        else:
            entry = _result_entry(next(engine_results), memo)
        entries = results.get(power)
        if entries is None:
            results[power] = [entry]
        else:
            entries.append(entry)
    for carried_out in engine_results:  # second moves, carried out with the retreats
        results.setdefault(carried_out.power, []).append(_result_entry(carried_out, memo))
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in sorted(report.resolved.dislodged, key=lambda d: (d.unit.power, str(d.unit.location))):
        dislodged.setdefault(d.unit.power, []).append(
            {"unit": str(d.unit), "attacker_from": d.attacker_from, "retreats": sorted(str(r) for r in d.retreats)}
        )
    document: dict[str, Any] = {
        "phase": str(request.position.phase),
        "results": results,
        "units": _units_by_power(report.next.units, memo),  # the board after the phase, season's end included
        "dislodged": dislodged,
        "centers": _centres_by_power(report.next.centres),
        "next_phase": str(report.next.phase),
        "winner": report.winner,
        "extra": dict(report.next.extra),
    }
    if report.resolved.second_moves:
        pending: dict[str, list[dict[str, Any]]] = {}
        for move in report.resolved.second_moves:
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


def _roll_entry(roll: Roll) -> dict[str, Any]:
    entry: dict[str, Any] = {"phase": roll.phase, "purpose": roll.purpose, "sides": roll.sides, "value": roll.value,
                             "effect": roll.effect}
    if roll.units:
        entry["units"] = [{"power": u.power, "unit": str(u)} for u in roll.units]
    return entry


def _result_entry(result: OrderResult, memo: _Memo) -> dict[str, Any]:
    texts = memo.texts
    order = result.order
    order_text = texts.get(order) or memo.text(order)  # result.text
    unit = result.unit
    unit_text = None if unit is None else texts.get(unit) or memo.text(unit)
    if result.succeeded:
        entry: dict[str, Any] = {"order": order_text, "unit": unit_text, "outcome": "succeeds"}
    else:
        entry = {"order": order_text, "unit": unit_text, "outcome": "fails", "reason": result.reason_text or "fails"}
    if result.notes:
        entry["notes"] = list(result.notes)
    return entry


def _units_by_power(units: Iterable[Unit], memo: _Memo) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    texts = memo.texts
    for unit in units:
        text = texts.get(unit) or memo.text(unit)
        items = result.get(unit.power)
        if items is None:
            result[unit.power] = [text]
        else:
            items.append(text)
    return {power: sorted(items) for power, items in sorted(result.items())}


def _centres_by_power(centres: Mapping[str, str]) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for province, power in centres.items():
        result.setdefault(power, []).append(province)
    return {power: sorted(items) for power, items in sorted(result.items())}
