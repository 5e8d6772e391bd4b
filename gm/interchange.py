"""The position interchange format of ``gm adjudicate`` (docs/adjudicate-interchange.md).

JSON in, JSON out, nothing stored: one position and its orders become one result. Input
that is not a position raises ``InterchangeError`` (the command exits 2); illegal orders
are not errors, they are reported and the unit holds. The board's sections are read and
written by gm.interchange_board (compiled); here the variant, the orders and the JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from gm.adjudicator.dice import DiceError
from gm.adjudicator.engine import PhaseReport, adjudicate
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Order
from gm.domain.position import Position
from gm.domain.units import UnitType
from gm.interchange_board import BoardReader, InterchangeError, is_mapping, memo_of, write_result
from gm.orders import OrderGrammar, OrderSyntaxError, Severity
from gm.orders.parser import read_line
from gm.variants.catalog import UnknownVariant, VariantCatalog

try:  # reads a line of JSON in half the time of the standard library's, and writes it in a sixth
    # Compiled in an isolated build, where mypy does not see msgspec: typed as Any there.
    import msgspec  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - msgspec has wheels wherever gm runs; the same JSON without it
    msgspec = None  # type: ignore[assignment,unused-ignore]

__all__ = ["InterchangeError", "Request", "adjudicate_json", "adjudicate_line", "encode_result", "parse_json",
           "read_request"]


@dataclass(slots=True, init=False)  # compiled (setup.py): a written-out constructor runs no Python
class Request:
    variant: Variant
    position: Position
    lines: list[tuple[str, str, Order | None, str]]  # power, line, order, why unreadable
    seed: str | None  # the dice seed for the phase

    def __init__(self, variant: Variant, position: Position, lines: list[tuple[str, str, Order | None, str]],
                 seed: str | None = None) -> None:
        self.variant = variant
        self.position = position
        self.lines = lines
        self.seed = seed


def adjudicate_json(document: Any, catalog: VariantCatalog) -> dict[str, Any]:
    request = read_request(document, catalog)
    return write_result(request.variant, request.position.phase, request.lines, _adjudicate(request))


def _adjudicate(request: Request) -> PhaseReport:
    submitted = [(power, order) for power, _, order, _ in request.lines if order is not None]
    try:
        return adjudicate(request.variant, request.position, submitted, seed=request.seed)
    except DiceError as exc:
        raise InterchangeError(f"{exc} (give one as \"seed\")") from None


def adjudicate_line(line: str, catalog: VariantCatalog) -> str:
    """One line of ``gm adjudicate --jsonl``: a position's JSON in, its result's (or the error's)
    JSON out, without the newline. The JSON the standard library's ``json`` would read and write
    (compact): a line msgspec refuses (a broken line, NaN) is read and written by ``json``."""
    fast = _FAST_DECODER is not None
    document: Any = None
    if _FAST_DECODER is not None:
        try:
            document = _FAST_DECODER.decode(line)
        except ValueError:  # msgspec.DecodeError, or text that is not UTF-8
            fast = False
    try:
        result: dict[str, Any] = adjudicate_json(document if fast else parse_json(line), catalog)
    except InterchangeError as exc:
        result = {"error": str(exc)}
    if fast and _FAST_ENCODER is not None:
        try:
            return _FAST_ENCODER.encode(result).decode()
        except (TypeError, ValueError):  # what msgspec cannot write: the standard library's answer
            pass
    return encode_result(result)


def parse_json(text: str) -> Any:
    """A document's JSON, or ``InterchangeError`` saying where it is broken."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InterchangeError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


_ENCODER = json.JSONEncoder(check_circular=False)
_FAST_DECODER = msgspec.json.Decoder() if msgspec is not None else None
_FAST_ENCODER = msgspec.json.Encoder() if msgspec is not None else None


def encode_result(result: dict[str, Any]) -> str:
    """A result as one line of JSON: ``json.dumps(result)``, without its check for circular
    references (a result has none), which costs a fifth of the time."""
    return _ENCODER.encode(result)


def read_request(document: Any, catalog: VariantCatalog) -> Request:
    if not is_mapping(document):
        raise InterchangeError("a position must be a JSON object")
    fields: dict[str, Any] = document if isinstance(document, dict) else dict(document)  # a dict's get is native
    try:
        variant = catalog.get(str(fields.get("variant", "")))
    except UnknownVariant as exc:
        raise InterchangeError(str(exc)) from None
    memo = memo_of(variant)
    spelling = memo.spelling
    if not isinstance(spelling, _Spelling):  # the variant's first document
        spelling = memo.spelling = _Spelling(OrderGrammar.for_variant(variant))
    grammar = spelling.grammar
    board = BoardReader(variant, spelling)
    phase = board.phase(fields.get("phase", ""))
    extra = fields.get("extra") or {}
    if not is_mapping(extra):
        raise InterchangeError("extra must be a JSON object (the variant's state)")
    # Powers that fight as one may share provinces as one power (Variant.sides_share): a side
    # is read from the variant's state alone.
    sides = variant.sides(Position(phase, (), {}, extra=dict(extra))) if variant.sides_share else None
    units = board.units(fields.get("units") or {}, sides)
    written_centres = fields.get("centers")
    centres = variant.default_centres(units) if written_centres is None else board.centres(written_centres)
    dislodged = board.dislodged(fields.get("dislodged") or {})
    seed = fields.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise InterchangeError("seed must be a string")
    position = board.position(phase, units, centres, dislodged, dict(extra),
                              board.second_moves(fields.get("second_moves") or {}))
    return Request(variant, position, _orders(board, grammar, fields.get("orders") or {}, position), seed)


class _Spelling:
    """The order grammar's reading of units and places, its errors in the document's words."""

    def __init__(self, grammar: OrderGrammar):
        self.grammar = grammar

    def unit(self, power: str, text: object) -> tuple[UnitType, Location]:
        try:
            return self.grammar.parse_unit(str(text))
        except OrderSyntaxError as exc:
            raise InterchangeError(f"unit {text!r} of {power}: {exc}") from None

    def location(self, text: object) -> Location:
        try:
            return self.grammar.parse_location(str(text))
        except OrderSyntaxError as exc:
            raise InterchangeError(f"{text!r}: {exc}") from None


def _orders(board: BoardReader, grammar: OrderGrammar, section: Any,
            position: Position) -> list[tuple[str, str, Order | None, str]]:
    lines: list[tuple[str, str, Order | None, str]] = []
    known: dict[str, Any] = grammar.lines  # where read_line looks first: a line met before, found without a call
    for power, items in board.per_power(section, "orders"):
        for item in items:
            text = item if isinstance(item, str) else str(item)
            reading = known.get(text)
            _, order, diagnostics = reading if reading is not None else read_line(text, grammar, context=position)
            if order is not None and not diagnostics:  # the usual line, read cleanly
                lines.append((power, text, order, "not an order"))
                continue
            errors = [str(d) for d in diagnostics if d.severity is Severity.ERROR]
            lines.append((power, text, None if errors else order, "; ".join(errors) or "not an order"))
    return lines
