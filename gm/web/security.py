"""Cookies, forms and headers: what keeps one reader's session from being used by another page.

- A session cookie per game (``gm_s<game id>``): the session's token and its signature with the
  database's key, HTTP-only, SameSite=Lax, Path=/. When the site is served over https (its
  ``base_url``) every cookie is Secure and named with the ``__Host-`` prefix, which a browser
  accepts only from this very host, over https, for the whole site: no other host under the same
  domain can set or overwrite it. Only the names of the site's scheme are read.
- Every form carries a CSRF token: for a signed-in reader, the signature of the session's token;
  before signing in, the signature of a random value kept in a cookie of its own (a double
  submit), so another site can neither read nor forge either. A POST whose ``Origin`` names
  another site is refused too.
- Every response: a Content-Security-Policy that runs no script but the site's own file (an
  injected ``<script>`` does nothing), no referrer to other sites (a sign-in link in the address
  bar never leaks), no framing, no sniffing; pages are not stored by caches, but for a game's
  pages as every stranger gets them, which a browser may keep and must ask about again each time
  (its entity tag: gm.web.state.SHARED_PAGE), never a shared cache.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gm.games.web_access import sign, signed_right

ANONYMOUS = "gm_csrf"
SESSION = "gm_s"
HOST_ONLY = "__Host-"
HEADERS = {
    "content-security-policy": ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
    "referrer-policy": "same-origin",  # no address (a link's token) to other sites; an Origin to our own POSTs
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
}


def _prefix(secure: bool) -> str:
    return HOST_ONLY if secure else ""


def cookie_name(game_id: int, secure: bool) -> str:
    return f"{_prefix(secure)}{SESSION}{game_id}"


def game_id_of_cookie(name: str, secure: bool) -> int | None:
    """The game a session cookie of this name is for (None: no session cookie of this site)."""
    head = _prefix(secure) + SESSION
    digits = name[len(head):] if name.startswith(head) else ""
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) < 19 else None


def anonymous_cookie(secure: bool) -> str:
    return _prefix(secure) + ANONYMOUS


def cookie_value(key: bytes, token: str) -> str:
    return f"{token}.{sign(key, 'session', token)}"


def token_in(key: bytes, value: str | None) -> str | None:
    """The session token of a cookie whose signature is right, else None."""
    if not value or "." not in value:
        return None
    token, _, signature = value.rpartition(".")
    return token if signed_right(key, "session", token, signature) else None


def set_session_cookie(response: Response, key: bytes, game_id: int, token: str, secure: bool, days: int) -> None:
    response.set_cookie(cookie_name(game_id, secure), cookie_value(key, token), max_age=days * 86400, path="/",
                        httponly=True, samesite="lax", secure=secure)


def clear_session_cookie(response: Response, game_id: int, secure: bool) -> None:
    response.delete_cookie(cookie_name(game_id, secure), path="/", httponly=True, samesite="lax", secure=secure)


def csrf_for_session(key: bytes, token: str) -> str:
    return sign(key, "csrf", token)


def seed_of(request: Request, secure: bool) -> str:
    """The reader's anonymous CSRF seed as the cookie holds it ("" when there is none that could be one)."""
    found = request.cookies.get(anonymous_cookie(secure), "")
    return found if 20 <= len(found) <= 64 else ""


def anonymous_seed(request: Request, secure: bool) -> tuple[str, bool]:
    """The reader's anonymous CSRF seed, and whether it is new (to be set as a cookie)."""
    found = seed_of(request, secure)
    if found:
        return found, False
    return secrets.token_urlsafe(24), True


def set_anonymous_seed(response: Response, seed: str, secure: bool) -> None:
    response.set_cookie(anonymous_cookie(secure), seed, path="/", httponly=True, samesite="lax", secure=secure)


def csrf_right(key: bytes, seed: str, given: str) -> bool:
    return bool(seed) and bool(given) and signed_right(key, "csrf", seed, given)


def csrf_of_session_right(key: bytes, token: str, given: str) -> bool:
    """Whether ``given`` is the CSRF token of the session ``token`` (compared in constant time)."""
    return bool(given) and signed_right(key, "csrf", token, given)


def same_origin(request: Request, base_url: str) -> bool:
    """A POST from this site's own pages, as far as the browser says (one that says nothing, or a
    tool, is judged by the CSRF token alone)."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    here = {request.headers.get("host", ""), urlsplit(base_url).netloc}
    return urlsplit(origin).netloc in here


class SecurityHeaders:
    """Adds ``HEADERS`` to every response, and no-store where the response says nothing of caches."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in HEADERS.items():
                    if name.encode() not in present:
                        headers.append((name.encode(), value.encode()))
                if b"cache-control" not in present:  # pages change with every phase and reader
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)
