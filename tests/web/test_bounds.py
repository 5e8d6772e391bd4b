"""What a request may send is bounded before it is read (gm.web.limits): a declared length over
its route's limit is refused before a byte of the body is read, a body sent in chunks is cut at
the limit, a post without a working session has its body never read, JSON is checked for depth
before it is parsed; and no malformed request gives a server error or a traceback in the log."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Iterable, Iterator

import pytest
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Message

from gm.config import WebConfig
from gm.web.app import build_app
from gm.web.limits import ACTION_BYTES, SMALL_FORM_BYTES, depth_within
from gm.web.server import MAX_CONNECTIONS, MAX_HEAD_BYTES, WebServer
from tests.mail.conftest import Post
from tests.store.conftest import World
from tests.web.conftest import Browser, csrf_of

CHUNK = 64 * 1024
HUGE = 800 * 1024 * 1024
ACTIONS = ["/games/g/play/check", "/games/g/play/orders", "/games/g/play/press", "/games/g/play/command",
           "/games/g/play/gm"]
FORMS = ["/games/g/signin", "/games/g/link", "/games/g/signoff"]
POSTS = ACTIONS + FORMS
ALLOWED = {200, 303, 400, 401, 403, 404, 405, 410, 413, 429}


class Sent:
    """What the application answered to one request driven by hand, and how much of its body it read."""

    def __init__(self) -> None:
        self.read = 0
        self.status = 0
        self.headers: dict[str, str] = {}
        self.body = b""


def _drive(app: ASGIApp, method: str, path: str, headers: dict[str, str], chunks: Iterable[bytes]) -> Sent:
    """Run one request through the ASGI application, its body from ``chunks`` as they are asked for."""
    sent = Sent()
    pending: Iterator[bytes] = iter(chunks)

    async def receive() -> Message:
        chunk = next(pending, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        sent.read += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            sent.status = message["status"]
            sent.headers = {k.decode().lower(): v.decode() for k, v in message.get("headers", [])}
        elif message["type"] == "http.response.body":
            sent.body += message.get("body", b"")

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
             "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8080)}
    asyncio.run(app(scope, receive, send))
    return sent


def _stream(total: int) -> Iterator[bytes]:
    for _ in range(total // CHUNK):
        yield b"[" * CHUNK


def _signed_in(browser: Browser, role: str = "player") -> dict[str, str]:
    """The headers of a signed-in request of ``browser`` (its cookie, the session's CSRF token)."""
    if role == "gm":
        browser.sign_in(role="gm")
    else:
        browser.sign_in("France")
    csrf = csrf_of(browser.get("/games/g/play").text)
    cookie = "; ".join(f"{c.name}={c.value}" for c in browser.client.cookies.jar)
    return {"cookie": cookie, "x-csrf-token": csrf, "content-type": "application/json"}


def _app(browser: Browser) -> ASGIApp:
    return build_app(browser.world.services, browser.post.intake.table)


@pytest.mark.parametrize("path", POSTS)
def test_a_declared_length_over_the_limit_is_refused_before_a_byte_is_read(browser: Browser, path: str) -> None:
    headers = _signed_in(browser)
    for extra in ({}, {"cookie": ""}):
        sent = _drive(_app(browser), "POST", path, {**headers, **extra, "content-length": str(HUGE)},
                      _stream(4 * 1024 * 1024))
        assert (sent.status, sent.read) == (413, 0), path


def test_a_chunked_body_is_cut_at_the_limit(browser: Browser) -> None:
    headers = _signed_in(browser)
    for path in ACTIONS:
        sent = _drive(_app(browser), "POST", path, headers, _stream(16 * 1024 * 1024))
        assert sent.status == 413, path
        assert sent.read <= ACTION_BYTES + CHUNK, (path, sent.read)


def test_the_order_box_reads_no_body_without_a_session(browser: Browser) -> None:
    """The memory of the process that reads the mail is never at a stranger's disposal."""
    for headers in ({"content-type": "application/json"},
                    {"content-type": "application/json", "cookie": "gm_s1=forged.0000", "x-csrf-token": "x"}):
        sent = _drive(_app(browser), "POST", "/games/g/play/check", headers, _stream(16 * 1024 * 1024))
        assert (sent.status, sent.read) == (403, 0)
    for path in ACTIONS[1:] + ["/games/g/signoff", "/games/g/signin", "/games/g/link"]:
        sent = _drive(_app(browser), "POST", path, {"content-type": "application/x-www-form-urlencoded"},
                      _stream(16 * 1024 * 1024))
        assert sent.status in (303, 403) and sent.read == 0, (path, sent.status, sent.read)


def test_deep_json_is_refused_before_it_is_parsed(browser: Browser, caplog: pytest.LogCaptureFixture) -> None:
    headers = _signed_in(browser)
    client = TestClient(_app(browser), base_url="http://127.0.0.1:8080", raise_server_exceptions=False,
                        follow_redirects=False)
    client.cookies = browser.client.cookies
    with caplog.at_level(logging.INFO):
        deep = client.post("/games/g/play/check", content=b"[" * 30000, headers=headers)
        object_deep = client.post("/games/g/play/check", content=b'{"text": ' + b"[" * 30000, headers=headers)
        fine = client.post("/games/g/play/check", content=json.dumps({"text": "A Par H"}), headers=headers)
    assert deep.status_code == object_deep.status_code == 400
    assert fine.status_code == 200
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert depth_within(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')  # brackets in strings are text
    assert not depth_within(b'{"a": ' + b"[" * 33 + b"]" * 33 + b"}")


def _garbage(csrf: str) -> list[tuple[dict[str, str], bytes]]:
    """Malformed posts: content types and bodies of every wrong kind (with the right CSRF token
    where a form carries one, so that the handlers, not only the checks, see them)."""
    form = {"content-type": "application/x-www-form-urlencoded"}
    as_json = {"content-type": "application/json", "x-csrf-token": csrf}
    return [
        (as_json, b"[" * 30000),
        (as_json, b"{" * 30000),
        (as_json, b'{"text": "\\ud800 A Par H \\u0000"}'),
        (as_json, b'{"text": ["A Par H"]}'),
        (as_json, b'"just a string"'),
        (as_json, b"\xff\xfe\x00 not json"),
        (as_json, json.dumps({"text": "x" * 70_000}).encode()),
        (form, b"\xff\xfe\xfd=\xc3\x28&csrf=" + csrf.encode()),
        (form, "&".join(f"f{n}=1" for n in range(1000)).encode()),
        (form, f"csrf={csrf}&orders=A%20Par%00%20H%0D%0AF%20Bre%20-%20Mid&text=%ED%A0%80press%00&command=WAIT"
               f"&commands=SET%20DEADLINE%20%00".encode()),
        (form, b"csrf=%C3%A9%C3%A9%C3%A9&who=France&token=%00"),
        (form, b"csrf=" + csrf.encode() + b"&to=Narnia&text=hello&grey=1&later=1"),
        (form, b"%%%%%%=%%%&&&&===&csrf"),
        ({"content-type": "multipart/form-data; boundary=x"}, b"--x\r\nContent-Disposition: form-data\r\n\r\n"),
        ({"content-type": "text/plain"}, b"A Par H"),
        ({}, b""),
    ]


def test_garbage_to_every_post_route_is_answered_without_an_error(browser: Browser, other_browser: Browser,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    signed = _signed_in(browser, "gm")
    player = Browser(browser.world, browser.post)
    player_csrf = _signed_in(player)["x-csrf-token"]
    anonymous_page = other_browser.get("/games/g/signin").text
    odd_cookies = ("gm_s1=\u00e9\u00e9.\u00e9\u00e9; gm_csrf=" + "\u00e9" * 30
                   + "; gm_s\u00b2=x.y; gm_s99999999999999999999999=a.b")
    clients = {
        "the game master": (browser.client.cookies, signed["x-csrf-token"], {}),
        "a player": (player.client.cookies, player_csrf, {}),
        "anonymous": (other_browser.client.cookies, csrf_of(anonymous_page), {}),
        "odd cookies": ({}, "\u00e9", {"cookie": odd_cookies.encode("utf-8")}),
    }
    with caplog.at_level(logging.INFO):
        for who, (cookies, csrf, extra) in clients.items():
            client = TestClient(_app(browser), base_url="http://127.0.0.1:8080", raise_server_exceptions=False,
                                follow_redirects=False)
            client.cookies = cookies  # type: ignore[assignment]
            for path in POSTS:
                for headers, body in _garbage(csrf):
                    sent = {k: v.encode("utf-8") for k, v in headers.items()} | extra
                    answer = client.post(path, content=body, headers=sent)
                    assert answer.status_code in ALLOWED, (who, path, headers, body[:60], answer.status_code,
                                                           answer.text[:300])
            for path in ("/games/%00", "/games/g%0d%0aSet-Cookie:x=1", "/games/g/phases/%00",
                         "/games/g/link/%00", "/games/g/play?done=%C2%B2", "/games/g/play?done=99999999999999999999",
                         "/games/g/rules?x=%ff"):
                answer = client.get(path, headers=extra)
                assert answer.status_code < 500, (who, path, answer.status_code)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], [
        r.getMessage()[:200] for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_a_form_with_too_many_fields_is_refused(browser: Browser) -> None:
    page = browser.get("/games/g/signin").text
    fields = "&".join(f"f{n}=1" for n in range(200))
    answer = browser.client.post("/games/g/signin", content=f"csrf={csrf_of(page)}&who=France&{fields}",
                                 headers={"content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 400
    too_long = browser.client.post("/games/g/signin", data={"csrf": csrf_of(page), "who": "x" * SMALL_FORM_BYTES})
    assert too_long.status_code == 413  # refused, not cut short and read as something else


def test_uvicorns_own_limits_are_set(world: World, post: Post) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = WebServer(build_app(world.services, post.intake.table), WebConfig(port=port))
    config = server.server.config
    assert config.http == "h11" and config.h11_max_incomplete_event_size == MAX_HEAD_BYTES
    assert config.limit_concurrency == MAX_CONNECTIONS and config.timeout_keep_alive <= 5

    def talk(request: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(request)
            return conn.recv(4096)

    async def scenario() -> tuple[bytes, bytes]:
        running = asyncio.ensure_future(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        try:
            declared = await asyncio.to_thread(talk, (
                f"POST /games/g/play/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {HUGE}\r\n\r\n").encode())
            # A head that goes on and on (never ended) is cut at the bound, not kept waiting for its end.
            head = await asyncio.to_thread(talk, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
                                           + b"a" * (MAX_HEAD_BYTES * 2))
        finally:
            running.cancel()
            with pytest.raises(asyncio.CancelledError):
                await running
        return declared, head

    declared, head = asyncio.run(scenario())
    assert declared.startswith(b"HTTP/1.1 413")
    assert head.startswith(b"HTTP/1.1 400")
