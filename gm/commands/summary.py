"""SUMMARY <game>: the game in brief for anyone who may see it (gm.games.summary builds it)."""

from __future__ import annotations

from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.games import openings
from gm.games.mailer import hang
from gm.games.privacy import game_seen_by, no_such_game
from gm.games.reveal import player_name, players_named
from gm.games.summary import GameSummary, PowerSummary, Tenure, summarize
from gm.store.models import GameStatus

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


class Summary(Command):
    read_only = True
    name = "SUMMARY"
    usage = "SUMMARY [game]"
    summary = ("a game in brief: its powers, who played each over time (by name once the game names its "
               "players) and how each player kept its deadlines")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        name = invocation.args.strip()
        if name:
            game = game_seen_by(ctx.services, ctx.session, name, ctx.sender)
            if game is None:
                raise CommandError(no_such_game(name))
        else:
            game = ctx.require_game()
        named = players_named(ctx.services, game) or (ctx.is_gm and ctx.game is game)
        return summary_lines(summarize(ctx.services, ctx.session, game), named,
                             [power for power, _ in openings.open_powers(ctx.services, ctx.session, game)])


def summary_lines(summary: GameSummary, named: bool, open_now: list[str]) -> list[str]:
    game = summary.game
    lines = [hang(f"Summary of {game.name}: {summary.variant_title}, {game.status}"
                  + (f", {summary.phase_title}" if game.phase else "") + ".", 4)]
    if game.status == GameStatus.FORMING or not summary.powers:
        return lines + ["It has not started: no deadline yet."]
    lines += ["", hang("Each power's players, and their deadlines: kept (orders in by the deadline), late (in "
                       "only in the grace after it) and missed.", 0), ""]
    for power in summary.powers:
        lines += _power_lines(power, named)
    if open_now:
        lines += ["", hang(f"Open to take over now: {', '.join(open_now)} (JOIN {game.name} <power>).", 4)]
    if not named:
        lines += ["", hang("Players are named once the game is over.", 0)]
    return lines


def _power_lines(power: PowerSummary, named: bool) -> list[str]:
    head = f"  {power.power}" + (f" ({power.state})" if power.state else "") + ":"
    lines = [head]
    if not power.tenures:
        lines.append("      nobody has played it")
    for index, tenure in enumerate(power.tenures):
        who = player_name(tenure.player) if named else (
            "its player" if len(power.tenures) == 1 else f"its {ORDINALS[min(index, len(ORDINALS) - 1)]} player")
        lines.append(hang(f"      {who}, {_span(tenure)}: {tenure.tally}", 8))
    if power.vacant.total:
        lines.append(hang(f"      with no player: {power.vacant.missed + power.vacant.late + power.vacant.kept} "
                          f"deadline{'s' if power.vacant.total != 1 else ''}", 8))
    return lines


def _span(tenure: Tenure) -> str:
    text = f"from {tenure.began}" if tenure.began else "from the start"
    if tenure.ended:
        text += f" to {tenure.ended}"
    if tenure.left:
        text += f" ({tenure.left})"
    return text
