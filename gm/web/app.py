"""The web application: a list of routes to small handlers (Starlette), built on the services
and commands the mail uses (docs/web.md).

Every request passes ``gm.web.limits.Bounds`` (what it may send, refused before it is read) and
``gm.web.security.SecurityHeaders``. A path that names a page but for a trailing slash (or the
lack of one) is redirected to the page at the configured ``base_url``, never at the address
the request's ``Host`` header names (Starlette's own slash redirect copies that header)."""

from __future__ import annotations

from urllib.parse import quote

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Match, Route

from gm.commands.registry import CommandTable
from gm.games.context import Services
from gm.web import pages, play, signin
from gm.web.limits import Bounds
from gm.web.pagecache import PageCache
from gm.web.pictures import Pictures
from gm.web.security import SecurityHeaders
from gm.web.state import TEMPLATES, WebState

STATIC = TEMPLATES / "web" / "static"
STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}


def _static_files() -> dict[str, tuple[bytes, str]]:
    return {path.name: (path.read_bytes(), STATIC_TYPES[path.suffix])
            for path in sorted(STATIC.iterdir()) if path.suffix in STATIC_TYPES}


def build_app(services: Services, table: CommandTable | None = None, pictures: Pictures | None = None,
              kept: PageCache | None = None) -> Starlette:
    """The application; ``kept``: where its pages are kept as drawn (gm.web.pagecache), its own by default."""
    state = WebState(services, table or CommandTable(), pictures or Pictures(services),
                     kept=kept if kept is not None else PageCache())
    files = _static_files()

    async def static(request: Request) -> Response:
        found = files.get(request.path_params["file"])
        if found is None:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(found[0], media_type=found[1], headers={"cache-control": "public, max-age=3600"})

    async def not_found(request: Request, exc: Exception) -> Response:
        other = _slash_twin(request, routes)
        if other is not None:
            return RedirectResponse(state.base_url + other, status_code=307)
        return await state.work(lambda: state.message(request, "Not found", "There is no such page here.", 404,
                                                      back="/"))

    routes = [
        Route("/", pages.games),
        Route("/static/{file}", static),
        Route("/games/{name}", pages.game),
        Route("/games/{name}/phases/{phase}", pages.phase),
        Route("/games/{name}/board.png", pages.board_png),
        Route("/games/{name}/phases/{phase}/board.png", pages.phase_png),
        Route("/games/{name}/rules", pages.rules),
        Route("/games/{name}/summary", pages.summary),
        Route("/games/{name}/deadlines.ics", pages.deadlines),
        Route("/games/{name}/signin", signin.signin_page, methods=["GET"]),
        Route("/games/{name}/signin", signin.ask_for_link, methods=["POST"]),
        Route("/games/{name}/link/{token}", signin.link_page, methods=["GET"]),
        Route("/games/{name}/link", signin.use_link, methods=["POST"]),
        Route("/games/{name}/signoff", signin.sign_off, methods=["POST"]),
        Route("/games/{name}/play", play.play_page, methods=["GET"]),
        Route("/games/{name}/play/check", play.check_orders, methods=["POST"]),
        Route("/games/{name}/play/orders", play.post_orders, methods=["POST"]),
        Route("/games/{name}/play/press", play.post_press, methods=["POST"]),
        Route("/games/{name}/play/command", play.post_command, methods=["POST"]),
        Route("/games/{name}/play/gm", play.post_gm, methods=["POST"]),
        Route("/games/{name}/play/absence", play.post_absence, methods=["POST"]),
        Route("/games/{name}/play/end", play.post_end, methods=["POST"]),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(SecurityHeaders), Middleware(Bounds)],
                    exception_handlers={404: not_found})
    app.router.redirect_slashes = False  # it names the Host header's site: not_found redirects instead
    app.state.web = state
    return app


def _slash_twin(request: Request, routes: list[Route]) -> str | None:
    """The path and query of the page this path names but for its trailing slash, if any."""
    path = request.scope.get("path", "")
    if path in ("", "/"):
        return None
    other = path.rstrip("/") if path.endswith("/") else path + "/"
    if not any(route.matches({**request.scope, "path": other})[0] is not Match.NONE for route in routes):
        return None
    query = request.scope.get("query_string", b"").decode("latin-1")
    return quote(other) + (f"?{query}" if query else "")

