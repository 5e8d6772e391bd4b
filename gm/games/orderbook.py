"""A power's orders for the current phase: submitted, revised unit by unit, checked, counted.

Each submission is stored as sent (an ``OrderSet`` version) together with the power's whole
order set after it, so the latest version is the current set and every earlier one stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.orm import Session

from gm.adjudicator.adjustments import resolve_adjustments
from gm.adjudicator.engine import judge_adjustments
from gm.adjudicator.legality import review_declarations, review_movement
from gm.adjudicator.retreat_review import review_retreats
from gm.adjudicator.variant import Variant
from gm.domain.orders import Build, Declaration, Disband, Order, Waive
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.orders import OrderGrammar, ParsedLine, Severity, parse_orders
from gm.reports.names import Namer
from gm.games.context import Services
from gm.games.reading import BoardReader
from gm.orders.forms import form_for
from gm.reports.examples import example_of
from gm.games.lifecycle import seat_of
from gm.games.schedule import refresh_due
from gm.games.voids import void_by_own_orders
from gm.store.models import Game, OrderSet, SeatStatus


@dataclass
class LineReport:
    """One line of a submission: how it was understood, or why it was not taken."""

    line_no: int
    text: str
    order: Order | None
    error: str = ""
    warnings: list[str] = field(default_factory=list)  # also how it was read, what it replaced
    form: str | None = None  # the order word of a line that went wrong after it (Diagnostic.form)


@dataclass
class Submission:
    lines: list[LineReport]
    orders: list[Order]  # the power's whole current set
    missing: list[str]  # what still needs an order (units, or "2 builds")
    board: Position  # the board as the orders are read on it (units to be placed, placed)
    # The orders of the set (by index) that the set makes void, and why (gm.games.voids), but
    # for those said on this submission's own lines.
    void: dict[int, str] = field(default_factory=dict)


def board_for(variant: Variant, position: Position, power: str, orders: Sequence[Order]) -> Position:
    """The board a power's orders are read on: in a movement phase, with the units its orders
    place (Rise of Rome II's leaders where their starts say); else the position."""
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return position
    return variant.prepare_movement(position, [(power, o) for o in orders])[0]


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


def check_orders(variant: Variant, position: Position, power: str, orders: list[Order],
                 given: Sequence[Order] = ()) -> list[str | None]:
    """Why each order could not count in this phase, or None (the same rules as adjudication;
    each order on its own, as the last order for a unit is the one that counts). ``given``: the
    power's declarations already given, which a movement phase's orders are read with (where a
    leader was placed)."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        board, prepared = variant.prepare_movement(position, [(power, o) for o in (*given, *orders)])
        return [ruling.illegal for ruling in review_movement(variant, board, prepared)][len(given):]
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
    # A unit is ordered by an order for its province of its type (or of no type written): a
    # leader's orders leave the army beside it without orders.
    ordered = {(o.unit.province, o.unit.type) for o in orders if o.unit is not None}
    units = position.units if kind is PhaseKind.MOVEMENT else [d.unit for d in position.dislodged]
    namer = Namer(variant)
    return [namer.unit(u) for u in units if u.power == power and (u.location.province, u.type) not in ordered
            and (u.location.province, None) not in ordered]


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
    """Read order lines for ``power``; store the valid ones as a new version of its set.

    Each order is read against the board (``gm.games.reading``: the real unit's type; the phase
    that takes it) and judged at once as the deadline will judge it: on its own in a movement or
    retreat phase, with the power's whole set in an adjustment phase (too many builds, a second
    build in one place, builds that cost more than the treasury). An order that would surely
    fail is refused with the reason; one that replaces an earlier order for the same unit says
    which."""
    variant = services.variant_of(game)
    position = services.position_of(game)
    grammar = OrderGrammar.for_variant(variant)
    previous = latest_set(session, game, power)
    kept = services.orders_from(game, previous.lines) if previous is not None and not replace else []
    parsed_lines = parse_orders(text, grammar, context=position)  # named units ("Hannibal") are found on the board
    namer = Namer(variant, position)
    reader = BoardReader(variant, position, power, namer)
    reports = []
    read: list[tuple[LineReport, Order]] = []
    for parsed in parsed_lines:
        report = _report(parsed)
        reports.append(report)
        if not parsed.ok or parsed.order is None:
            _show_form(report, variant, position, power)
            continue
        reading = reader.read(parsed.order, parsed.text)
        report.order = reading.order
        report.warnings.extend(reading.notes)
        if reading.error:
            report.error = reading.error
        else:
            read.append((report, reading.order))
    verdicts = check_orders(variant, position, power, [o for _, o in read],
                            [o for o in kept if isinstance(o, Declaration)])
    accepted: list[tuple[LineReport, Order]] = []
    for (report, order), why in zip(read, verdicts):
        if why:
            report.error = why
        else:
            accepted.append((report, order))
    if position.phase.kind is PhaseKind.ADJUSTMENTS:
        orders = _judge_adjustments(variant, position, power, kept, accepted, namer)
    else:
        orders, replaced, read_as = _book(variant, position, power, kept, [o for _, o in accepted])
        for (report, order), before, prepared in zip(accepted, replaced, read_as):
            report.order = prepared  # as the variant reads it with the set (a leader where it is placed)
            _note_replaced(report, prepared, before, namer, power)
    _store_set(services, session, game, power, previous, text, [str(o) for o in orders], by, inbound_id)
    missing = missing_for(variant, position, power, orders)
    _mark_ready(game, power, missing)
    board = board_for(variant, position, power, orders)
    voids = void_by_own_orders(variant, board, power, orders, Namer(variant, board))
    for report, _ in accepted:  # said on the line that gives the order; the others in the summary
        index = next((k for k, o in enumerate(orders) if o is report.order), None)
        if index in voids:
            report.warnings.append(voids.pop(index))
    return Submission(reports, orders, missing, board, voids)


def _book(variant: Variant, position: Position, power: str, kept: list[Order],
          new: list[Order]) -> tuple[list[Order], list[Order | None], list[Order]]:
    """The power's order set: each later order in place of an earlier one for the same unit;
    for each of the ``new`` orders, the order it replaced (None: none), and the order itself as
    booked. In a movement phase the orders are first as the variant's rules read them before
    review (a leader placed: orders naming it where it waited name it where it stands)."""
    orders = kept + new
    board = position
    if position.phase.kind is PhaseKind.MOVEMENT:
        board, prepared = variant.prepare_movement(position, [(power, o) for o in orders])
        if len(prepared) == len(orders):  # read one to one, as every variant's rules do
            orders = [o for _, o in prepared]
    provinces = [u.location.province for u in board.units if u.power == power]
    shared = frozenset(p for p in provinces if provinces.count(p) > 1)
    current: dict[str, Order] = {}
    replaced: list[Order | None] = []
    for index, order in enumerate(orders):
        key = _key_with_count(order, current, shared)
        if index >= len(kept):
            replaced.append(current.get(key))
        current[key] = order
    return list(current.values()), replaced, orders[len(kept):]


def _judge_adjustments(variant: Variant, position: Position, power: str, kept: list[Order],
                       accepted: list[tuple[LineReport, Order]], namer: Namer) -> list[Order]:
    """The new adjustment orders judged one by one with the power's set as it stands (the first
    legal ones count, DATC 4.D.4-4.D.6): one that would fail is refused, and so is one that
    would make an order already given fail (builds beyond the treasury). A build given when
    every build is ordered takes the place of a WAIVE. Returns the power's set."""
    current = list(kept)
    for report, order in accepted:
        trial, (before,), _ = _book(variant, position, power, current, [order])
        problem = _set_problem(variant, position, power, current, trial, order)
        waived = next((o for o in current if isinstance(o, Waive)), None)
        if problem and isinstance(order, Build) and waived is not None:
            without = list(current)
            without.remove(waived)
            instead, (before,), _ = _book(variant, position, power, without, [order])
            if _set_problem(variant, position, power, without, instead, order) is None:
                trial, problem, before = instead, None, before or waived
        if problem:
            report.error = problem
            continue
        _note_replaced(report, order, before, namer, power)
        current = trial
    return current


def _note_replaced(report: LineReport, order: Order, before: Order | None, namer: Namer, power: str) -> None:
    if before is not None and before != order:
        report.warnings.append(f"replaces {namer.order(before, power)}")


def _set_problem(variant: Variant, position: Position, power: str, before: list[Order], trial: list[Order],
                 order: Order) -> str | None:
    """Why ``order`` cannot join the power's set ``before`` (``trial``: the set with it, each
    order of ``before`` in its place, ``order`` in the place of the one it replaces or last)."""
    results = judge_adjustments(variant, position, [(power, o) for o in trial])
    if not isinstance(order, Declaration):  # a declaration may wait on another power's: its review judged it
        mine = next((r for r, o in zip(reversed(results), reversed(trial)) if o is order), None)
        if mine is not None and not mine.succeeded:
            return mine.detail or mine.reason_text or "refused"
    earlier = judge_adjustments(variant, position, [(power, o) for o in before]) if before else []
    for index, (was, now) in enumerate(zip(earlier, results)):
        if trial[index] is before[index] and was.succeeded and not now.succeeded:
            why = now.detail or now.reason_text or "it would fail"
            return f"{why}; so this order is not taken, and your other orders stand"
    return None


def _key_with_count(order: Order, current: dict[str, Order], shared: frozenset[str]) -> str:
    key = order_key(order, shared)
    if key == "waive":
        return f"waive:{sum(1 for k in current if k.startswith('waive'))}"
    return key


def _report(parsed: ParsedLine) -> LineReport:
    errors = [d for d in parsed.diagnostics if d.severity is Severity.ERROR]
    warnings = [str(d) for d in parsed.diagnostics if d.severity is Severity.WARNING]
    # The order's form, where the line went wrong in it: a near miss says enough, and an unknown
    # name is no fault of the form.
    form = next((d.form for d in errors if d.form and not d.suggestion and not d.unknown_name), None)
    return LineReport(parsed.line_no, parsed.text, parsed.order if parsed.ok else None,
                      "; ".join(str(d) for d in errors), warnings, form)


def _show_form(report: LineReport, variant: Variant, position: Position, power: str) -> None:
    """After a line that went wrong after its order word: that order's form, and an example of
    it from the power's own units."""
    form = form_for(variant, report.form) if report.form else None
    if form is None:
        return
    example = example_of(form, variant, position, power)
    report.warnings.append(f"write it as {form.usage}" + (f", e.g. {example}" if example else ""))


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
