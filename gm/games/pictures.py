"""The pictures a game's mails carry: the board of a phase, the start, and the chart of the
game year by year; and which of them each mail gets.

- a results mail: the picture of its phase (the board before it, with its orders and their
  outcomes); the results of a year's last phase (the Winter's, where it is played) and the end
  mail also the chart of the game up to then;
- a start mail: the starting board;
- a MAP reply: what its text names on its ``:: Attached:`` lines (``MAP [phase]``, ``MAP
  CHART``), each drawn when the mail is sent: a phase processed by then is drawn with its
  orders, the phase in play as the board stands.

``attachments`` draws them here and now; ``planned`` says what to draw as ``Picture`` values
(plain data read from the store: a position, its orders, the game's dice seed), which ``draw``
turns into PNG in any process that has a variant catalog (gm.services.drawing's workers).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.store.models import Game, GameStatus, OutboundMail, PhaseRecord

if TYPE_CHECKING:  # the adjudicator and the order grammar are loaded where a phase is played again: the
    # outbox's sender loads this module for every mail, most of them without a picture
    from gm.adjudicator.variant import Variant
    from gm.domain.position import Position
    from gm.variants.catalog import VariantCatalog

ATTACHED = ":: Attached: "  # a reply's line naming a picture it carries
CHART = "chart"


@dataclass(frozen=True)
class Attachment:
    name: str  # the file's name
    data: bytes  # PNG


def arrivals(game: Game) -> list[str]:
    """The game's powers in the order their seats were taken: the order in which powers the map
    does not list (empires founded by players) take their colours."""
    return list(dict.fromkeys(seat.power for seat in game.seats if seat.power))


def phase_report(variant: Variant, record: PhaseRecord, seed: str):  # type: ignore[no-untyped-def]
    """A processed phase adjudicated again from its stored position and orders, with the game's
    dice seed (the engine is deterministic, so this is the outcome the players were sent)."""
    from gm.adjudicator.engine import adjudicate
    from gm.games.orderbook import parse_stored
    from gm.orders import OrderGrammar
    from gm.store.codec import decode_position

    position = decode_position(variant, record.position_before)
    grammar = OrderGrammar.for_variant(variant)
    orders = [(power, order) for power, lines in (record.orders or {}).items() for order in parse_stored(grammar, lines)]
    return position, adjudicate(variant, position, orders, seed=seed)


@dataclass(frozen=True)
class Picture:
    """What one picture shows, as the store keeps it (so it can be drawn in another process)."""

    variant: str
    position: Any = None  # a stored position: the board drawn (a phase's: the board before it)
    orders: Any = None  # a processed phase's stored orders by power: drawn with their outcomes
    seed: str = ""  # the game's dice seed, to adjudicate the phase again
    arrivals: tuple[str, ...] = ()
    chart: tuple[tuple[str, Any], ...] = ()  # a chart instead: (label, stored position) year by year
    title: str = field(default="")  # the chart's: the game's name


def draw(picture: Picture, catalog: VariantCatalog) -> bytes | None:
    """The picture as PNG (None: nothing to draw)."""
    from gm.adjudicator.engine import adjudicate
    from gm.games.orderbook import parse_stored
    from gm.orders import OrderGrammar
    from gm.render import render_phase_png  # loaded only by a process that draws (not by `gm receive`)
    from gm.render.chart import chart_png, history_chart
    from gm.store.codec import decode_position

    variant = catalog.get(picture.variant)
    if picture.chart:
        points = [(label, decode_position(variant, stored)) for label, stored in picture.chart]
        return chart_png(history_chart(variant, picture.title, points, picture.arrivals))
    if picture.position is None:
        return None
    position = decode_position(variant, picture.position)
    report = None
    if picture.orders is not None:
        grammar = OrderGrammar.for_variant(variant)
        orders = [(power, order) for power, lines in picture.orders.items() for order in parse_stored(grammar, lines)]
        report = adjudicate(variant, position, orders, seed=picture.seed)
    return render_phase_png(variant, position, report, arrivals=picture.arrivals)


def phase_picture(game: Game, record: PhaseRecord) -> Picture:
    return Picture(game.variant, record.position_before, record.orders or {}, game.dice_seed, tuple(arrivals(game)))


def current_picture(game: Game) -> Picture:
    return Picture(game.variant, game.position, arrivals=tuple(arrivals(game)))


def start_picture(session: Session, game: Game) -> Picture:
    """The board the game started from: its first phase's position, once that phase is stored
    (the game may have moved on before the start mail goes out), else the game as it stands."""
    first = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game.id)
                            .order_by(PhaseRecord.seq, PhaseRecord.id).limit(1)).first()
    if first is not None:
        return Picture(game.variant, first.position_before, arrivals=tuple(arrivals(game)))
    return current_picture(game)


def phase_png(services: Services, game: Game, record: PhaseRecord) -> bytes:
    png = draw(phase_picture(game, record), services.catalog)
    assert png is not None
    return png


def current_png(services: Services, game: Game) -> bytes:
    png = draw(current_picture(game), services.catalog)
    if png is None:
        raise ValueError(f"game {game.name} has not started")
    return png


def start_png(services: Services, session: Session, game: Game) -> bytes | None:
    return draw(start_picture(session, game), services.catalog)


# -- phases by name ------------------------------------------------------------------------------

def records(session: Session, game: Game) -> list[PhaseRecord]:
    """The game's processed phases in order (those rolled back left out)."""
    return list(session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game.id,
                                                          PhaseRecord.rolled_back.is_(False))
                                .order_by(PhaseRecord.seq, PhaseRecord.id)))


def phase_named(variant: Variant, text: str, names: Sequence[str]) -> str | None:
    """Which of the phases ``names`` the text names: by its id in any case (``s1901m``) or by
    its title ("Spring 273 B.C. movement", "spring 273 bc movement")."""
    def plain(words: str) -> str:
        return " ".join(words.replace(".", "").split()).casefold()

    wanted = plain(text)
    for name in names:
        if wanted in (name.casefold(), plain(variant.title(variant.calendar.parse(name)))):
            return name
    return None


def picture_name(game: Game, what: str) -> str:
    """The file name of a picture of the game: ``g-S1901M.png``, ``g-chart.png``."""
    return f"{game.name}-{what}.png"


def announce(game: Game, what: str) -> str:
    """The line by which a reply says it carries a picture (``what``: a phase or ``CHART``)."""
    return ATTACHED + picture_name(game, what)


def announced(body: str, game: Game) -> list[str]:
    """What a mail's ``:: Attached:`` lines name of the game (phases, or ``CHART``), in order."""
    prefix = f"{ATTACHED}{game.name}-"
    return [line[len(prefix):-len(".png")] for line in body.splitlines()
            if line.startswith(prefix) and line.endswith(".png")]


# -- the chart of the game year by year ----------------------------------------------------------

def chart_points(services: Services, session: Session, game: Game, upto: PhaseRecord | None = None,
                 now: bool = False) -> list[tuple[str, Position]]:
    """The boards the chart plots: the start, and the board at the end of each year (as it was
    once its last phase was processed), up to ``upto``'s year if given; with ``now``, also the
    board as it stands when the year in play is not over."""
    from gm.store.codec import decode_position

    variant = services.variant_of(game)
    return [(label, decode_position(variant, stored)) for label, stored in stored_points(services, session, game, upto, now)]


def stored_points(services: Services, session: Session, game: Game, upto: PhaseRecord | None = None,
                  now: bool = False) -> list[tuple[str, Any]]:
    """``chart_points`` as the store keeps the boards."""
    variant = services.variant_of(game)
    calendar = variant.calendar
    done = records(session, game)
    if upto is not None:
        done = [r for r in done if (r.seq, r.id) <= (upto.seq, upto.id)]
    if not done:
        return [("start", game.position)] if game.position else []
    points = [("start", done[0].position_before)]
    for index, record in enumerate(done):
        year = calendar.parse(record.phase).year
        following = done[index + 1] if index + 1 < len(done) else None
        after = calendar.parse(record.position_after["phase"]).year
        if (following is None and (after != year or game.status == GameStatus.FINISHED)) or (
                following is not None and calendar.parse(following.phase).year != year):
            points.append((calendar.year_label(year), record.position_after))
    last = done[-1]
    if now and upto is None and calendar.parse(last.position_after["phase"]).year == calendar.parse(last.phase).year \
            and game.position and game.status != GameStatus.FINISHED:
        year = calendar.parse(game.position["phase"]).year
        points.append((f"{calendar.year_label(year)} (now)", game.position))
    return points


def chart_title(variant: Variant) -> str:
    """What the chart shows, as a reply names it."""
    return "territories and talents" if not variant.map.supply_centres else "supply centres"


def chart_picture(services: Services, session: Session, game: Game, upto: PhaseRecord | None = None,
                  now: bool = False) -> Picture | None:
    points = stored_points(services, session, game, upto, now)
    if not points:
        return None
    return Picture(game.variant, arrivals=tuple(arrivals(game)), chart=tuple(points), title=game.name)


def game_chart_png(services: Services, session: Session, game: Game, upto: PhaseRecord | None = None,
                   now: bool = False) -> bytes | None:
    picture = chart_picture(services, session, game, upto, now)
    return None if picture is None else draw(picture, services.catalog)


def closes_year(services: Services, game: Game, record: PhaseRecord) -> bool:
    """Was this the last phase processed in its year (the Winter's, where one is played)?"""
    calendar = services.variant_of(game).calendar
    return calendar.parse(record.position_after["phase"]).year != calendar.parse(record.phase).year


# -- what each mail carries ----------------------------------------------------------------------

@dataclass(frozen=True)
class Wanted:
    """A picture a mail carries: its key (the same picture for other mails of a run), its file
    name, how to draw it here, and what it shows (to draw it elsewhere)."""

    key: tuple[Any, ...]
    name: str
    here: Callable[[], bytes | None]
    plan: Callable[[], Picture | None]


def wanted(services: Services, session: Session, mail: OutboundMail) -> list[Wanted]:
    """The pictures ``mail`` carries (see the module's docstring), in order."""
    game = session.get(Game, mail.game_id) if mail.game_id else None
    if game is None:
        return []
    named = announced(mail.body, game) if mail.kind == "map" else []
    if named:
        found = []
        for what in named:
            if what == CHART:
                found.append(Wanted((game.id, CHART, None, game.phase), picture_name(game, CHART),
                                    lambda: game_chart_png(services, session, game, now=True),
                                    lambda: chart_picture(services, session, game, now=True)))
                continue
            record = record_named(session, game, what)
            if record is not None:
                found.append(Wanted((game.id, record.id), picture_name(game, what),
                                    lambda r=record: phase_png(services, game, r), lambda r=record: phase_picture(game, r)))
            elif what == game.phase and game.position:
                found.append(Wanted((game.id, None, game.phase), picture_name(game, what),
                                    lambda: current_png(services, game), lambda: current_picture(game)))
        return found
    if mail.kind == "start":
        return [Wanted((game.id, "start"), picture_name(game, "start"), lambda: start_png(services, session, game),
                       lambda: start_picture(session, game))]
    record = session.get(PhaseRecord, mail.attach_phase_id) if mail.attach_phase_id else None
    if record is not None:
        found = [Wanted((game.id, record.id), picture_name(game, record.phase), lambda: phase_png(services, game, record),
                        lambda: phase_picture(game, record))]
        if mail.kind == "end" or (mail.kind == "results" and closes_year(services, game, record)):
            found.append(Wanted((game.id, CHART, record.id), picture_name(game, CHART),
                                lambda: game_chart_png(services, session, game, upto=record),
                                lambda: chart_picture(services, session, game, upto=record)))
        return found
    if mail.kind == "map" and game.position:
        return [Wanted((game.id, None, game.phase), picture_name(game, game.phase or "board"),
                       lambda: current_png(services, game), lambda: current_picture(game))]
    return []


def attachments(services: Services, session: Session, mail: OutboundMail,
                cache: dict[tuple[Any, ...], bytes | None],
                failed: Callable[[str, Exception], None] | None = None) -> list[Attachment]:
    """The pictures ``mail`` carries, drawn here; ``cache``: pictures drawn for earlier mails of
    the same run (a phase's results go to every player). A picture that cannot be drawn is
    left out, and ``failed`` told (once per picture and cache)."""
    found: list[Attachment] = []
    for picture in wanted(services, session, mail):
        if picture.key not in cache:
            cache[picture.key] = None
            try:
                cache[picture.key] = picture.here()
            except Exception as exc:  # noqa: BLE001 - the mail goes without this picture
                if failed is None:
                    raise
                failed(picture.name, exc)
        data = cache[picture.key]
        if data is not None:
            found.append(Attachment(picture.name, data))
    return found


def record_named(session: Session, game: Game, phase: str) -> PhaseRecord | None:
    return next((r for r in reversed(records(session, game)) if r.phase == phase), None)


def phase_names(session: Session, game: Game) -> Sequence[str]:
    """The phases a player may ask the picture of: those processed, then the one in play."""
    names = list(dict.fromkeys(r.phase for r in records(session, game)))
    if game.phase and game.phase not in names and game.position:
        names.append(game.phase)
    return names


def phase_results_text(services: Services, game: Game, record: PhaseRecord) -> str:
    """A processed phase's results as its results mail printed them (adjudicated again from the
    store: the same outcome), for HISTORY and the phase's page."""
    from gm.reports.results import results_context

    variant = services.variant_of(game)
    position, report = phase_report(variant, record, game.dice_seed)
    return services.mailer.render("mail/_phase_results.txt.j2", game=game, played=record.results.get("played", []),
                                  **results_context(variant, record.phase, report, position)).strip("\n")
