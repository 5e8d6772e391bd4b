"""When a phase is due, from the game's schedule (time-zone aware, wall-clock days)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.domain.phases import PhaseKind
from gm.settings.model import DeadlineRule, Schedule


def rule_for(schedule: Schedule, kind: PhaseKind) -> DeadlineRule:
    return {
        PhaseKind.MOVEMENT: schedule.movement,
        PhaseKind.RETREATS: schedule.retreats,
        PhaseKind.ADJUSTMENTS: schedule.adjustments,
    }[kind]


def next_deadline(schedule: Schedule, kind: PhaseKind, start: datetime) -> datetime:
    """The deadline of a phase of ``kind`` that starts at ``start`` (UTC in, UTC out).

    The rule gives a first candidate; it is pushed later until it is at least ``min_gap``
    after the start and falls on an allowed weekday in the game's zone (a daily time keeps
    its wall-clock time across daylight-saving changes).
    """
    rule = rule_for(schedule, kind)
    earliest = start + schedule.min_gap
    if rule.after is not None:
        candidate = max(start + rule.after, earliest)
        return allowed_day(candidate, schedule)
    zone = rule.zone or schedule.zone
    local = earliest.astimezone(zone)
    day = local.date()
    for _ in range(15):
        wall = datetime.combine(day, rule.daily_at, tzinfo=zone)  # type: ignore[arg-type]
        moment = wall.astimezone(UTC)
        if moment >= earliest and wall.weekday() in schedule.weekdays:
            return moment
        day += timedelta(days=1)
    raise ValueError("no allowed weekday in the schedule")


def allowed_day(candidate: datetime, schedule: Schedule) -> datetime:
    """The same wall-clock time on the first allowed day from ``candidate``'s."""
    local = candidate.astimezone(schedule.zone)
    for _ in range(8):
        if local.weekday() in schedule.weekdays:
            return local.astimezone(UTC)
        nxt = local.date() + timedelta(days=1)
        local = datetime.combine(nxt, local.timetz().replace(tzinfo=None), tzinfo=schedule.zone)
    raise ValueError("no allowed weekday in the schedule")
