"""What every web handler shares (built once by ``gm.web.app.build_app``), and the helpers they
all use: pages from ``templates/web/`` (Jinja2, autoescaped), work in worker threads, who the
reader of a game's page is, and the pages kept as drawn (gm.web.pagecache)."""

from __future__ import annotations

import functools
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import anyio
import jinja2
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from gm.commands.registry import CommandTable
from gm.games.context import Services
from gm.games.lifecycle import find_game
from gm.games.mailer import format_moment
from gm.games.web_access import find_session, session_problem, signing_key, web_config
from gm.store.database import READ_ONLY
from gm.store.models import Game, WebSession
from gm.web.dryrun import DrySession
from gm.web.pagecache import Kept, PageCache
from gm.web.pictures import Pictures
from gm.web.security import anonymous_seed, cookie_name, csrf_for_session, set_anonymous_seed, sign, token_in

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
T = TypeVar("T")
# A page every stranger gets alike: a browser may keep it, asking each time whether it changed
# (If-None-Match); never a shared cache. Signed-in readers' pages stay uncached (no-store).
SHARED_PAGE = "private, no-cache"


def make_environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["moment"] = format_moment
    env.filters["iso"] = lambda moment: moment.isoformat() if moment is not None else ""
    return env


@dataclass(frozen=True)
class Reader:
    """A signed-in reader of one game: the session's row and token."""

    row: WebSession
    token: str

    @property
    def role(self) -> str:
        return self.row.role


class Throttle:
    """At most ``count`` events per key in ``seconds``, in this process (the order box's checks,
    which write nothing to count in the database)."""

    def __init__(self, count: int, seconds: float):
        self.count, self.seconds = count, seconds
        self._seen: dict[Any, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: Any) -> bool:
        now = time.monotonic()
        with self._lock:
            if len(self._seen) > 10_000:
                self._seen.clear()
            seen = self._seen.setdefault(key, deque())
            while seen and seen[0] <= now - self.seconds:
                seen.popleft()
            if len(seen) >= self.count:
                return False
            seen.append(now)
            return True


class FormToken:
    """A page's CSRF token that notes whether the page wrote it: a stranger's page that does is
    that stranger's alone (its token signs the stranger's own seed), and is never kept."""

    def __init__(self, value: str):
        self.value = value
        self.written = False

    def __html__(self) -> str:  # how an autoescaped template writes it
        self.written = True
        return self.value

    def __str__(self) -> str:
        self.written = True
        return self.value


class Page(HTMLResponse):
    """A page drawn by ``WebState.page``; ``shared``: drawn for a stranger without a form token,
    so the same for every stranger (gm.web.pagecache keeps such pages)."""

    shared = False


@dataclass
class WebState:
    services: Services
    table: CommandTable
    pictures: Pictures
    env: jinja2.Environment = field(default_factory=make_environment)
    limiter: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(4))
    checks: Throttle = field(default_factory=lambda: Throttle(240, 300.0))
    kept: PageCache = field(default_factory=PageCache)
    _key: bytes | None = None
    _dry: sessionmaker[Session] | None = None

    @property
    def base_url(self) -> str:
        return web_config(self.services).url

    @property
    def secure(self) -> bool:
        return self.base_url.startswith("https://")

    @property
    def key(self) -> bytes:
        if self._key is None:
            self._key = signing_key(self.services)
        return self._key

    def dry_session(self) -> Session:
        """A session whose writes go nowhere (gm.web.dryrun)."""
        if self._dry is None:
            engine = self.services.db.engine.execution_options(**{READ_ONLY: True})
            self._dry = sessionmaker(engine, class_=DrySession, expire_on_commit=False)
        return self._dry()

    async def work(self, function: Callable[..., T], *args: Any) -> T:
        """Blocking work (the database, drawing) in a worker thread: the event loop, which also
        reads the mail and keeps the deadlines in `gm run`, never waits for it."""
        return await anyio.to_thread.run_sync(functools.partial(function, *args), limiter=self.limiter)

    # -- who reads ---------------------------------------------------------------------------

    def reader(self, session: Session, request: Request, game: Game) -> Reader | None:
        token = token_in(self.key, request.cookies.get(cookie_name(game.id, self.secure)))
        if token is None:
            return None
        row = find_session(session, token)
        if row is None or session_problem(self.services, game, row) is not None:
            return None
        return Reader(row, token)

    def game_and_reader(self, session: Session, request: Request, name: str) -> tuple[Game | None, Reader | None]:
        """The game ``name`` (None: no such game) and the request's signed-in reader of it."""
        game = find_game(session, name)
        return game, self.reader(session, request, game) if game is not None else None

    async def with_game(self, request: Request, use: Callable[[Session, Game | None, Reader | None], T]) -> T:
        """``use(session, game, reader)`` in a worker thread, with a session that reads: the game
        the path names (None: no such game) and the request's signed-in reader of it."""
        name = request.path_params["name"]

        def read() -> T:
            with self.services.db.reading() as session:
                return use(session, *self.game_and_reader(session, request, name))

        return await self.work(read)

    def holds_session(self, request: Request, game_id: int) -> bool:
        """Whether the request carries a session cookie of the game signed with this site's key
        (whether the session still works is the database's to say: ``reader``)."""
        return token_in(self.key, request.cookies.get(cookie_name(game_id, self.secure))) is not None

    def signed_in(self, request: Request, name: str) -> bool:
        """Whether the request holds a working session of the game ``name`` (checked before a
        signed-in reader's form is read: anyone else's body is never read)."""
        with self.services.db.reading() as session:
            return self.game_and_reader(session, request, name)[1] is not None

    def readable(self, reader: Reader | None, game: Game) -> bool:
        """Whether the page of ``game`` may be shown to this reader (private games: to its own)."""
        return not self.services.settings_of(game).private or reader is not None

    # -- pages -------------------------------------------------------------------------------

    def page(self, request: Request, template: str, status: int = 200, reader: Reader | None = None,
             **context: Any) -> Page:
        """A page; its forms carry a CSRF token: the session's, or an anonymous one (set as a cookie)."""
        seed, new = (reader.token, False) if reader is not None else anonymous_seed(request, self.secure)
        csrf = FormToken(csrf_for_session(self.key, seed) if reader is not None else sign(self.key, "csrf", seed))
        html = self.env.get_template(template).render(request=request, reader=reader, csrf=csrf,
                                                      judge=self.services.config.judge_name,
                                                      judge_address=self.services.config.judge_address, **context)
        response = Page(html, status_code=status)
        response.shared = reader is None and not csrf.written
        if new:
            set_anonymous_seed(response, seed, self.secure)
        return response

    def kept_page(self, request: Request, kept: Kept, reader: Reader | None) -> Response:
        """A page kept as drawn (gm.web.pagecache), as ``page`` answers it: a stranger's with its
        entity tag (304 when the browser holds it already) and an anonymous seed when it has none."""
        if reader is not None:
            return HTMLResponse(kept.body)
        headers = {"etag": kept.etag, "cache-control": SHARED_PAGE}
        if kept.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        response = HTMLResponse(kept.body, headers=headers)
        seed, new = anonymous_seed(request, self.secure)
        if new:
            set_anonymous_seed(response, seed, self.secure)
        return response

    def message(self, request: Request, title: str, text: str, status: int, reader: Reader | None = None,
                back: str | None = None) -> HTMLResponse:
        return self.page(request, "web/message.html.j2", status=status, reader=reader, title=title, text=text,
                         back=back)
