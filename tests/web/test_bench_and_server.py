"""bench/web_page.py, small; and the web server in gm's own event loop, beside other work."""

from __future__ import annotations

import asyncio
import importlib.util
import socket
import sys
import urllib.request
from pathlib import Path

import pytest

from gm.config import WebConfig
from gm.web.app import build_app
from gm.web.server import WebServer
from tests.mail.conftest import Post
from tests.store.conftest import World

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_the_web_bench_times_a_game_page(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_web_page", BENCH / "web_page.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    figures = module.run(years=5, views=3, seed=4)
    assert figures["game page"] > 0
    assert "server time after its first view" in capsys.readouterr().out


def test_the_server_runs_in_the_event_loop_beside_other_work_and_stops_when_cancelled(world: World, post: Post) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = WebServer(build_app(world.services, post.intake.table), WebConfig(port=port))
    ticks: list[int] = []

    async def other_work() -> None:  # the mail and the deadlines, in gm run
        while True:
            ticks.append(1)
            await asyncio.sleep(0.01)

    async def scenario() -> bytes:
        running = asyncio.ensure_future(asyncio.gather(server.serve(), other_work()))
        while not server.started:
            await asyncio.sleep(0.01)
        page = await asyncio.to_thread(lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/games/g").read())
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        return page

    page = asyncio.run(scenario())
    assert b'class="board"' in page and len(ticks) > 1
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)


def test_gm_run_serves_the_web_only_with_a_web_section(world: World) -> None:
    import dataclasses

    from gm.app import App

    assert world.app.daemon().servers() == []
    app = App(dataclasses.replace(world.config, web=WebConfig(port=0)), clock=world.clock)
    try:
        assert [type(s).__name__ for s in app.daemon().servers()] == ["WebServer"]
    finally:
        app.close()


def test_another_process_on_the_same_database_serves_the_same_session(world: World, post: Post) -> None:
    """Behind a proxy, any gm process answers: the session and the signing key are in the database."""
    from starlette.testclient import TestClient

    from gm.app import App
    from tests.web.conftest import BASE, Browser

    first = Browser(world, post)
    first.sign_in("France")
    other = App(world.config, clock=world.clock)  # another process's own services, caches and key
    try:
        second = TestClient(other.web_app(), base_url=BASE, follow_redirects=False)
        for cookie in first.client.cookies.jar:
            second.cookies.set(cookie.name, cookie.value)
        page = second.get("/games/g/play")
        assert page.status_code == 200 and "Orders for France" in page.text
    finally:
        other.close()
