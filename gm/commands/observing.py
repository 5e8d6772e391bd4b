"""OBSERVE and UNOBSERVE: following a game one does not play (gm.games.observers).

An observer is mailed what the game's observers are mailed from then on: its start and end, each
phase's results, the late lists, its announcements, press to everyone. Asking needs no secret:
the answer goes to the address that asked, so a forged From only subscribes (or unsubscribes) an
address that is told so at once. The answer gives an observer secret, with which the address
signs on by mail (SIGNON OBSERVER <game> <secret>) to write press as the game allows observers
(``press: {observers: white}``: to everyone; always to the game master alone, PRESS TO GM).
"""

from __future__ import annotations

from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.games import observers
from gm.games.mailer import hang
from gm.games.notices import tell_gm
from gm.games.privacy import game_seen_by, no_such_game
from gm.settings.model import ObserverPress
from gm.store.models import Game, GameStatus


def _game(ctx: MailContext, invocation: Invocation, usage: str) -> Game:
    words = invocation.args.split()
    if len(words) != 1:
        raise CommandError(f"write {usage}")
    # A private game is not there for anyone outside it (gm.games.privacy): OBSERVE too.
    game = game_seen_by(ctx.services, ctx.session, words[0], ctx.sender, lock=True)
    if game is None:
        raise CommandError(no_such_game(words[0]))
    return game


class Observe(Command):
    name = "OBSERVE"
    usage = "OBSERVE <game>"
    summary = ("follow a game you do not play: from now on you are mailed what its observers are (its results, "
               "late lists, start and end, announcements, press to everyone); the answer gives your observer "
               "secret, for SIGNON OBSERVER <game> <secret> and press (to the game master, and to everyone "
               "where the game allows observers' press); UNOBSERVE <game> stops it")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game = _game(ctx, invocation, self.usage)
        settings = ctx.services.settings_of(game)
        if ctx.sender == settings.gm.lower():
            raise CommandError(f"you are the game master of {game.name}: you are mailed all of it already")
        if observers.plays_in(game, ctx.sender):
            raise CommandError(f"you play in {game.name}: its players are mailed all an observer is")
        if game.status == GameStatus.FINISHED:
            raise CommandError(f"{game.name} is over: nothing more of it is mailed (SUMMARY {game.name} and "
                               f"HISTORY {game.name} tell it all)")
        already = observers.is_observer(ctx.services, game, ctx.sender)
        secret = observers.observe(ctx.services, ctx.session, game, ctx.sender)
        ctx.revealed.append(secret)
        if not already:
            ctx.services.audit(ctx.session, game, ctx.sender, "observe")
            tell_gm(ctx.services, ctx.session, game, subject=f"{game.name}: a new observer",
                    text=f"{ctx.sender} observes {game.name} from now on (OBSERVE): it is mailed what the "
                         "game's observers are, and reads what they read.")
        first = (f"You observe {game.name} already; a new observer secret replaces the one before."
                 if already else f"You observe {game.name} from now on: you are mailed its results, late lists, "
                 "announcements, its start and end, and its press to everyone.")
        press = ("PRESS TO GM ... ENDPRESS writes to its game master, and PRESS ... ENDPRESS to everyone."
                 if settings.press.observers is ObserverPress.WHITE
                 else "PRESS TO GM ... ENDPRESS writes to its game master (its observers send no other press).")
        return [hang(first, 0), "",
                f"Your observer secret: {secret}", "",
                hang(f"To write press, sign on with SIGNON OBSERVER {game.name} {secret}; then {press} "
                     f"UNOBSERVE {game.name} stops it all.", 0)]


class Unobserve(Command):
    name = "UNOBSERVE"
    usage = "UNOBSERVE <game>"
    summary = "stop observing a game (nothing more of it is mailed to you)"

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game = _game(ctx, invocation, self.usage)
        if observers.in_settings(ctx.services, game, ctx.sender):
            raise CommandError(f"the settings of {game.name} list you as an observer: ask its game master to "
                               "strike you from them")
        if not observers.unobserve(ctx.session, game, ctx.sender):
            raise CommandError(f"you do not observe {game.name}")
        ctx.services.audit(ctx.session, game, ctx.sender, "unobserve")
        if ctx.observer == ctx.sender and ctx.game is game:
            ctx.leave()  # signed on as its observer: no more
        return [hang(f"You no longer observe {game.name}: nothing more of it is mailed to you (OBSERVE "
                     f"{game.name} again to follow it).", 0)]
