"""A game in brief, as SUMMARY gives it to anyone who may see the game: its powers, who played
each over time (takeovers included; by name only where the game names its players,
gm.games.reveal) and how each player kept its deadlines (gm.games.records).

Built as data here, written out by gm.commands.summary, so that more can join it (centres year
by year, the settings in brief, the end-of-game statements) without touching the rest."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.games import records
from gm.games.context import Services
from gm.games.records import Tally
from gm.store.models import Game, Opening, OpeningReason, PhaseRecord, Player, Seat, SeatStatus

LEFT = {
    OpeningReason.RESIGNED: "resigned",
    OpeningReason.EJECTED: "removed by the game master",
    OpeningReason.ABANDONED: "stopped sending orders",
}


@dataclass(frozen=True)
class Tenure:
    """One player's time with a power."""

    player: Player
    began: str | None  # the phase it began in (None: from the start)
    ended: str | None  # the phase it ended in (None: plays it still, or to the end)
    left: str  # why it ended, in words ("" while it goes on)
    tally: Tally


@dataclass(frozen=True)
class PowerSummary:
    power: str
    state: str  # "", "eliminated", "no player", "civil disorder"
    tenures: list[Tenure] = field(default_factory=list)
    vacant: Tally = Tally()  # the deadlines while nobody played it


@dataclass(frozen=True)
class GameSummary:
    game: Game
    variant_title: str
    phase_title: str
    powers: list[PowerSummary]


def summarize(services: Services, session: Session, game: Game) -> GameSummary:
    variant = services.variant_of(game)
    tallies = records.by_seat(session, game)
    moments = _phases(session, game)
    left_because = {o.seat_id: LEFT.get(o.reason, o.reason) for o in session.scalars(
        select(Opening).where(Opening.game_id == game.id))}
    by_power: dict[int, list[Seat]] = {}
    for seat in sorted(game.seats, key=lambda s: s.id):
        by_power.setdefault(seat.power_key, []).append(seat)
    powers = []
    for seats in by_power.values():
        current = next((s for s in seats if s.left_at is None), seats[-1])
        if not current.power:
            continue
        tenures = []
        vacant = Tally()
        for seat in seats:
            vacant = vacant + tallies.get((seat.id, None), Tally())
            if seat.player is None:
                continue
            began = None if seat.first_seat_id is None else _title(services, game, _phase_at(moments, game, seat.joined_at))
            ended = _title(services, game, _phase_at(moments, game, seat.left_at)) if seat.left_at else None
            left = left_because.get(seat.id, "replaced by the game master") if seat.left_at else ""
            tenures.append(Tenure(seat.player, began, ended, left, tallies.get((seat.id, seat.player_id), Tally())))
        state = {SeatStatus.ELIMINATED: "eliminated", SeatStatus.VACANT: "no player",
                 SeatStatus.CIVIL_DISORDER: "civil disorder"}.get(current.status, "")
        powers.append(PowerSummary(current.power, state, tenures, vacant))
    order = list(variant.map.powers)
    powers.sort(key=lambda p: (order.index(p.power) if p.power in order else len(order), p.power))
    return GameSummary(game, variant.map.title, _title(services, game, game.phase) or "before the start", powers)


def _phases(session: Session, game: Game) -> list[tuple[datetime, str]]:
    """When each phase in force was processed, in order."""
    return [(at, phase) for at, phase in session.execute(
        select(PhaseRecord.processed_at, PhaseRecord.phase).where(
            PhaseRecord.game_id == game.id, PhaseRecord.rolled_back.is_(False)).order_by(PhaseRecord.seq))]


def _phase_at(moments: list[tuple[datetime, str]], game: Game, moment: datetime) -> str | None:
    """The phase in play at ``moment``: the first processed after it, else the current one."""
    return next((phase for at, phase in moments if at > moment), game.phase)


def _title(services: Services, game: Game, code: str | None) -> str | None:
    if not code:
        return None
    variant = services.variant_of(game)
    return variant.title(variant.calendar.parse(code))
