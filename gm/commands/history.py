"""HISTORY: a game's processed phases as its results mails printed them (as the web's phase pages
show them), with the press the reader may read.

Signed on to a game, ``HISTORY [n]`` gives its last n phases (5 unless said). Anyone may ask for
a game they may see (a private one answers as a missing game) with ``HISTORY <game>``, ``HISTORY
<game> <phase>`` or ``HISTORY <game> <from>..<to>``; a phase is named by its id (S1901M) or its
title. Press is shown by the one rule of who reads it (gm.games.press_readers), for the reader
the mail is signed on to the game as: a stranger reads what a stranger on the web reads.
"""

from __future__ import annotations

import re

from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.commands.press import visible_press
from gm.games.pictures import phase_named, phase_results_text, records
from gm.games.privacy import game_seen_by, no_such_game
from gm.store.models import Game, PhaseRecord

MOST = 50  # phases in one reply
RANGE = re.compile(r"^(.+?)\s*\.\.\s*(.+)$")


class History(Command):
    read_only = True
    name = "HISTORY"
    usage = "HISTORY [game] [number | phase | from..to]"
    summary = ("the results of a game's phases as its results mails gave them, and the press you may read: the "
               "last 5 (or as many as you say) of the game you are signed on to, or of any game you name "
               "(HISTORY g S1901M, HISTORY g S1901M..F1902M: one phase, or the phases from one to another)")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game, wanted = self._game(ctx, invocation.args.strip())
        done = records(ctx.session, game)
        variant = ctx.services.variant_of(game)
        names = list(dict.fromkeys(r.phase for r in done))
        if wanted.isdigit() or not wanted:
            count = max(1, min(int(wanted or 5), MOST))
            shown = done[-count:]
            phases = None  # all the press the reader may read, as always
        else:
            shown = self._range(variant, game, done, names, wanted)
            phases = {r.phase for r in shown}
            if game.phase and self._reaches_now(variant, wanted, names, game):
                phases.add(game.phase)
        lines: list[str] = []
        for record in shown[:MOST]:
            if lines:
                lines.append("")
            lines += phase_results_text(ctx.services, game, record).split("\n")
        if len(shown) > MOST:
            lines += ["", f"({len(shown) - MOST} later phases not shown: ask for them by name, e.g. "
                          f"HISTORY {game.name} {shown[MOST].phase}..)"]
        if not done:
            lines.append(f"No phase of {game.name} has been processed yet.")
        return lines + visible_press(ctx, game, phases)

    def _game(self, ctx: MailContext, args: str) -> tuple[Game, str]:
        """The game asked about, and the rest of the line (a number, a phase, a range)."""
        first, _, rest = args.partition(" ")
        if ctx.game is not None and (not first or first.isdigit() or self._names_phase(ctx, ctx.game, args)):
            return ctx.game, args
        if not first:
            raise CommandError(f"name a game (HISTORY <game>), or sign on first: {self.usage}")
        game = game_seen_by(ctx.services, ctx.session, first, ctx.sender)
        if game is None:
            if first.isdigit():
                raise CommandError("sign on first, or name the game: HISTORY <game> [number | phase | from..to]")
            raise CommandError(no_such_game(first))
        return game, rest.strip()

    @staticmethod
    def _names_phase(ctx: MailContext, game: Game, text: str) -> bool:
        variant = ctx.services.variant_of(game)
        names = [r.phase for r in records(ctx.session, game)] + ([game.phase] if game.phase else [])
        found = RANGE.match(text)
        ends = [found.group(1), found.group(2)] if found else [text]
        return all(phase_named(variant, end, names) is not None for end in ends)

    @staticmethod
    def _range(variant, game: Game, done: list[PhaseRecord], names: list[str], wanted: str) -> list[PhaseRecord]:  # type: ignore[no-untyped-def]
        found = RANGE.match(wanted)
        ends = [found.group(1), found.group(2)] if found else [wanted, wanted]
        known = names + ([game.phase] if game.phase and game.phase not in names else [])
        picked = []
        for end in ends:
            phase = phase_named(variant, end, known)
            if phase is None:
                span = f"from {names[0]} to {names[-1]}" if names else "none yet"
                raise CommandError(f"{game.name} has no phase {end!r}: its processed phases run {span} "
                                   f"(e.g. HISTORY {game.name} {names[0] if names else 'S1901M'})")
            picked.append(known.index(phase))
        low, high = sorted(picked)
        chosen = set(known[low:high + 1])
        return [r for r in done if r.phase in chosen]

    @staticmethod
    def _reaches_now(variant, wanted: str, names: list[str], game: Game) -> bool:  # type: ignore[no-untyped-def]
        """Whether the phase or range named reaches the phase in play (its press so far)."""
        found = RANGE.match(wanted)
        ends = [found.group(1), found.group(2)] if found else [wanted]
        return any(phase_named(variant, end, [game.phase]) is not None for end in ends)
