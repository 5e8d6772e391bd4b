"""Players' secrets: generated, stored only as a salted scrypt hash, compared in constant time."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

_N, _R, _P = 2**12, 8, 1  # about 5 ms here: slow for guessing, fast enough for a mail judge
_WORDS = (
    "amber", "anvil", "arch", "aster", "birch", "blaze", "brook", "cedar", "cinder", "clover", "comet",
    "coral", "crane", "dune", "ember", "fern", "flint", "forge", "frost", "gale", "garnet", "grove",
    "harbor", "hazel", "heron", "iris", "ivory", "jade", "juniper", "lark", "laurel", "linen", "lotus",
    "maple", "marble", "meadow", "mist", "moss", "nectar", "oak", "onyx", "opal", "orchid", "otter",
    "pearl", "pine", "plume", "quartz", "raven", "reef", "ridge", "river", "saffron", "sage", "slate",
    "sparrow", "spruce", "stone", "thistle", "thorn", "tide", "topaz", "tulip", "velvet", "willow", "wren",
)


def new_secret() -> str:
    """Three words and a number: easy to type in a mail, about 31 bits plus the address check."""
    words = "-".join(secrets.choice(_WORDS) for _ in range(3))
    return f"{words}-{secrets.randbelow(100)}"


def hash_secret(secret: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(_normal(secret), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return "scrypt${}${}${}${}${}".format(
        _N, _R, _P, base64.b64encode(salt).decode(), base64.b64encode(digest).decode()
    )


def verify_secret(secret: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, digest = stored.split("$")
    except ValueError:
        return False
    if kind != "scrypt":
        return False
    expected = base64.b64decode(digest)
    actual = hashlib.scrypt(_normal(secret), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p),
                            dklen=len(expected))
    return hmac.compare_digest(actual, expected)


def _normal(secret: str) -> bytes:
    return secret.strip().encode("utf-8")


class SecretChecker:
    """``verify_secret`` that remembers the secrets it has accepted (in this process only), so a
    player's tenth mail costs a hash lookup instead of a deliberately slow scrypt."""

    def __init__(self, limit: int = 10_000):
        self._key = secrets.token_bytes(32)
        self._accepted: set[tuple[str, bytes]] = set()
        self._limit = limit

    def _token(self, secret: str, stored: str) -> tuple[str, bytes]:
        return (stored, hmac.new(self._key, _normal(secret), hashlib.sha256).digest())

    def known(self, secret: str, stored: str) -> bool:
        """Accepted before, in this process (no slow hash needed)."""
        return self._token(secret, stored) in self._accepted

    def verify(self, secret: str, stored: str) -> bool:
        token = self._token(secret, stored)
        if token in self._accepted:
            return True
        if not verify_secret(secret, stored):
            return False
        if len(self._accepted) >= self._limit:
            self._accepted.clear()
        self._accepted.add(token)
        return True
