"""Running a mail's commands in order, each answered by a section of the reply.

A command that changes the store runs in a savepoint, so a failed command undoes only itself.
Every command runs; once the reply is long, the answers of commands that changed nothing are
only counted (a thousand LISTs get a reply of reasonable length). Whatever a section quotes of
the mail (its echo; the answer of a command that quotes its lines, as orders do) is masked for
every secret written in the mail, whatever the command word of the line that carried it (a
misspelt SIGNON's too: gm.commands.secrecy). gm's own words are left as they are.
"""

from __future__ import annotations

from gm.commands.base import CommandError, Invocation, MailContext, Section
from gm.commands.echo import count_lines
from gm.commands.reader import ORDERS
from gm.commands.registry import CommandTable
from gm.commands.secrecy import mask_text
from gm.games.mailer import wrap


def run_commands(ctx: MailContext, table: CommandTable, invocations: list[Invocation]) -> list[Section]:
    sections: list[Section] = []
    unshown = 0
    secrets = [s for i in invocations for s in table.find(i.name).secrets(i)]  # type: ignore[union-attr]
    for invocation in invocations:
        command = table.find(invocation.name)
        assert command is not None
        full = ctx.budget.full
        section = _run(ctx, table, invocation, secrets)
        if full and section.ok and command.read_only:
            unshown += 1
            continue
        ctx.budget.answered(len(section.lines))
        sections.append(section)
    if unshown:
        sections.append(Section([], [wrap(f"({unshown:,} more {'command' if unshown == 1 else 'commands'} "
                                          "answered, answers not shown: this reply is long enough already.)")]))
    return sections


def _run(ctx: MailContext, table: CommandTable, invocation: Invocation, secrets: list[str]) -> Section:
    command = table.find(invocation.name)
    assert command is not None
    echo = command.echo(invocation)
    savepoint = None if command.read_only else ctx.session.begin_nested()
    try:
        if invocation.name == ORDERS and ctx.power is None:
            echo = invocation.body  # the lines refused, shown with the reason
            raise CommandError(_not_orders(table, invocation))
        lines = command.run(ctx, invocation)
        if savepoint is not None:
            savepoint.commit()
        return _section(ctx, _masked(echo, secrets), _masked(lines, secrets) if command.quotes else lines, True,
                        invocation.name)
    except CommandError as exc:
        if savepoint is not None:
            savepoint.rollback()
        error = [f"ERROR: {exc}"]
        return _section(ctx, _masked(echo, secrets), _masked(error, secrets) if command.quotes else error, False,
                        invocation.name)
    finally:
        for action in ctx.keep:
            action()
        ctx.keep.clear()


def _masked(lines: list[str], secrets: list[str]) -> list[str]:
    return [mask_text(line, secrets) for line in lines] if secrets else lines


def _section(ctx: MailContext, echo: list[str], lines: list[str], ok: bool, name: str) -> Section:
    """The echo bounded: a failed command's own line is always shown."""
    shown, unshown = ctx.budget.echoed(echo, keep_first=not ok)
    if unshown:
        reason = "" if ok else ", refused for the same reason"
        lines = [f"({count_lines(unshown, 'more')} not shown{reason}.)", *lines]
    return Section(shown, lines, ok, command=name)


def _not_orders(table: CommandTable, invocation: Invocation) -> str:
    """Lines read before any SIGNON: a misspelt command, or orders without a power."""
    word = invocation.text.split()[0].upper().rstrip(":")
    if table.closest(word) and word not in ("A", "F"):
        return table.unknown(word)
    return "orders need a power: SIGNON <power> <game> <secret> first (HELP lists the commands)"
