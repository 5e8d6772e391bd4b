"""Reading order text: one ``ParsedLine`` per non-blank line, never an exception."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gm.domain.orders import Order
from gm.orders.diagnostics import Diagnostic, OrderSyntaxError, Severity
from gm.orders.grammar import OrderGrammar, remember


@dataclass(frozen=True, slots=True)
class ParsedLine:
    line_no: int
    text: str  # as written, stripped
    order: Order | None
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def ok(self) -> bool:
        return self.order is not None and not self.errors

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity is Severity.WARNING)

    def __str__(self) -> str:
        notes = "; ".join(str(d) for d in self.diagnostics)
        shown = str(self.order) if self.order is not None else self.text
        return f"line {self.line_no}: {shown}" + (f" ({notes})" if notes else "")


Reading = tuple[str, Order | None, tuple[Diagnostic, ...]]  # the line as written (stripped), order, diagnostics


def parse_line(
    text: str, grammar: OrderGrammar, line_no: int = 1, *, context: Any = None, cached: bool = True
) -> ParsedLine:
    """Read one order. ``context`` is handed to variant extensions (e.g. named units).

    A plain line is read by the fast lane (``gm.orders.fastlane``), any other by the grammar.
    With ``cached`` (the default) the reading is taken from, or kept in, the grammar's cache of
    lines by the exact text (``OrderGrammar.lines``); lines whose reading looked at ``context``
    are never kept. What is kept cannot change: orders and diagnostics are frozen.
    """
    if cached:
        kept = grammar.lines.get(text)
        if kept is not None:
            return ParsedLine(line_no, *kept)
    return ParsedLine(line_no, *read_line(text, grammar, context=context, cached=cached))


def read_line(text: str, grammar: OrderGrammar, *, context: Any = None, cached: bool = True) -> Reading:
    """What ``parse_line`` says of a line, without its number: (text as written, order or None,
    diagnostics). For callers that read many lines and keep no ``ParsedLine``."""
    if cached:
        kept = grammar.lines.get(text)
        if kept is not None:
            return kept  # type: ignore[no-any-return]
    written = text.strip()
    order = grammar.fast_lane.order(written)
    if order is not None:
        reading: Reading = (written, order, ())
        keep = True
    else:
        reading, keep = _read(written, grammar, context)
    if cached and keep:
        remember(grammar.lines, text, reading)
    return reading


def _read(written: str, grammar: OrderGrammar, context: Any) -> tuple[Reading, bool]:
    """The general parser's reading of a line, and whether it may be kept in the cache."""
    c = None
    try:
        c = grammar.cursor(written, context)
        order = grammar.read(c)
        return (written, order, tuple(c.warnings)), not c.consulted and _frozen(type(order))
    except OrderSyntaxError as error:
        try:
            diagnostic = error.diagnostic
        except Exception as bug:  # a suggestion that could not be computed
            return (written, None, (_internal(bug),)), False
        return (written, None, (diagnostic,)), c is not None and not c.consulted
    except Exception as bug:  # a bug here or in a variant's verb handler: report, never raise
        return (written, None, (_internal(bug),)), False


_FROZEN: dict[type, bool] = {}


def _frozen(kind: type) -> bool:
    """Whether orders of this class cannot be changed once made (a frozen dataclass or a tuple)."""
    frozen = _FROZEN.get(kind)
    if frozen is None:
        params = getattr(kind, "__dataclass_params__", None)
        frozen = _FROZEN[kind] = issubclass(kind, tuple) or (params is not None and params.frozen)
    return frozen


def parse_orders(text: str, grammar: OrderGrammar, *, context: Any = None, first_line: int = 1) -> list[ParsedLine]:
    """Every non-blank line of ``text``, numbered from ``first_line``."""
    return [
        parse_line(line, grammar, number, context=context)
        for number, line in enumerate(text.splitlines(), start=first_line)
        if line.strip()
    ]


INTERNAL_ERROR = "internal error while reading this line"


def _internal(bug: Exception) -> Diagnostic:
    return Diagnostic.error(f"{INTERNAL_ERROR} ({type(bug).__name__}: {bug})")
