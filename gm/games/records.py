"""The record of who kept their deadlines: for each processed phase that wanted a power's
orders, whether the player holding its seat had them in by the deadline (kept), only in the
grace after it (late), or not at all (missed), kept per seat and player (``DeadlineRecord``).

A phase rolled back no longer counts. A seat's tenure is the seat and its player: a seat
left vacant and given to a new player (REPLACE, a takeover) counts the new player's deadlines
apart from the phases it was vacant. What LIST, SUMMARY, the GM's STATUS and the pages show
is read from here."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from gm.adjudicator.variant import Variant
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.games.context import Services
from gm.games.lifecycle import seat_of
from gm.games.orderbook import needed
from gm.store.models import DeadlineOutcome, DeadlineRecord, Game, OrderSet, PhaseRecord, Seat, SeatStatus


@dataclass(frozen=True)
class Tally:
    kept: int = 0
    late: int = 0
    missed: int = 0

    @property
    def total(self) -> int:
        return self.kept + self.late + self.missed

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.kept + other.kept, self.late + other.late, self.missed + other.missed)

    def __str__(self) -> str:
        if not self.total:
            return "none yet"
        parts = [f"{self.kept} kept"] + ([f"{self.late} late"] if self.late else []) + [f"{self.missed} missed"]
        return ", ".join(parts)

    @classmethod
    def of(cls, counts: dict[str, int]) -> Tally:
        return cls(counts.get(DeadlineOutcome.KEPT, 0), counts.get(DeadlineOutcome.LATE, 0),
                   counts.get(DeadlineOutcome.MISSED, 0))


# -- written as a phase is processed ------------------------------------------------------------

_SETS = (select(OrderSet.power, OrderSet.version, OrderSet.lines, OrderSet.submitted_at)  # built once
         .where(OrderSet.game_id == bindparam("game"), OrderSet.phase_seq == bindparam("seq"))
         .order_by(OrderSet.power, OrderSet.version))


def note_deadlines(services: Services, session: Session, game: Game, record: PhaseRecord, variant: Variant,
                   position: Position) -> None:
    """Record, for each power ``position`` (the phase processed) wanted orders of, how its seat
    kept the deadline. A power with nothing to choose (every unit removed) owes nothing."""
    wanted = needed(variant, position)
    if not wanted:
        return
    sets: dict[str, list[tuple[list[str], datetime]]] = {}
    for power, _, lines, at in session.execute(_SETS, {"game": game.id, "seq": record.seq}):
        sets.setdefault(power, []).append((list(lines or []), at))
    for power, count in wanted.items():
        seat = seat_of(game, power)
        if seat is None or seat.status == SeatStatus.ELIMINATED or _nothing_to_choose(variant, position, power, count):
            continue
        session.add(DeadlineRecord(game_id=game.id, phase_id=record.id, seat_id=seat.id, player_id=seat.player_id,
                                   power=power, outcome=_outcome(sets.get(power, []), record.deadline)))


def _nothing_to_choose(variant: Variant, position: Position, power: str, count: int) -> bool:
    if position.phase.kind is not PhaseKind.ADJUSTMENTS or count < len(position.units_of(power)):
        return False
    return any(a.power == power and a.count < 0 for a in variant.adjustments(position))


def _outcome(sets: list[tuple[list[str], datetime]], deadline: datetime | None) -> str:
    """Kept: the orders standing at the deadline were some; late: only those given after it."""
    standing: list[str] = []
    for lines, at in sets:
        if deadline is None or at <= deadline:
            standing = lines
    if standing:
        return DeadlineOutcome.KEPT
    return DeadlineOutcome.LATE if sets and sets[-1][0] else DeadlineOutcome.MISSED


# -- read ----------------------------------------------------------------------------------------

_COUNTED = DeadlineRecord.phase_id.in_(select(PhaseRecord.id).where(PhaseRecord.rolled_back.is_(False)))


def by_seat(session: Session, game: Game) -> dict[tuple[int, int | None], Tally]:
    """Each tenure's tally in the game: by (seat id, player id; None while vacant)."""
    counts: dict[tuple[int, int | None], dict[str, int]] = {}
    for seat_id, player_id, outcome, number in session.execute(
            select(DeadlineRecord.seat_id, DeadlineRecord.player_id, DeadlineRecord.outcome, func.count())
            .where(DeadlineRecord.game_id == game.id, _COUNTED)
            .group_by(DeadlineRecord.seat_id, DeadlineRecord.player_id, DeadlineRecord.outcome)):
        counts.setdefault((seat_id, player_id), {})[outcome] = number
    return {key: Tally.of(value) for key, value in counts.items()}


def of_seat(tallies: dict[tuple[int, int | None], Tally], seat: Seat) -> Tally:
    """The tally of the seat's present player (none for a vacant seat)."""
    return tallies.get((seat.id, seat.player_id), Tally()) if seat.player_id is not None else Tally()


@dataclass(frozen=True)
class PlayerRecord:
    """A player's deadlines across the games on this judge, and how many seats it left early."""

    tally: Tally
    games: int
    left: int


def by_player(session: Session, player_ids: Iterable[int]) -> dict[int, PlayerRecord]:
    wanted = sorted(set(player_ids))
    if not wanted:
        return {}
    counts: dict[int, dict[str, int]] = {}
    for player_id, outcome, number in session.execute(
            select(DeadlineRecord.player_id, DeadlineRecord.outcome, func.count())
            .where(DeadlineRecord.player_id.in_(wanted), _COUNTED)
            .group_by(DeadlineRecord.player_id, DeadlineRecord.outcome)):
        counts.setdefault(player_id, {})[outcome] = number
    games = dict(session.execute(select(Seat.player_id, func.count(func.distinct(Seat.game_id)))
                                 .where(Seat.player_id.in_(wanted)).group_by(Seat.player_id)).all())
    left = dict(session.execute(select(Seat.player_id, func.count())
                                .where(Seat.player_id.in_(wanted), Seat.left_at.is_not(None))
                                .group_by(Seat.player_id)).all())
    return {p: PlayerRecord(Tally.of(counts.get(p, {})), games.get(p, 0), left.get(p, 0)) for p in wanted}
