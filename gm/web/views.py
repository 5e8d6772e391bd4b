"""What the public pages show of a game: only what any player could learn by mail at that
moment (LIST, the results mails, press to everyone, HELP RULES).

- the board in play, and each processed phase with its orders and results as the results mail
  printed them (so no order is shown before its phase is adjudicated, and no die before it fell);
- press to everyone once it is out (press held for the results only with them), grey press
  signed "an anonymous power", never a list of recipients of private press;
- a player only where the game names its players (gm.games.reveal: by default once it is over,
  as the end mail gives it), by its name, or its address where it gave none; no other address;
- the powers open to take over, and each player's deadlines kept, late and missed, as LIST gives them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.commands.base import Invocation, MailContext
from gm.commands.registry import CommandTable
from gm.games.context import Services
from gm.games.lifecycle import current_seats, seats_wanted
from gm.games.pictures import chart_title, phase_results_text
from gm.games.press_readers import ANYONE, Reader, reads, sent_by, signed
from gm.reports.words import words_of
from gm.store.models import Game, GameStatus, PhaseRecord, Press, SeatStatus, WebRole
from gm.games.reveal import player_name, players_named
from gm.games.summary import result_words
from gm.web.pictures import Pictures
from gm.web.takeovers import OpenPower, open_powers, seat_records

_SEAT_NOTES = {SeatStatus.CIVIL_DISORDER: "civil disorder", SeatStatus.VACANT: "seat open",
               SeatStatus.ELIMINATED: "out"}


@dataclass(frozen=True)
class GameRow:
    name: str
    variant: str
    status: str
    phase: str
    deadline: datetime | None
    zone: str
    seats_open: str
    private: bool


@dataclass(frozen=True)
class PhaseLink:
    code: str
    title: str


@dataclass(frozen=True)
class PowerRow:
    power: str
    centres: int
    units: int
    note: str
    player: str  # only once the game names its players (gm.games.reveal)
    deadlines: str = ""  # its player's deadlines kept, late and missed (gm.games.records)
    colour: str = ""  # as the board and the chart draw it: the table's swatch


@dataclass(frozen=True)
class PublicPress:
    phase: str
    sender: str
    text: str
    sent_at: datetime


@dataclass(frozen=True)
class GameView:
    game: Game
    variant_title: str
    phase_title: str
    deadline: datetime | None
    zone: str
    seats_open: str
    result: str
    powers: list[PowerRow]
    phases: list[PhaseLink]
    press: list[PublicPress]
    board: Markup | None
    chart: Markup | None
    chart_title: str
    state: list[tuple[str, list[str]]]  # a variant's own tallies (treasuries), as the results print them
    open_powers: tuple[OpenPower, ...] = ()  # to take over (gm.web.takeovers)


@dataclass(frozen=True)
class PhaseView:
    game: Game
    code: str
    title: str
    board: Markup
    results: str  # as the results mail printed them
    earlier: PhaseLink | None
    later: PhaseLink | None


def phase_title(services: Services, game: Game, code: str | None) -> str:
    if not code:
        return "before the start"
    variant = services.variant_of(game)
    return variant.title(variant.calendar.parse(code))


def seats_open(services: Services, game: Game) -> str:
    if game.status == GameStatus.FORMING:
        wanted = seats_wanted(services, game)
        taken = len(current_seats(game))
        return f"{max(wanted - taken, 0)} of {wanted}"
    vacant = [s.power for s in current_seats(game) if s.status == SeatStatus.VACANT and s.power]
    return ", ".join(sorted(vacant)) if vacant else "none"


def game_rows(services: Services, session: Session, shown: set[int]) -> list[GameRow]:
    """Every game anyone may see, and the private ones in ``shown`` (the reader's)."""
    rows = []
    for game in session.scalars(select(Game).order_by(Game.name)).unique():
        settings = services.settings_of(game)
        if settings.private and game.id not in shown:
            continue
        rows.append(GameRow(game.name, services.variant_of(game).map.title, game.status,
                            phase_title(services, game, game.phase),
                            game.deadline if game.status == GameStatus.ACTIVE else None,
                            settings.schedule.zone.key, seats_open(services, game), settings.private))
    return rows


def game_view(services: Services, session: Session, game: Game, pictures: Pictures) -> GameView:
    variant = services.variant_of(game)
    settings = services.settings_of(game)
    board = chart = None
    powers: list[PowerRow] = []
    state: list[tuple[str, list[str]]] = []
    if game.position:
        position = services.position_of(game)
        board = pictures.board_now(game)
        chart = pictures.chart(session, game)
        state = words_of(variant).state_report(position)
        named = players_named(services, game)
        kept = seat_records(session, game)
        for seat in sorted(current_seats(game), key=lambda s: s.power or ""):
            if not seat.power:
                continue
            powers.append(PowerRow(seat.power, len(position.centres_of(seat.power)), len(position.units_of(seat.power)),
                                   _SEAT_NOTES.get(seat.status, ""),
                                   player_name(seat.player) if named and seat.player is not None else "",
                                   kept.get(seat.id, "")))
        colours = pictures.colours(game, [row.power for row in powers])
        powers = [dataclasses.replace(row, colour=colours[row.power]) for row in powers]
    phases = [PhaseLink(code, phase_title(services, game, code)) for code in _phase_codes(session, game)]
    return GameView(game, variant.map.title, phase_title(services, game, game.phase),
                    game.deadline if game.status == GameStatus.ACTIVE else None, settings.schedule.zone.key,
                    seats_open(services, game), result_words(game), powers, phases, public_press(services, session, game),
                    board, chart, chart_title(variant), state, open_powers(services, session, game))


def _phase_codes(session: Session, game: Game) -> list[str]:
    """The processed phases in order (without loading their boards)."""
    found = session.scalars(select(PhaseRecord.phase).where(PhaseRecord.game_id == game.id,
                                                             PhaseRecord.rolled_back.is_(False))
                            .order_by(PhaseRecord.seq, PhaseRecord.id))
    return list(dict.fromkeys(found))


def public_press(services: Services, session: Session, game: Game) -> list[PublicPress]:
    """Press to everyone that is out: what every player of the game has read, and all that an
    observer or anyone else reads (gm.games.press_readers)."""
    found = []
    for press in session.scalars(select(Press).where(Press.game_id == game.id).order_by(Press.id)):
        if not reads(press, ANYONE):
            continue
        sender = signed(press)
        found.append(PublicPress(phase_title(services, game, press.phase), sender, press.body, press.sent_at))
    return found


def observer_press(services: Services, session: Session, game: Game, address: str) -> list[PublicPress]:
    """An observer's own press to the game master (gm.games.press_readers: it reads what it sent)."""
    reader = Reader.of(WebRole.OBSERVER, None, address)
    return [PublicPress(phase_title(services, game, press.phase), "you, to the game master", press.body, press.sent_at)
            for press in session.scalars(select(Press).where(Press.game_id == game.id, Press.to_gm.is_(True))
                                         .order_by(Press.id))
            if sent_by(press, reader)]


def phase_view(services: Services, session: Session, game: Game, code: str, pictures: Pictures) -> PhaseView | None:
    done = list(session.execute(select(PhaseRecord.id, PhaseRecord.phase).where(
        PhaseRecord.game_id == game.id, PhaseRecord.rolled_back.is_(False)).order_by(PhaseRecord.seq, PhaseRecord.id)))
    index = next((i for i in range(len(done) - 1, -1, -1) if done[i].phase.casefold() == code.casefold()), None)
    if index is None:
        return None
    record = session.get(PhaseRecord, done[index].id)
    assert record is not None
    results = pictures.cache.get(("results", game.id, record.id), lambda: phase_results_text(services, game, record))
    return PhaseView(game, record.phase, phase_title(services, game, record.phase), pictures.phase(game, record),
                     str(results),
                     _link(services, game, done[index - 1].phase) if index > 0 else None,
                     _link(services, game, done[index + 1].phase) if index + 1 < len(done) else None)


def _link(services: Services, game: Game, code: str) -> PhaseLink:
    return PhaseLink(code, phase_title(services, game, code))


def rules_text(services: Services, session: Session, table: CommandTable, game: Game) -> list[str]:
    """HELP RULES for the game, as a mail gets it."""
    ctx = MailContext(services=services, session=session, sender="", now=services.clock.now())
    ctx.enter(game)  # neither a power nor its game master: what anyone signed on to it reads
    help_command = table.find("HELP")
    assert help_command is not None
    return help_command.run(ctx, Invocation("HELP", "RULES", 1, "HELP RULES"))
