"""Powers open for takeover, and the standby list that is asked first.

A power is *open* when its player resigned, was ejected, or abandoned it (the game's
``missed:`` policy put it in civil disorder, or paused the game for a replacement). Once open
it is offered, in order, to the addresses standing by for this game or for any game (not for a
private game: those only by its name, from inside it), each in turn for the game's
``takeover: standby`` time to answer; then to everyone (``Opening.public_at``): LIST, the game's
page and an announcement to the game say so, and anyone not playing in the game may ask for it
with ``JOIN <game> <power>``. The game's ``takeover:`` policy says what an ask does (taken at
once, or the GM approves; gm.commands.takeover); ``none`` offers nothing (only REPLACE).

An opening ends when someone takes the power, or when it no longer wants a player: the player
came back from civil disorder, the GM resumed the game with the player or gave the power away
(REPLACE), the game ended. ``settle`` closes such openings and tells whoever was waiting.

This follows the classic judges: njudge lets anyone sign on to an abandoned power and lists
them; DPjudge offers TAKEOVER; hobby GMs keep standby lists and ask them first. gm goes further
in asking the standbys one at a time by itself, with a time to answer each, and in a GM who
approves by one word.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.mailer import format_moment, reader_zone
from gm.games.notices import tell_everyone
from gm.settings.model import TakeoverPolicy
from gm.store.models import (
    Game,
    GameStatus,
    Opening,
    OpeningReason,
    Player,
    Seat,
    SeatStatus,
    Standby,
    TakeoverRequest,
)

WAITING = "waiting for a replacement for {power}"  # the reason a game pauses for an abandoned power


def waiting_for(power: str | None) -> str:
    """Why a game is paused when its ``missed:`` policy waits for a new player of ``power``."""
    return WAITING.format(power=power)


# -- what is open -------------------------------------------------------------------------------

def holder(game: Game, opening: Opening) -> Seat | None:
    """The seat that holds the opening's power now."""
    from gm.games.lifecycle import current_seats  # lifecycle loads the adjudicator: a tick asks `due` alone

    return next((s for s in current_seats(game) if s.power_key == opening.power_key), None)


def still_open(game: Game, opening: Opening) -> bool:
    """Whether the power still wants a player (see the module)."""
    if opening.closed_at is not None or game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return False
    seat = holder(game, opening)
    if seat is None:
        return False
    if seat.player is None:
        return seat.status == SeatStatus.VACANT
    if seat.id != opening.seat_id:
        return False  # a new player holds it
    return seat.status == SeatStatus.CIVIL_DISORDER or (
        game.status == GameStatus.PAUSED and game.paused_reason == waiting_for(seat.power))


def openings_of(session: Session, game: Game) -> list[Opening]:
    """The game's openings not closed, still open or not (``settle`` closes the others)."""
    return list(session.scalars(select(Opening).where(Opening.game_id == game.id, Opening.closed_at.is_(None))
                                .order_by(Opening.id)))


def live(session: Session, game: Game) -> list[Opening]:
    return [o for o in openings_of(session, game) if still_open(game, o)]


def offered_to_everyone(services: Services, game: Game, opening: Opening) -> bool:
    return opening.public_at is not None and services.settings_of(game).takeover.policy is not TakeoverPolicy.NONE


def open_powers(services: Services, session: Session, game: Game) -> list[tuple[str, Opening]]:
    """The powers anyone may ask to take over now, by name, with their openings."""
    found = []
    for opening in live(session, game):
        seat = holder(game, opening)
        if seat is not None and seat.power and offered_to_everyone(services, game, opening):
            found.append((seat.power, opening))
    return sorted(found, key=lambda pair: pair[0])


def opening_of(session: Session, game: Game, seat: Seat) -> Opening | None:
    """The live opening of the power ``seat`` holds."""
    return next((o for o in live(session, game) if o.power_key == seat.power_key), None)


def waiting_asks(session: Session, game: Game, *, open_only: bool = False) -> list[TakeoverRequest]:
    """The asks not answered yet (``open_only``: of powers still open: those the GM may answer)."""
    found = list(session.scalars(select(TakeoverRequest).where(
        TakeoverRequest.game_id == game.id, TakeoverRequest.outcome == "").order_by(TakeoverRequest.id)))
    if open_only:
        still = {o.id for o in live(session, game)}
        found = [r for r in found if r.opening_id in still]
    return found


def policy_words(services: Services, game: Game) -> str:
    """What an ask for an open power does in this game, in words."""
    policy = services.settings_of(game).takeover.policy
    if policy is TakeoverPolicy.OPEN:
        return "the first to ask takes it"
    if policy is TakeoverPolicy.GM:
        return "the game master approves each takeover"
    return "only the game master gives it a new player"


def gm_hint(services: Services, game: Game, power: str) -> str:
    """What the GM may do about an open power, for the mails that tell the GM of one."""
    policy = services.settings_of(game).takeover.policy
    replace = f"give it to someone with REPLACE {power} <address>"
    if policy is TakeoverPolicy.GM:
        return (f"{power} is open for takeover: you will be told of each ask, and answer with APPROVE <address> "
                f"or REFUSE <address>; or {replace}.")
    if policy is TakeoverPolicy.OPEN:
        return f"{power} is open for takeover: the first to ask (JOIN {game.name} {power}) takes it; or {replace}."
    return f"The game's takeover setting is none: {replace}."


# -- opening, offering, closing -----------------------------------------------------------------

def open_power(services: Services, session: Session, game: Game, seat: Seat, reason: str) -> Opening | None:
    """``seat``'s power is open from now (``seat``: the seat its player left, or holds while it
    abandoned the power); the standbys are asked, or everyone told. None in a game not in play."""
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED) or not seat.power:
        return None
    for opening in openings_of(session, game):
        if opening.power_key == seat.power_key:
            return opening  # open already
    opening = Opening(game_id=game.id, power_key=seat.power_key, seat_id=seat.id, reason=reason,
                      opened_at=services.clock.now(), asked=[], closed_why="")
    session.add(opening)
    session.flush()
    services.audit(session, game, "system", "power-open", power=seat.power, reason=reason)
    advance(services, session, game, opening)
    return opening


def open_abandoned(services: Services, session: Session, game: Game) -> None:
    """Open each power whose player the game's ``missed:`` policy gave up on: left in civil
    disorder, or waited for with the game paused (open already: left as it is)."""
    from gm.games.lifecycle import current_seats

    for seat in current_seats(game):
        if seat.player is not None and seat.power and (seat.status == SeatStatus.CIVIL_DISORDER or (
                game.status == GameStatus.PAUSED and game.paused_reason == waiting_for(seat.power))):
            open_power(services, session, game, seat, OpeningReason.ABANDONED)


def advance(services: Services, session: Session, game: Game, opening: Opening) -> None:
    """Move the offer along: close it if the power no longer wants a player; while a standby's
    turn (or an ask it made) runs, nothing; else the next standby's turn, or everyone's."""
    if opening.closed_at is not None:
        return
    if not still_open(game, opening):
        close(services, session, game, opening, _why_closed(game, opening))
        return
    if opening.public_at is not None:
        return
    now = services.clock.now()
    settings = services.settings_of(game)
    if opening.offered_to is not None and (
            (opening.offer_until is not None and opening.offer_until > now) or _asked_by(session, opening, opening.offered_to)):
        return
    nxt = None if settings.takeover.policy is TakeoverPolicy.NONE else next_standby(session, services, game, opening)
    if nxt is not None:
        opening.offered_to = nxt.id
        opening.offer_until = now + settings.takeover.standby
        opening.asked = [*opening.asked, nxt.id]
        _offer(services, session, game, opening, nxt)
        return
    opening.offered_to = None
    opening.offer_until = None
    opening.public_at = now
    seat = holder(game, opening)
    power = seat.power if seat is not None else "?"
    services.audit(session, game, "system", "power-offered", power=power)
    if settings.takeover.policy is TakeoverPolicy.NONE:
        return
    tell_everyone(services, session, game, template="mail/announcement.txt.j2", kind="open-power",
                  subject=f"{game.name}: {power} is open to take over",
                  text=f"{power} has no player now. Anyone who does not play in {game.name} may take it over "
                       f"by mailing JOIN {game.name} {power} to {services.config.judge_address} "
                       f"({policy_words(services, game)}). Know someone who would? Tell them.",
                  deadline=game.deadline if game.status == GameStatus.ACTIVE else None)


def pass_on(services: Services, session: Session, game: Game, opening: Opening, player_id: int) -> bool:
    """The standby whose turn it is does not want it: the next one's turn now. Whether it was theirs."""
    if opening.offered_to != player_id or opening.public_at is not None:
        return False
    opening.offer_until = services.clock.now()
    _lapse(services, session, game, opening, player_id, "passed")
    advance(services, session, game, opening)
    return True


def close(services: Services, session: Session, game: Game, opening: Opening, why: str,
          taker: int | None = None) -> None:
    """The opening ends (``why``: taken, returned, replaced, ended); whoever still waited for it
    (a standby's turn, an ask not decided) but ``taker`` is told."""
    opening.closed_at = services.clock.now()
    opening.closed_why = why
    opening.offer_until = None
    seat = holder(game, opening)
    power = seat.power if seat is not None else None
    waiting = {r.player_id: r for r in waiting_asks(session, game) if r.opening_id == opening.id}
    told = set(waiting)
    if opening.offered_to is not None:
        told.add(opening.offered_to)
    for request in waiting.values():
        if request.player_id != taker:
            request.outcome = "lapsed"
            request.decided_at = opening.closed_at
    services.audit(session, game, "system", "power-closed", power=power, why=why)
    text = {
        "taken": f"{power} in {game.name} has been taken over by another player.",
        "returned": f"{power} in {game.name} is played by its player again.",
        "replaced": f"The game master of {game.name} has given {power} to a new player.",
    }.get(why, f"{game.name} no longer has {power} to take over.")
    for player_id in told - {taker}:
        player = session.get(Player, player_id)
        if player is not None:
            tell(services, session, game, player, f"{game.name}: {power or 'the power'} is no longer open",
                  text + " Thank you for offering; your ask ends here.")


def settle(services: Services, session: Session, game: Game) -> None:
    """Close every opening whose power no longer wants a player (see the module)."""
    for opening in openings_of(session, game):
        if not still_open(game, opening):
            close(services, session, game, opening, _why_closed(game, opening))


def _why_closed(game: Game, opening: Opening) -> str:
    seat = holder(game, opening)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED) or seat is None:
        return "ended"
    if seat.id == opening.seat_id and seat.player is not None:
        return "returned"
    return "replaced"


def due(session: Session, now: datetime, among: list[int] | None = None) -> list[int]:
    """The openings whose standby's time to answer is over (the scheduler passes them on), of
    ``among`` when given."""
    query = select(Opening.id).where(Opening.closed_at.is_(None), Opening.offer_until <= now)
    if among is not None:
        query = query.where(Opening.id.in_(among))
    return list(session.scalars(query.order_by(Opening.offer_until)))


def _asked_by(session: Session, opening: Opening, player_id: int) -> bool:
    return session.scalar(select(TakeoverRequest.id).where(
        TakeoverRequest.opening_id == opening.id, TakeoverRequest.player_id == player_id,
        TakeoverRequest.outcome == "").limit(1)) is not None


def _lapse(services: Services, session: Session, game: Game, opening: Opening, player_id: int, outcome: str) -> None:
    for request in session.scalars(select(TakeoverRequest).where(
            TakeoverRequest.opening_id == opening.id, TakeoverRequest.player_id == player_id,
            TakeoverRequest.outcome == "")):
        request.outcome = outcome
        request.decided_at = services.clock.now()


# -- the standby list ---------------------------------------------------------------------------

def standbys(session: Session, game: Game | None) -> list[Standby]:
    """Who stands by for ``game`` (by its name) or for any game (``game`` None), in order."""
    where = Standby.game_id.is_(None) if game is None else Standby.game_id == game.id
    return list(session.scalars(select(Standby).where(where).order_by(Standby.created_at, Standby.id)))


def standby_order(services: Services, session: Session, game: Game) -> Iterator[Standby]:
    """The list a power of ``game`` is offered to, in order: those standing by for it, and for
    any game (a private game only by its name: to nobody else is it there)."""
    named = standbys(session, game)
    anyone = [] if services.settings_of(game).private else standbys(session, None)
    yield from sorted(named + anyone, key=lambda s: (s.created_at, s.id))


def next_standby(session: Session, services: Services, game: Game, opening: Opening) -> Player | None:
    """The first standby not asked yet for this opening who may play it: not playing in the game
    already, and not the player who left it."""
    from gm.games.lifecycle import current_seats

    playing = {s.player_id for s in current_seats(game) if s.player_id is not None}
    left = {s.player_id for s in game.seats if s.power_key == opening.power_key and s.player_id is not None}
    for entry in standby_order(services, session, game):
        if entry.player_id in opening.asked or entry.player_id in playing or entry.player_id in left:
            continue
        player = session.get(Player, entry.player_id)
        if player is not None:
            return player
    return None


def _offer(services: Services, session: Session, game: Game, opening: Opening, player: Player) -> None:
    seat = holder(game, opening)
    power = seat.power if seat is not None else "?"
    settings = services.settings_of(game)
    zone = reader_zone(player.timezone, settings.schedule.zone.key)
    services.audit(session, game, "system", "power-offered-to-standby", power=power, player=player.email)
    services.mailer.queue(
        session, to=player.email, subject=f"{services.config.judge_name}: {game.name}: {power} is yours to take over",
        template="mail/standby_offer.txt.j2", kind="standby-offer", game_id=game.id, game=game, zone=zone,
        power=power, variant=services.variant_of(game), until=opening.offer_until,
        approves=settings.takeover.policy is TakeoverPolicy.GM, deadline=game.deadline,
        named=any(s.player_id == player.id and s.game_id == game.id for s in standbys(session, game)))


def tell(services: Services, session: Session, game: Game, player: Player, subject: str, text: str) -> None:
    """A mail about a takeover to ``player`` (an asker, a standby), in its own zone."""
    services.mailer.queue(
        session, to=player.email, subject=f"{services.config.judge_name}: {subject}",
        template="mail/announcement.txt.j2", kind="takeover", game_id=game.id, game=game,
        zone=reader_zone(player.timezone, services.settings_of(game).schedule.zone.key), text=text, deadline=None)


def when(services: Services, game: Game, moment: datetime | None, player: Player | None = None) -> str:
    zone = reader_zone(player.timezone if player else None, services.settings_of(game).schedule.zone.key)
    return format_moment(moment, zone)
