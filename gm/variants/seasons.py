"""Calendar questions several rules modules ask."""

from __future__ import annotations

from gm.domain.phases import Calendar, Phase, PhaseKind


def during_adjustments(calendar: Calendar, phase: Phase) -> bool:
    """An adjustment phase, or the phase right after one (centres are still those it had): where
    a variant that names its winner "at the end of the adjustments" looks. The engine asks
    ``winner()`` of each phase it reaches, so when the adjustment phase has nothing to do and
    is skipped, the phase after it stands for it."""
    if phase.kind is PhaseKind.ADJUSTMENTS:
        return True
    seasons = calendar.seasons
    if phase.kind_index > 0:
        before = seasons[phase.season_index].kinds[phase.kind_index - 1]
    else:
        before = seasons[phase.season_index - 1].kinds[-1]  # index -1: the last season of last year
    return before is PhaseKind.ADJUSTMENTS


def after_adjustments(calendar: Calendar, phase: Phase) -> bool:
    """The phase right after an adjustment phase (played or skipped): where a variant that
    names its winner "at the end of the adjustments" looks once they are over."""
    return phase.kind is not PhaseKind.ADJUSTMENTS and during_adjustments(calendar, phase)
