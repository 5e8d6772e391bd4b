"""Serving the web application by uvicorn inside gm's own event loop: `gm web` runs only this,
`gm run` runs it beside the mail and the deadlines (gm.runtime.daemon). gm handles the signals
itself (gm.cli): on a stop the server stops taking connections and finishes the requests under
way (a few seconds at most) before the process ends.

uvicorn's own limits are set, for a server that shares its process with the mail: h11 (whose
bound on a request's head is set here; the body is bounded by gm.web.limits), at most
``MAX_HEAD_BYTES`` of request line and headers, ``MAX_CONNECTIONS`` connections and requests at
once (more are answered 503), an idle connection closed after ``KEEP_ALIVE`` seconds, and no
websockets.

Several `gm run` on one host with one configuration serve the web from one of them: the one that
holds the lock file in the home (``WebLock``). The others say so in one line and take it over
when that one stops; `gm check` names the one that serves it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path

import uvicorn
from starlette.applications import Starlette

from gm.config import WebConfig
from gm.web.lock import WebLock

log = logging.getLogger(__name__)
MAX_HEAD_BYTES = 16 * 1024  # a request's line and headers (more: 400 from uvicorn)
MAX_CONNECTIONS = 100  # connections (and requests under way) at once; more are answered 503
KEEP_ALIVE = 5  # seconds an idle connection is kept
TAKE_OVER_EVERY = 10.0  # seconds between two looks whether the process serving the web stopped


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:  # gm's own handlers stay (gm.cli.run_cmd)
        yield


class WebServer:
    def __init__(self, app: Starlette, config: WebConfig, lock: Path | None = None, wait: float = TAKE_OVER_EVERY):
        self.wait = wait
        self.config = config
        self.server = _Server(uvicorn.Config(
            app, host=config.host, port=config.port, lifespan="off", log_config=None, access_log=False,
            server_header=False, proxy_headers=True, forwarded_allow_ips=config.trusted_proxies or None,
            timeout_graceful_shutdown=5, http="h11", ws="none", h11_max_incomplete_event_size=MAX_HEAD_BYTES,
            limit_concurrency=MAX_CONNECTIONS, timeout_keep_alive=KEEP_ALIVE))
        self.lock = WebLock(lock) if lock is not None else None

    @property
    def started(self) -> bool:
        return self.server.started

    async def serve(self) -> None:
        """Serve until cancelled; with a ``lock``, only while this process holds it: another gm
        process of this home that serves the web already is said once, and followed should it
        stop."""
        if self.lock is not None and not self.lock.take():
            log.info("web: served by %s on this host; this process serves none, and takes it over should that "
                     "one stop", self.lock.holder() or "another gm process")
            while not self.lock.take():
                await asyncio.sleep(self.wait)
            log.info("web: the gm process that served it stopped; this one serves it now")
        log.info("web: serving on %s:%d, links name %s", self.config.host, self.config.port, self.config.url)
        running = asyncio.ensure_future(self.server.serve())
        try:
            await asyncio.shield(running)
        except asyncio.CancelledError:
            self.server.should_exit = True  # stop listening, finish what is under way
            with contextlib.suppress(Exception):
                await running
            raise
        if not self.server.started:
            raise OSError(f"the web server could not listen on {self.config.host}:{self.config.port}")
