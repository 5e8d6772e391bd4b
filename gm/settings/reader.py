"""Read a GM's settings file: one game, or several under ``games:``.

Every problem is reported with its line; a file with any problem is refused as a whole, so
the settings in force stay as they were.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gm.mailsyntax import mail_address
from gm.settings.model import (
    AbsenceRules,
    Assignment,
    DeadlineRule,
    DrawAmong,
    DrawRules,
    EarlyProcessing,
    GameSettings,
    LatePolicy,
    MissedOrders,
    MissedPolicy,
    ObserverPress,
    PlayerEntry,
    PressRules,
    Reveal,
    Schedule,
    StartPolicy,
    Takeover,
    TakeoverPolicy,
    VoteVisibility,
)
from gm.yamlfile import YamlProblem, line_of, load_strict

GAME_KEYS = {
    "name", "variant", "gm", "timezone", "deadlines", "grace", "reminders", "early", "missed",
    "press", "draw", "absences", "players", "observers", "assignment", "start", "rules", "seats", "private",
    "takeover", "late", "reveal", "eog_days",
}
DEADLINE_KEYS = {"movement", "retreats", "adjustments", "weekdays", "never_before"}
WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_DURATION = re.compile(r"(\d+)\s*(d|days?|h|hours?|m|min|mins|minutes?)", re.I)
_DAILY = re.compile(r"^(?:every\s+day\s+at|daily\s+at|at)?\s*(\d{1,2}):(\d{2})(?:\s+(\S+))?$", re.I)
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _is_address(text: str) -> bool:
    """A plain address with a dot in its domain: gm writes to it (gm.mailsyntax)."""
    return bool(_EMAIL.match(text)) and mail_address(text) is not None


def parse_duration(text: str) -> timedelta | None:
    """"48h", "2d", "90m", "1d12h", "36 hours" -> a timedelta; None when it is not a duration."""
    text = text.strip()
    parts = _DURATION.findall(text)
    if not parts or _DURATION.sub("", text).strip(" ,and"):
        return None
    total = timedelta(0)
    for number, unit in parts:
        unit = unit.lower()
        total += timedelta(
            days=int(number) if unit.startswith("d") else 0,
            hours=int(number) if unit.startswith("h") else 0,
            minutes=int(number) if unit.startswith("m") else 0,
        )
    return total


@dataclass(frozen=True)
class SettingsProblem:
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


class SettingsError(Exception):
    def __init__(self, source: str, problems: list[SettingsProblem]):
        self.source = source
        self.problems = problems
        super().__init__("\n".join(f"{source}: {p}" for p in problems))


RuleCheck = Callable[[str, Mapping[str, Any]], list[tuple[str, str]]]  # variant, rules -> (rule, why)


def read_settings(text: str, source: str, known_variants: Callable[[str], bool],
                  check_rules: RuleCheck | None = None) -> list[GameSettings]:
    """Parse a settings file; raise SettingsError naming every bad line. ``check_rules`` judges a
    game's choice of its variant's rules (``rules:``)."""
    try:
        raw = load_strict(text)
    except YamlProblem as exc:
        raise SettingsError(source, [SettingsProblem(exc.line or None, exc.message)]) from None
    reader = _Reader(known_variants, check_rules)
    games: list[GameSettings] = []
    if isinstance(raw, Mapping) and "games" in raw:
        entries = raw["games"]
        if not isinstance(entries, list):
            reader.problem(line_of(raw, "games"), "'games' must be a list of games")
            entries = []
        for entry in entries:
            game = reader.game(entry, default_name=None)
            if game:
                games.append(game)
    elif isinstance(raw, Mapping):
        default = source.rsplit("/", 1)[-1].removesuffix(".yaml").removesuffix(".yml")
        game = reader.game(raw, default_name=default)
        if game:
            games.append(game)
    else:
        reader.problem(None, "a settings file must be a mapping (variant:, gm:, deadlines: ...)")
    names = [g.name for g in games]
    for name in {n for n in names if names.count(n) > 1}:
        reader.problem(None, f"game {name!r} is defined twice")
    if reader.problems:
        raise SettingsError(source, sorted(reader.problems, key=lambda p: p.line or 0))
    return games


def read_game(raw: Mapping, source: str, default_name: str | None, known_variants: Callable[[str], bool],
              check_rules: RuleCheck | None = None) -> GameSettings:
    """One game's settings from its mapping as read (gm.yamlfile: each key with its line), checked
    as in a file; raise SettingsError naming every bad line (a change by mail: gm.settings.edit)."""
    reader = _Reader(known_variants, check_rules)
    game = reader.game(raw, default_name)
    if game is None or reader.problems:
        raise SettingsError(source, sorted(reader.problems, key=lambda p: p.line or 0))
    return game


class _Reader:
    def __init__(self, known_variants: Callable[[str], bool], check_rules: RuleCheck | None = None):
        self.known_variants = known_variants
        self.check_rules = check_rules
        self.problems: list[SettingsProblem] = []

    def problem(self, line: int | None, message: str) -> None:
        self.problems.append(SettingsProblem(line, message))

    def game(self, raw: Any, default_name: str | None) -> GameSettings | None:
        if not isinstance(raw, Mapping):
            self.problem(None, "each game must be a mapping")
            return None
        start = len(self.problems)
        for key in raw:
            if key not in GAME_KEYS:
                self.problem(line_of(raw, key), f"unknown setting {key!r} (known: {', '.join(sorted(GAME_KEYS))})")
        name = str(raw.get("name") or default_name or "")
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}", name):
            self.problem(line_of(raw, "name"), f"game name {name!r}: use letters, digits, - and _ (at most 40)")
        variant = str(raw.get("variant") or "")
        if not self.known_variants(variant):
            self.problem(line_of(raw, "variant"), f"unknown variant {variant!r}")
        gm = str(raw.get("gm") or "")
        if not _is_address(gm):
            self.problem(line_of(raw, "gm"), f"'gm' must be the GM's mail address, not {gm!r}")
        zone = self.zone(raw.get("timezone", "UTC"), line_of(raw, "timezone"))
        schedule = self.schedule(raw.get("deadlines"), line_of(raw, "deadlines"), zone)
        settings = GameSettings(
            name=name,
            variant=variant,
            gm=gm,
            schedule=schedule,
            players=self.players(raw.get("players") or [], line_of(raw, "players")),
            observers=tuple(self.addresses(raw.get("observers") or [], line_of(raw, "observers"))),
            assignment=self.enum(Assignment, raw.get("assignment", "preference"), line_of(raw, "assignment")),
            start=self.enum(StartPolicy, raw.get("start", "when-full"), line_of(raw, "start")),
            grace=self.duration(raw.get("grace", "0m"), line_of(raw, "grace")),
            reminders=tuple(self.duration(r, line_of(raw, "reminders")) for r in self.listed(raw, "reminders", ["24h"])),
            early=self.early(raw.get("early", True), line_of(raw, "early")),
            missed=self.missed(raw.get("missed") or {}, line_of(raw, "missed")),
            press=self.press(raw.get("press", "white"), line_of(raw, "press")),
            draw=self.draw(raw.get("draw") or {}, line_of(raw, "draw")),
            absences=self.absences(raw.get("absences", "none"), line_of(raw, "absences")),
            rules=self.rules(variant, raw.get("rules") or {}, line_of(raw, "rules")),
            seats=self.seats(raw.get("seats"), line_of(raw, "seats")),
            private=self.flag(raw.get("private", False), line_of(raw, "private"), "private"),
            takeover=self.takeover(raw.get("takeover", "gm"), line_of(raw, "takeover")),
            late=self.enum(LatePolicy, raw.get("late", "everyone"), line_of(raw, "late")),
            reveal=self.enum(Reveal, raw.get("reveal", "end"), line_of(raw, "reveal")),
            eog_days=self.days(raw.get("eog_days", 7), line_of(raw, "eog_days")),
        )
        return settings if len(self.problems) == start else None

    # -- pieces ----------------------------------------------------------------------

    def flag(self, raw: Any, line: int | None, key: str) -> bool:
        if not isinstance(raw, bool):
            self.problem(line, f"{key!r} must be true or false, not {raw!r}")
            return False
        return raw

    def days(self, raw: Any, line: int | None) -> int:
        if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
            self.problem(line, f"'eog_days' must be a whole number of days, 0 or more, not {raw!r}")
            return 7
        return raw

    def seats(self, raw: Any, line: int | None) -> int | None:
        if raw is None:
            return None
        if not isinstance(raw, int) or isinstance(raw, bool) or raw < 1:
            self.problem(line, f"'seats' must be a number of players, not {raw!r}")
            return None
        return raw

    def rules(self, variant: str, raw: Any, line: int | None) -> dict[str, Any]:
        if not isinstance(raw, Mapping):
            self.problem(line, "'rules' must be a mapping of the variant's rules to their values")
            return {}
        chosen = {str(k): v for k, v in raw.items()}
        if self.check_rules is not None and self.known_variants(variant):
            for name, why in self.check_rules(variant, chosen):
                self.problem(line_of(raw, name) or line, why)
        return chosen

    def listed(self, raw: Mapping, key: str, default: list) -> list:
        value = raw.get(key, default)
        if not isinstance(value, list):
            self.problem(line_of(raw, key), f"'{key}' must be a list")
            return []
        return value

    def enum(self, kind: type, value: Any, line: int | None) -> Any:
        try:
            return kind(str(value).strip().lower().replace("_", "-").replace(" ", "-"))
        except ValueError:
            choices = ", ".join(m.value for m in kind)  # type: ignore[attr-defined]
            self.problem(line, f"{value!r} is not one of: {choices}")
            return next(iter(kind))  # type: ignore[call-overload]

    def zone(self, value: Any, line: int | None) -> ZoneInfo:
        try:
            return ZoneInfo(str(value))
        except (ZoneInfoNotFoundError, ValueError):
            self.problem(line, f"unknown time zone {value!r} (write e.g. Europe/Rome)")
            return ZoneInfo("UTC")

    def duration(self, value: Any, line: int | None) -> timedelta:
        found = parse_duration(str(value))
        if found is None:
            self.problem(line, f"{value!r} is not a duration (write e.g. 48h, 2d, 90m, 1d12h)")
            return timedelta(0)
        return found

    def rule(self, value: Any, line: int | None) -> DeadlineRule:
        text = str(value).strip()
        daily = _DAILY.match(text)
        if daily:
            hour, minute, zone_name = daily.groups()
            if int(hour) > 23 or int(minute) > 59:
                self.problem(line, f"{value!r}: no such time of day")
                return DeadlineRule(after=timedelta(hours=48))
            zone = self.zone(zone_name, line) if zone_name else None
            return DeadlineRule(daily_at=time(int(hour), int(minute)), zone=zone)
        after = self.duration(text, line)
        if after <= timedelta(0):
            return DeadlineRule(after=timedelta(hours=48))
        return DeadlineRule(after=after)

    def schedule(self, raw: Any, line: int | None, zone: ZoneInfo) -> Schedule:
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            self.problem(line, "'deadlines' must be a mapping (movement:, retreats:, adjustments:, ...)")
            raw = {}
        for key in raw:
            if key not in DEADLINE_KEYS:
                self.problem(line_of(raw, key), f"unknown deadline setting {key!r} (known: {', '.join(sorted(DEADLINE_KEYS))})")
        days = set()
        for day in raw.get("weekdays", list(WEEKDAYS)):
            key = str(day).strip().lower()[:3]
            if key not in WEEKDAYS:
                self.problem(line_of(raw, "weekdays"), f"{day!r} is not a weekday (mon, tue, ... sun)")
            else:
                days.add(WEEKDAYS[key])
        if not days:
            self.problem(line_of(raw, "weekdays"), "at least one weekday must be allowed")
            days = set(WEEKDAYS.values())
        return Schedule(
            movement=self.rule(raw.get("movement", "48h"), line_of(raw, "movement")),
            retreats=self.rule(raw.get("retreats", "24h"), line_of(raw, "retreats")),
            adjustments=self.rule(raw.get("adjustments", "24h"), line_of(raw, "adjustments")),
            weekdays=frozenset(days),
            min_gap=self.duration(raw.get("never_before", "0m"), line_of(raw, "never_before")),
            zone=zone,
        )

    def early(self, raw: Any, line: int | None) -> EarlyProcessing:
        if isinstance(raw, bool):
            return EarlyProcessing(enabled=raw)
        if isinstance(raw, Mapping):
            for key in raw:
                if key not in ("enabled", "delay"):
                    self.problem(line_of(raw, key), f"unknown setting {key!r} under 'early' (enabled, delay)")
            return EarlyProcessing(bool(raw.get("enabled", True)), self.duration(raw.get("delay", "10m"), line_of(raw, "delay")))
        self.problem(line, "'early' must be true, false, or {enabled: ..., delay: ...}")
        return EarlyProcessing()

    def missed(self, raw: Any, line: int | None) -> MissedOrders:
        if isinstance(raw, str):
            raw = {"policy": raw}
        if not isinstance(raw, Mapping):
            self.problem(line, "'missed' must be a policy name or {policy: ..., after: N}")
            return MissedOrders()
        for key in raw:
            if key not in ("policy", "after"):
                self.problem(line_of(raw, key), f"unknown setting {key!r} under 'missed' (policy, after)")
        after = raw.get("after", 2)
        if not isinstance(after, int) or after < 1:
            self.problem(line_of(raw, "after"), "'after' must be a whole number of missed phases, at least 1")
            after = 2
        return MissedOrders(self.enum(MissedPolicy, raw.get("policy", "hold"), line_of(raw, "policy") or line), after)

    def press(self, raw: Any, line: int | None) -> PressRules:
        shorthand = {
            "none": PressRules(white=False, grey=False, partial=False),
            "white": PressRules(white=True, grey=False, partial=True),
            "grey": PressRules(white=True, grey=True, partial=True),
            "gray": PressRules(white=True, grey=True, partial=True),
            "broadcast": PressRules(white=True, grey=False, partial=False),
        }
        if isinstance(raw, str):
            if raw.strip().lower() in shorthand:
                return shorthand[raw.strip().lower()]
            self.problem(line, f"press {raw!r}: write none, white, grey, broadcast, or "
                               "{white:, grey:, partial:, eliminated:, observers:}")
            return PressRules()
        if isinstance(raw, Mapping):
            keys = ("white", "grey", "partial", "eliminated", "observers", "players")
            for key in raw:
                if key not in keys:
                    self.problem(line_of(raw, key), f"unknown press setting {key!r} ({', '.join(keys)})")
            # players: one of the words above for the players' press, beside observers:
            base = PressRules()
            if "players" in raw:
                if not isinstance(raw["players"], str) or raw["players"].strip().lower() not in shorthand:
                    self.problem(line_of(raw, "players"), f"press players {raw['players']!r}: write none, white, grey "
                                                          "or broadcast")
                else:
                    base = shorthand[raw["players"].strip().lower()]
            observers = self.enum(ObserverPress, raw.get("observers", "none"), line_of(raw, "observers") or line)
            return PressRules(bool(raw.get("white", base.white)), bool(raw.get("grey", base.grey)),
                              bool(raw.get("partial", base.partial)), bool(raw.get("eliminated", base.eliminated)),
                              observers)
        self.problem(line, "'press' must be a word or a mapping")
        return PressRules()

    def draw(self, raw: Any, line: int | None) -> DrawRules:
        if not isinstance(raw, Mapping):
            self.problem(line, "'draw' must be a mapping such as {votes: secret}")
            return DrawRules()
        for key in raw:
            if key not in ("votes", "among"):
                self.problem(line_of(raw, key), f"unknown draw setting {key!r} (votes, among)")
        return DrawRules(self.enum(VoteVisibility, raw.get("votes", "secret"), line_of(raw, "votes") or line),
                         self.enum(DrawAmong, raw.get("among", "survivors"), line_of(raw, "among") or line))

    def absences(self, raw: Any, line: int | None) -> AbsenceRules:
        """``none`` (the default), or {max: 14d, per_player: 2}: the longest absence and how many
        a player may take in the game (a key left out takes the value shown)."""
        if raw is None or raw is False or (isinstance(raw, str) and raw.strip().lower() == "none"):
            return AbsenceRules()
        if not isinstance(raw, Mapping):
            self.problem(line, "'absences' must be none or {max: 14d, per_player: 2}")
            return AbsenceRules()
        for key in raw:
            if key not in ("max", "per_player"):
                self.problem(line_of(raw, key), f"unknown absences setting {key!r} (max, per_player)")
        longest = self.duration(raw.get("max", "14d"), line_of(raw, "max") or line)
        if longest <= timedelta(0):
            self.problem(line_of(raw, "max") or line, "'max' must be a duration longer than none, as 14d")
        count = raw.get("per_player", 2)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            self.problem(line_of(raw, "per_player") or line, "'per_player' must be a whole number of absences, 0 or more")
            count = 0
        return AbsenceRules(longest, count)

    def takeover(self, raw: Any, line: int | None) -> Takeover:
        """``open``, ``gm`` (the default) or ``none``, or {policy: ..., standby: 24h}: how long
        each address standing by has to answer before the offer passes on."""
        if isinstance(raw, str):
            raw = {"policy": raw}
        if not isinstance(raw, Mapping):
            self.problem(line, "'takeover' must be open, gm or none, or {policy: ..., standby: 24h}")
            return Takeover()
        for key in raw:
            if key not in ("policy", "standby"):
                self.problem(line_of(raw, key), f"unknown takeover setting {key!r} (policy, standby)")
        standby = self.duration(raw.get("standby", "24h"), line_of(raw, "standby") or line)
        if standby <= timedelta(0):
            self.problem(line_of(raw, "standby") or line, "'standby' must be a time to answer, as 24h")
            standby = Takeover().standby
        return Takeover(self.enum(TakeoverPolicy, raw.get("policy", "gm"), line_of(raw, "policy") or line), standby)

    def addresses(self, raw: Any, line: int | None) -> list[str]:
        result = []
        for item in raw if isinstance(raw, list) else [raw]:
            if not _is_address(str(item)):
                self.problem(line, f"{item!r} is not a mail address")
            else:
                result.append(str(item).strip())
        return result

    def players(self, raw: Any, line: int | None) -> tuple[PlayerEntry, ...]:
        if not isinstance(raw, list):
            self.problem(line, "'players' must be a list")
            return ()
        entries = []
        for item in raw:
            if isinstance(item, str):
                item = {"email": item}
            if not isinstance(item, Mapping):
                self.problem(line, f"player {item!r}: write an address or {{email:, power:}}")
                continue
            where = line_of(item, "email") or line
            for key in item:
                if key not in ("email", "power", "name", "timezone"):
                    self.problem(line_of(item, key) or line, f"unknown player setting {key!r} (email, power, name, timezone)")
            email = str(item.get("email") or "")
            if not _is_address(email):
                self.problem(where, f"player address {email!r} is not a mail address")
                continue
            zone = item.get("timezone")
            if zone is not None:
                self.zone(zone, line_of(item, "timezone") or line)
            entries.append(PlayerEntry(email, item.get("power"), str(item.get("name") or ""), zone))
        emails = [e.email.lower() for e in entries]
        for email in {e for e in emails if emails.count(e) > 1}:
            self.problem(line, f"player {email} is listed twice")
        return tuple(entries)
