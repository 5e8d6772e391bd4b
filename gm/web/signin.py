"""Signing in without a new password: a one-time link mailed to the registered address.

Asking for a link (this page, or WEB by mail) names a power, "GM", or an address; the link goes
to the address registered for each role named, never to the asker. The answer is the same
whether or not anything was named rightly, so the page tells nobody who plays. The link's page
signs in only by a button (a POST): a mail scanner that opens the link uses nothing up.
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import parse_qs

from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from gm.commands.web import LINKS_PER_HOUR
from gm.games.lifecycle import find_game
from gm.games.mailer import format_moment
from gm.games.web_access import (
    AccessRefused,
    admit,
    check_link,
    end_sessions,
    find_link,
    holders_named,
    issue_link,
    link_url,
    redeem_link,
    web_config,
)
from gm.store.models import Game
from gm.store.retry import DatabaseBusy, in_transaction
from gm.web.security import (
    ANONYMOUS,
    clear_session_cookie,
    csrf_for_session,
    csrf_right,
    same_origin,
    set_session_cookie,
)
from gm.web.state import WebState

CLIENT_LINKS_PER_HOUR = 20  # link requests from one client address, whoever they name
MAX_FORM_BYTES = 64 * 1024


async def form_of(request: Request) -> dict[str, list[str]]:
    """A urlencoded form (the only kind these pages post), bounded in size."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            break
    return parse_qs(body[:MAX_FORM_BYTES].decode("utf-8", errors="replace"), keep_blank_values=True)


def first(form: dict[str, list[str]], name: str) -> str:
    return (form.get(name) or [""])[0]


def anonymous_form_right(state: WebState, request: Request, form: dict[str, list[str]]) -> bool:
    return same_origin(request, state.base_url) and csrf_right(state.key, request.cookies.get(ANONYMOUS, ""),
                                                                first(form, "csrf"))


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def signin_page(request: Request) -> Response:
    state: WebState = request.app.state.web
    name = request.path_params["name"]
    return await state.work(lambda: state.page(request, "web/signin.html.j2", name=name,
                                               minutes=web_config(state.services).link_minutes))


async def ask_for_link(request: Request) -> Response:
    state: WebState = request.app.state.web
    name = request.path_params["name"]
    form = await form_of(request)
    who = first(form, "who").strip()[:254]
    client = client_of(request)

    def work() -> Response:
        if not anonymous_form_right(state, request, form):
            return state.message(request, "Please try again", "This form was out of date (or not sent from this "
                                 "site). Load the page again and send it from there.", 403, back=f"/games/{name}/signin")
        try:
            until = in_transaction(state.services.db, f"link for {name}", lambda session: _mail_links(
                state, session, name, who, client))
        except DatabaseBusy:
            return state.message(request, "Busy", "The judge is busy; try again in a minute.", 503)
        if until is not None:
            return state.message(request, "Too many links asked for", "Too many sign-in links were asked for "
                                 f"from here or for that address; ask again after {format_moment(until, 'UTC')}.", 429,
                                 back=f"/games/{name}")
        minutes = web_config(state.services).link_minutes
        return state.message(request, "A link is on its way", f"If {who or 'that'} names a power of {name}, its "
                             "game master or an observer, a sign-in link is on its way to the address registered "
                             f"for it. It works once, for {minutes} minutes.", 200, back=f"/games/{name}")

    return await state.work(work)


def _mail_links(state: WebState, session: Session, name: str, who: str, client: str) -> datetime | None:
    """Mail a link to each role ``who`` names in the game (none when it names nothing); when a
    limit is reached, nothing is mailed and the moment it frees is returned."""
    services = state.services
    until = admit(services, session, "link-client", [f"client:{client}"], CLIENT_LINKS_PER_HOUR)
    if until is not None:
        return until
    game = find_game(session, name)
    if game is None or not who:
        return None
    found = holders_named(services, game, who)
    for holder in found:
        until = admit(services, session, "link", [f"address:{holder.address}"], LINKS_PER_HOUR)
        if until is not None:
            return until
    minutes = web_config(services).link_minutes
    for holder in found:
        token = issue_link(services, session, game, holder)
        services.audit(session, game, holder.address, "web-link", role=holder.role, seat=holder.seat_id, by="web",
                       client=client)
        services.mailer.queue(
            session, to=holder.address, subject=f"{services.config.judge_name}: {name}: your sign-in link",
            template="web/link_mail.txt.j2", kind="web-link", game_id=game.id, game=game, holder=holder,
            url=link_url(services, game, token), minutes=minutes, secrets=[token])
    return None


async def link_page(request: Request) -> Response:
    """What a mailed link opens: who it signs in as, and a button that does it."""
    state: WebState = request.app.state.web
    name, token = request.path_params["name"], request.path_params["token"]

    def read() -> Response:
        with state.services.db.reading() as session:
            game = find_game(session, name)
            if game is None:
                return state.message(request, "No such game", f"There is no game {name!r}.", 404)
            try:
                link = check_link(state.services, game, find_link(session, token))
            except AccessRefused as exc:
                return state.message(request, "This link does not work", f"{str(exc)[:1].upper()}{str(exc)[1:]}.",
                                     410, back=f"/games/{name}/signin")
            power = next((s.power for s in game.seats if s.id == link.seat_id), None)
            label = {"gm": "the game master", "observer": "an observer"}.get(link.role, power or "")
            return state.page(request, "web/link.html.j2", game=game, token=token, label=label)

    return await state.work(read)


async def use_link(request: Request) -> Response:
    state: WebState = request.app.state.web
    name = request.path_params["name"]
    form = await form_of(request)
    token = first(form, "token")

    def work() -> Response:
        if not anonymous_form_right(state, request, form):
            return state.message(request, "Please try again", "This form was out of date. Open the link from your "
                                 "mail again.", 403)

        def redeem(session: Session) -> tuple[int, str]:
            game = find_game(session, name, lock=True)
            if game is None:
                raise AccessRefused("there is no such game")
            started, _ = redeem_link(state.services, session, game, token)
            return game.id, started

        try:
            game_id, session_token = in_transaction(state.services.db, f"sign-in to {name}", redeem)
        except AccessRefused as exc:
            return state.message(request, "This link does not work", f"{str(exc)[:1].upper()}{str(exc)[1:]}.", 410,
                                 back=f"/games/{name}/signin")
        except DatabaseBusy:
            return state.message(request, "Busy", "The judge is busy; try again in a minute.", 503)
        response = RedirectResponse(f"/games/{name}/play", status_code=303)
        set_session_cookie(response, state.key, game_id, session_token, state.secure,
                           web_config(state.services).session_days)
        return response

    return await state.work(work)


async def sign_off(request: Request) -> Response:
    state: WebState = request.app.state.web
    name = request.path_params["name"]
    form = await form_of(request)

    def work() -> Response:
        with state.services.db.reading() as session:
            game = find_game(session, name)
            reader = state.reader(session, request, game) if game is not None else None
        if game is None or reader is None:
            return RedirectResponse(f"/games/{name}", status_code=303)
        if not (same_origin(request, state.base_url) and first(form, "csrf") == csrf_for_session(state.key, reader.token)):
            return state.message(request, "Please try again", "This form was out of date.", 403, reader=reader)
        with state.services.db.unit_of_work() as session:
            locked = session.get(Game, game.id)
            assert locked is not None
            end_sessions(state.services, session, locked, only=reader.row.id, why="signed off")
            state.services.audit(session, locked, reader.row.address, "web-signoff", web_session=reader.row.id)
        response = RedirectResponse(f"/games/{name}", status_code=303)
        clear_session_cookie(response, game.id, state.secure)
        return response

    return await state.work(work)
