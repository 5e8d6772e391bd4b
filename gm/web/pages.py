"""The pages everyone may read: the list of games, a game, a phase of its history, its summary,
its rules, and the full-size pictures of its board (the PNGs its mails carry).
A private game's pages only for its own signed-in readers (players, observers, GM): to anyone
else it is not in the list, and its pages answer exactly as a game that does not exist."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import Response

from gm.games.deadline_feed import deadlines_ics
from gm.games.openings import open_powers
from gm.games.pictures import records
from gm.games.reveal import player_name, players_named
from gm.games.summary import summarize
from gm.games.web_access import feed_holder
from gm.settings.model import ObserverPress
from gm.store.models import Game, WebRole
from gm.web.security import game_id_of_cookie, token_in
from gm.web import pagecache
from gm.web.state import Page, Reader, WebState
from gm.web.views import game_rows, game_view, observer_press, phase_view, rules_text


def _mailto(state: WebState, line: str) -> str:
    """A link that writes the mail asking for ``line`` (the web has no accounts: asking is a mail
    from the address that will be mailed, through the same intake)."""
    return f"mailto:{state.services.config.judge_address}?subject={quote(line)}&body={quote(line)}"


def _signed_in(state: WebState, session: Session, request: Request) -> set[int]:
    """The games this browser holds a working session of (a cookie per game)."""
    found = set()
    for name, value in request.cookies.items():
        game_id = game_id_of_cookie(name, state.secure)
        if game_id is None or token_in(state.key, value) is None:
            continue
        game = session.get(Game, game_id)
        if game is not None and state.reader(session, request, game) is not None:
            found.add(game.id)
    return found


async def games(request: Request) -> Response:
    state: WebState = request.app.state.web

    def read() -> Response:
        with state.services.db.reading() as session:
            rows = game_rows(state.services, session, _signed_in(state, session, request))
        return state.page(request, "web/games.html.j2", rows=rows)

    return await state.work(read)


def no_game(state: WebState, request: Request, name: str) -> Response:
    """The one answer for a game name that names nothing this reader may read: no such game, or
    a private game the reader is not signed in to (its name is not confirmed by a different
    status or word); it always offers the sign-in page, whose answer is the same for any name."""
    return state.page(request, "web/no_game.html.j2", status=404, name=name)


async def _game_page(request: Request, render: Callable[[WebState, Session, Game, Reader | None], Response],
                     kept_as: tuple[str, ...] | None = None) -> Response:
    """A page of the game the path names, for whoever may read it: ``render`` (in a worker
    thread, with the reader) makes it; no such game, and a private one the reader is not signed
    in to, are answered alike (``no_game``). ``kept_as``: the page is kept as drawn under this
    name (gm.web.pagecache; its first part says which rows it shows: "now", the game as it
    stands, else a phase of its history), and a stranger's is served from there after one small
    query."""
    state: WebState = request.app.state.web
    name = request.path_params["name"]

    def read() -> Response:
        with state.services.db.reading() as session:
            # The stamp is read first: what is drawn after it is as new as it, or newer (a page
            # newer than its key is only drawn again), never older.
            stamp = pagecache.stamp(session, name, as_it_stands=kept_as[0] == "now") if kept_as else None
            if stamp is not None and not state.holds_session(request, stamp.game_id):
                found = state.kept.get((kept_as, stamp, None))
                if found is not None:
                    return state.kept_page(request, found, None)
            game, reader = state.game_and_reader(session, request, name)
            if game is None or not state.readable(reader, game):
                return no_game(state, request, name)
            if stamp is None or stamp.game_id != game.id:
                return render(state, session, game, reader)
            key = (kept_as, stamp, reader.row.id if reader is not None else None)  # a session: its own page
            with state.kept.drawing(key) as found:
                found = found or state.kept.get(key)
                if found is not None:
                    return state.kept_page(request, found, reader)
                response = render(state, session, game, reader)
                if isinstance(response, Page) and response.status_code == 200 and (
                        reader is not None or response.shared):
                    return state.kept_page(request, state.kept.put(key, response.body), reader)
                return response

    return await state.work(read)


async def game(request: Request) -> Response:
    def render(state: WebState, session: Session, found: Game, reader: Reader | None) -> Response:
        view = game_view(state.services, session, found, state.pictures)
        observing = reader is not None and reader.role == WebRole.OBSERVER
        mine = observer_press(state.services, session, found, reader.row.address) if observing else []  # type: ignore[union-attr]
        settings = state.services.settings_of(found)
        return state.page(request, "web/game.html.j2", reader=reader, view=view, game=found, observing=observing,
                          own_press=mine, observers_write=settings.press.observers is ObserverPress.WHITE,
                          private=settings.private,
                          observe=_mailto(state, f"OBSERVE {found.name}"),
                          unobserve=_mailto(state, f"UNOBSERVE {found.name}"))

    return await _game_page(request, render, kept_as=("now",))


async def phase(request: Request) -> Response:
    code = request.path_params["phase"]

    def render(state: WebState, session: Session, found: Game, reader: Reader | None) -> Response:
        view = phase_view(state.services, session, found, code, state.pictures)
        if view is None:
            return state.message(request, "No such phase", f"{found.name} has no processed phase {code!r}.", 404,
                                 reader=reader, back=f"/games/{found.name}")
        return state.page(request, "web/phase.html.j2", reader=reader, view=view, game=found)

    return await _game_page(request, render, kept_as=("phase", code.casefold()))


def _png(data: bytes) -> Response:
    return Response(data, media_type="image/png", headers={"cache-control": "private, max-age=60"})


async def board_png(request: Request) -> Response:
    """The board as it stands, full size (the page draws it to the page's width)."""
    def render(state: WebState, session: Session, found: Game, reader: Reader | None) -> Response:
        if not found.position:
            return state.message(request, "No board yet", f"{found.name} has not started.", 404, reader=reader,
                                 back=f"/games/{found.name}")
        return _png(state.pictures.board_png(found))

    return await _game_page(request, render)


async def phase_png(request: Request) -> Response:
    """A processed phase's picture with its orders, full size, as its results mail carried it."""
    code = request.path_params["phase"]

    def render(state: WebState, session: Session, found: Game, reader: Reader | None) -> Response:
        record = next((r for r in reversed(records(session, found)) if r.phase.casefold() == code.casefold()), None)
        if record is None:
            return state.message(request, "No such phase", f"{found.name} has no processed phase {code!r}.", 404,
                                 reader=reader, back=f"/games/{found.name}")
        return _png(state.pictures.phase_png(found, record))

    return await _game_page(request, render)


async def summary(request: Request) -> Response:
    """The game in brief (SUMMARY's data), its centres year by year as a table of exact numbers
    beside the chart that draws them."""
    def render(state: WebState, session: Session, found: Game, reader: Reader | None) -> Response:
        named = players_named(state.services, found) or (reader is not None and reader.role == WebRole.GM)
        return state.page(request, "web/summary.html.j2", reader=reader, game=found,
                          summary=summarize(state.services, session, found), named=named, player_name=player_name,
                          chart=state.pictures.chart(session, found) if found.position else None,
                          open_now=[power for power, _ in open_powers(state.services, session, found)],
                          zone=state.services.settings_of(found).schedule.zone.key,
                          reveal=state.services.settings_of(found).reveal.value)

    return await _game_page(request, render)


async def deadlines(request: Request) -> Response:
    """The game's coming deadlines as an iCalendar feed (gm.games.deadline_feed). A private
    game's only through a secret link of one of its own (``?key=``: gm.games.web_access), or to
    a browser signed in to it; to anyone else it answers as a missing game."""
    state: WebState = request.app.state.web
    token = request.query_params.get("key", "")

    def feed(session: Session, found: Game | None, reader: Reader | None) -> Response:
        if found is None or not (state.readable(reader, found) or (
                token and feed_holder(state.services, found, state.key, token) is not None)):
            return no_game(state, request, request.path_params["name"])
        body = deadlines_ics(state.services, session, found, f"{state.base_url}/games/{found.name}")
        return Response(body, media_type="text/calendar; charset=utf-8",
                        headers={"content-disposition": f'inline; filename="{found.name}-deadlines.ics"',
                                 "cache-control": "private, max-age=300"})

    return await state.with_game(request, feed)


async def rules(request: Request) -> Response:
    def render(state: WebState, session: Session, found: Game, reader: Reader | None) -> Response:
        return state.page(request, "web/rules.html.j2", reader=reader, game=found,
                          lines=rules_text(state.services, session, state.table, found),
                          variant_title=state.services.variant_of(found).map.title)

    return await _game_page(request, render)
