"""A game's settings as a GM writes them in its YAML file, once read and checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import time, timedelta
from enum import Enum
from typing import Any
from zoneinfo import ZoneInfo


class Assignment(Enum):
    PREFERENCE = "preference"  # players' stated preferences first, the rest at random
    RANDOM = "random"


class StartPolicy(Enum):
    WHEN_FULL = "when-full"  # the game starts as soon as every power has a player
    MANUAL = "manual"  # the GM starts it


class MissedPolicy(Enum):
    HOLD = "hold"  # units without orders hold (retreats disband, adjustments by the rules)
    CIVIL_DISORDER = "civil-disorder"  # after N misses the power is left in civil disorder
    WAIT = "wait-for-replacement"  # after N misses the game waits until the GM replaces the player
    PLAY = "play"  # the judge's bot writes the orders a power missed; after N misses it is in civil disorder


class VoteVisibility(Enum):
    SECRET = "secret"  # only the result is announced
    OPEN = "open"  # every vote is announced


@dataclass(frozen=True)
class DeadlineRule:
    """When a phase of one kind is due: a fixed time after it starts, or at a time of day."""

    after: timedelta | None = None
    daily_at: time | None = None
    zone: ZoneInfo | None = None  # for daily_at; the game's zone when None

    def __str__(self) -> str:
        if self.after is not None:
            return format_duration(self.after)
        zone = f" {self.zone.key}" if self.zone else ""
        return f"every day at {self.daily_at:%H:%M}{zone}"


@dataclass(frozen=True)
class Schedule:
    movement: DeadlineRule
    retreats: DeadlineRule
    adjustments: DeadlineRule
    weekdays: frozenset[int] = frozenset(range(7))  # 0 = Monday; deadlines fall only on these days
    min_gap: timedelta = timedelta(0)  # never due sooner than this after a phase starts
    zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))


@dataclass(frozen=True)
class EarlyProcessing:
    enabled: bool = True
    delay: timedelta = timedelta(minutes=10)  # after the last orders arrive, unless someone WAITs


@dataclass(frozen=True)
class MissedOrders:
    policy: MissedPolicy = MissedPolicy.HOLD
    after: int = 2  # misses before the policy's consequence applies


class ObserverPress(Enum):
    NONE = "none"  # observers write to the game master only (PRESS TO GM)
    WHITE = "white"  # observers may also send signed press to everyone


@dataclass(frozen=True)
class PressRules:
    white: bool = True  # signed press
    grey: bool = False  # anonymous press
    partial: bool = True  # press to some powers only (otherwise broadcast only)
    eliminated: bool = False  # powers out of the game may still send press
    observers: ObserverPress = ObserverPress.NONE

    @property
    def any(self) -> bool:
        return self.white or self.grey


class DrawAmong(Enum):
    SURVIVORS = "survivors"  # a draw is shared by every surviving power (DIAS)
    ANY = "any"  # a draw may be shared by some of them only, named in the vote (DRAW <power> ...)


@dataclass(frozen=True)
class DrawRules:
    votes: VoteVisibility = VoteVisibility.SECRET  # a draw needs every surviving power's vote
    among: DrawAmong = DrawAmong.SURVIVORS


@dataclass(frozen=True)
class AbsenceRules:
    """How long a player may be away, holding the deadlines (SET ABSENCE), and how often in a
    game; none allowed unless the GM says."""

    longest: timedelta = timedelta(0)
    per_player: int = 0

    @property
    def allowed(self) -> bool:
        return self.longest > timedelta(0) and self.per_player > 0


class TakeoverPolicy(Enum):
    OPEN = "open"  # anyone takes an open power at once (JOIN game power)
    GM = "gm"  # the game master approves each ask (APPROVE / REFUSE)
    NONE = "none"  # only the game master gives a power a new player (REPLACE)


@dataclass(frozen=True)
class Takeover:
    """Who may take over a power its player left (gm.games.openings), and how long each address
    standing by has to answer before the offer passes on (to the next, then to everyone)."""

    policy: TakeoverPolicy = TakeoverPolicy.GM
    standby: timedelta = timedelta(hours=24)


class Reveal(Enum):
    """When a game names who plays (played) its powers to everyone (gm.games.reveal)."""

    END = "end"  # once it is over: the end mail, SUMMARY, LIST and the web
    NEVER = "never"  # never (its game master knows them throughout)
    ALWAYS = "always"  # from the start


class LatePolicy(Enum):
    EVERYONE = "everyone"  # once the deadline passes, every player learns which powers are late
    LATE_ONLY = "late-only"  # only the late powers are told (each of its own lateness), and the GM


@dataclass(frozen=True)
class PlayerEntry:
    email: str
    power: str | None = None  # wanted power (preference) or fixed by the GM
    name: str = ""
    timezone: str | None = None


@dataclass(frozen=True)
class GameSettings:
    name: str
    variant: str
    gm: str  # the GM's address
    schedule: Schedule
    players: tuple[PlayerEntry, ...] = ()
    observers: tuple[str, ...] = ()
    assignment: Assignment = Assignment.PREFERENCE
    start: StartPolicy = StartPolicy.WHEN_FULL
    grace: timedelta = timedelta(0)
    reminders: tuple[timedelta, ...] = (timedelta(hours=24),)
    early: EarlyProcessing = EarlyProcessing()
    missed: MissedOrders = MissedOrders()
    press: PressRules = PressRules()
    draw: DrawRules = DrawRules()
    absences: AbsenceRules = AbsenceRules()
    takeover: Takeover = Takeover()
    late: LatePolicy = LatePolicy.EVERYONE
    rules: Mapping[str, Any] = field(default_factory=dict)  # the variant's rules chosen (Variant.options)
    seats: int | None = None  # how many players, where the variant allows several numbers (None: the most)
    private: bool = False  # only for its players, observers and GM: to anyone else not there (gm.games.privacy)
    reveal: Reveal = Reveal.END
    eog_days: int = 7  # days after the end in which its players may send statements (PRESS to everyone)


def format_duration(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = [f"{n}{unit}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "m")) if n]
    return "".join(parts) or "0m"
