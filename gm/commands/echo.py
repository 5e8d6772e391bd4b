"""How much a reply repeats, so that it stays in proportion to the mail however long the mail:
the first lines of the mail are echoed in full, after them only the lines with errors and a count
of the rest; once the answers fill a long reply, further answers that changed nothing are
counted instead of shown. What a command did (current orders, press sent) is always said."""

from __future__ import annotations

from dataclasses import dataclass

ECHO_LINES = 200  # lines of the mail echoed in full
ANSWER_LINES = 500  # lines of answers before read-only commands are only counted


def count_lines(count: int, more: str = "") -> str:
    """"1 line", "9,800 more lines"."""
    return f"{count:,} {more + ' ' if more else ''}{'line' if count == 1 else 'lines'}"


@dataclass
class ReplyBudget:
    echo_left: int = ECHO_LINES
    answers_left: int = ANSWER_LINES

    def echo(self) -> bool:
        """Whether one more line of the mail may be echoed in full (counted if so)."""
        if self.echo_left <= 0:
            return False
        self.echo_left -= 1
        return True

    def echoed(self, text: list[str], keep_first: bool = False) -> tuple[list[str], int]:
        """The lines of ``text`` that may be echoed (``keep_first``: its first line in any case,
        e.g. the command that failed), and how many may not."""
        first = 1 if keep_first and text else 0
        shown = first + min(len(text) - first, max(self.echo_left, 0))
        self.echo_left -= shown - first
        return text[:shown], len(text) - shown

    def answered(self, count: int) -> None:
        self.answers_left -= count

    @property
    def full(self) -> bool:
        return self.answers_left <= 0
