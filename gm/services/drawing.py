"""Where the outbox's pictures are drawn: in worker processes, so that drawing never holds the
daemon's event loop (resvg keeps Python's interpreter lock while it draws) and a big deadline's
pictures are drawn on every core while the mails already drawn go out.

A ``Drawer`` draws a ``gm.games.pictures.Picture`` (plain data read from the store) as PNG.
``Workers`` is a pool of processes started by the forkserver (never forked from a process that
holds database connections), each with its own variant catalog, so its own painters
(gm.render.painter: each map's unchanging layers drawn once per process). ``Here`` draws in a
thread of this process (for tests, and one-shot commands that draw a picture or two).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import select
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Protocol

from gm.games.pictures import Picture, draw
from gm.variants.catalog import VariantCatalog


class Drawer(Protocol):
    async def draw(self, picture: Picture) -> bytes | None: ...


class Here:
    """Draws in a thread of this process, with the catalog's painters."""

    def __init__(self, catalog: VariantCatalog):
        self.catalog = catalog

    async def draw(self, picture: Picture) -> bytes | None:
        return await asyncio.to_thread(draw, picture, self.catalog)


class Workers:
    """Draws in ``workers`` processes (default: one per core)."""

    def __init__(self, workers: int | None = None):
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["gm.services.drawing"])
        self._pool = ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1, mp_context=context,
                                         initializer=_start_worker, initargs=(os.getpid(),))

    async def draw(self, picture: Picture) -> bytes | None:
        return await asyncio.get_running_loop().run_in_executor(self._pool, _draw_in_worker, picture)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


_catalog: VariantCatalog | None = None  # a worker process's own (made by its initializer)


def _start_worker(owner: int) -> None:
    global _catalog
    _catalog = VariantCatalog()
    threading.Thread(target=_end_with, args=(owner,), name="ends with gm", daemon=True).start()


def _end_with(owner: int) -> None:
    """Exit once the process that started the pool is gone: a gm killed outright (SIGKILL, the
    OOM killer) never shuts its pool down, and its workers, waiting on a queue that nothing will
    close, would live on, holding its stderr and the forkserver."""
    try:
        with os.fdopen(os.pidfd_open(owner), "rb", buffering=0) as process:
            select.select([process], [], [])
    except OSError:  # no pidfd (an older kernel): look every second
        while _alive(owner):
            time.sleep(1.0)
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _draw_in_worker(picture: Picture) -> bytes | None:
    assert _catalog is not None, "a drawing worker without its catalog"
    return draw(picture, _catalog)
