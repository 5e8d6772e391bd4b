"""A power's orders for the current phase: submitted, revised unit by unit, checked, counted.

Each submission is stored as sent (an ``OrderSet`` version) together with the power's whole
order set after it, so the latest version is the current set and every earlier one stays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.orm import Session

from gm.adjudicator.adjustments import resolve_adjustments
from gm.adjudicator.legality import review_declarations, review_movement, review_retreats
from gm.adjudicator.variant import Variant
from gm.domain.orders import Build, Declaration, Disband, Order, Waive
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.orders import OrderGrammar, ParsedLine, Severity, parse_orders
from gm.reports.names import Namer
from gm.games.context import Services
from gm.games.lifecycle import seat_of
from gm.games.schedule import refresh_due
from gm.store.models import Game, OrderSet, SeatStatus


@dataclass
class LineReport:
    """One line of a submission: how it was understood, or why it was not taken."""

    line_no: int
    text: str
    order: Order | None
    error: str = ""
    warnings: list[str] = field(default_factory=list)


@dataclass
class Submission:
    lines: list[LineReport]
    orders: list[Order]  # the power's whole current set
    missing: list[str]  # what still needs an order (units, or "2 builds")


def order_key(order: Order, shared: frozenset[str] = frozenset()) -> str:
    """Orders replace each other per unit (per build site for builds; waives add up; a
    declaration replaces only the same declaration). In a province where the power has
    several units (``shared``), the unit's type tells them apart."""
    if isinstance(order, Build):
        return f"build:{order.unit.province}"
    if isinstance(order, Waive):
        return "waive"
    if isinstance(order, Declaration):
        return f"declare:{order.replaces}"
    if order.unit is not None:
        province = order.unit.province
        if province in shared and order.unit.type is not None:
            return f"unit:{province}:{order.unit.type.letter}"
        return f"unit:{province}"
    return f"other:{order}"


_LATEST_SET = (  # built once: building a statement costs more than running it
    select(OrderSet)
    .where(OrderSet.game_id == bindparam("game"), OrderSet.phase_seq == bindparam("seq"),
           OrderSet.power == bindparam("power"))
    .order_by(OrderSet.version.desc())
    .limit(1)
)


def latest_set(session: Session, game: Game, power: str) -> OrderSet | None:
    return session.scalar(_LATEST_SET, {"game": game.id, "seq": game.phase_seq, "power": power})


def _current_orders_statement():  # type: ignore[no-untyped-def]
    latest = (
        select(OrderSet.power, func.max(OrderSet.version).label("version"))
        .where(OrderSet.game_id == bindparam("game"), OrderSet.phase_seq == bindparam("seq"))
        .group_by(OrderSet.power)
        .subquery()
    )
    return (
        select(OrderSet.power, OrderSet.lines)
        .join(latest, (OrderSet.power == latest.c.power) & (OrderSet.version == latest.c.version))
        .where(OrderSet.game_id == bindparam("game"), OrderSet.phase_seq == bindparam("seq"))
    )


_CURRENT_ORDERS = _current_orders_statement()


def current_orders(session: Session, game: Game) -> dict[str, list[str]]:
    """Every power's current order lines for the game's phase (its latest version only)."""
    rows = session.execute(_CURRENT_ORDERS, {"game": game.id, "seq": game.phase_seq})
    return {power: list(lines) for power, lines in rows}


def parse_stored(grammar: OrderGrammar, lines: list[str]) -> list[Order]:
    return [p.order for p in parse_orders("\n".join(lines), grammar) if p.order is not None]


def check_orders(variant: Variant, position: Position, power: str, orders: list[Order]) -> list[str | None]:
    """Why each order could not count in this phase, or None (the same rules as adjudication;
    each order on its own, as the last order for a unit is the one that counts)."""
    kind = position.phase.kind
    submitted = [(power, o) for o in orders]
    if kind is PhaseKind.MOVEMENT:
        board, prepared = variant.prepare_movement(position, submitted)
        return [ruling.illegal for ruling in review_movement(variant, board, prepared)]
    # Declarations stand beside a retreat or adjustment phase's own orders, as the engine judges them.
    declared = iter(review_declarations(variant, position, [(power, o) for o in orders if isinstance(o, Declaration)]))
    own = [o for o in orders if not isinstance(o, Declaration)]
    if kind is PhaseKind.RETREATS:
        verdicts = iter([ruling.illegal for ruling in review_retreats(variant, position, [(power, o) for o in own])])
    else:
        verdicts = iter([_adjustment_problem(variant, position, power, o) for o in own])
    return [next(declared).illegal if isinstance(o, Declaration) else next(verdicts) for o in orders]


def _adjustment_problem(variant: Variant, position: Position, power: str, order: Order) -> str | None:
    outcome = resolve_adjustments(variant, position, [(power, order)]).outcomes[0]
    return None if outcome.succeeded else outcome.detail or (outcome.reason.value if outcome.reason else "refused")


def needed(variant: Variant, position: Position) -> dict[str, int]:
    """How many orders each power must give this phase (powers with nothing to do are absent)."""
    kind = position.phase.kind
    counts: dict[str, int] = {}
    if kind is PhaseKind.MOVEMENT:
        for unit in position.units:
            counts[unit.power] = counts.get(unit.power, 0) + 1
    elif kind is PhaseKind.RETREATS:
        for entry in position.dislodged:
            counts[entry.unit.power] = counts.get(entry.unit.power, 0) + 1
    else:
        for adjustment in variant.adjustments(position):
            owed = variant.orders_owed(adjustment)
            if owed > 0:
                counts[adjustment.power] = owed
    return counts


def missing_for(variant: Variant, position: Position, power: str, orders: list[Order]) -> list[str]:
    kind = position.phase.kind
    if kind is PhaseKind.ADJUSTMENTS:
        want = needed(variant, position).get(power, 0)
        have = sum(1 for o in orders if isinstance(o, (Build, Waive, Disband)))
        if have >= want:
            return []
        verb = "removal" if any(a.power == power and a.count < 0 for a in variant.adjustments(position)) else "build"
        left = want - have
        return [f"{left} {verb}{'s' if left > 1 else ''}"]
    ordered = {o.unit.province for o in orders if o.unit is not None}
    units = position.units if kind is PhaseKind.MOVEMENT else [d.unit for d in position.dislodged]
    namer = Namer(variant)
    return [namer.unit(u) for u in units if u.power == power and u.location.province not in ordered]


def submit(
    services: Services,
    session: Session,
    game: Game,
    power: str,
    text: str,
    by: str,
    inbound_id: int | None = None,
    replace: bool = False,
) -> Submission:
    """Read order lines for ``power``; store the valid ones as a new version of its set."""
    variant = services.variant_of(game)
    position = services.position_of(game)
    grammar = OrderGrammar.for_variant(variant)
    previous = latest_set(session, game, power)
    kept = services.orders_from(game, previous.lines) if previous is not None and not replace else []
    parsed_lines = parse_orders(text, grammar, context=position)  # named units ("Hannibal") are found on the board
    readable = [p.order for p in parsed_lines if p.ok and p.order is not None]
    verdicts = iter(check_orders(variant, position, power, readable))
    reports = []
    accepted: list[Order] = []
    for parsed in parsed_lines:
        report = _report(parsed)
        if parsed.ok and parsed.order is not None:
            why = next(verdicts)
            if why:
                report.error = why
                report.order = parsed.order
            else:
                accepted.append(parsed.order)
        reports.append(report)
    orders = _book(variant, position, power, kept + accepted)
    _store_set(services, session, game, power, previous, text, [str(o) for o in orders], by, inbound_id)
    missing = missing_for(variant, position, power, orders)
    _mark_ready(game, power, missing)
    return Submission(reports, orders, missing)


def _book(variant: Variant, position: Position, power: str, orders: list[Order]) -> list[Order]:
    """The power's order set: each later order in place of an earlier one for the same unit. In
    a movement phase the orders are first as the variant's rules read them before review (a
    leader placed: orders naming it where it waited name it where it stands)."""
    board = position
    if position.phase.kind is PhaseKind.MOVEMENT:
        board, prepared = variant.prepare_movement(position, [(power, o) for o in orders])
        orders = [o for _, o in prepared]
    provinces = [u.location.province for u in board.units if u.power == power]
    shared = frozenset(p for p in provinces if provinces.count(p) > 1)
    current: dict[str, Order] = {}
    for order in orders:
        current[_key_with_count(order, current, shared)] = order
    return list(current.values())


def _key_with_count(order: Order, current: dict[str, Order], shared: frozenset[str]) -> str:
    key = order_key(order, shared)
    if key == "waive":
        return f"waive:{sum(1 for k in current if k.startswith('waive'))}"
    return key


def _report(parsed: ParsedLine) -> LineReport:
    errors = [str(d) for d in parsed.diagnostics if d.severity is Severity.ERROR]
    warnings = [str(d) for d in parsed.diagnostics if d.severity is Severity.WARNING]
    return LineReport(parsed.line_no, parsed.text, parsed.order if parsed.ok else None,
                      "; ".join(errors), warnings)


def _store_set(services: Services, session: Session, game: Game, power: str, previous: OrderSet | None,
               text: str, lines: list[str], by: str, inbound_id: int | None) -> None:
    """The power's new order set, as the next version: a plain INSERT on the session's
    connection (the game and the mail it refers to are stored; nothing reads it back as an
    object, and ``latest_set`` finds it in the table)."""
    session.connection().execute(_ORDER_SET_INSERT, {
        "game_id": game.id, "phase_seq": game.phase_seq, "phase": game.phase or "", "power": power,
        "version": (previous.version + 1) if previous else 1, "submitted_text": text, "lines": lines,
        "inbound_id": inbound_id, "by": by, "submitted_at": services.clock.now(),
    })


_ORDER_SET_INSERT = insert(OrderSet.__table__)  # built once


def clear(services: Services, session: Session, game: Game, power: str, by: str, inbound_id: int | None = None) -> None:
    previous = latest_set(session, game, power)
    _store_set(services, session, game, power, previous, "CLEAR", [], by, inbound_id)
    _mark_ready(game, power, ["everything"])


def late_powers(services: Services, game: Game) -> list[str]:
    """The powers that still owe orders this phase (civil disorder owes nothing, nor a power out
    of the game whose units a variant leaves standing)."""
    late = []
    for power in needed(services.variant_of(game), services.position_of(game)):
        seat = seat_of(game, power)
        if seat is None or seat.status in (SeatStatus.CIVIL_DISORDER, SeatStatus.ELIMINATED):
            continue
        if seat.ready_seq != game.phase_seq:
            late.append(power)
    return late


def recount_ready(services: Services, session: Session, game: Game) -> None:
    """Work out from the stored orders who is ready (after a rollback brought old orders back)."""
    variant = services.variant_of(game)
    position = services.position_of(game)
    lines = current_orders(session, game)
    for power in needed(variant, position):
        seat = seat_of(game, power)
        if seat is not None:
            complete = not missing_for(variant, position, power, services.orders_from(game, lines.get(power, [])))
            seat.ready_seq = game.phase_seq if complete else None


def _mark_ready(game: Game, power: str, missing: list[str]) -> None:
    seat = seat_of(game, power)
    ready = None if missing else game.phase_seq
    if seat is not None and seat.ready_seq != ready:  # set only when it changes: else a flush for nothing
        seat.ready_seq = ready


def note_orders_changed(services: Services, session: Session, game: Game) -> None:
    """After any submission: is everyone in (early processing), and when to look next."""
    if late_powers(services, game):
        if game.orders_complete_at is not None:  # set only when it changes: else a flush for nothing
            game.orders_complete_at = None
    elif game.orders_complete_at is None:
        game.orders_complete_at = services.clock.now()
    refresh_due(services, game)
