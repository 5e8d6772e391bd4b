"""What the parser says about a line: diagnostics, and the exception that carries one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum


class Severity(Enum):
    ERROR = "error"  # the line gives no order
    WARNING = "warning"  # the order was read, but something in it was ignored or reinterpreted


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: Severity
    message: str
    suggestion: str | None = None  # e.g. the full name of the province probably meant
    # The order word of the order the line seemed to give ("support", "attacks", "pay"), when it
    # went wrong after it: the reply can show that order's form (gm.orders.forms).
    form: str | None = None
    # A name in the line is unknown (a province, a coast): the line's form was right, so a reply
    # shows no form for it.
    unknown_name: bool = False

    def __str__(self) -> str:
        if self.suggestion:
            return f"{self.message} — did you mean {self.suggestion}?"
        return self.message

    @classmethod
    def error(cls, message: str, suggestion: str | None = None, form: str | None = None) -> Diagnostic:
        return cls(Severity.ERROR, message, suggestion, form)

    @classmethod
    def unknown(cls, message: str, suggestion: str | None = None) -> Diagnostic:
        """An error in a name, not in the line's form."""
        return cls(Severity.ERROR, message, suggestion, unknown_name=True)

    @classmethod
    def warning(cls, message: str, suggestion: str | None = None) -> Diagnostic:
        return cls(Severity.WARNING, message, suggestion)


class OrderSyntaxError(ValueError):
    """Text that cannot be read; ``diagnostic`` says why.

    ``pos`` is the token index at which reading failed: when several readings of a line all
    fail, the parser reports the one that got furthest. The diagnostic may be given as a
    factory so that costly near-miss suggestions are only computed for the error reported.
    """

    def __init__(
        self,
        diagnostic: Diagnostic | Callable[[], Diagnostic],
        pos: int | None = None,
        form: str | None = None,
    ):
        self._diagnostic = diagnostic
        self.pos = pos
        self.form = form  # the order word read before the line went wrong (Diagnostic.form)
        super().__init__()

    @property
    def diagnostic(self) -> Diagnostic:
        if callable(self._diagnostic):
            self._diagnostic = self._diagnostic()
        found = self._diagnostic
        if self.form is not None and found.form is None:
            found = self._diagnostic = replace(found, form=self.form)
        return found

    def __str__(self) -> str:
        return str(self.diagnostic)
