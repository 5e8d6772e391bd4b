"""TERMINATE and UNSTART: the game master ends a game now, or takes back its start (gm.games.endings)."""

from __future__ import annotations

from gm.commands.base import CommandError, MailContext
from gm.commands.master import _GmCommand
from gm.games import endings


class Terminate(_GmCommand):
    name = "TERMINATE"
    usage = "TERMINATE <reason>"
    summary = ("end the game now, unfinished: everyone is mailed its end with your reason and the board as it "
               "stands, and its page shows it")

    def act(self, ctx: MailContext, game, args: str) -> list[str]:  # type: ignore[no-untyped-def]
        endings.terminate(ctx.services, ctx.session, game, args, ctx.actor)
        return [f"{game.name} is over, ended unfinished; everyone has been told why."]


class Unstart(_GmCommand):
    name = "UNSTART"
    summary = ("before the first phase is adjudicated: return the game to forming, every player keeping a seat "
               "(the powers drawn again when it starts; START starts it)")

    def act(self, ctx: MailContext, game, args: str) -> list[str]:  # type: ignore[no-untyped-def]
        if args:
            raise CommandError("write UNSTART alone")
        endings.unstart(ctx.services, ctx.session, game, ctx.actor)
        return [f"{game.name} is forming again; everyone has been told."]
