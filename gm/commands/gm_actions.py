"""What a game master may do to a game. Every action is audited and announced."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.games import openings
from gm.games.context import Services
from gm.games.lifecycle import GameError, current_seats, first_order_example, join, name_rules, player_for, seat_of, start
from gm.games.mailer import reader_zone
from gm.games.names import NameRefused
from gm.games.notices import tell_everyone
from gm.games.orderbook import current_orders, note_orders_changed, recount_ready
from gm.games.passwords import hash_secret, new_secret
from gm.reports.preview import preview_context
from gm.games.schedule import reschedule, start_phase
from gm.store.codec import decode_position, encode_position
from gm.store.models import Game, GameStatus, OrderSet, PhaseRecord, Press, Seat, SeatStatus, new_dice_seed
from gm.variants.setup import setup_of


def _require(game: Game, *statuses: str) -> None:
    if game.status not in statuses:
        raise GameError(f"game {game.name} is {game.status}; this needs it to be {' or '.join(statuses)}")


def process_now(services: Services, session: Session, game: Game, phase: str, actor: str) -> None:
    """Have the current phase processed at once (by the scheduler, within seconds); naming the
    phase guards against processing the wrong one."""
    _require(game, GameStatus.ACTIVE)
    if phase.strip().upper() != (game.phase or "").upper():
        raise GameError(f"the current phase of {game.name} is {game.phase}, not {phase}")
    notices = dict(game.notices or {})
    notices["process_now"] = True
    game.notices = notices
    game.due_at = services.clock.now()
    services.audit(session, game, actor, "process-now", phase=game.phase)


def preview(services: Services, session: Session, game: Game, actor: str) -> None:
    """Mail the GM what processing now would give, changing nothing."""
    _require(game, GameStatus.ACTIVE, GameStatus.PAUSED)
    variant = services.variant_of(game)
    position = services.position_of(game)
    lines = current_orders(session, game)
    orders = [(p, o) for p, texts in lines.items() for o in services.orders_from(game, texts)]
    context = preview_context(variant, position, orders, str(position.phase), game.dice_seed)  # never a die
    services.audit(session, game, actor, "preview", phase=game.phase)
    services.mailer.queue(
        session, to=services.settings_of(game).gm, subject=f"{services.config.judge_name}: PREVIEW {game.name} {game.phase}",
        template="mail/results.txt.j2", kind="preview", game_id=game.id, game=game, seat=None,
        zone=services.settings_of(game).schedule.zone.key, preview=True, deadline=game.deadline, **context,
    )


def rollback(services: Services, session: Session, game: Game, phase: str, actor: str) -> None:
    """Return to the start of an earlier phase, with the orders it had; later phases are set aside."""
    _require(game, GameStatus.ACTIVE, GameStatus.PAUSED, GameStatus.FINISHED)
    records = list(session.scalars(
        select(PhaseRecord).where(PhaseRecord.game_id == game.id, PhaseRecord.rolled_back.is_(False))
        .order_by(PhaseRecord.seq)
    ))
    target = next((r for r in reversed(records) if r.phase.upper() == phase.strip().upper()), None)
    if target is None:
        done = ", ".join(r.phase for r in records) or "none"
        raise GameError(f"{game.name} has no processed phase {phase} to return to (processed: {done})")
    for record in records:
        if record.seq >= target.seq:
            record.rolled_back = True
    last = max([game.phase_seq, *(r.seq for r in records)])
    new_seq = last + 1
    played = set(target.results.get("played", []))  # the judge's orders (missed: play): written again, alike
    for power, lines in target.orders.items():
        if power in played:
            continue
        session.add(OrderSet(game_id=game.id, phase_seq=new_seq, phase=target.phase, power=power, version=1,
                             submitted_text="(restored by rollback)", lines=list(lines), by=actor,
                             submitted_at=services.clock.now()))
    position = decode_position(services.variant_of(game), target.position_before)
    retired = _retire_published_seed(services, game)
    game.position = target.position_before
    game.phase = target.phase
    game.phase_seq = new_seq
    if game.status == GameStatus.FINISHED:
        game.result = None
        game.finished_at = None
    game.status = GameStatus.ACTIVE
    game.paused_reason = ""
    for seat in current_seats(game):
        seat.draw_vote = False
        seat.concede_to = None
    services.audit(session, game, actor, "rollback", to=target.phase, seq=target.seq, new_dice_seed=retired is not None)
    start_phase(services, session, game, position)
    recount_ready(services, session, game)
    note_orders_changed(services, session, game)
    text = (f"The game master has returned {game.name} to the start of "
            f"{services.variant_of(game).title(position.phase)}. The orders given for that phase "
            "are in force again; you may change them.")
    if retired is not None:
        text += ("\n\nThe seed of this game's dice was published when it ended, so every roll to come would "
                 "be known: the game goes on with a new secret seed, published when the game ends again. Its "
                 f"SHA-256 is:\n    {game.dice_commitment}\n\nThe rolls so far were made with the seed "
                 f"published:\n    {retired}")
    tell_everyone(services, session, game, template="mail/announcement.txt.j2", kind="rollback",
                  subject=f"{game.name} rolled back to {target.phase}", text=text, deadline=game.deadline)


def _retire_published_seed(services: Services, game: Game) -> str | None:
    """A finished game whose rules roll dice has published its seed (the end mail): it may go on
    only with a new secret seed, committed to from here on. The seed retired is returned (None:
    the seed was not published, and stays, so that a phase played again rolls as before and a
    rollback can never choose other dice)."""
    if game.status != GameStatus.FINISHED or not services.variant_of(game).rolls_dice:
        return None
    retired = game.dice_seed
    game.dice_seed = new_dice_seed()
    return retired


def pause(services: Services, session: Session, game: Game, actor: str, reason: str = "") -> None:
    _require(game, GameStatus.ACTIVE)
    game.status = GameStatus.PAUSED
    game.paused_reason = reason or "paused by the game master"
    game.due_at = None
    services.audit(session, game, actor, "paused", reason=game.paused_reason)
    tell_everyone(services, session, game, template="mail/announcement.txt.j2", kind="pause",
                  subject=f"{game.name} paused", text=f"{game.name} is paused: {game.paused_reason}.", deadline=None)


def resume(services: Services, session: Session, game: Game, actor: str) -> None:
    _require(game, GameStatus.PAUSED)
    if any(s.status == SeatStatus.VACANT for s in current_seats(game)):
        vacant = ", ".join(s.power or "?" for s in current_seats(game) if s.status == SeatStatus.VACANT)
        raise GameError(f"{vacant} still needs a player (REPLACE power address)")
    game.status = GameStatus.ACTIVE
    game.paused_reason = ""
    for seat in current_seats(game):
        seat.missed_in_row = 0
    openings.settle(services, session, game)  # a power the game waited for goes on with its player
    services.audit(session, game, actor, "resumed")
    start_phase(services, session, game, services.position_of(game))  # a fresh deadline from now
    tell_everyone(services, session, game, template="mail/announcement.txt.j2", kind="resume",
                  subject=f"{game.name} resumed", text=f"{game.name} goes on.", deadline=game.deadline)


def eject(services: Services, session: Session, game: Game, power: str, actor: str, *, tell: bool = True) -> Seat:
    """Remove a player; the power waits, vacant, for a replacement (its units hold meanwhile).
    The player removed is told (``tell``: unless they asked for it, by RESIGN)."""
    seat = _seat(game, power)
    seat.left_at = services.clock.now()
    vacant = Seat(game=game, power=seat.power, player=None, status=SeatStatus.VACANT, secret_hash="",
                  joined_at=services.clock.now(), missed=seat.missed, first_seat_id=seat.power_key)
    session.add(vacant)
    services.audit(session, game, actor, "ejected", power=seat.power,
                   player=seat.player.email if seat.player else None)
    if tell and seat.player is not None:
        settings = services.settings_of(game)
        services.mailer.queue(
            session, to=seat.player.email, subject=f"{services.config.judge_name}: {game.name}: you no longer play {seat.power}",
            template="mail/announcement.txt.j2", kind="removed", game_id=game.id, game=game,
            zone=reader_zone(seat.player.timezone, settings.schedule.zone.key), deadline=None,
            text=f"The game master of {game.name} has removed you from the game: you no longer play "
                 f"{seat.power}, and your secret for it no longer works. Thank you for playing. If you think "
                 f"this is a mistake, write to the game master, {settings.gm}.")
    return vacant


def replace(services: Services, session: Session, game: Game, power: str, email: str, actor: str) -> str:
    """Give a power to a new player; returns the new secret (mailed to the player)."""
    seat = _seat(game, power)
    holding = next((s.power for s in current_seats(game) if s.player and s.player.email == email.strip().lower()), None)
    if holding is not None:
        raise GameError(f"{email} already plays {holding} in {game.name}: one power to a player")
    if seat.player is not None:
        seat = eject(services, session, game, power, actor)
    player = player_for(services, session, email)
    secret = new_secret()
    seat.player = player
    seat.secret_hash = hash_secret(secret)
    seat.status = SeatStatus.ACTIVE
    seat.missed_in_row = 0
    seat.joined_at = services.clock.now()  # the new player's tenure (and its press) begins now
    services.audit(session, game, actor, "replaced", power=seat.power, player=player.email)
    openings.settle(services, session, game)  # an open power given away: whoever waited for it is told
    services.mailer.queue(
        session, to=player.email, subject=f"{services.config.judge_name}: you now play {seat.power} in {game.name}",
        template="mail/joined.txt.j2", kind="joined", game_id=game.id, game=game, secret=secret, secrets=[secret],
        preference=seat.power, power=seat.power, example=first_order_example(services, game, seat.power),
    )
    return secret


def rename(services: Services, session: Session, game: Game, power: str, new: str, actor: str) -> str:
    """Give a power its players founded another name: in the seat, the board, the orders and the
    names kept beside its press; the name as kept (checked and normalised, gm.games.names)."""
    variant = services.variant_of(game)
    if not setup_of(variant).open_membership:
        raise GameError(f"the powers of {variant.name} have the names of its map")
    _require(game, GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED)
    seat = _seat(game, power)
    try:
        new = name_rules(services, game, renaming=seat).check(new)
    except NameRefused as exc:
        raise GameError(str(exc)) from None
    seat.power = new
    if game.position is not None:
        game.position = encode_position(setup_of(variant).renamed(services.position_of(game), power, new))
    for order_set in session.scalars(select(OrderSet).where(OrderSet.game_id == game.id,
                                                            OrderSet.phase_seq == game.phase_seq,
                                                            OrderSet.power == power)):
        order_set.power = new
    _rename_press(session, game, power, new)
    services.audit(session, game, actor, "renamed", power=power, to=new)
    tell_everyone(services, session, game, template="mail/announcement.txt.j2", kind="renamed",
                  subject=f"{game.name}: {power} is now {new}",
                  text=f"The game master has renamed {power}: it is {new} from now on.", deadline=game.deadline)
    return new


def _rename_press(session: Session, game: Game, old: str, new: str) -> None:
    """The names kept beside the press's seats follow the rename (the results that publish held
    press read them); whose press it is does not change."""
    for press in session.scalars(select(Press).where(Press.game_id == game.id)):
        if press.sender_power == old:
            press.sender_power = new
        if old in (press.recipients or []):
            press.recipients = [new if name == old else name for name in press.recipients]


def extend(services: Services, session: Session, game: Game, actor: str,
           deadline: datetime | None = None, by: timedelta | None = None) -> datetime:
    _require(game, GameStatus.ACTIVE)
    if deadline is None:
        if by is None or game.deadline is None:
            raise GameError("say the new deadline or how much longer")
        deadline = game.deadline + by
    if deadline <= services.clock.now():
        raise GameError("the new deadline is in the past")
    services.audit(session, game, actor, "deadline-set", deadline=deadline.isoformat())
    reschedule(services, session, game, reason="set by the game master", deadline=deadline)
    return deadline


def start_now(services: Services, session: Session, game: Game, actor: str) -> None:
    start(services, session, game, actor)


def _seat(game: Game, power: str) -> Seat:
    seat = seat_of(game, power)
    if seat is None:
        powers = ", ".join(sorted(s.power for s in current_seats(game) if s.power))
        raise GameError(f"{game.name} has no power {power!r} (powers: {powers})")
    return seat


__all__ = ["eject", "extend", "join", "pause", "preview", "process_now", "replace", "resume", "rollback", "start_now"]
