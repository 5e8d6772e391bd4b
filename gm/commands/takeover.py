"""Taking over a power its player left: JOIN <game> <power> in a started game, the GM's APPROVE
and REFUSE, and STANDBY (gm.games.openings says when a power is open and to whom it is offered).

The new player gets the seat's new secret, the board, the power's orders as they stand and, from
then on, the power's press (what was sent to or by the player before stays theirs:
gm.games.press_readers reads a seat's private press from the moment its player took it); the
game is told the power has a new player, by name only where the game names its players
(gm.games.reveal). A takeover changes nothing on the board: a variant's own state of the power
(treasuries, leaders, the units it has yet to place) stays as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from gm.commands import gm_actions
from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.games import openings, orderbook, records
from gm.games.lifecycle import GameError, current_seats, find_game, player_for, power_named, seat_of, units_named
from gm.games.mailer import reader_zone, wrap
from gm.games.notices import recipients, tell_gm
from gm.games.passwords import hash_secret, new_secret
from gm.games.privacy import game_seen_by, no_such_game
from gm.games.reveal import player_name, players_named
from gm.mailsyntax import mail_address
from gm.reports.names import Namer
from gm.reports.words import words_of
from gm.settings.model import TakeoverPolicy
from gm.store.models import Game, GameStatus, Opening, OpeningReason, Player, Seat, SeatStatus, Standby, TakeoverRequest

LEFT_BECAUSE = {
    OpeningReason.RESIGNED: "Its player resigned.",
    OpeningReason.EJECTED: "Its player was removed by the game master.",
    OpeningReason.ABANDONED: "Its player stopped sending orders.",
}


@dataclass(frozen=True)
class TakenOver:
    seat: Seat
    secret: str


# -- taking over --------------------------------------------------------------------------------

def take_over(ctx: MailContext, game: Game, opening: Opening, player: Player, actor: str) -> TakenOver:
    """``player`` plays the opening's power from now (see the module)."""
    services, session = ctx.services, ctx.session
    seat = openings.holder(game, opening)
    assert seat is not None and seat.power is not None
    if seat.player is not None:  # abandoned: its player leaves it now
        _tell_displaced(ctx, game, seat)
        seat = gm_actions.eject(services, session, game, seat.power, actor, tell=False)
        session.flush()
    secret = new_secret()
    now = services.clock.now()
    seat.player = player
    seat.secret_hash = hash_secret(secret)
    seat.status = SeatStatus.ACTIVE
    seat.missed_in_row = 0
    seat.joined_at = now  # the player's tenure (and its press) begins now
    seat.wait_seq = None
    seat.draw_vote = False
    seat.concede_to = None
    session.flush()
    for request in openings.waiting_asks(session, game):
        if request.opening_id == opening.id and request.player_id == player.id:
            request.outcome, request.decided_at, request.decided_by = "approved", now, actor
    openings.close(services, session, game, opening, "taken", taker=player.id)
    standing = list(session.scalars(select(Standby).where(Standby.player_id == player.id)))
    for entry in standing:
        session.delete(entry)  # placed: off every list
    services.audit(session, game, actor, "taken-over", power=seat.power, player=player.email, reason=opening.reason)
    if game.status == GameStatus.PAUSED and game.paused_reason == openings.waiting_for(seat.power):
        try:
            gm_actions.resume(services, session, game, "system")  # the game waited for this power
        except GameError:
            pass  # another power still waits for its player
    _welcome(ctx, game, seat, secret, opening, stood_by=bool(standing))
    _announce(ctx, game, seat)
    if game.status == GameStatus.ACTIVE:  # the power's orders as they stand count for its new seat
        orderbook.recount_ready(services, session, game)
        orderbook.note_orders_changed(services, session, game)
    return TakenOver(seat, secret)


def _tell_displaced(ctx: MailContext, game: Game, seat: Seat) -> None:
    assert seat.player is not None
    settings = ctx.services.settings_of(game)
    ctx.services.mailer.queue(
        ctx.session, to=seat.player.email,
        subject=f"{ctx.services.config.judge_name}: {game.name}: you no longer play {seat.power}",
        template="mail/announcement.txt.j2", kind="removed", game_id=game.id, game=game,
        zone=reader_zone(seat.player.timezone, settings.schedule.zone.key), deadline=None,
        text=f"{seat.power} in {game.name} waited for orders from you and has now been taken over by another "
             f"player: you no longer play it, and your secret for it no longer works. Thank you for playing. "
             f"If you think this is a mistake, write to the game master, {settings.gm}.")


def _welcome(ctx: MailContext, game: Game, seat: Seat, secret: str, opening: Opening, stood_by: bool) -> None:
    """The new player's mail: the secret, the board, the power's orders, the deadline."""
    services, session = ctx.services, ctx.session
    assert seat.player is not None and seat.power is not None
    variant = services.variant_of(game)
    position = services.position_of(game)
    latest = orderbook.latest_set(session, game, seat.power)
    orders = services.orders_from(game, latest.lines if latest else [])
    namer = Namer(variant, orderbook.board_for(variant, position, seat.power, orders))
    powers = [s.power for s in current_seats(game) if s.power]
    named = units_named(variant, position)
    board = [(p, len(position.centres_of(p)), named(p)) for p in (variant.map.powers or powers)
             if p in powers or position.units_of(p)]
    missing = orderbook.missing_for(variant, position, seat.power, orders) if game.status == GameStatus.ACTIVE else []
    services.mailer.queue(
        session, to=seat.player.email,
        subject=f"{services.config.judge_name}: you now play {seat.power} in {game.name}",
        template="mail/takeover.txt.j2", kind="joined", game_id=game.id, game=game, secret=secret, secrets=[secret],
        zone=reader_zone(seat.player.timezone, services.settings_of(game).schedule.zone.key),
        power=seat.power, variant=variant, title=variant.title(position.phase), board=board,
        centres=bool(variant.map.supply_centres), state=words_of(variant).state_report(position),
        orders=[namer.order(o, seat.power) for o in orders], missing=missing,
        why=LEFT_BECAUSE.get(opening.reason, ""), deadline=game.deadline if game.status == GameStatus.ACTIVE else None,
        stood_by=stood_by)


def _announce(ctx: MailContext, game: Game, seat: Seat) -> None:
    """Everyone but the new player: the power has a new player (named where the game names them)."""
    who = f": {player_name(seat.player)}" if players_named(ctx.services, game) else ""
    text = f"{seat.power} has a new player{who}. Its orders and press go on from here."
    for recipient in recipients(ctx.services, game):
        if recipient.seat is not None and recipient.seat.id == seat.id:
            continue
        ctx.services.mailer.queue(
            ctx.session, to=recipient.address, subject=f"{ctx.services.config.judge_name}: {game.name}: "
            f"{seat.power} has a new player", template="mail/announcement.txt.j2", kind="takeover", game_id=game.id,
            game=game, zone=recipient.zone, text=text, deadline=game.deadline if game.status == GameStatus.ACTIVE else None)


# -- asking, by JOIN ----------------------------------------------------------------------------

def open_list(ctx: MailContext, game: Game) -> str:
    found = [power for power, _ in openings.open_powers(ctx.services, ctx.session, game)]
    return f" (open now: {', '.join(found)})" if found else " (no power of it is open now)"


def reach_gm(game: Game) -> str:
    """How someone who plays no power in a game waits for one, or writes to its game master."""
    return (f"STANDBY {game.name} asks to be offered the next power that opens. To write to its game "
            f"master: OBSERVE {game.name}, whose answer gives an observer secret, then a mail with "
            f"SIGNON OBSERVER {game.name} <secret> and PRESS TO GM, your words, ENDPRESS.")


def names_open_power(ctx: MailContext, game: Game, wanted: str | None) -> bool:
    """Whether ``wanted`` names a power of ``game`` that is open (a JOIN for it is a takeover)."""
    power = power_named(game, ctx.services.variant_of(game), wanted) if wanted else None
    seat = seat_of(game, power) if power else None
    return seat is not None and openings.opening_of(ctx.session, game, seat) is not None


def join_started(ctx: MailContext, game: Game, wanted: str | None) -> list[str]:
    """JOIN <game> <power> in a game in play: ask for an open power (see the module)."""
    services, session = ctx.services, ctx.session
    if not wanted:
        raise CommandError(f"game {game.name} has started: to take over a power its player left, write "
                           f"JOIN {game.name} <power>{open_list(ctx, game)}. {reach_gm(game)}")
    variant = services.variant_of(game)
    power = power_named(game, variant, wanted)
    seat = seat_of(game, power) if power else None
    if seat is None or power is None:
        raise CommandError(f"{game.name} has no power {wanted!r}{open_list(ctx, game)}")
    playing = next((s.power for s in current_seats(game) if s.player and s.player.email == ctx.sender), None)
    if playing is not None:
        raise CommandError(f"you play {playing} in {game.name} already: one power to a player")
    if ctx.sender == services.settings_of(game).gm.lower():
        raise CommandError(f"you are the game master of {game.name}, who plays no power in it (REPLACE gives "
                           "a power to a player)")
    opening = openings.opening_of(session, game, seat)
    if opening is None:
        raise CommandError(f"{power} in {game.name} has a player: only a power its player left may be taken "
                           f"over{open_list(ctx, game)}. {reach_gm(game)}")
    policy = services.settings_of(game).takeover.policy
    if policy is TakeoverPolicy.NONE:
        raise CommandError(f"{power} in {game.name} has no player, but in {game.name} only the game master "
                           "gives a power a new player")
    player = player_for(services, session, ctx.sender)
    if not openings.offered_to_everyone(services, game, opening) and opening.offered_to != player.id:
        raise CommandError(f"{power} in {game.name} is offered first to those who stand by; it is open to "
                           f"everyone from {openings.when(services, game, opening.offer_until, player)} at the "
                           f"latest (STANDBY {game.name}: to be asked first when a power of it opens)")
    if policy is TakeoverPolicy.OPEN:
        taken = take_over(ctx, game, opening, player, ctx.sender)
        ctx.enter(game, taken.seat)
        return [wrap(f"You now play {power} in {game.name}. Your secret, the board and {power}'s orders as they "
                     "stand are in a mail of their own, on its way to you; the lines after this one act as "
                     f"{power}.")]
    return _ask(ctx, game, opening, player, power)


def _ask(ctx: MailContext, game: Game, opening: Opening, player: Player, power: str) -> list[str]:
    services, session = ctx.services, ctx.session
    if any(r.opening_id == opening.id and r.player_id == player.id for r in openings.waiting_asks(session, game)):
        return [wrap(f"You have asked to take over {power} in {game.name} already; its game master decides.")]
    session.add(TakeoverRequest(game_id=game.id, opening_id=opening.id, player_id=player.id,
                                asked_at=services.clock.now(), outcome="", decided_by=""))
    if opening.offered_to == player.id:
        opening.offer_until = None  # the standby answered: its turn holds while the GM decides
    services.audit(session, game, ctx.sender, "takeover-asked", power=power)
    record = records.by_player(session, [player.id])[player.id]
    history = (f"On this judge {player.email} has played in {record.games} game{'s' if record.games != 1 else ''}: "
               f"deadlines {record.tally}" + (f"; left {record.left} before the end" if record.left else "") + "."
               ) if record.games else f"{player.email} has not played on this judge before."
    tell_gm(services, session, game, subject=f"{game.name}: {player.email} asks to take over {power}",
            text=f"{player.email} asks to take over {power} in {game.name}. {history}\n\n"
                 f"To let them, send APPROVE {player.email} (after SIGNON GM {game.name} <secret>); to say no, "
                 f"REFUSE {player.email}. Your game page lists the asks that wait, with a button for each.")
    return [wrap(f"You have asked to take over {power} in {game.name}. Its game master approves each takeover: "
                 "you will be told by mail.")]


# -- the game master's answer ---------------------------------------------------------------------

class _Answer(Command):
    for_gm = True

    def _request(self, ctx: MailContext, game: Game, args: str) -> tuple[TakeoverRequest, Opening, Player]:
        written, _, rest = args.strip().partition(" ")
        address = mail_address(written)
        if address is None:
            raise CommandError(f"write {self.usage} (a plain address, as name@example.org)")
        openings.settle(ctx.services, ctx.session, game)  # asks for powers no longer open have lapsed
        waiting = [r for r in openings.waiting_asks(ctx.session, game)
                   if (p := ctx.session.get(Player, r.player_id)) is not None and p.email == address]
        if rest.strip():
            power = power_named(game, ctx.services.variant_of(game), rest.strip())
            waiting = [r for r in waiting if _power_asked(ctx, game, r) == power]
        if not waiting:
            asks = [f"{ctx.session.get(Player, r.player_id).email} for {_power_asked(ctx, game, r)}"  # type: ignore[union-attr]
                    for r in openings.waiting_asks(ctx.session, game)]
            raise CommandError(f"no ask from {address} waits in {game.name}"
                               + (f" (asks waiting: {'; '.join(asks)})" if asks else " (no ask waits)"))
        if len(waiting) > 1:
            powers = ", ".join(str(_power_asked(ctx, game, r)) for r in waiting)
            raise CommandError(f"{address} asked for {powers}: write {self.name} {address} <power>")
        request = waiting[0]
        opening = ctx.session.get(Opening, request.opening_id)
        player = ctx.session.get(Player, request.player_id)
        assert opening is not None and player is not None
        return request, opening, player


def _power_asked(ctx: MailContext, game: Game, request: TakeoverRequest) -> str | None:
    opening = ctx.session.get(Opening, request.opening_id)
    seat = openings.holder(game, opening) if opening is not None else None
    return seat.power if seat is not None else None


class Approve(_Answer):
    name = "APPROVE"
    usage = "APPROVE <address> [power]"
    summary = "let an address that asked to take over an open power play it (the GM; REFUSE says no)"

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game = ctx.require_gm()
        request, opening, player = self._request(ctx, game, invocation.args)
        if not openings.still_open(game, opening):
            openings.settle(ctx.services, ctx.session, game)
            raise CommandError(f"{_power_asked(ctx, game, request) or 'that power'} no longer waits for a player")
        playing = next((s.power for s in current_seats(game) if s.player_id == player.id), None)
        if playing is not None:
            raise CommandError(f"{player.email} plays {playing} in {game.name} now: one power to a player")
        taken = take_over(ctx, game, opening, player, ctx.actor)
        return [wrap(f"{player.email} now plays {taken.seat.power} in {game.name}, and has been sent its secret; "
                     "everyone has been told.")]


class Refuse(_Answer):
    name = "REFUSE"
    aliases = ("DENY",)
    usage = "REFUSE <address> [power]"
    summary = "say no to an address that asked to take over an open power (the GM; it is told)"

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game = ctx.require_gm()
        request, opening, player = self._request(ctx, game, invocation.args)
        power = _power_asked(ctx, game, request)
        request.outcome, request.decided_at, request.decided_by = "refused", ctx.now, ctx.actor
        ctx.services.audit(ctx.session, game, ctx.actor, "takeover-refused", power=power, player=player.email)
        openings.tell(ctx.services, ctx.session, game, player, f"{game.name}: your ask to take over {power}",
                      f"The game master of {game.name} has not accepted your ask to take over {power}. "
                      "Thank you for offering.")
        if opening.offered_to == player.id and opening.public_at is None:
            openings.advance(ctx.services, ctx.session, game, opening)  # the next standby's turn
        return [wrap(f"{player.email} has been told that it will not play {power} in {game.name}.")]


# -- standing by ----------------------------------------------------------------------------------

OFF_WORDS = ("OFF", "NO", "STOP")


class StandBy(Command):
    name = "STANDBY"
    aliases = ("STAND-BY",)
    usage = "STANDBY [game]   (STANDBY OFF [game], or UNSTANDBY, to leave)"
    summary = ("stand by to take over a power whose player leaves, in one game or any: when one opens "
               "you are asked first, in turn, before everyone")
    off = False

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        words = invocation.args.split()
        off = self.off or (bool(words) and words[0].upper() in OFF_WORDS)
        if words and words[0].upper() in OFF_WORDS:
            words = words[1:]
        if len(words) > 1:
            raise CommandError(f"write {self.usage}")
        game = None
        if words:
            game = game_seen_by(ctx.services, ctx.session, words[0], ctx.sender, lock=True)
            if game is None:
                raise CommandError(no_such_game(words[0]))
        return [wrap(line) for line in (self._leave(ctx, game) if off else self._join(ctx, game))]

    def _join(self, ctx: MailContext, game: Game | None) -> list[str]:
        services, session = ctx.services, ctx.session
        player = player_for(services, session, ctx.sender)
        if game is not None:
            if game.status == GameStatus.FINISHED:
                raise CommandError(f"{game.name} is over")
            playing = next((s.power for s in current_seats(game) if s.player_id == player.id), None)
            if playing is not None:
                raise CommandError(f"you play {playing} in {game.name}: one power to a player")
        mine = [s for s in openings.standbys(session, game) if s.player_id == player.id]
        if not mine:
            session.add(Standby(player_id=player.id, game_id=game.id if game else None, created_at=ctx.now))
            session.flush()
            services.audit(session, game, ctx.sender, "standby", any_game=game is None)
        listed = openings.standbys(session, game)
        place = next(i for i, s in enumerate(listed, 1) if s.player_id == player.id)
        where = f"for {game.name}" if game else "for any game on this judge"
        lines = [f"You stand by {where} ({_ordinal(place)} of {len(listed)}): when a power's player leaves it, "
                 "those standing by are asked first, in turn, each with a time to answer, before everyone."]
        if game is None:
            lines.append("A private game asks only those who stand by for it by name.")
        shown = [game] if game is not None else [g for g in session.scalars(select(Game).order_by(Game.name))
                                                 if not services.settings_of(g).private
                                                 and g.status in (GameStatus.ACTIVE, GameStatus.PAUSED)]
        for each in shown:
            for power, _ in openings.open_powers(services, session, each):
                lines.append(f"Open now: {power} in {each.name} (JOIN {each.name} {power}).")
        lines.append("STANDBY OFF" + (f" {game.name}" if game else "") + " takes you off the list.")
        return lines

    def _leave(self, ctx: MailContext, game: Game | None) -> list[str]:
        services, session = ctx.services, ctx.session
        player = session.scalar(select(Player).where(Player.email == ctx.sender))
        where = f"for {game.name}" if game else "for any game"
        if player is None:
            return [f"You did not stand by {where}."]
        entries = list(session.scalars(select(Standby).where(Standby.player_id == player.id)))
        gone = [e for e in entries if game is None or e.game_id == game.id]
        for entry in gone:
            session.delete(entry)
        passed = _pass_offers(ctx, player, game)
        services.audit(session, game, ctx.sender, "standby-off", any_game=game is None, passed=[p for _, p in passed])
        lines = []
        lines.append(f"You no longer stand by {where}." if gone else f"You did not stand by {where}.")
        lines += [f"{power} in {name} is offered to the next one now." for name, power in passed]
        return lines


class UnStandBy(StandBy):
    name = "UNSTANDBY"
    aliases = ()
    usage = "UNSTANDBY [game]"
    summary = "leave the standby list (of one game, or of every game)"
    off = True


def _pass_offers(ctx: MailContext, player: Player, game: Game | None) -> list[tuple[str, str]]:
    """The offers it holds (of ``game``, or of every game) pass on: (game, power) each."""
    passed = []
    held = ctx.session.scalars(select(Opening).where(Opening.offered_to == player.id, Opening.closed_at.is_(None),
                                                     Opening.public_at.is_(None)))
    for opening in list(held):
        if game is not None and opening.game_id != game.id:
            continue
        found = ctx.session.get(Game, opening.game_id)
        locked = find_game(ctx.session, found.name, lock=True) if found is not None else None
        if locked is None:
            continue
        seat = openings.holder(locked, opening)
        if openings.pass_on(ctx.services, ctx.session, locked, opening, player.id):
            passed.append((locked.name, seat.power if seat is not None else "?"))
    return passed


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


__all__ = ["Approve", "Refuse", "StandBy", "UnStandBy", "join_started", "take_over"]
