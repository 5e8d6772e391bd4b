"""Splitting a mail into commands: a command word starts a command; PRESS and BROADCAST take
the lines up to ENDPRESS; runs of other lines are orders (checked once the power is known)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from gm.commands.base import BodyRule, Invocation

ORDERS = ""  # the name of the implicit "these lines are orders" command
UNKNOWN = "?"  # a line that starts with a misspelt command
END_PRESS = ("ENDPRESS", "END PRESS", "ENDBROADCAST")
PRESS_BODY = BodyRule(END_PRESS)


def read_invocations(
    lines: list[tuple[int, str]],
    names: Mapping[str, str],
    bodied: Collection[str] | Mapping[str, BodyRule],
    misspelt: Callable[[str], bool] = lambda word: False,
) -> list[Invocation]:
    """``names`` maps every spelling (upper case) to a command name; ``bodied`` are the names
    whose command takes the following lines as its body (each with its rule; PRESS's when only
    names are given); ``misspelt(word)`` says whether a word that is no command is close enough
    to one to be a misspelling rather than an order."""
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
        rule = (bodied.get(name) if isinstance(bodied, Mapping) else PRESS_BODY if name in bodied else None)
        if rule is not None and _opens(rule, lines, index, names):
            while index < len(lines):
                body_number, body_line = lines[index]
                index += 1
                if body_line.strip().upper() in rule.ends:
                    break
                invocation.body.append(body_line)
                invocation.body_lines.append(body_number)
            while invocation.body and not invocation.body[-1].strip():
                invocation.body.pop()
                invocation.body_lines.pop()
        result.append(invocation)
    return result


def _opens(rule: BodyRule, lines: list[tuple[int, str]], index: int, names: Mapping[str, str]) -> bool:
    """Whether the lines from ``index`` on are the command's body: always, for a rule without
    ``opens``; else when the first that is not blank passes it or ends the body, or is no command
    and a line further on ends the body."""
    if rule.opens is None:
        return True
    following = [line.strip() for _, line in lines[index:]]
    first = next((line for line in following if line), "")
    if not first:
        return False
    if first.upper() in rule.ends or rule.opens(first):
        return True
    if names.get(first.partition(" ")[0].upper().rstrip(":")) is not None:
        return False
    return any(line.upper() in rule.ends for line in following)
