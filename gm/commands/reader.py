"""Splitting a mail into commands: a command word starts a command; PRESS and BROADCAST take
the lines up to ENDPRESS; runs of other lines are orders (checked once the power is known)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gm.commands.base import Invocation

ORDERS = ""  # the name of the implicit "these lines are orders" command
UNKNOWN = "?"  # a line that starts with a misspelt command
END_PRESS = ("ENDPRESS", "END PRESS", "ENDBROADCAST")


def read_invocations(
    lines: list[tuple[int, str]],
    names: Mapping[str, str],
    bodied: set[str],
    misspelt: Callable[[str], bool] = lambda word: False,
) -> list[Invocation]:
    """``names`` maps every spelling (upper case) to a command name; ``bodied`` are the names
    whose command takes the following lines as its body; ``misspelt(word)`` says whether a word
    that is no command is close enough to one to be a misspelling rather than an order."""
    result: list[Invocation] = []
    index = 0
    while index < len(lines):
        number, line = lines[index]
        index += 1
        text = line.strip()
        if not text:
            continue
        word, _, rest = text.partition(" ")
        name = names.get(word.upper().rstrip(":"))
        if name is None and misspelt(word.upper().rstrip(":")):
            result.append(Invocation(UNKNOWN, rest.strip(), number, text))
            continue
        if name is None:
            if result and result[-1].name == ORDERS:
                result[-1].body.append(text)  # one run of order lines is one submission
            else:
                result.append(Invocation(ORDERS, "", number, text, [text]))
            continue
        invocation = Invocation(name, rest.strip(), number, text)
        if name in bodied:
            while index < len(lines):
                body_line = lines[index][1]
                index += 1
                if body_line.strip().upper() in END_PRESS:
                    break
                invocation.body.append(body_line)
            while invocation.body and not invocation.body[-1].strip():
                invocation.body.pop()
        result.append(invocation)
    return result
