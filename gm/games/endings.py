"""The game master ends a game before its time (TERMINATE), or takes back its start (UNSTART).

TERMINATE ends a game now, unfinished, as njudge's master command does: it is finished, its end
mailed to everyone and shown on its page with the GM's reason, the board as it stands (a game
that rolls dice publishes its seed, as at any end). ROLLBACK can still bring a terminated game
back to a phase it played, as any finished game.

UNSTART returns a started game to forming before its first phase is adjudicated (njudge's
UNSTART): every player keeps a seat; where the powers were drawn at the start they are drawn
again at the next (a player's own choice of power, where the players found theirs, is kept);
the orders given are forgotten, the press stays; a power open to take over is open no more (a
seat without a player is freed for JOIN). It starts again as a forming game does: START, or by
itself when full (``start: when-full``) once its settings are changed.
"""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from gm.games import openings
from gm.games.context import Services
from gm.games.lifecycle import GameError, current_seats, finish
from gm.games.notices import tell_everyone
from gm.settings.model import StartPolicy
from gm.store.models import Game, GameStatus, OrderSet, PhaseRecord, SeatStatus
from gm.variants.setup import setup_of

TERMINATED = "terminated"  # Game.result's kind


def terminate(services: Services, session: Session, game: Game, reason: str, actor: str) -> None:
    if game.status == GameStatus.FINISHED:
        raise GameError(f"game {game.name} is over already")
    if not reason.strip():
        raise GameError("say why, for everyone: TERMINATE <reason>")
    finish(services, session, game, {"kind": TERMINATED, "reason": reason.strip(), "phase": game.phase}, actor=actor)
    openings.settle(services, session, game)  # no power is open to take over in a game that is over


def unstart(services: Services, session: Session, game: Game, actor: str) -> None:
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        raise GameError(f"game {game.name} is {game.status}: UNSTART takes back the start of a game in play")
    if session.scalar(select(PhaseRecord.id).where(PhaseRecord.game_id == game.id).limit(1)) is not None:
        raise GameError(f"a phase of {game.name} has been adjudicated: UNSTART only comes before the first "
                        "(ROLLBACK returns to an earlier phase)")
    variant = services.variant_of(game)
    now = services.clock.now()
    session.execute(delete(OrderSet).where(OrderSet.game_id == game.id))
    for seat in current_seats(game):
        if seat.player is None:  # a power left without a player: the seat is open to JOIN again
            seat.left_at = now
            continue
        if not setup_of(variant).open_membership:
            seat.power = None  # drawn again at the start
        seat.status = SeatStatus.ACTIVE
        seat.draw_vote, seat.draw_with, seat.concede_to = False, None, None
        seat.wait_seq = seat.ready_seq = None
        seat.missed = seat.missed_in_row = 0
    game.status = GameStatus.FORMING
    game.position = None
    game.phase = None
    game.phase_seq = 0
    game.phase_started_at = game.deadline = game.deadline_unheld = game.due_at = game.orders_complete_at = None
    game.notices = {}
    game.paused_reason = ""
    openings.settle(services, session, game)  # a forming game has no power open to take over
    services.audit(session, game, actor, "unstarted")
    again = ("START starts it again" if services.settings_of(game).start is StartPolicy.MANUAL
             else "it starts again when its game master sends START, or by itself once its settings change")
    drawn = ("each player keeps the power it founded" if setup_of(variant).open_membership
             else "the powers are drawn again when it starts")
    tell_everyone(services, session, game, template="mail/announcement.txt.j2", kind="unstart",
                  subject=f"{game.name} is forming again", deadline=None,
                  text=f"The game master has taken back the start of {game.name}: it is forming again, before its "
                       f"first phase was adjudicated. Every player keeps a seat; {drawn}; the orders given so far "
                       f"are forgotten. {again[0].upper()}{again[1:]}.")
