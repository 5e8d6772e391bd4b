"""SUMMARY <game>: the game in brief for anyone who may see it (gm.games.summary builds it; the
summary page on the web shows the same)."""

from __future__ import annotations

from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.games import openings
from gm.games.mailer import format_moment, hang, reader_zone
from gm.games.plaintext import quoted
from gm.games.privacy import game_seen_by, no_such_game
from gm.games.reveal import player_name, players_named
from gm.games.summary import GameSummary, PowerSummary, summarize, table_lines
from gm.settings.model import Reveal
from gm.store.models import GameStatus

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


class Summary(Command):
    read_only = True
    name = "SUMMARY"
    usage = "SUMMARY [game]"
    summary = ("a game in brief, for anyone: its settings, who played each power over time (by name where the "
               "game names its players) and how each kept its deadlines, each power's centres year by year, "
               "how it ended, and its players' statements after the end")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        name = invocation.args.strip()
        if name:
            game = game_seen_by(ctx.services, ctx.session, name, ctx.sender)
            if game is None:
                raise CommandError(no_such_game(name))
        else:
            game = ctx.require_game()
        named = players_named(ctx.services, game) or (ctx.is_gm and ctx.game is game)
        zone = reader_zone(None, ctx.services.settings_of(game).schedule.zone.key)
        return summary_lines(summarize(ctx.services, ctx.session, game), named,
                             [power for power, _ in openings.open_powers(ctx.services, ctx.session, game)],
                             ctx.services.settings_of(game).reveal, zone)


def summary_lines(summary: GameSummary, named: bool, open_now: list[str], reveal: Reveal = Reveal.END,
                  zone: str = "UTC") -> list[str]:
    game = summary.game
    lines = [hang(f"Summary of {game.name}: {summary.variant_title}, {game.status}"
                  + (f", {summary.phase_title}" if game.phase else "") + ".", 4)]
    if summary.result:
        lines.append(hang(f"It was {summary.result}.", 4))
    lines += ["", "Its settings:"]
    width = max(len(what) for what, _ in summary.settings) + 2
    lines += [hang(f"  {what + ':':<{width}} {how}", width + 3) for what, how in summary.settings]
    if game.status == GameStatus.FORMING or not summary.powers:
        return lines + ["", "It has not started: no deadline yet."]
    lines += ["", hang("Each power's players, and their deadlines: kept (orders in by the deadline), late (in "
                       "only in the grace after it) and missed.", 0), ""]
    for power in summary.powers:
        lines += _power_lines(power, named)
    if open_now:
        lines += ["", hang(f"Open to take over now: {', '.join(open_now)} (JOIN {game.name} <power>).", 4)]
    if not named:
        lines += ["", hang("This game does not name its players." if reveal is Reveal.NEVER
                           else "Players are named once the game is over.", 0)]
    for table in summary.tables:
        lines += ["", f"{table.measure[:1].upper()}{table.measure[1:]} year by year:", *table_lines(table)]
    if summary.statements:
        lines += ["", "Statements after the end:"]
        for statement in summary.statements:
            lines += ["", f"From {statement.sender}, {format_moment(statement.sent_at, zone)}:", quoted(statement.text)]
    return lines


def _power_lines(power: PowerSummary, named: bool) -> list[str]:
    head = f"  {power.power}" + (f" ({power.state})" if power.state else "") + ":"
    lines = [head]
    if not power.tenures:
        lines.append("      nobody has played it")
    for index, tenure in enumerate(power.tenures):
        who = player_name(tenure.player) if named else (
            "its player" if len(power.tenures) == 1 else f"its {ORDINALS[min(index, len(ORDINALS) - 1)]} player")
        lines.append(hang(f"      {who}, {tenure.span}: {tenure.tally}", 8))
    if power.vacant.total:
        lines.append(hang(f"      with no player: {power.vacant.missed + power.vacant.late + power.vacant.kept} "
                          f"deadline{'s' if power.vacant.total != 1 else ''}", 8))
    return lines
