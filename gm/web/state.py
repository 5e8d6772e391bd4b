"""What every web handler shares (built once by ``gm.web.app.build_app``), and the helpers they
all use: pages from ``templates/web/`` (Jinja2, autoescaped), work in worker threads, and who
the reader of a game's page is."""

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
from starlette.responses import HTMLResponse

from gm.commands.registry import CommandTable
from gm.games.context import Services
from gm.games.lifecycle import find_game
from gm.games.mailer import format_moment
from gm.games.web_access import find_session, session_problem, signing_key, web_config
from gm.store.database import READ_ONLY
from gm.store.models import Game, WebSession
from gm.web.dryrun import DrySession
from gm.web.pictures import Pictures
from gm.web.security import anonymous_seed, cookie_name, csrf_for_session, set_anonymous_seed, sign, token_in

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
T = TypeVar("T")


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


@dataclass
class WebState:
    services: Services
    table: CommandTable
    pictures: Pictures
    env: jinja2.Environment = field(default_factory=make_environment)
    limiter: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(4))
    checks: Throttle = field(default_factory=lambda: Throttle(240, 300.0))
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

    def signed_in(self, request: Request, name: str) -> bool:
        """Whether the request holds a working session of the game ``name`` (checked before a
        signed-in reader's form is read: anyone else's body is never read)."""
        with self.services.db.reading() as session:
            game = find_game(session, name)
            return game is not None and self.reader(session, request, game) is not None

    def readable(self, reader: Reader | None, game: Game) -> bool:
        """Whether the page of ``game`` may be shown to this reader (private games: to its own)."""
        return not self.services.settings_of(game).private or reader is not None

    # -- pages -------------------------------------------------------------------------------

    def page(self, request: Request, template: str, status: int = 200, reader: Reader | None = None,
             **context: Any) -> HTMLResponse:
        """A page; its forms carry a CSRF token: the session's, or an anonymous one (set as a cookie)."""
        seed, new = (reader.token, False) if reader is not None else anonymous_seed(request, self.secure)
        csrf = csrf_for_session(self.key, seed) if reader is not None else sign(self.key, "csrf", seed)
        html = self.env.get_template(template).render(request=request, reader=reader, csrf=csrf,
                                                      judge=self.services.config.judge_name,
                                                      judge_address=self.services.config.judge_address, **context)
        response = HTMLResponse(html, status_code=status)
        if new:
            set_anonymous_seed(response, seed, self.secure)
        return response

    def message(self, request: Request, title: str, text: str, status: int, reader: Reader | None = None,
                back: str | None = None) -> HTMLResponse:
        return self.page(request, "web/message.html.j2", status=status, reader=reader, title=title, text=text,
                         back=back)
