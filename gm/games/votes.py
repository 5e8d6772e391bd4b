"""Draws and concessions: the game ends when every surviving power agrees."""

from __future__ import annotations

from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.lifecycle import GameError, current_seats, seat_of
from gm.games.notices import tell_everyone
from gm.games.lifecycle import finish
from gm.settings.model import VoteVisibility
from gm.store.models import Game, GameStatus, Seat, SeatStatus


def survivors(services: Services, game: Game) -> list[str]:
    alive = services.variant_of(game).in_play(services.position_of(game))
    return [s.power for s in current_seats(game) if s.power in alive]


def vote_draw(services: Services, session: Session, game: Game, power: str, agree: bool) -> bool:
    """Record a power's draw vote; returns True when the game has ended in a draw."""
    seat = _voter(services, game, power)
    problem = services.variant_of(game).draw_problem(survivors(services, game)) if agree else None
    if problem:
        raise GameError(problem)
    seat.draw_vote = agree
    services.audit(session, game, seat.player.email if seat.player else power, "draw-vote", power=power, agree=agree)
    settings = services.settings_of(game)
    if settings.draw.votes is VoteVisibility.OPEN:
        tell_everyone(services, session, game, template="mail/announcement.txt.j2", kind="vote",
                      subject=f"{game.name}: draw vote", deadline=None,
                      text=f"{power} {'votes for' if agree else 'withdraws its vote for'} a draw.")
    alive = survivors(services, game)
    if agree and all(_seat(game, p).draw_vote for p in alive):
        finish(services, session, game, {"kind": "draw", "powers": sorted(alive)}, actor=power)
        return True
    return False


def concede(services: Services, session: Session, game: Game, power: str, to_power: str | None) -> bool:
    """A power concedes the game to ``to_power`` (None withdraws); True when all the others have."""
    seat = _voter(services, game, power)
    if to_power is not None and to_power not in survivors(services, game):
        raise GameError(f"{to_power} is not in the game any more")
    if to_power == power:
        raise GameError("a power cannot concede to itself")
    seat.concede_to = to_power
    services.audit(session, game, power, "concede", to=to_power)
    if to_power is None:
        return False
    others = [p for p in survivors(services, game) if p != to_power]
    if all(_seat(game, p).concede_to == to_power for p in others):
        finish(services, session, game, {"kind": "concession", "winner": to_power}, actor=power)
        return True
    return False


def _voter(services: Services, game: Game, power: str) -> Seat:
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        raise GameError(f"game {game.name} is {game.status}")
    seat = _seat(game, power)
    if seat.status == SeatStatus.ELIMINATED:
        raise GameError(f"{power} has been eliminated and has no vote")
    return seat


def _seat(game: Game, power: str) -> Seat:
    seat = seat_of(game, power)
    if seat is None:
        raise GameError(f"{game.name} has no power {power}")
    return seat
