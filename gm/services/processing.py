"""Processing a game's phase: adjudicate, record, move on, and queue every mail it causes.

All of it happens in the caller's one transaction: a crash at any point leaves either the
old phase untouched or the new one complete, mails included (they are rows in the outbox).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from gm.adjudicator.engine import PhaseReport, adjudicate
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.games import openings
from gm.games.context import Services
from gm.games.lifecycle import current_seats, finish, seat_of
from gm.games.notices import Recipient, tell_everyone, tell_gm
from gm.games.press_readers import Reader, addressed_to, mailed_to, signed
from gm.games.orderbook import current_orders, needed
from gm.games.pictures import closes_year
from gm.games.records import note_deadlines
from gm.games.schedule import start_phase
from gm.games.stand_ins import play_missing
from gm.games.summary import year_by_year
from gm.reports.results import results_context
from gm.settings.model import MissedPolicy
from gm.store.codec import encode_position, encode_results, unit_text
from gm.store.models import Game, GameStatus, PhaseRecord, Press, SeatStatus


@dataclass(frozen=True)
class Processed:
    record: PhaseRecord
    report: PhaseReport


def process(services: Services, session: Session, game: Game, actor: str = "system") -> Processed:
    variant = services.variant_of(game)
    position = services.position_of(game)
    given = current_orders(session, game)
    held = held_press(session, game)  # read before the game changes: no flush of the changes first
    by_gm = actor != "system" or bool((game.notices or {}).get("process_now"))  # PROCESS: the GM asked
    played = play_missing(services, session, game, position, given)  # missed: play
    lines = {**given, **played}
    submitted = [(power, order) for power, texts in lines.items() for order in services.orders_from(game, texts)]
    report = adjudicate(variant, position, submitted, seed=game.dice_seed)
    services.faults.point("after-adjudication")
    now = services.clock.now()
    record = PhaseRecord(
        game_id=game.id,
        seq=game.phase_seq,
        phase=str(position.phase),
        position_before=game.position,
        orders=lines,
        results=_results_document(report, sorted(played)),
        position_after=encode_position(report.next),
        deadline=game.deadline,
        processed_at=now,
    )
    session.add(record)
    session.flush()
    services.faults.point("after-phase-record")
    _count_missed(services, game, variant, position, given)
    note_deadlines(services, session, game, record, variant, position)
    game.position = record.position_after
    game.phase = str(report.next.phase)
    game.phase_seq += 1
    _eliminate(services, session, game, report.next)
    services.audit(session, game, actor, "processed", phase=record.phase, seq=record.seq)
    if report.winner:
        finish(services, session, game, {"kind": "win", "winner": report.winner}, record=record, report=report)
    elif report.draw:
        finish(services, session, game, {"kind": "draw", "powers": list(report.draw)}, record=record, report=report)
    else:
        start_phase(services, session, game, report.next)
        _results_mails(services, session, game, record, report, position, held, sorted(played), by_gm)
    services.faults.point("after-mails-queued")
    _apply_missed_policy(services, session, game)
    openings.settle(services, session, game)  # a power whose player came back (or game over) is not open
    openings.open_abandoned(services, session, game)  # the missed: policy gave up on a player
    # The moment processing ended (just before its commit): a mail that arrived before it is
    # told that this phase was adjudicated before its commands ran (gm.commands.player).
    record.processed_at = services.clock.now()
    return Processed(record, report)


def _results_document(report: PhaseReport, played: list[str]) -> dict[str, Any]:
    return {
        "played": played,  # powers whose orders the judge wrote (gm.games.stand_ins)
        "results": encode_results(report.results),
        "rolls": [{"phase": r.phase, "purpose": r.purpose, "sides": r.sides, "value": r.value, "effect": r.effect}
                  for r in report.rolls],
        "destroyed": [{"unit": unit_text(unit), "power": unit.power, "reason": reason}
                      for unit, reason in report.destroyed],
        "announcements": list(report.announcements),
        "dislodged": [
            {"unit": unit_text(d.unit), "power": d.unit.power, "from": d.attacker_from,
             "retreats": [str(r) for r in d.retreats]}
            for d in report.resolved.dislodged
        ],
        "civil_disorder": [{"unit": unit_text(u), "power": u.power} for u in report.civil_disorder],
        "winner": report.winner,
    }


def _count_missed(services, game: Game, variant, position: Position, lines: dict[str, list[str]]) -> None:
    for power, count in needed(variant, position).items():
        seat = seat_of(game, power)
        if seat is None or seat.status == SeatStatus.ELIMINATED:
            continue
        forced_removal = (position.phase.kind is PhaseKind.ADJUSTMENTS and count >= len(position.units_of(power))
                          and any(a.power == power and a.count < 0 for a in variant.adjustments(position)))
        if lines.get(power):
            if seat.missed_in_row:  # set only when it changes: else each seat is flushed for nothing
                seat.missed_in_row = 0
            if seat.status == SeatStatus.CIVIL_DISORDER:
                seat.status = SeatStatus.ACTIVE  # back from civil disorder by sending orders
        elif not forced_removal:
            seat.missed += 1
            seat.missed_in_row += 1


def _apply_missed_policy(services: Services, session: Session, game: Game) -> None:
    if game.status != GameStatus.ACTIVE:
        return
    missed = services.settings_of(game).missed
    for seat in current_seats(game):
        if seat.status != SeatStatus.ACTIVE or seat.missed_in_row < missed.after:
            continue
        if missed.policy in (MissedPolicy.CIVIL_DISORDER, MissedPolicy.PLAY):
            seat.status = SeatStatus.CIVIL_DISORDER
            services.audit(session, game, "system", "civil-disorder", power=seat.power, missed=seat.missed_in_row)
            tell_gm(services, session, game, subject=f"{game.name}: {seat.power} in civil disorder",
                    text=f"{seat.power} has missed {seat.missed_in_row} phases in a row and is now in civil disorder. "
                         f"{openings.gm_hint(services, game, seat.power or '')}")
        elif missed.policy is MissedPolicy.WAIT:
            game.status = GameStatus.PAUSED
            game.paused_reason = openings.waiting_for(seat.power)
            game.due_at = None
            services.audit(session, game, "system", "paused", reason=game.paused_reason)
            tell_gm(services, session, game, subject=f"{game.name}: replacement needed for {seat.power}",
                    text=f"{seat.power} has missed {seat.missed_in_row} phases in a row. The game waits until "
                         f"{seat.power} has a new player (it goes on by itself once one takes it over), or you "
                         f"resume it (RESUME) with its player. "
                         f"{openings.gm_hint(services, game, seat.power or '')}")
            return


def _eliminate(services: Services, session: Session, game: Game, position: Position) -> None:
    alive = services.variant_of(game).in_play(position)
    for seat in current_seats(game):
        if seat.power not in alive and seat.status != SeatStatus.ELIMINATED:
            seat.status = SeatStatus.ELIMINATED
        elif seat.power in alive and seat.status == SeatStatus.ELIMINATED:
            # back on the board (a variant's rule can bring a power back: a rebellion)
            seat.status = SeatStatus.ACTIVE
            seat.missed_in_row = 0
            services.audit(session, game, "system", "returned", power=seat.power)


_HELD_PRESS = (select(Press)  # built once: building a statement costs more than running it
               .where(Press.game_id == bindparam("game"), Press.with_results.is_(True), Press.published_seq.is_(None))
               .order_by(Press.id))


def held_press(session: Session, game: Game) -> list[Press]:
    """The press held for the game's next results."""
    return list(session.scalars(_HELD_PRESS, {"game": game.id}))


def published_press(held: list[Press], record: PhaseRecord) -> list[tuple[Press, dict[str, Any]]]:
    """The press held for these results, now published, each with what the results mail shows of it."""
    published = []
    for press in held:
        press.published_seq = record.seq
        to = [addressed_to(press, [])] if press.to_gm else list(press.recipients)
        published.append((press, {"sender": signed(press), "recipients": to, "text": press.body}))
    return published


def _results_mails(services: Services, session: Session, game: Game, record: PhaseRecord,
                   report: PhaseReport, before: Position, held: list[Press], played: list[str],
                   by_gm: bool = False) -> None:
    published = published_press(held, record)
    # Processed before its deadline: the mail says when, and why (every order in, or the game
    # master's PROCESS), so that the deadline it named before is not taken for a mistake.
    early = record.deadline is not None and record.processed_at < record.deadline

    def per_reader(recipient: Recipient) -> tuple[tuple[int, ...], dict[str, Any]]:
        """What the results mail depends on of its reader besides its zone: the press it reads,
        by the rule of press mailed at once (gm.games.press_readers: its recipients; the GM;
        observers only press to everyone; never the sender)."""
        reader = Reader.of(recipient.role, recipient.seat, recipient.address)
        shown = [i for i, (press, _) in enumerate(published) if mailed_to(press, reader)]
        return tuple(shown), {"press": [published[i][1] for i in shown]}

    tell_everyone(
        services, session, game, template="mail/results.txt.j2", kind="results",
        subject=f"{game.name}, {services.variant_of(game).title(before.phase)}: results", attach_phase_id=record.id,
        per_reader=per_reader, deadline=game.deadline, played=played,
        early_of=record.deadline if early else None, processed=record.processed_at, by_gm=by_gm,
        # the year's last results carry the chart, and its numbers beside it
        year_table=year_by_year(services, session, game, upto=record) if closes_year(services, game, record) else [],
        **results_context(services.variant_of(game), record.phase, report, before),
    )


