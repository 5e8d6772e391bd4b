"""The notes of a result in words: what a rule changed about an order, as players read it."""

from __future__ import annotations

from collections.abc import Iterable

from gm.domain.outcomes import Note, SupportedInto, SupportLeft


def amount_text(amount: float) -> str:
    """A strength as players read it: 1, ½, 1½, 2½."""
    whole = int(amount)
    half = "½" if amount - whole == 0.5 else ""
    if half:
        return f"{whole}{half}" if whole else half
    return str(whole) if amount == whole else str(amount)


def note_text(note: Note) -> str:
    if isinstance(note, SupportLeft):
        return f"support reduced to {amount_text(note.amount)} by the attack on it"
    if isinstance(note, SupportedInto):
        return f"supported into {note.province} (+{amount_text(note.amount)})"
    return note


def notes_text(notes: Iterable[Note]) -> list[str]:
    return [note_text(note) for note in notes]
