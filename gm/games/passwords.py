"""Players' secrets: generated (about 42 bits), stored only as a salted scrypt hash, compared in constant time."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

_N, _R, _P = 2**12, 8, 1  # about 5 ms here: slow for guessing, fast enough for a mail judge
_WORDS = (  # 256 short everyday words (8 bits each), easy to type in a mail
    "acorn", "actor", "agate", "alder", "algae", "alpine", "amber", "anchor", "angle", "anvil", "apple",
    "arbor", "arch", "aspen", "aster", "atlas", "attic", "autumn", "badge", "bagel", "bamboo", "banjo",
    "barley", "basil", "basin", "beacon", "beaver", "birch", "bison", "blaze", "bloom", "bonnet", "border",
    "boulder", "bramble", "brass", "bread", "breeze", "brick", "bridge", "brook", "bucket", "buffalo",
    "bugle", "butter", "cabin", "cactus", "camel", "candle", "canoe", "canyon", "carrot", "castle", "cedar",
    "cellar", "cherry", "chess", "cider", "cinder", "citrus", "clay", "cliff", "clover", "cobalt", "cocoa",
    "comet", "copper", "coral", "cotton", "cougar", "coyote", "crane", "crater", "cricket", "crystal",
    "cypress", "daisy", "delta", "desert", "dolphin", "donkey", "dove", "dragon", "drum", "dune", "eagle",
    "echo", "ember", "emerald", "falcon", "feather", "fennel", "fern", "ferry", "fiddle", "field", "fig",
    "finch", "fjord", "flame", "flint", "flute", "forest", "forge", "fossil", "fox", "frost", "garden",
    "garnet", "gazelle", "geyser", "ginger", "glacier", "globe", "gopher", "granite", "grape", "gravel",
    "grove", "guitar", "gull", "hammer", "harbor", "harp", "hazel", "heron", "hickory", "honey", "horizon",
    "hornet", "iris", "island", "ivory", "jacket", "jade", "jasmine", "jelly", "juniper", "kayak", "kettle",
    "kiwi", "koala", "ladder", "lagoon", "lantern", "larch", "lark", "laurel", "lava", "lemon", "lentil",
    "lilac", "linen", "lion", "lizard", "llama", "lobster", "lotus", "lynx", "magnet", "mango", "maple",
    "marble", "marsh", "meadow", "melon", "mesa", "meteor", "mint", "mirror", "mist", "moose", "moss",
    "muffin", "nectar", "needle", "nutmeg", "oak", "oasis", "ocean", "olive", "onyx", "opal", "orbit",
    "orchid", "osprey", "otter", "owl", "paddle", "panda", "parrot", "pasta", "peach", "pearl", "pebble",
    "pelican", "pepper", "piano", "pigeon", "pine", "planet", "plum", "plume", "pocket", "pony", "poppy",
    "puffin", "pumpkin", "quail", "quartz", "quill", "rabbit", "radish", "raven", "reef", "ribbon", "ridge",
    "river", "robin", "rocket", "saffron", "sage", "salmon", "sandal", "satin", "scarf", "shadow", "shell",
    "sierra", "silver", "sparrow", "spruce", "squash", "stone", "summit", "swan", "thistle", "thorn",
    "thunder", "tiger", "timber", "tomato", "topaz", "tulip", "tundra", "turtle", "valley", "velvet",
    "violet", "walnut", "walrus", "willow", "wren", "yarrow", "zebra", "zephyr",
)
_NUMBER_BELOW = 1000
WORDS_IN_SECRET = 4
# 256**4 * 1000 ~ 4.3e12 secrets: about 41.97 bits. The sender's address is checked too, but a
# From line can be forged, so it adds nothing to count on; scrypt and the limits on wrong
# secrets (gm.commands.guessing) are what make guessing slow.
SECRET_BITS = WORDS_IN_SECRET * 8 + 9.96


def new_secret() -> str:
    """Four words and a number, e.g. "otter-granite-plum-lark-408": about 42 bits."""
    words = "-".join(secrets.choice(_WORDS) for _ in range(WORDS_IN_SECRET))
    return f"{words}-{secrets.randbelow(_NUMBER_BELOW)}"


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
