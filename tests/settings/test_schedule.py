"""Deadlines from a schedule: durations, times of day in a zone, weekdays, minimum gaps, DST."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from gm.domain.phases import PhaseKind
from gm.settings.model import DeadlineRule, Schedule
from gm.settings.schedule import next_deadline

ROME = ZoneInfo("Europe/Rome")


def schedule(rule: DeadlineRule, **kwargs) -> Schedule:  # type: ignore[no-untyped-def]
    return Schedule(movement=rule, retreats=rule, adjustments=rule, zone=ROME, **kwargs)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_a_duration_after_the_start() -> None:
    s = schedule(DeadlineRule(after=timedelta(hours=48)))
    assert next_deadline(s, PhaseKind.MOVEMENT, utc(2026, 1, 5, 12)) == utc(2026, 1, 7, 12)


def test_every_day_at_a_time_in_the_games_zone() -> None:
    s = schedule(DeadlineRule(daily_at=time(21, 0)))
    # 12:00 UTC is 13:00 in Rome: the same evening, 21:00 CET = 20:00 UTC
    assert next_deadline(s, PhaseKind.MOVEMENT, utc(2026, 1, 5, 12)) == utc(2026, 1, 5, 20)
    # 21:30 in Rome: tomorrow evening
    assert next_deadline(s, PhaseKind.MOVEMENT, utc(2026, 1, 5, 20, 30)) == utc(2026, 1, 6, 20)


def test_a_time_of_day_keeps_its_wall_clock_across_summer_time() -> None:
    s = schedule(DeadlineRule(daily_at=time(21, 0)))
    # Rome moves to CEST on 29 March 2026: 21:00 is then 19:00 UTC
    assert next_deadline(s, PhaseKind.MOVEMENT, utc(2026, 3, 28, 21)) == utc(2026, 3, 29, 19)


def test_a_zone_of_its_own_for_one_rule() -> None:
    s = schedule(DeadlineRule(daily_at=time(9, 0), zone=ZoneInfo("America/New_York")))
    assert next_deadline(s, PhaseKind.ADJUSTMENTS, utc(2026, 1, 5, 12)) == utc(2026, 1, 5, 14)  # 09:00 in New York


def test_weekends_are_skipped() -> None:
    weekdays = frozenset({0, 1, 2, 3, 4})
    s = schedule(DeadlineRule(after=timedelta(hours=48)), weekdays=weekdays)
    # Thursday noon + 48h is Saturday noon (Rome): pushed to Monday, same wall time
    assert next_deadline(s, PhaseKind.MOVEMENT, utc(2026, 1, 8, 11)) == utc(2026, 1, 12, 11)
    daily = schedule(DeadlineRule(daily_at=time(21, 0)), weekdays=weekdays)
    assert next_deadline(daily, PhaseKind.MOVEMENT, utc(2026, 1, 9, 21)) == utc(2026, 1, 12, 20)


def test_never_before_a_minimum_gap() -> None:
    s = schedule(DeadlineRule(daily_at=time(21, 0)), min_gap=timedelta(hours=20))
    # starting at 13:00 Rome, tonight's 21:00 is only 8 hours away: tomorrow's
    assert next_deadline(s, PhaseKind.MOVEMENT, utc(2026, 1, 5, 12)) == utc(2026, 1, 6, 20)
    short = schedule(DeadlineRule(after=timedelta(hours=1)), min_gap=timedelta(hours=6))
    assert next_deadline(short, PhaseKind.RETREATS, utc(2026, 1, 5, 12)) == utc(2026, 1, 5, 18)
