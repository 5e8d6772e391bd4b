"""Draws and concessions: the game ends when every surviving power agrees.

A draw vote is for a draw shared by every surviving power (DRAW alone, DIAS), or, where the
game's ``draw: among: any`` allows it, by the powers it names only (DRAW <power> <power> ...,
as njudge's and the DPjudge's NoDIAS draws): the game ends in a draw when every surviving
power has voted for the same powers, a vote for every survivor counting as a vote naming them
all. A named draw is shared by two powers or more, all still in the game; the variant's rules
may allow no draw among some (Variant.draw_problem)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.lifecycle import GameError, current_seats, finish, power_named, seat_of
from gm.games.notices import tell_everyone
from gm.settings.model import DrawAmong, VoteVisibility
from gm.store.models import Game, GameStatus, Seat, SeatStatus


def survivors(services: Services, game: Game) -> list[str]:
    alive = services.variant_of(game).in_play(services.position_of(game))
    return [s.power for s in current_seats(game) if s.power in alive]


def vote_draw(services: Services, session: Session, game: Game, power: str, agree: bool,
              among: list[str] | None = None) -> bool:
    """Record a power's draw vote (``among``: the powers it names; None: every survivor);
    returns True when the game has ended in a draw."""
    seat = _voter(services, game, power)
    alive = survivors(services, game)
    named = _named_draw(services, game, among, alive) if agree else None
    problem = services.variant_of(game).draw_problem(named or alive) if agree else None
    if problem:
        raise GameError(problem)
    seat.draw_vote = agree
    seat.draw_with = named
    services.audit(session, game, seat.player.email if seat.player else power, "draw-vote", power=power, agree=agree,
                   among=named)
    settings = services.settings_of(game)
    if settings.draw.votes is VoteVisibility.OPEN:
        what = f"a draw shared by {', '.join(named)} only" if named else "a draw"
        tell_everyone(services, session, game, template="mail/announcement.txt.j2", kind="vote",
                      subject=f"{game.name}: draw vote", deadline=None,
                      text=f"{power} {'votes for' if agree else 'withdraws its vote for'} {what}.")
    shared = agreed_draw(services, game)
    if agree and shared is not None:
        result: dict[str, object] = {"kind": "draw", "powers": shared}
        if len(shared) < len(alive):
            result["excluded"] = sorted(p for p in alive if p not in shared)
        finish(services, session, game, result, actor=power)
        return True
    return False


def draw_of(seat: Seat, alive: list[str]) -> list[str]:
    """The powers a seat's draw vote is for (its vote for every survivor: those now)."""
    return sorted(seat.draw_with) if seat.draw_with else sorted(alive)


def agreed_draw(services: Services, game: Game) -> list[str] | None:
    """The powers every surviving power votes to share a draw, or None while they do not agree."""
    alive = survivors(services, game)
    seats = [_seat(game, p) for p in alive]
    if not seats or not all(s.draw_vote for s in seats):
        return None
    draws = {tuple(draw_of(s, alive)) for s in seats}
    return list(draws.pop()) if len(draws) == 1 else None


def _named_draw(services: Services, game: Game, among: list[str] | None, alive: list[str]) -> list[str] | None:
    """The powers a vote names, checked (None: a draw among every survivor)."""
    if not among or set(among) == set(alive):
        return None
    if services.settings_of(game).draw.among is DrawAmong.SURVIVORS:
        raise GameError(f"in {game.name} a draw is shared by every surviving power: write DRAW alone "
                        f"(its game master may allow draws among some powers: draw: {{among: any}})")
    out = [p for p in among if p not in alive]
    if out:
        raise GameError(f"{', '.join(out)} {'is' if len(out) == 1 else 'are'} not in the game any more: "
                        "a draw is shared by powers still in it")
    if len(set(among)) < 2:
        raise GameError("a draw is shared by two powers or more (to give one the game: CONCEDE TO it)")
    return [p for p in alive if p in among]


def powers_listed(services: Services, game: Game, text: str) -> list[str]:
    """The powers a vote names, each by its name (of several words too) or initial."""
    variant = services.variant_of(game)
    words = text.replace(",", " ").split()
    found: list[str] = []
    index = 0
    while index < len(words):
        for size in range(min(6, len(words) - index), 0, -1):
            power = power_named(game, variant, " ".join(words[index:index + size]))
            if power is not None:
                if power not in found:
                    found.append(power)
                index += size
                break
        else:
            raise GameError(f"no power {words[index]!r} in {game.name}")
    return found


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
