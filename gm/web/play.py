"""The signed-in pages: a player's (the power's units and orders, the order box, press, WAIT and
DRAW) and the game master's (every power's orders, the GM's commands). Every action posted here
is run by gm.web.actions as a mail's commands are; the order box's answers as the player types
come from the very command a mail runs, tried without its effects (gm.web.dryrun).

What a post sends is read only once its session is known to work (gm.web.limits bounds it even
then): a post without one is answered without its body being read. The GM's box takes no
``SET PASSWORD``: a new game master secret is set by mail, after ``SIGNON GM`` with the old one,
so a session taken over on the web never becomes a lasting secret."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from gm.commands.base import CommandError, Invocation, MailContext
from gm.commands.press import visible_press
from gm.commands.reader import ORDERS, read_invocations
from gm.commands.absence import player_zone
from gm.commands.player import deadline_line
from gm.domain.phases import PhaseKind
from gm.games import absences, gamefiles, orderbook
from gm.games.lifecycle import current_seats
from gm.games.mailer import format_moment, zone_named
from gm.games.orderbook import current_orders
from gm.games.web_access import feed_token_of
from gm.games.votes import survivors
from gm.reports.names import Namer
from gm.services.mailtext import readable_lines
from gm.settings.model import DrawAmong, format_duration
from gm.store.models import AuditEntry, Game, GameStatus, PhaseRecord, Seat, WebRole
from gm.store.retry import DatabaseBusy
from gm.web.actions import ActionRefused, Actor, RateLimited, act
from gm.web.limits import clean, json_object, read_body, read_form
from gm.web.security import csrf_of_session_right, same_origin
from gm.web.signin import first
from gm.web.state import Reader, WebState
from gm.web import takeovers
from gm.web.views import game_view

log = logging.getLogger(__name__)
SIMPLE_COMMANDS = ("WAIT", "NOWAIT", "DRAW", "NODRAW", "CLEAR")  # the buttons: one command each
MAX_LINES = 500  # of an order box or a press text
GM_TO = "GM"  # the press form's recipient for the game master
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _context(state: WebState, session: Session, game: Game, reader: Reader) -> MailContext:
    """The context a mail of this reader would have once signed on (as its seat, or as GM)."""
    ctx = MailContext(services=state.services, session=session, sender=reader.row.address, now=state.services.clock.now())
    seat = next((s for s in game.seats if s.id == reader.row.seat_id), None)
    ctx.enter(game, seat, as_gm=reader.role == WebRole.GM)
    if reader.role == WebRole.OBSERVER:
        ctx.observer = reader.row.address.lower()  # may write to the GM, and reads its own press to it
    return ctx


async def play_page(request: Request) -> Response:
    state: WebState = request.app.state.web
    name = request.path_params["name"]
    done = request.query_params.get("done", "")

    def page(session: Session, game: Game | None, reader: Reader | None) -> Response:
        if game is None or reader is None:  # alike: a private game's name is told to nobody
            return RedirectResponse(f"/games/{name}/signin", status_code=303)
        if reader.role == WebRole.OBSERVER:
            return RedirectResponse(f"/games/{name}", status_code=303)
        ctx = _context(state, session, game, reader)
        label = ctx.power or ("the game master" if ctx.is_gm else reader.role)
        calendar, secret = calendar_link(state, game, reader)
        return state.page(request, "web/play.html.j2", reader=reader, game=game, reader_label=label,
                          calendar=calendar, calendar_secret=secret,
                          view=game_view(state.services, session, game, state.pictures),
                          answer=_answer(session, game, reader, done), **_player_part(state, ctx, game),
                          **(_gm_part(state, session, game) if ctx.is_gm else {}),
                          **(takeovers.gm_part(state.services, session, game) if ctx.is_gm else {}))

    return await state.with_game(request, page)


def calendar_link(state: WebState, game: Game, reader: Reader) -> tuple[str, bool]:
    """The game's deadlines feed, and whether the link carries the reader's secret token (a
    private game's feed is only for its own: gm.games.web_access.feed_token)."""
    url = f"{state.base_url}/games/{game.name}/deadlines.ics"
    if not state.services.settings_of(game).private:
        return url, False
    token = feed_token_of(state.services, game, state.key, reader.role, reader.row.seat_id, reader.row.address)
    return (f"{url}?key={token}", True) if token else (url, False)


def _player_part(state: WebState, ctx: MailContext, game: Game) -> dict[str, Any]:
    power = ctx.power
    settings = state.services.settings_of(game)
    status: list[str] = []
    units: list[str] = []
    if power is not None and game.status == GameStatus.ACTIVE and game.position:
        status_command = state.table.find("STATUS")
        assert status_command is not None
        try:
            status = without_deadline(ctx, game, status_command.run(ctx, Invocation("STATUS", "", 1, "STATUS")))
        except CommandError as exc:
            status = [str(exc)]
        position = state.services.position_of(game)
        namer = Namer(state.services.variant_of(game), position)
        units = [namer.unit(u) for u in position.units_of(power)]
        if position.phase.kind is PhaseKind.RETREATS:
            units += [f"{namer.unit(d.unit)} (dislodged)" for d in position.dislodged if d.unit.power == power]
    seat = ctx.seat if power is not None else None
    alive = survivors(state.services, game) if power is not None and game.position else []
    return {
        "power": power,
        "absence_rules": settings.absences,
        "absence_limits": f"{format_duration(settings.absences.longest)} at most, {settings.absences.per_player} a player",
        "absences": _absences_of(ctx, game, seat) if seat is not None else [],
        "draw_named": settings.draw.among is DrawAmong.ANY,
        "survivors": alive,
        "draw_with": seat.draw_with if seat is not None else None,
        "units": units,
        "status_lines": status,
        "press_lines": visible_press(ctx, game),
        "press_rules": settings.press,
        "others": [s.power for s in current_seats(game) if s.power and s.power != power],
        "waiting": seat is not None and seat.wait_seq == game.phase_seq,
        "draw_vote": seat is not None and seat.draw_vote,
        "active": game.status == GameStatus.ACTIVE,
    }


def _gm_part(state: WebState, session: Session, game: Game) -> dict[str, Any]:
    orders: dict[str, list[str]] = {}
    if game.position and game.status == GameStatus.ACTIVE:
        namer = Namer(state.services.variant_of(game), state.services.position_of(game))
        for power, lines in sorted(current_orders(session, game).items()):
            orders[power] = [namer.order(o, power) for o in state.services.orders_from(game, lines)]
    processed = session.scalar(select(PhaseRecord.id).where(PhaseRecord.game_id == game.id).limit(1)) is not None
    settings_text, settings_note = gamefiles.current(state.services, game)  # as SETTINGS sends it
    return {"all_orders": orders, "can_terminate": game.status != GameStatus.FINISHED,
            "can_unstart": game.status in (GameStatus.ACTIVE, GameStatus.PAUSED) and not processed,
            "settings_text": settings_text, "settings_note": settings_note,
            "settings_writable": gamefiles.path_of(state.services, game) is not None}


def _absences_of(ctx: MailContext, game: Game, seat: Seat) -> list[dict[str, str]]:
    """The seat's player's absences in the game not ended, as the player reads them."""
    zone = player_zone(ctx, seat)
    return [{"from": format_moment(a.starts, zone), "to": format_moment(a.ends, zone),
             "day": a.starts.astimezone(zone_named(zone)).date().isoformat()}
            for a in absences.mine(ctx.session, game, seat) if a.cancelled_at is None and a.ends > ctx.now]


def _answer(session: Session, game: Game, reader: Reader, done: str) -> list[str]:
    """What this session's action ``done`` (its inbound id) was answered, as stored with it."""
    if not (done.isascii() and done.isdigit() and len(done) < 19):
        return []
    entries = session.scalars(select(AuditEntry).where(
        AuditEntry.game_id == game.id, AuditEntry.actor == reader.row.address, AuditEntry.action == "web-action")
        .order_by(AuditEntry.id.desc()).limit(50))
    for entry in entries:
        if entry.details.get("inbound") == int(done) and entry.details.get("web_session") == reader.row.id:
            return list(entry.details.get("answer", []))
    return []


# -- actions ------------------------------------------------------------------------------------

Build = Callable[[Game, Reader], "list[Invocation] | str"]


def _signed_out(state: WebState, request: Request, name: str) -> Response:
    return state.message(request, "Signed out", "You are not signed in to this game (or your session has ended). "
                         "Ask for a new link.", 403, back=f"/games/{name}/signin")


async def _act(request: Request, read: Callable[[dict[str, list[str]]], tuple[str, Build]],
               gm_only: bool = False) -> Response:
    """Run what the posted form asks as the reader: ``read(form)`` gives the action's subject and
    ``build(game, reader)``, which gives the invocations or a refusal's text. The form is read
    only once the session is known to work."""
    state: WebState = request.app.state.web
    name = request.path_params["name"]
    if not await state.work(lambda: state.signed_in(request, name)):
        return await state.work(lambda: _signed_out(state, request, name))
    form = await read_form(request)
    subject, build = read(form)

    def work() -> Response:
        with state.services.db.reading() as session:
            game, reader = state.game_and_reader(session, request, name)
            if game is None or reader is None:
                return _signed_out(state, request, name)
            if not (same_origin(request, state.base_url)
                    and csrf_of_session_right(state.key, reader.token, first(form, "csrf"))):
                return state.message(request, "Please try again", "This form was out of date (or not sent from "
                                     "this site): nothing was done. Load the page again.", 403, reader=reader,
                                     back=f"/games/{name}/play")
            if gm_only and reader.role != WebRole.GM:
                return state.message(request, "Not allowed", "Only the game master may do that.", 403, reader=reader,
                                     back=f"/games/{name}/play")
            built = build(game, reader)
            power = next((s.power for s in game.seats if s.id == reader.row.seat_id), None)
        if isinstance(built, str):
            return state.message(request, "Nothing was done", built, 400, reader=reader, back=f"/games/{name}/play")
        actor = Actor(reader.row.id, game.id, reader.role, reader.row.seat_id, reader.row.address)
        who = power or ("the game master" if reader.role == WebRole.GM else "")
        try:
            done = act(state.services, state.table, actor, f"Web: {subject} for {who} in {game.name}", built)
        except RateLimited as exc:
            return state.message(request, "Too many actions", f"{exc}; post again after "
                                 f"{exc.until:%H:%M} UTC.", 429, reader=reader, back=f"/games/{name}/play")
        except ActionRefused as exc:
            return state.message(request, "Nothing was done", f"{str(exc)[:1].upper()}{str(exc)[1:]}.", 403,
                                 back=f"/games/{name}")
        except DatabaseBusy:
            return state.message(request, "Busy", "The judge is busy: nothing was done. Try again in a minute.", 503,
                                 reader=reader, back=f"/games/{name}/play")
        except Exception:  # noqa: BLE001 - kept and told to the administrator by gm.web.actions
            return state.message(request, "Something went wrong", "Nothing was done; the administrator has been told. "
                                 "Please try again later, or send the same by mail.", 500, reader=reader,
                                 back=f"/games/{name}/play")
        return RedirectResponse(f"/games/{name}/play?done={done.inbound_id}#answer", status_code=303)

    return await state.work(work)


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")][:MAX_LINES]


async def post_orders(request: Request) -> Response:
    def read(form: dict[str, list[str]]) -> tuple[str, Build]:
        lines = [line for line in _lines(first(form, "orders")) if line.strip()]

        def build(game: Game, reader: Reader) -> list[Invocation] | str:
            if not lines:
                return "The order box was empty."
            return [Invocation(ORDERS, "", 1, lines[0], body=lines)]

        return "orders", build

    return await _act(request, read)


async def post_press(request: Request) -> Response:
    def read(form: dict[str, list[str]]) -> tuple[str, Build]:
        body = _lines(first(form, "text"))
        words = (["GREY"] if first(form, "grey") else []) + (["WITH", "RESULTS"] if first(form, "later") else [])
        recipients = [power for power in form.get("to", []) if power]

        def build(game: Game, reader: Reader) -> list[Invocation] | str:
            if not "".join(body).strip():
                return "The press had no text."
            if GM_TO in recipients:  # to the game master alone
                if len(recipients) > 1:
                    return "Press goes to the game master alone, or to powers (the game master reads all press)."
                args = " ".join(words + ["TO", "GM"])
                return [Invocation("PRESS", args, 1, f"PRESS {args}", body=body)]
            known = {s.power for s in current_seats(game) if s.power}
            if any(power not in known for power in recipients):
                return "The press names a power not in this game."
            args = " ".join(words + (["TO", *recipients] if recipients else []))
            return [Invocation("PRESS", args, 1, f"PRESS {args}".rstrip(), body=body)]

        return "press", build

    return await _act(request, read)


async def post_command(request: Request) -> Response:
    def read(form: dict[str, list[str]]) -> tuple[str, Build]:
        word = first(form, "command").upper()
        among = [power for power in form.get("among", []) if power] if word == "DRAW" else []

        def build(game: Game, reader: Reader) -> list[Invocation] | str:
            if word not in SIMPLE_COMMANDS:
                return "Unknown action."
            known = {s.power for s in current_seats(game) if s.power}
            if any(power not in known for power in among):
                return "The draw names a power not in this game."
            text = " ".join([word, *among])  # DRAW with powers: a draw shared by them only
            return [Invocation(word, " ".join(among), 1, text)]

        return (word.lower() if word in SIMPLE_COMMANDS else "action"), build

    return await _act(request, read)


async def post_absence(request: Request) -> Response:
    """An absence (two dates, as SET ABSENCE reads them), or one cancelled (the day it starts)."""
    def read(form: dict[str, list[str]]) -> tuple[str, Build]:
        starts, ends, cancel = (first(form, key).strip() for key in ("from", "to", "cancel"))

        def build(game: Game, reader: Reader) -> list[Invocation] | str:
            if cancel:
                if not DAY.fullmatch(cancel):
                    return "Say which absence to cancel by the day it starts."
                return [Invocation("CANCEL", f"ABSENCE {cancel}", 1, f"CANCEL ABSENCE {cancel}")]
            if not (DAY.fullmatch(starts) and DAY.fullmatch(ends)):
                return "Give the first and the last day of the absence (YYYY-MM-DD)."
            args = f"ABSENCE {starts} TO {ends}"
            return [Invocation("SET", args, 1, f"SET {args}")]

        return "absence", build

    return await _act(request, read)


async def post_end(request: Request) -> Response:
    """The GM's TERMINATE (with its reason) or UNSTART."""
    def read(form: dict[str, list[str]]) -> tuple[str, Build]:
        word, reason = first(form, "end").upper(), " ".join(first(form, "reason").split())

        def build(game: Game, reader: Reader) -> list[Invocation] | str:
            if word == "UNSTART":
                return [Invocation("UNSTART", "", 1, "UNSTART")]
            if word == "TERMINATE":
                return [Invocation("TERMINATE", reason, 1, f"TERMINATE {reason}".rstrip())]
            return "Unknown action."

        return word.lower() if word in ("TERMINATE", "UNSTART") else "action", build

    return await _act(request, read, gm_only=True)


SECRET_WORDS = ("PASSWORD", "SECRET")
BY_MAIL_ONLY = ("A new game master secret is set by mail only: send SIGNON GM {game} <your secret> and "
                "SET PASSWORD <new secret> from your address. Nothing was done.")


def _sets_a_secret(invocation: Invocation) -> bool:
    words = invocation.args.split()
    return invocation.name == "SET" and bool(words) and words[0].upper() in SECRET_WORDS


async def post_gm(request: Request) -> Response:
    """The GM's box: commands as the GM would mail them after SIGNON GM (no other sign-on, and
    no new secret: that needs the old one, by mail)."""
    def read(form: dict[str, list[str]]) -> tuple[str, Build]:
        text = "\n".join(_lines(first(form, "commands")))

        def build(game: Game, reader: Reader) -> list[Invocation] | str:
            table = request.app.state.web.table
            invocations = read_invocations(readable_lines(text), table.spellings, table.bodied, table.misspelt)
            if not invocations:
                return "The box had no commands."
            if any(i.name in ("SIGNON", "JOIN") for i in invocations):
                return "SIGNON and JOIN are for mail: here you are signed on as this game's master already."
            if any(_sets_a_secret(i) for i in invocations):
                return BY_MAIL_ONLY.format(game=game.name)
            return invocations

        return "commands", build

    return await _act(request, read, gm_only=True)


# -- the order box's answers as the player types --------------------------------------------------

async def check_orders(request: Request) -> Response:
    """The session, the CSRF header and the throttle are checked first; only then is the body
    read (bounded), its nesting checked, and parsed."""
    state: WebState = request.app.state.web
    name = request.path_params["name"]
    token = request.headers.get("x-csrf-token", "")

    def gate() -> Response | None:
        with state.dry_session() as session:
            game, reader = state.game_and_reader(session, request, name)
            if game is None or reader is None:
                return JSONResponse({"error": "you are not signed in to this game"}, status_code=403)
            if not (same_origin(request, state.base_url) and csrf_of_session_right(state.key, reader.token, token)):
                return JSONResponse({"error": "out of date: load the page again"}, status_code=403)
            if not state.checks.allow(reader.row.id):
                return JSONResponse({"error": "too many checks: slow down"}, status_code=429)
            return None

    refused = await state.work(gate)
    if refused is not None:
        return refused
    found = json_object(await read_body(request)).get("text", "")
    if not isinstance(found, str):
        return JSONResponse({"error": "the text is not a string"}, status_code=400)
    text = clean(found)

    def work() -> Response:
        with state.dry_session() as session:
            game, reader = state.game_and_reader(session, request, name)
            if game is None or reader is None:
                return JSONResponse({"error": "you are not signed in to this game"}, status_code=403)
            return JSONResponse(try_orders(state, session, game, reader, text))

    return await state.work(work)


def try_orders(state: WebState, session: Session, game: Game, reader: Reader, text: str) -> dict[str, Any]:
    """The answer a mail with these order lines would get, line by line (nothing is stored), and
    the board's marks with the power's orders as they would then stand (its orders as they stand
    when nothing is typed): ``marks``, "" where there is nothing to draw."""
    typed = [line for line in _lines(text) if line.strip()]
    ctx = _context(state, session, game, reader)
    if not typed:
        return {"lines": [], "summary": [], "marks": _marks(state, ctx, game, None)}
    orders, invocation = state.table.orders, Invocation(ORDERS, "", 1, typed[0], body=typed)
    try:
        answer = orders.run(ctx, invocation)
    except CommandError as exc:
        return {"error": str(exc), "lines": [], "summary": [], "marks": ""}
    found = per_line(orders.masked(invocation, answer), orders.masked(invocation, typed))  # a sign-on typed: masked
    found["summary"] = without_deadline(ctx, game, found["summary"])  # the page's heading gives it
    found["marks"] = _marks(state, ctx, game, typed)
    return found


def without_deadline(ctx: MailContext, game: Game, lines: list[str]) -> list[str]:
    """An answer without its line of the deadline: the page gives the deadline once, at its head."""
    said = deadline_line(ctx, game)
    return [line for line in lines if line != said]


def _marks(state: WebState, ctx: MailContext, game: Game, typed: list[str] | None) -> str:
    """The board's marks with the power's orders: as they would stand with ``typed`` (read as a
    mail's are, nothing stored), or as they stand (``typed`` None). A drawing that fails leaves
    the board as it is: the lines' answers still go back."""
    try:
        return _drawn_marks(state, ctx, game, typed)
    except Exception:  # noqa: BLE001 - a picture is never worth the answer
        log.exception("the orders typed in %s could not be drawn", game.name)
        return ""


def _drawn_marks(state: WebState, ctx: MailContext, game: Game, typed: list[str] | None) -> str:
    power = ctx.power
    if power is None or game.status != GameStatus.ACTIVE or not game.position:
        return ""
    services = state.services
    if typed is None:
        variant, position = services.variant_of(game), services.position_of(game)
        latest = orderbook.latest_set(ctx.session, game, power)
        orders = services.orders_from(game, latest.lines if latest else [])
        board = orderbook.board_for(variant, position, power, orders)
    else:
        submission = orderbook.submit(services, ctx.session, game, power, "\n".join(typed), by=ctx.actor)
        orders, board = submission.orders, submission.board
    return state.pictures.typed(game, board, [(power, order) for order in orders])


def per_line(answer: list[str], typed: list[str]) -> dict[str, Any]:
    """The Orders command's answer (a "> line" with what gm made of it, per line; a blank line;
    the orders as they stand) as one entry per typed line, and the rest."""
    lines: list[dict[str, Any]] = []
    summary: list[str] = []
    in_summary = False
    for line in answer:
        if in_summary or (not line and lines):
            in_summary = True
            if line or summary:
                summary.append(line)
        elif line.startswith("> "):
            lines.append({"text": line[2:], "answer": [], "ok": True})
        elif lines:
            lines[-1]["answer"].append(line.strip())
            if line.strip().startswith("ERROR:"):
                lines[-1]["ok"] = False
        else:
            summary.append(line)
    if len(lines) == len(typed):
        for entry, text in zip(lines, typed):
            entry["text"] = text
    return {"lines": lines, "summary": summary}
