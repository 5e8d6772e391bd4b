"""Press: messages between powers, relayed by the game's press rules and archived.

No player's address is ever given to another: press goes out from the judge, signed with the
power's name (or with nothing, as grey press).
"""

from __future__ import annotations

from sqlalchemy import select

from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.games.lifecycle import current_seats, power_named
from gm.store.models import Game, GameStatus, Press
from gm.games.mailer import reader_zone


class SendPress(Command):
    name = "PRESS"
    usage = "PRESS [GREY] [TO <power> ...] [WITH RESULTS]   ...text...   ENDPRESS"
    summary = "send a message to some powers (or to all when no TO), up to ENDPRESS"
    takes_body = True
    broadcast = False

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game = ctx.require_game()
        sender = None if ctx.is_gm and ctx.acting_as is None else ctx.power
        if sender is None and not ctx.is_gm:
            raise CommandError("sign on as a power to send press")
        if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED, GameStatus.FORMING):
            raise CommandError(f"{game.name} is over")
        words = invocation.args.upper().split()
        grey = "GREY" in words or "GRAY" in words
        later = " ".join(words).find("WITH RESULTS") >= 0
        names = [w for w in invocation.args.split() if w.upper() not in ("WITH", "RESULTS")]
        recipients = self._recipients(ctx, game, names, sender)
        rules = ctx.services.settings_of(game).press
        if not ctx.is_gm:
            if not rules.any:
                raise CommandError(f"{game.name} has no press")
            if grey and not rules.grey:
                raise CommandError(f"{game.name} does not allow grey (anonymous) press")
            if not grey and not rules.white:
                raise CommandError(f"{game.name} allows only grey press: write PRESS GREY")
            if recipients and not rules.partial:
                raise CommandError(f"{game.name} allows only press to everyone (BROADCAST)")
        text = "\n".join(invocation.body).strip()
        if not text:
            raise CommandError("the press has no text (end it with ENDPRESS)")
        ctx.session.add(Press(game_id=game.id, phase=game.phase, sender_power=sender, recipients=recipients,
                              grey=grey, with_results=later, body=text, inbound_id=ctx.inbound_id, sent_at=ctx.now))
        to = ", ".join(recipients) if recipients else "everyone"
        if later:
            return [f"Press to {to} will be published with the results of this phase"
                    + (", without your name." if grey else ".")]
        self._relay(ctx, game, sender, recipients, grey, text)
        return [f"Press sent to {to}" + (" without your name." if grey else ".")]

    def _recipients(self, ctx: MailContext, game: Game, words: list[str], sender: str | None) -> list[str]:
        if self.broadcast:
            return []
        upper = [w.upper() for w in words]
        if "TO" not in upper:
            return []
        variant = ctx.services.variant_of(game)
        chosen = []
        for word in words[upper.index("TO") + 1:]:
            found = power_named(game, variant, word.strip(","))
            if found is None:
                raise CommandError(f"no power {word!r} in {game.name}")
            if found != sender and found not in chosen:
                chosen.append(found)
        if not chosen:
            raise CommandError("name at least one other power after TO")
        return chosen

    def _relay(self, ctx: MailContext, game: Game, sender: str | None, recipients: list[str], grey: bool,
               text: str) -> None:
        signature = "the game master" if sender is None else ("an anonymous power" if grey else sender)
        settings = ctx.services.settings_of(game)
        addresses = []
        for seat in current_seats(game):
            if seat.player is None or seat.power == sender:
                continue
            if not recipients or seat.power in recipients:
                addresses.append((seat.player.email, reader_zone(seat.player.timezone, settings.schedule.zone.key)))
        if settings.gm.lower() != ctx.sender:
            addresses.append((settings.gm, settings.schedule.zone.key))  # the GM sees all press
        heading = f"Press from {signature} to {', '.join(recipients) if recipients else 'everyone'} in {game.name}"
        for address, zone in addresses:
            ctx.services.mailer.queue(
                ctx.session, to=address, subject=f"{ctx.services.config.judge_name}: {game.name} press from {signature}",
                template="mail/press.txt.j2", kind="press", game_id=game.id, game=game, zone=zone,
                heading=heading, text=text,
            )


class Broadcast(SendPress):
    name = "BROADCAST"
    usage = "BROADCAST [GREY] [WITH RESULTS]   ...text...   ENDPRESS"
    summary = "send a message to every power, up to ENDPRESS"
    broadcast = True


def visible_press(ctx: MailContext, game: Game) -> list[str]:
    """The archived press that the reader may see: broadcasts, and press they sent or received
    (press held for the results only once the results are out)."""
    power = ctx.power
    lines = []
    for press in ctx.session.scalars(select(Press).where(Press.game_id == game.id).order_by(Press.id)):
        if press.with_results and press.published_seq is None and press.sender_power != power:
            continue
        mine = power is not None and press.sender_power == power
        if not (ctx.is_gm or mine or not press.recipients or (power in press.recipients)):
            continue
        who = "the game master" if press.sender_power is None else (
            "an anonymous power" if press.grey and not mine and not ctx.is_gm else press.sender_power)
        to = ", ".join(press.recipients) if press.recipients else "everyone"
        lines += ["", f"Press in {press.phase} from {who} to {to}:", *[f"  {line}" for line in press.body.splitlines()]]
    return lines
