"""Processing a game's phase: adjudicate, record, move on, and queue every mail it causes.

All of it happens in the caller's one transaction: a crash at any point leaves either the
old phase untouched or the new one complete, mails included (they are rows in the outbox).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from gm.adjudicator.engine import PhaseReport, adjudicate
from gm.domain.geography import Location
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.reports.names import Namer
from gm.services.context import Services
from gm.services.lifecycle import current_seats, seat_of
from gm.services.notices import tell_everyone, tell_gm
from gm.services.orderbook import current_orders, missing_for, needed, parse_stored
from gm.services.schedule import refresh_due, start_phase
from gm.settings.model import MissedPolicy
from gm.store.codec import decode_position, encode_position, encode_results, unit_text
from gm.store.models import Game, GameStatus, PhaseRecord, SeatStatus


@dataclass(frozen=True)
class Processed:
    record: PhaseRecord
    report: PhaseReport


def orders_state(services: Services, session: Session, game: Game) -> tuple[dict[str, list[str]], list[str]]:
    """The current order lines by power, and the powers still missing some orders."""
    variant = services.variant_of(game)
    position = services.position_of(game)
    grammar = services.grammar_of(game)
    lines = current_orders(session, game)
    late = []
    for power in needed(variant, position):
        seat = seat_of(game, power)
        if seat is not None and seat.status == SeatStatus.CIVIL_DISORDER:
            continue
        if missing_for(variant, position, power, parse_stored(grammar, lines.get(power, []))):
            late.append(power)
    return lines, late


def note_orders_changed(services: Services, session: Session, game: Game) -> None:
    """After any submission: is everyone in (early processing), and when to look next."""
    _, late = orders_state(services, session, game)
    if late:
        game.orders_complete_at = None
    elif game.orders_complete_at is None:
        game.orders_complete_at = services.clock.now()
    refresh_due(services, game)


def process(services: Services, session: Session, game: Game, actor: str = "system") -> Processed:
    variant = services.variant_of(game)
    position = services.position_of(game)
    grammar = services.grammar_of(game)
    lines = current_orders(session, game)
    submitted = [(power, order) for power, texts in lines.items() for order in parse_stored(grammar, texts)]
    report = adjudicate(variant, position, submitted)
    services.faults.point("after-adjudication")
    now = services.clock.now()
    record = PhaseRecord(
        game_id=game.id,
        seq=game.phase_seq,
        phase=str(position.phase),
        position_before=game.position,
        orders=lines,
        results=_results_document(report),
        position_after=encode_position(report.next),
        deadline=game.deadline,
        processed_at=now,
    )
    session.add(record)
    session.flush()
    services.faults.point("after-phase-record")
    _count_missed(services, game, variant, position, lines)
    game.position = record.position_after
    game.phase = str(report.next.phase)
    game.phase_seq += 1
    _eliminate(game, report.next)
    services.audit(session, game, actor, "processed", phase=record.phase, seq=record.seq)
    if report.winner:
        finish(services, session, game, {"kind": "win", "winner": report.winner}, record=record, report=report)
    else:
        start_phase(services, session, game, report.next)
        _results_mails(services, session, game, record, report, position)
    services.faults.point("after-mails-queued")
    _apply_missed_policy(services, session, game)
    return Processed(record, report)


def _results_document(report: PhaseReport) -> dict[str, Any]:
    return {
        "results": encode_results(report.results),
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
        forced_removal = position.phase.kind is PhaseKind.ADJUSTMENTS and count >= len(position.units_of(power))
        if lines.get(power):
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
        if missed.policy is MissedPolicy.CIVIL_DISORDER:
            seat.status = SeatStatus.CIVIL_DISORDER
            services.audit(session, game, "system", "civil-disorder", power=seat.power, missed=seat.missed_in_row)
            tell_gm(services, session, game, subject=f"{game.name}: {seat.power} in civil disorder",
                    text=f"{seat.power} has missed {seat.missed_in_row} phases in a row and is now in civil disorder.")
        elif missed.policy is MissedPolicy.WAIT:
            game.status = GameStatus.PAUSED
            game.paused_reason = f"waiting for a replacement for {seat.power}"
            game.due_at = None
            services.audit(session, game, "system", "paused", reason=game.paused_reason)
            tell_gm(services, session, game, subject=f"{game.name}: replacement needed for {seat.power}",
                    text=f"{seat.power} has missed {seat.missed_in_row} phases in a row. The game waits until "
                         f"you replace the player (REPLACE {seat.power} new@address) and resume it.")
            return


def _eliminate(game: Game, position: Position) -> None:
    alive = {u.power for u in position.units} | set(position.centres.values())
    for seat in current_seats(game):
        if seat.power not in alive and seat.status != SeatStatus.ELIMINATED:
            seat.status = SeatStatus.ELIMINATED


def _results_mails(services: Services, session: Session, game: Game, record: PhaseRecord,
                   report: PhaseReport, before: Position) -> None:
    tell_everyone(
        services, session, game, template="mail/results.txt.j2", kind="results",
        subject=f"{game.name} {record.phase} results", attach_phase_id=record.id,
        **results_context(services, game, record, report, before),
    )


def results_context(services: Services, game: Game, record: PhaseRecord, report: PhaseReport,
                    before: Position) -> dict[str, Any]:
    variant = services.variant_of(game)
    namer = Namer(variant)
    by_power: dict[str, list[dict[str, Any]]] = {}
    for result in report.results:
        by_power.setdefault(result.power, []).append({
            "text": namer.order(result.order),
            "succeeded": result.succeeded,
            "reason": result.reason_text,
        })
    dislodged = [
        {"unit": namer.owned_unit(d.unit), "retreats": namer.places(list(d.retreats))}
        for d in report.resolved.dislodged
    ]
    nxt = report.next
    ownership_changed = dict(nxt.centres) != dict(before.centres) or nxt.phase.kind is PhaseKind.ADJUSTMENTS
    centres = []
    if ownership_changed or before.phase.kind is not PhaseKind.MOVEMENT:
        for power in variant.map.powers:
            owned = [namer.place(Location(c)) for c in sorted(nxt.centres) if nxt.centres[c] == power]
            units = len(nxt.units_of(power))
            centres.append({"power": power, "adjective": namer.adjective(power), "centres": owned,
                            "count": len(owned), "units": units})
    adjustments = []
    if nxt.phase.kind is PhaseKind.ADJUSTMENTS:
        for adjustment in variant.adjustments(nxt):
            if adjustment.count:
                adjustments.append({"power": adjustment.power, "count": adjustment.count,
                                    "sites": len(adjustment.build_sites)})
    return {
        "variant": variant,
        "phase_title": variant.title(before.phase),
        "phase_code": record.phase,
        "results_by_power": by_power,
        "dislodged": dislodged,
        "civil_disorder": [namer.owned_unit(u) for u in report.civil_disorder],
        "centres": centres,
        "adjustments": adjustments,
        "next_title": variant.title(nxt.phase),
        "next_code": str(nxt.phase),
        "deadline": game.deadline,
        "winner": report.winner,
    }


def finish(services: Services, session: Session, game: Game, result: dict[str, Any],
           record: PhaseRecord | None = None, report: PhaseReport | None = None, actor: str = "system") -> None:
    game.status = GameStatus.FINISHED
    game.result = result
    game.finished_at = services.clock.now()
    game.due_at = None
    game.deadline = None
    services.audit(session, game, actor, "finished", **result)
    context: dict[str, Any] = {"result": result, "summary": game_summary(services, session, game)}
    if record is not None and report is not None:
        before = decode_position(services.variant_of(game), record.position_before)
        context.update(results_context(services, game, record, report, before))
    tell_everyone(services, session, game, template="mail/end.txt.j2", kind="end",
                  subject=f"{game.name} is over", attach_phase_id=record.id if record else None, **context)


def game_summary(services: Services, session: Session, game: Game) -> list[dict[str, Any]]:
    """Each power's centres at the end, and who played it."""
    position = services.position_of(game)
    summary = []
    for power in services.variant_of(game).map.powers:
        seat = seat_of(game, power)
        summary.append({
            "power": power,
            "player": seat.player.email if seat and seat.player else "-",
            "centres": len(position.centres_of(power)),
            "units": len(position.units_of(power)),
        })
    return sorted(summary, key=lambda s: (-s["centres"], s["power"]))


def is_due(services: Services, game: Game, now: datetime) -> bool:
    return game.status == GameStatus.ACTIVE and game.due_at is not None and game.due_at <= now
