"""WEB: a one-time link to a game's web pages, mailed to the address the seat is registered to;
WEB SIGNOFF: end every web session of the seat (gm.games.web_access, docs/web.md).

``LINKS_PER_HOUR`` links an hour per address, counted apart for a WEB after a SIGNON (the secret
proves the player), a WEB naming the game from the registered address, and the web page's asks
(gm.web.signin): no number of asks by others ever refuses a player's own WEB after SIGNON. A
refusal is said in the reply, which goes to that very address.

A private game is told to nobody outside it: ``WEB game`` for one from an address that has no
role in it is answered as for a game that does not exist."""

from __future__ import annotations

from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.games.mailer import format_moment, hang
from gm.games.privacy import game_seen_by, no_such_game
from gm.games.web_access import (
    AccessRefused,
    Holder,
    admit,
    end_sessions,
    holder_of_seat,
    holders,
    issue_link,
    link_url,
    web_config,
)
from gm.store.models import Game, WebRole

LINKS_PER_HOUR = 5  # per address, for each way of asking (see the module's docstring)
SIGNOFF_WORDS = ("SIGNOFF", "SIGN-OFF", "OFF")
SIGNED_ON = "link-signon"  # the count of WEB after a SIGNON
FROM_ADDRESS = "link"  # the count of WEB <game> from the registered address


def mail_links(ctx: MailContext, game: Game, found: list[Holder], kind: str) -> list[str]:
    """Links for ``found`` (all of one address: the one this reply goes to), rate limited."""
    for holder in found:
        until = admit(ctx.services, ctx.session, kind, [f"address:{holder.address}"], LINKS_PER_HOUR)
        if until is not None:
            raise CommandError(f"{LINKS_PER_HOUR} links an hour have been asked for {holder.address}: ask again "
                               f"after {format_moment(until, 'UTC')}")
    minutes = web_config(ctx.services).link_minutes
    lines: list[str] = []
    for holder in found:
        try:
            token = issue_link(ctx.services, ctx.session, game, holder)
        except AccessRefused as exc:
            raise CommandError(str(exc)) from None
        ctx.revealed.append(token)  # masked in the outbox's copy once sent
        ctx.services.audit(ctx.session, game, ctx.sender, "web-link", role=holder.role, seat=holder.seat_id, by="mail")
        lines += [hang(f"To sign in to {game.name}'s web page as {holder.label}, open this link (it works once, "
                       f"for {minutes} minutes):", 4), "", f"    {link_url(ctx.services, game, token)}", ""]
    return lines[:-1]


class Web(Command):
    name = "WEB"
    usage = "WEB [game] | WEB SIGNOFF"
    summary = ("a one-time link to sign in to the game's web page, mailed to your registered address "
               "(enter orders and press there); WEB SIGNOFF ends your web sessions")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        words = invocation.args.split()
        if words and words[0].upper() in SIGNOFF_WORDS:
            return self._signoff(ctx)
        if ctx.game is not None and (not words or words[0] == ctx.game.name):
            game, kind = ctx.game, SIGNED_ON
            if ctx.is_gm:
                found = [h for h in holders(ctx.services, game) if h.role == WebRole.GM]
            elif ctx.power is not None and ctx.seat is not None and ctx.seat.player is not None:
                found = [holder_of_seat(game, ctx.seat)]
            else:
                raise CommandError("sign on as a power or as the game master first")
        else:
            if not words:
                raise CommandError(f"write {self.usage} (or SIGNON first)")
            named = game_seen_by(ctx.services, ctx.session, words[0], ctx.sender)  # a private game: to its own
            if named is None:
                raise CommandError(no_such_game(words[0]))
            game, kind = named, FROM_ADDRESS
            # Only to the sender's own roles: the reply goes to the sender, which is then the
            # address each link is for (a forged From gets the real holder a mail, nothing more).
            found = [h for h in holders(ctx.services, game) if h.address == ctx.sender]
            if not found:
                raise CommandError(f"{ctx.sender} plays no seat of {game.name}, and is not its game master or an "
                                   "observer")
        return mail_links(ctx, game, found, kind)

    def _signoff(self, ctx: MailContext) -> list[str]:
        game = ctx.require_game()
        if ctx.is_gm:
            ended = end_sessions(ctx.services, ctx.session, game, role=WebRole.GM, why="WEB SIGNOFF")
        elif ctx.power is not None and ctx.seat is not None:
            ended = end_sessions(ctx.services, ctx.session, game, seat_id=ctx.seat.id, why="WEB SIGNOFF")
        else:
            raise CommandError("sign on as a power or as the game master first")
        ctx.services.audit(ctx.session, game, ctx.sender, "web-signoff", ended=ended)
        return [f"Your web sessions in {game.name} are ended ({ended}), and any link not used yet no longer works."]
