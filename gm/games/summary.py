"""A game in brief, as SUMMARY and the summary page give it to anyone who may see the game: its
settings in brief, its powers, who played each over time (takeovers included; by name only
where the game names its players, gm.games.reveal), how each player kept its deadlines
(gm.games.records), the centres of each power year by year as exact numbers (the boards the
chart plots, gm.games.pictures), how it ended, and its players' end-of-game statements.

Built as data here, written out by gm.commands.summary (a mail) and gm.web (a page)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.games import records
from gm.games.context import Services
from gm.games.endings import TERMINATED
from gm.games.mailer import WIDTH
from gm.games.pictures import arrivals, chart_points
from gm.games.press_readers import is_statement, signed
from gm.games.records import Tally
from gm.games.reveal import player_name
from gm.settings.model import (
    DrawAmong, GameSettings, MissedPolicy, ObserverPress, Reveal, TakeoverPolicy, format_duration,
)
from gm.store.models import Game, Opening, OpeningReason, PhaseRecord, Player, Press, Seat, SeatStatus

LEFT = {
    OpeningReason.RESIGNED: "resigned",
    OpeningReason.EJECTED: "removed by the game master",
    OpeningReason.ABANDONED: "stopped sending orders",
}


@dataclass(frozen=True)
class Tenure:
    """One player's time with a power."""

    player: Player
    began: str | None  # the phase it began in (None: from the start)
    ended: str | None  # the phase it ended in (None: plays it still, or to the end)
    left: str  # why it ended, in words ("" while it goes on)
    tally: Tally

    @property
    def span(self) -> str:
        """"from the start to Fall 1901 movement (resigned)"."""
        text = f"from {self.began}" if self.began else "from the start"
        if self.ended:
            text += f" to {self.ended}"
        if self.left:
            text += f" ({self.left})"
        return text


@dataclass(frozen=True)
class PowerSummary:
    power: str
    state: str  # "", "eliminated", "no player", "civil disorder"
    tenures: list[Tenure] = field(default_factory=list)
    vacant: Tally = Tally()  # the deadlines while nobody played it


@dataclass(frozen=True)
class Table:
    """One measure of each power year by year (supply centres; Diplomacy of the Empire's
    territories and talents), as the chart plots it: ``labels`` the columns (the start, each
    year's end, the year in play), each row a power's values (None: not in the game then)."""

    measure: str
    labels: list[str]
    rows: list[tuple[str, list[int | None]]]


@dataclass(frozen=True)
class Statement:
    sender: str
    sent_at: datetime
    text: str


@dataclass(frozen=True)
class GameSummary:
    game: Game
    variant_title: str
    phase_title: str
    powers: list[PowerSummary]
    settings: list[tuple[str, str]] = field(default_factory=list)  # (what, how), in brief
    tables: list[Table] = field(default_factory=list)
    result: str = ""  # how it ended ("" while it goes on)
    statements: list[Statement] = field(default_factory=list)


def summarize(services: Services, session: Session, game: Game) -> GameSummary:
    variant = services.variant_of(game)
    powers = powers_of(services, session, game)
    settings = services.settings_of(game)
    return GameSummary(game, variant.map.title, _title(services, game, game.phase) or "before the start", powers,
                       settings_brief(settings, variant.map.title),
                       tables(services, session, game, [p.power for p in powers]),
                       result_words(game), statements(session, game))


def who_played(services: Services, session: Session, game: Game) -> list[tuple[str, list[str]]]:
    """The powers played by more than one player, each with its players in turn and their time
    (the end mail's list, beside the final standing that names each power's last player)."""
    return [(power.power, [f"{player_name(t.player)} ({t.span})" for t in power.tenures])
            for power in powers_of(services, session, game) if len(power.tenures) > 1]


def powers_of(services: Services, session: Session, game: Game) -> list[PowerSummary]:
    """Each power, who played it over time and how each player kept its deadlines."""
    variant = services.variant_of(game)
    tallies = records.by_seat(session, game)
    moments = _phases(session, game)
    left_because = {o.seat_id: LEFT.get(o.reason, o.reason) for o in session.scalars(
        select(Opening).where(Opening.game_id == game.id))}
    by_power: dict[int, list[Seat]] = {}
    for seat in sorted(game.seats, key=lambda s: s.id):
        by_power.setdefault(seat.power_key, []).append(seat)
    powers = []
    for seats in by_power.values():
        current = next((s for s in seats if s.left_at is None), seats[-1])
        if not current.power:
            continue
        tenures = []
        vacant = Tally()
        for seat in seats:
            vacant = vacant + tallies.get((seat.id, None), Tally())
            if seat.player is None:
                continue
            began = None if seat.first_seat_id is None else _title(services, game, _phase_at(moments, game, seat.joined_at))
            ended = _title(services, game, _phase_at(moments, game, seat.left_at)) if seat.left_at else None
            left = left_because.get(seat.id, "replaced by the game master") if seat.left_at else ""
            tenures.append(Tenure(seat.player, began, ended, left, tallies.get((seat.id, seat.player_id), Tally())))
        state = {SeatStatus.ELIMINATED: "eliminated", SeatStatus.VACANT: "no player",
                 SeatStatus.CIVIL_DISORDER: "civil disorder"}.get(current.status, "")
        powers.append(PowerSummary(current.power, state, tenures, vacant))
    order = list(variant.map.powers)
    powers.sort(key=lambda p: (order.index(p.power) if p.power in order else len(order), p.power))
    return powers


def settings_brief(settings: GameSettings, variant_title: str) -> list[tuple[str, str]]:
    """What a player would ask of a game before joining or reading it, one line each."""
    schedule = settings.schedule
    deadlines = (f"movement {schedule.movement}, retreats {schedule.retreats}, adjustments {schedule.adjustments} "
                 f"({schedule.zone.key})")
    if len(schedule.weekdays) < 7:
        days = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
        deadlines += ", only on " + " ".join(days[d] for d in sorted(schedule.weekdays))
    if settings.grace:
        deadlines += f", late orders taken for {format_duration(settings.grace)}"
    press = settings.press
    kinds = "none" if not press.any else " and ".join(
        [w for w, on in (("white", press.white), ("grey", press.grey)) if on])
    if press.any:
        kinds += ", to some powers or to everyone" if press.partial else ", to everyone only"
    if press.observers is ObserverPress.WHITE:
        kinds += "; observers write to everyone"
    draw = "every surviving power's vote, " + ("open" if settings.draw.votes.value == "open" else "secret")
    draw += ("; shared by the powers a vote names" if settings.draw.among is DrawAmong.ANY
             else "; shared by every survivor")
    missed = {MissedPolicy.HOLD: "units hold", MissedPolicy.CIVIL_DISORDER: f"civil disorder after {settings.missed.after}",
              MissedPolicy.WAIT: f"the game waits for a new player after {settings.missed.after}",
              MissedPolicy.PLAY: f"the judge plays the power; civil disorder after {settings.missed.after}"}
    takeovers = {TakeoverPolicy.GM: "approved by the game master", TakeoverPolicy.OPEN: "the first to ask",
                 TakeoverPolicy.NONE: "only the game master's REPLACE"}
    named = {Reveal.END: "once the game is over", Reveal.NEVER: "never", Reveal.ALWAYS: "from the start"}
    rules = ", ".join(f"{k} {v}" for k, v in settings.rules.items())
    return [
        ("Variant", variant_title + (f" ({rules})" if rules else "")),
        ("Deadlines", deadlines),
        ("Press", kinds),
        ("Draws", draw),
        ("Missed orders", missed[settings.missed.policy]),
        ("Takeovers", takeovers[settings.takeover.policy]),
        ("Players named", named[settings.reveal]),
        ("Statements", f"for {settings.eog_days} day{'s' if settings.eog_days != 1 else ''} after the end"
         if settings.eog_days else "none"),
    ]


def tables(services: Services, session: Session, game: Game, powers: list[str],
           upto: PhaseRecord | None = None) -> list[Table]:
    """Each power's centres (or the variant's own measures) on each board the chart plots (up to
    ``upto``'s year, as the chart of its results mail; else to the board as it stands)."""
    variant = services.variant_of(game)
    points = chart_points(services, session, game, upto=upto, now=upto is None)
    if not points or not powers:
        return []
    labels = [label for label, _ in points]
    if variant.map.supply_centres:
        values: list[dict[str, dict[str, int]]] = []
        for _, board in points:
            counts: dict[str, int] = {}
            for owner in board.centres.values():
                counts[owner] = counts.get(owner, 0) + 1
            values.append({"supply centres": counts})
    else:
        # A map without supply centres charts what its variant tallies (territories, talents):
        # measured as the chart measures them, so the two never differ.
        from gm.render.chart import measures  # drawing code, loaded only for such a variant
        from gm.render.colours import Palette

        palette = Palette(variant, powers, arrivals(game))
        values = [measures(variant, board, palette) for _, board in points]
    names = list(dict.fromkeys(m for found in values for m in found))
    # a power is on a board while in play, or while it still has something of any measure (as charted)
    present = [{p for p in powers if p in variant.in_play(board) or any(v.get(p) for v in found.values())}
               for (_, board), found in zip(points, values, strict=True)]
    return [Table(measure, labels, [(power, [found.get(measure, {}).get(power, 0) if power in there else None
                                             for found, there in zip(values, present, strict=True)])
                                    for power in powers])
            for measure in names]


def table_lines(table: Table, width: int = WIDTH) -> list[str]:
    """The table as columns of exact numbers ("-": not in the game then), as many columns a block
    as fit the width, each block headed by its labels."""
    first = max(len(power) for power, _ in table.rows) + 3
    sizes = [max(len(label), *(len(str(row[i])) for _, row in table.rows if row[i] is not None), 1) + 2
             for i, label in enumerate(table.labels)]
    lines: list[str] = []
    start = 0
    while start < len(table.labels):
        end = start
        used = first
        while end < len(table.labels) and (end == start or used + sizes[end] <= width):
            used += sizes[end]
            end += 1
        if lines:
            lines.append("")
        lines.append(" " * first + "".join(f"{table.labels[i]:>{sizes[i]}}" for i in range(start, end)))
        for power, row in table.rows:
            cells = "".join(f"{'-' if row[i] is None else row[i]:>{sizes[i]}}" for i in range(start, end))
            lines.append(f"  {power:<{first - 2}}{cells}")
        start = end
    return lines


def year_by_year(services: Services, session: Session, game: Game, upto: PhaseRecord | None = None) -> list[str]:
    """The chart's numbers as a mail gives them beside the chart (MAP CHART, the results that
    close a year, the end): each measure's table of exact numbers, its powers those the chart
    draws, one block after another; a blank line before each."""
    variant = services.variant_of(game)
    powers = list(dict.fromkeys([*variant.map.powers, *sorted(s.power for s in game.seats if s.power)]))
    lines: list[str] = []
    for table in tables(services, session, game, powers, upto):
        rows = [(power, values) for power, values in table.rows if any(v is not None for v in values)]
        if rows:
            lines += ["", f"{table.measure[:1].upper()}{table.measure[1:]} year by year:",
                      *table_lines(Table(table.measure, table.labels, rows))]
    return lines


def result_words(game: Game) -> str:
    """How the game ended, in words ("" while it goes on)."""
    result = game.result or {}
    kind = result.get("kind")
    if kind == "win":
        return f"won by {result.get('winner')}"
    if kind == "draw":
        return "drawn between " + ", ".join(result.get("powers", []))
    if kind == "concession":
        return f"conceded to {result.get('winner') or result.get('to', '')}"
    if kind == TERMINATED:
        return f"ended unfinished by its game master: {result.get('reason', '')}"
    return ""


def statements(session: Session, game: Game) -> list[Statement]:
    """The statements its players and game master sent once it was over (gm.games.press_readers)."""
    if game.finished_at is None:
        return []
    found = session.scalars(select(Press).where(Press.game_id == game.id, Press.sent_at >= game.finished_at)
                            .order_by(Press.id))
    return [Statement(signed(press), press.sent_at, press.body) for press in found if is_statement(press, game)]


def _phases(session: Session, game: Game) -> list[tuple[datetime, str]]:
    """When each phase in force was processed, in order."""
    return [(at, phase) for at, phase in session.execute(
        select(PhaseRecord.processed_at, PhaseRecord.phase).where(
            PhaseRecord.game_id == game.id, PhaseRecord.rolled_back.is_(False)).order_by(PhaseRecord.seq))]


def _phase_at(moments: list[tuple[datetime, str]], game: Game, moment: datetime) -> str | None:
    """The phase in play at ``moment``: the first processed after it, else the current one."""
    return next((phase for at, phase in moments if at > moment), game.phase)


def _title(services: Services, game: Game, code: str | None) -> str | None:
    if not code:
        return None
    variant = services.variant_of(game)
    return variant.title(variant.calendar.parse(code))
