"""Serving the web application by uvicorn inside gm's own event loop: `gm web` runs only this,
`gm run` runs it beside the mail and the deadlines (gm.runtime.daemon). gm handles the signals
itself (gm.cli): on a stop the server stops taking connections and finishes the requests under
way (a few seconds at most) before the process ends.

uvicorn's own limits are set, for a server that shares its process with the mail: h11 (whose
bound on a request's head is set here; the body is bounded by gm.web.limits), at most
``MAX_HEAD_BYTES`` of request line and headers, ``MAX_CONNECTIONS`` connections and requests at
once (more are answered 503), an idle connection closed after ``KEEP_ALIVE`` seconds, and no
websockets."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

import uvicorn
from starlette.applications import Starlette

from gm.config import WebConfig

log = logging.getLogger(__name__)
MAX_HEAD_BYTES = 16 * 1024  # a request's line and headers (more: 400 from uvicorn)
MAX_CONNECTIONS = 100  # connections (and requests under way) at once; more are answered 503
KEEP_ALIVE = 5  # seconds an idle connection is kept


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:  # gm's own handlers stay (gm.cli.run_cmd)
        yield


class WebServer:
    def __init__(self, app: Starlette, config: WebConfig):
        self.config = config
        self.server = _Server(uvicorn.Config(
            app, host=config.host, port=config.port, lifespan="off", log_config=None, access_log=False,
            server_header=False, proxy_headers=True, forwarded_allow_ips=config.trusted_proxies or None,
            timeout_graceful_shutdown=5, http="h11", ws="none", h11_max_incomplete_event_size=MAX_HEAD_BYTES,
            limit_concurrency=MAX_CONNECTIONS, timeout_keep_alive=KEEP_ALIVE))

    @property
    def started(self) -> bool:
        return self.server.started

    async def serve(self) -> None:
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
