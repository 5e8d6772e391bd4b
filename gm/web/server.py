"""Serving the web application by uvicorn inside gm's own event loop: `gm web` runs only this,
`gm run` runs it beside the mail and the deadlines (gm.runtime.daemon). gm handles the signals
itself (gm.cli): on a stop the server stops taking connections and finishes the requests under
way (a few seconds at most) before the process ends."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

import uvicorn
from starlette.applications import Starlette

from gm.config import WebConfig

log = logging.getLogger(__name__)


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
            timeout_graceful_shutdown=5))

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
