"""Reading order text: one ``ParsedLine`` per non-blank line, never an exception."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gm.domain.orders import Order
from gm.orders.diagnostics import Diagnostic, OrderSyntaxError, Severity
from gm.orders.grammar import OrderGrammar


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


def parse_line(text: str, grammar: OrderGrammar, line_no: int = 1, *, context: Any = None) -> ParsedLine:
    """Read one order. ``context`` is handed to variant extensions (e.g. named units)."""
    written = text.strip()
    try:
        c = grammar.cursor(written, context)
        order = grammar.read(c)
        return ParsedLine(line_no, written, order, tuple(c.warnings))
    except OrderSyntaxError as error:
        try:
            diagnostic = error.diagnostic
        except Exception as bug:  # a suggestion that could not be computed
            diagnostic = _internal(bug)
        return ParsedLine(line_no, written, None, (diagnostic,))
    except Exception as bug:  # a bug here or in a variant's verb handler: report, never raise
        return ParsedLine(line_no, written, None, (_internal(bug),))


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
