"""Signing in without a new password: a one-time link mailed to the registered address.

Asking for a link (this page, or WEB by mail) names a power, "GM", or an address; the link goes
to the address registered for each role named, never to the asker. The page's answer is the
same, byte for byte, whatever is named, and whether or not a mail went: nobody learns from it
who plays, nor whether a game of that name exists.

- The limit on asking falls on the asker: ``CLIENT_LINKS_PER_HOUR`` asks an hour from one client
  address, counted before the game is even looked up, and refused in the same words whatever
  is named.
- The mails are capped per address, silently: at most ``LINKS_PER_HOUR`` links an hour go to an
  address from the web's asks; beyond that no mail goes, and the asker is answered as ever.
  These asks are counted apart from a player's own ``WEB`` by mail (gm.commands.web), so no
  number of strangers' asks keeps a player from a link.
- The answer is sent no sooner than ``ANSWER_AFTER`` seconds after the ask arrived, so it does
  not come later when a mail was queued.

The link's page signs in only by a button (a POST): a mail scanner that opens the link uses
nothing up. A wrong link, and a link to a game that does not exist, answer alike.
"""

from __future__ import annotations

import time
from datetime import datetime

import anyio
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
from gm.web.limits import read_form
from gm.web.security import (
    clear_session_cookie,
    csrf_of_session_right,
    csrf_right,
    same_origin,
    seed_of,
    set_session_cookie,
)
from gm.web.state import WebState

CLIENT_LINKS_PER_HOUR = 20  # link requests from one client address, whoever they name
ASKED_ON_THE_WEB = "link-web"  # the count of links mailed to an address from the web's asks
ANSWER_AFTER = 0.25  # seconds: an ask is answered no sooner, mail or no mail
NO_LINK = "this sign-in link is not one of this game's"


def first(form: dict[str, list[str]], name: str) -> str:
    return (form.get(name) or [""])[0]


def anonymous_form_right(state: WebState, request: Request, form: dict[str, list[str]]) -> bool:
    return same_origin(request, state.base_url) and csrf_right(state.key, seed_of(request, state.secure),
                                                                first(form, "csrf"))


def anonymous_gate(state: WebState, request: Request) -> bool:
    """Whether an anonymous form could be right at all (the page's seed cookie is there, the
    browser does not call it cross-site): checked before its body is read."""
    return same_origin(request, state.base_url) and bool(seed_of(request, state.secure))


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def signin_page(request: Request) -> Response:
    state: WebState = request.app.state.web
    name = request.path_params["name"]
    return await state.work(lambda: state.page(request, "web/signin.html.j2", name=name,
                                               minutes=web_config(state.services).link_minutes))


def _out_of_date(state: WebState, request: Request, name: str) -> Response:
    return state.message(request, "Please try again", "This form was out of date (or not sent from this "
                         "site). Load the page again and send it from there.", 403, back=f"/games/{name}/signin")


async def ask_for_link(request: Request) -> Response:
    state: WebState = request.app.state.web
    name = request.path_params["name"]
    began = time.monotonic()
    if anonymous_gate(state, request):
        form = await read_form(request)
        who = first(form, "who").strip()[:254]
    else:
        form, who = {}, ""
    client = client_of(request)

    def work() -> Response:
        if not anonymous_form_right(state, request, form):
            return _out_of_date(state, request, name)
        try:
            until = in_transaction(state.services.db, f"link for {name}", lambda session: _mail_links(
                state, session, name, who, client))
        except DatabaseBusy:
            return state.message(request, "Busy", "The judge is busy; try again in a minute.", 503)
        if until is not None:
            return state.message(request, "Too many links asked for", "Too many sign-in links were asked for "
                                 f"from here; ask again after {format_moment(until, 'UTC')}.", 429,
                                 back=f"/games/{name}")
        minutes = web_config(state.services).link_minutes
        return state.message(request, "A link is on its way", f"If what you named is a power of {name}, its "
                             "game master or an observer, a sign-in link is on its way to the address registered "
                             f"for it. It works once, for {minutes} minutes.", 200, back=f"/games/{name}")

    response = await state.work(work)
    await anyio.sleep(max(0.0, ANSWER_AFTER - (time.monotonic() - began)))
    return response


def _mail_links(state: WebState, session: Session, name: str, who: str, client: str) -> datetime | None:
    """Mail a link to each role ``who`` names in the game (none when it names nothing, or when its
    address has had its links of the hour from the web's asks: silently). Only the asking
    client's own limit is answered: the moment it frees, else None."""
    services = state.services
    until = admit(services, session, "link-client", [f"client:{client}"], CLIENT_LINKS_PER_HOUR)
    if until is not None:
        return until
    game = find_game(session, name)
    if game is None or not who:
        return None
    minutes = web_config(services).link_minutes
    for holder in holders_named(services, game, who):
        if admit(services, session, ASKED_ON_THE_WEB, [f"address:{holder.address}"], LINKS_PER_HOUR) is not None:
            services.audit(session, game, holder.address, "web-link-capped", role=holder.role, seat=holder.seat_id,
                           by="web", client=client)
            continue
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
            try:
                if game is None:  # answered as a wrong link: a private game's name is told to nobody
                    raise AccessRefused(NO_LINK)
                link = check_link(state.services, game, find_link(session, token))
            except AccessRefused as exc:
                return state.message(request, "This link does not work", f"{str(exc)[:1].upper()}{str(exc)[1:]}.",
                                     410, back=f"/games/{name}/signin")
            power = next((s.power for s in game.seats if s.id == link.seat_id), None)
            label = {"gm": "the game master", "observer": "an observer"}.get(link.role, power or "")
            return state.page(request, "web/link.html.j2", game=game, token=token, label=label)

    if len(token) > 200:
        return await state.work(lambda: state.message(request, "This link does not work", f"{NO_LINK[:1].upper()}"
                                                      f"{NO_LINK[1:]}.", 410, back=f"/games/{name}/signin"))

    return await state.work(read)


async def use_link(request: Request) -> Response:
    state: WebState = request.app.state.web
    name = request.path_params["name"]
    form = await read_form(request) if anonymous_gate(state, request) else {}
    token = first(form, "token")

    def work() -> Response:
        if not anonymous_form_right(state, request, form):
            return state.message(request, "Please try again", "This form was out of date. Open the link from your "
                                 "mail again.", 403)

        def redeem(session: Session) -> tuple[int, str]:
            game = find_game(session, name, lock=True)
            if game is None:
                raise AccessRefused(NO_LINK)
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
    if not await state.work(lambda: state.signed_in(request, name)):
        return RedirectResponse(f"/games/{name}", status_code=303)  # the body is never read
    form = await read_form(request)

    def work() -> Response:
        with state.services.db.reading() as session:
            game = find_game(session, name)
            reader = state.reader(session, request, game) if game is not None else None
        if game is None or reader is None:
            return RedirectResponse(f"/games/{name}", status_code=303)
        if not (same_origin(request, state.base_url) and csrf_of_session_right(state.key, reader.token,
                                                                                first(form, "csrf"))):
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
