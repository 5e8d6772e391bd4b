"""Commands for the game master (after SIGNON GM <game> <secret>)."""

from __future__ import annotations

from gm.commands import gm_actions
from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.games import openings
from gm.games.lifecycle import GameError, power_named, seat_of
from gm.games.mailer import hang
from gm.mailsyntax import mail_address
from gm.store.models import OpeningReason


class _GmCommand(Command):
    for_gm = True

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game = ctx.require_gm()
        try:
            return self.act(ctx, game, invocation.args.strip())
        except GameError as exc:
            raise CommandError(str(exc)) from None

    def act(self, ctx: MailContext, game, args: str) -> list[str]:  # type: ignore[no-untyped-def]
        raise CommandError("not available")


class Process(_GmCommand):
    name = "PROCESS"
    usage = "PROCESS <phase>"
    summary = "process the current phase now (name it, e.g. PROCESS S1901M)"

    def act(self, ctx, game, args):  # type: ignore[no-untyped-def]
        if not args:
            raise CommandError(f"name the phase: PROCESS {game.phase}")
        gm_actions.process_now(ctx.services, ctx.session, game, args, ctx.actor)
        return [f"{game.name} {game.phase} will be processed within a minute."]


class Preview(_GmCommand):
    name = "PREVIEW"
    summary = ("mail yourself what processing now would give, changing nothing (no die is rolled: what the "
               "dice decide is left out)")

    def act(self, ctx, game, args):  # type: ignore[no-untyped-def]
        gm_actions.preview(ctx.services, ctx.session, game, ctx.actor)
        return ["The preview is on its way to you (nobody else sees it)."]


class Rollback(_GmCommand):
    name = "ROLLBACK"
    usage = "ROLLBACK <phase>"
    summary = "return to the start of an earlier phase, with its orders"

    def act(self, ctx, game, args):  # type: ignore[no-untyped-def]
        if not args:
            raise CommandError(f"write {self.usage}")
        gm_actions.rollback(ctx.services, ctx.session, game, args, ctx.actor)
        return [f"{game.name} is back at {game.phase}; everyone has been told."]


class Pause(_GmCommand):
    name = "PAUSE"
    usage = "PAUSE [reason]"
    summary = "stop the clock until RESUME"

    def act(self, ctx, game, args):  # type: ignore[no-untyped-def]
        gm_actions.pause(ctx.services, ctx.session, game, ctx.actor, reason=args)
        return [f"{game.name} is paused."]


class Resume(_GmCommand):
    name = "RESUME"
    summary = "start the clock again, with a fresh deadline"

    def act(self, ctx, game, args):  # type: ignore[no-untyped-def]
        gm_actions.resume(ctx.services, ctx.session, game, ctx.actor)
        return [f"{game.name} goes on."]


class Eject(_GmCommand):
    name = "EJECT"
    usage = "EJECT <power>"
    summary = ("remove a power's player, who is told (the power is open to take over, as the game's "
               "takeover setting says, or waits for REPLACE)")

    def act(self, ctx, game, args):  # type: ignore[no-untyped-def]
        power = self._power(ctx, game, args)
        left = seat_of(game, power)
        gm_actions.eject(ctx.services, ctx.session, game, power, ctx.actor)
        if left is not None and left.player is not None:
            ctx.session.flush()
            openings.open_power(ctx.services, ctx.session, game, left, OpeningReason.EJECTED)
        return [hang(f"{power} has no player now (its player has been told). "
                     f"{openings.gm_hint(ctx.services, game, power)}", 4)]

    @staticmethod
    def _power(ctx, game, args):  # type: ignore[no-untyped-def]
        found = power_named(game, ctx.services.variant_of(game), args)
        if found is None:
            raise CommandError(f"no power {args!r} in {game.name}")
        return found


class Replace(_GmCommand):
    name = "REPLACE"
    usage = "REPLACE <power> <address>"
    summary = "give a power to a new player, who is mailed a secret (a player replaced is told)"

    def act(self, ctx, game, args):  # type: ignore[no-untyped-def]
        power_text, _, written = args.rpartition(" ")
        address = mail_address(written)
        if not power_text or address is None:
            raise CommandError(f"write {self.usage} (a plain address, as name@example.org)")
        power = Eject._power(ctx, game, power_text)
        gm_actions.replace(ctx.services, ctx.session, game, power, address, ctx.actor)
        return [f"{power} is now played from {address}, who has been sent a secret."]


class Rename(_GmCommand):
    name = "RENAME"
    usage = "RENAME <power> TO <new name>"
    summary = "rename a power its player named on joining (the new name is checked as a joining player's is)"

    def act(self, ctx, game, args):  # type: ignore[no-untyped-def]
        old, to, new = args.partition(" TO ") if " TO " in args else args.partition(" to ")
        if not to or not new.strip():
            raise CommandError(f"write {self.usage}")
        power = Eject._power(ctx, game, old.strip())
        named = gm_actions.rename(ctx.services, ctx.session, game, power, new.strip(), ctx.actor)
        return [f"{power} is now {named}; everyone has been told."]


class Become(_GmCommand):
    name = "BECOME"
    usage = "BECOME <power>"
    summary = "act as a power for the rest of this mail (orders, STATUS, press)"

    def act(self, ctx, game, args):  # type: ignore[no-untyped-def]
        ctx.acting_as = Eject._power(ctx, game, args)
        ctx.services.audit(ctx.session, game, ctx.sender, "become", power=ctx.acting_as)
        return [f"Acting as {ctx.acting_as} for the rest of this mail."]


class Start(_GmCommand):
    name = "START"
    summary = ("start a forming game now, with the players who have joined, if the variant is played by "
               "that many (a game whose settings say start: when-full also starts by itself once full)")

    def act(self, ctx, game, args):  # type: ignore[no-untyped-def]
        gm_actions.start_now(ctx.services, ctx.session, game, ctx.actor)
        return [f"{game.name} has started."]
