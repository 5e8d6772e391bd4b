"""What a request may send, bounded before any of it is read (docs/web.md, "Safe").

- A body: at most ``limit_for`` bytes for its route (the anonymous forms a few KiB, a signed-in
  reader's orders, press and commands 64 KiB, anything else nothing). ``Bounds`` refuses a
  declared ``Content-Length`` over it with 413 before the application runs, and stops a body
  sent in chunks at the first byte beyond it (413): nothing reads more than the limit.
- A form: urlencoded, at most ``MAX_FIELDS`` fields; its values are text without control
  characters (other than tab and line ends), as a mail's text is read.
- JSON (the order box's checks): its nesting scanned before it is parsed (deeper than
  ``MAX_JSON_DEPTH``: 400), so a deep document never reaches the parser's recursion.
- A path with control characters (a ``%00``) is refused with 400 before any route reads it.

Every refusal is an answer (400 or 413), never an error of the server, nor a traceback in the log.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SMALL_FORM_BYTES = 8 * 1024  # the sign-in, link and sign-off forms, an absence, the end of a game: a few words
ACTION_BYTES = 64 * 1024  # orders, press, the GM's commands, the order box's checks
MAX_FIELDS = 50
MAX_JSON_DEPTH = 32

_SMALL_FORMS = re.compile(r"^/games/[^/]+/(signin|link|signoff|play/absence|play/end)$")
_ACTIONS = re.compile(r"^/games/[^/]+/play/(check|orders|press|command|gm)$")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_PATH_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def limit_for(scope: Scope) -> int:
    """How many bytes of body the route of this request may read."""
    if scope.get("method") != "POST":
        return 0
    path = scope.get("path", "")
    if _ACTIONS.match(path):
        return ACTION_BYTES
    if _SMALL_FORMS.match(path):
        return SMALL_FORM_BYTES
    return 0


def too_large() -> HTTPException:
    return HTTPException(413, "Too much was sent.")


def malformed(what: str = "The request was malformed.") -> HTTPException:
    return HTTPException(400, what)


class Bounds:
    """Refuses, before the application reads anything, a path with control characters (400), a
    ``Content-Length`` that is no number (400) or over the route's limit (413); and ends a body
    that grows beyond the limit as it arrives (413, raised from ``receive`` into the handler
    reading it, and answered by Starlette's exception handling)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _PATH_CONTROL.search(scope.get("path", "")):
            await PlainTextResponse("The request was malformed.", status_code=400)(scope, receive, send)
            return
        limit = limit_for(scope)
        declared = [value for name, value in scope.get("headers", []) if name.lower() == b"content-length"]
        if declared:
            text = declared[0].strip()
            if len(declared) > 1 or not text.isdigit() or len(text) > 18:
                await PlainTextResponse("The request was malformed.", status_code=400)(scope, receive, send)
                return
            if int(text) > limit:
                await PlainTextResponse("Too much was sent.", status_code=413)(scope, receive, send)
                return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise too_large()
            return message

        await self.app(scope, bounded, send)


async def read_body(request: Request) -> bytes:
    """The request's body, at most its route's limit (more: 413, and nothing more is read)."""
    limit = limit_for(request.scope)
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large()
        parts.append(chunk)
    return b"".join(parts)


def clean(text: str) -> str:
    """Text as the judge keeps it: no control characters but tab and line ends, no lone surrogates."""
    return _CONTROL.sub("", text).encode("utf-8", "replace").decode("utf-8")


async def read_form(request: Request) -> dict[str, list[str]]:
    """A urlencoded form (the only kind these pages post), bounded in size and fields."""
    body = await read_body(request)
    try:
        text = body.decode("utf-8")
        form = parse_qs(text, keep_blank_values=True, max_num_fields=MAX_FIELDS, errors="replace")
    except (UnicodeDecodeError, ValueError):
        raise malformed("The form was malformed.") from None
    return {clean(name): [clean(value) for value in values] for name, values in form.items()}


def depth_within(body: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text nests no deeper than ``limit`` (brackets outside strings)."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return True
    depth = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return False
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return True


def json_object(body: bytes) -> dict[str, Any]:
    """The body as a JSON object, its nesting checked before it is parsed (else 400)."""
    if not depth_within(body):
        raise malformed("The JSON was nested too deeply.")
    try:
        found = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise malformed("The request was not JSON.") from None
    if not isinstance(found, dict):
        raise malformed("The request was not a JSON object.")
    return found
