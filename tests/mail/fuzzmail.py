"""Generated mails for the fuzz tests, cheaply: hypothesis draws a recipe (which headers and of
what kind, the MIME structure, charsets, transfer encodings, line ends, size, what the text
says, who sends it), and a seeded ``random.Random`` (also drawn by hypothesis) fills many mails
from each recipe with different words, addresses and bytes. Raw bytes are built by hand, so
that they can be as broken as real mail is."""

from __future__ import annotations

import base64
import quopri
import random
from dataclasses import dataclass

from hypothesis import strategies as st

PLAYERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"]
CHARSETS = ["utf-8", "us-ascii", "iso-8859-1", "windows-1252", "iso-2022-jp", "utf-16", "koi8-r", "klingon", ""]
ENCODINGS = ["7bit", "8bit", "binary", "base64", "quoted-printable", "x-uuencode", "bogus", ""]
LEAVES = ["text/plain", "text/html", "image/jpeg", "application/octet-stream", "message/rfc822",
          "message/delivery-status", "text/calendar", "application/pdf"]
MULTIPARTS = ["mixed", "alternative", "related", "report", "signed", "digest"]
HEADER_NAMES = ["From", "To", "Cc", "Subject", "Message-ID", "Date", "Reply-To", "Sender", "In-Reply-To",
                "References", "MIME-Version", "Content-Disposition", "X-Mailer", "Received", "X-\x00Junk",
                "Authentication-Results", "Subject ", "from", "MESSAGE-ID"]
NEVER_ANSWER = [None, None, None, None, "Auto-Submitted", "Precedence", "List-Id", "List-Unsubscribe", "X-Autoreply",
                "X-Autorespond", "X-Auto-Response-Suppress", "Return-Path", "X-Failed-Recipients"]  # None: mostly
VALUE_KINDS = ["ascii", "words", "encoded", "bad-encoded", "8bit", "nul", "long", "empty", "folded", "injection"]
SENDERS = ["player", "stranger", "player", "display-name", "gm", "stranger", "judge", "daemon", "none", "malformed",
           "many"]
BODIES = ["orders", "signon-orders", "commands", "press", "junk", "unicode", "empty", "binary", "quoted", "long"]
ENDINGS = ["\r\n", "\n", "\r", "mixed"]
SIZES = ["small", "tiny", "medium", "large"]
WORDS = ["A", "F", "Paris", "Par", "-", "->", "Burgundy", "bur", "Mar", "Spain", "S", "H", "C", "via", "convoy",
         "Brest", "Mid-Atlantic", "stp/nc", "Kiel", "Holland", "holds", "supports", "moves", "to", "Moscow",
         "the", "please", "orders", "SIGNON", "PRESS", "ENDPRESS", "HELP", "LIST", "g", "GM", "STATUS",
         "\u00e9t\u00e9", "\u0416", "\u6f22\u5b57", "\U0001F600", "\t", "", ">", "--", "SIGNOFF", "=?utf-8?q?x?="]
COMMAND_LINES = ["HELP", "LIST", "LIST g", "STATUS", "HISTORY", "MAP", "WAIT", "NOWAIT", "DRAW", "NODRAW",
                 "CLEAR", "JOIN g", "JOIN nosuchgame France", "SET TIMEZONE Europe/Rome", "SET TIMEZONE Mars/Base",
                 "SET ABSENCE 2026-02-01 2026-02-03", "CONCEDE England", "PREVIEW", "PROCESS S1901M",
                 "SET DEADLINE +1h", "BECOME France", "RESUME", "PAUSE", "EJECT Italy", "ROLLBACK S1901M",
                 "SIGNON", "SIGNON France", "SINGON France g x", "HELLP", "ORDERS", "SIGNOFF", "RESIGN",
                 "PRESS TO GM", "DRAW France Germany", "CANCEL ABSENCE", "CANCEL ABSENCE Italy 2026-02-01",
                 "TERMINATE", "UNSTART", "SET ABSENCE 2026-02-30 TO x"]


@dataclass(frozen=True)
class Leaf:
    kind: str
    charset: str
    encoding: str
    attachment: bool


@dataclass(frozen=True)
class Multi:
    subtype: str
    parts: tuple  # of Leaf | Multi
    boundary: str  # "ok", "missing", "unclosed", "wrong"


@dataclass(frozen=True)
class Recipe:
    headers: tuple[tuple[str, str], ...]  # (name, value kind)
    never_answer: str | None  # a header that marks mail gm must not answer (with any value)
    sender: str
    body: str  # what the text says
    structure: Leaf | Multi
    ending: str
    size: str
    duplicate_ids: bool  # some mails of the recipe share a Message-ID


leaves = st.builds(Leaf, st.sampled_from(LEAVES), st.sampled_from(CHARSETS), st.sampled_from(ENCODINGS), st.booleans())
structures = st.recursive(
    leaves,
    lambda inner: st.builds(Multi, st.sampled_from(MULTIPARTS), st.lists(inner, min_size=0, max_size=4).map(tuple),
                            st.sampled_from(["ok", "ok", "ok", "missing", "unclosed", "wrong"])),
    max_leaves=6,
)
recipes = st.builds(
    Recipe,
    headers=st.lists(st.tuples(st.sampled_from(HEADER_NAMES), st.sampled_from(VALUE_KINDS)), max_size=5).map(tuple),
    never_answer=st.sampled_from(NEVER_ANSWER),
    sender=st.sampled_from(SENDERS),
    body=st.sampled_from(BODIES),
    structure=st.one_of(leaves, structures),
    ending=st.sampled_from(ENDINGS),
    size=st.sampled_from(SIZES),
    duplicate_ids=st.booleans(),
)


class Maker:
    """Fills a recipe: ``mail(rnd)`` is one raw message."""

    def __init__(self, recipe: Recipe, secrets: dict[str, str], max_bytes: int):
        self.recipe = recipe
        self.secrets = secrets
        self.max_bytes = max_bytes

    def mail(self, rnd: random.Random, n: int) -> bytes:
        """The ``n``-th mail (``n`` makes its Message-ID unique, unless the recipe shares them)."""
        recipe = self.recipe
        shared = recipe.duplicate_ids and rnd.random() < 0.1
        head = [("From", self._sender(rnd)), ("To", "judge@example.test"), ("Subject", self._value(rnd, "words")),
                ("Message-ID", f"<fuzz.{rnd.randrange(20) if shared else f'{n}.{rnd.getrandbits(32)}'}@example.test>")]
        if rnd.random() < 0.2:
            head.pop(rnd.randrange(len(head)))
        head += [(name, self._value(rnd, kind)) for name, kind in recipe.headers]
        if recipe.never_answer:
            head.append((recipe.never_answer, rnd.choice(["auto-replied", "bulk", "<>", "yes", "all", "x"])))
        text = self._text(rnd)
        content_head, body = self._entity(rnd, recipe.structure, text, top=True)
        raw = self._join(rnd, head + content_head) + body
        return raw

    # ---- headers ------------------------------------------------------------------------------

    def _sender(self, rnd: random.Random) -> str:
        kind = self.recipe.sender
        player = rnd.choice(PLAYERS)
        return {
            "player": f"{player}@example.test",
            "stranger": f"someone{rnd.randrange(50)}@example.org",
            "judge": "judge@example.test",
            "daemon": rnd.choice(["MAILER-DAEMON@example.test", "postmaster@example.org", "no-reply@x.test"]),
            "none": "",
            "malformed": rnd.choice(["<<@>>", "france@", "@example.test", "a b c", "\"x\" <", "=?utf-8?b?////?="]),
            "display-name": f"=?utf-8?q?Fran=C3=A7ois?= <{player}@example.test>",
            "gm": "master@example.test",
            "many": f"{player}@example.test, other@example.org",
        }[kind]

    def _value(self, rnd: random.Random, kind: str) -> str:
        words = " ".join(rnd.choice(WORDS) for _ in range(rnd.randrange(1, 8)))
        if kind == "ascii":
            return words.encode("ascii", "ignore").decode()
        if kind == "encoded":
            charset = rnd.choice(["utf-8", "iso-8859-1", "utf-16"])
            data = base64.b64encode(words.encode(charset, "replace")).decode()
            return f"=?{charset}?b?{data}?="
        if kind == "bad-encoded":
            return rnd.choice(["=?klingon?q?x?=", "=?utf-8?b?%%%?=", "=?utf-8?x?abc?=", "=?utf-8?q?=ZZ?=", "=?"])
        if kind == "8bit":
            return words + " \udce9\udcff"  # undecodable bytes, surrogate-escaped
        if kind == "nul":
            return words + "\x00" + words
        if kind == "long":
            return "x" * rnd.choice([100, 998, 5000])
        if kind == "empty":
            return ""
        if kind == "folded":
            return words + "\r\n\t" + words
        if kind == "injection":
            return words + "\r\nBcc: victim@example.org\r\n\r\nHELP"
        return words

    def _join(self, rnd: random.Random, headers: list[tuple[str, str]]) -> bytes:
        ending = self._ending(rnd)
        lines = "".join(f"{name}: {value}{ending}" for name, value in headers) + ending
        return lines.encode("utf-8", "surrogateescape")

    def _ending(self, rnd: random.Random) -> str:
        return rnd.choice(["\r\n", "\n", "\r"]) if self.recipe.ending == "mixed" else self.recipe.ending

    # ---- bodies -------------------------------------------------------------------------------

    def _text(self, rnd: random.Random) -> str:
        kind = self.recipe.body
        player = rnd.choice(PLAYERS)
        secret = self.secrets.get(player) if rnd.random() < 0.5 else f"guess-{rnd.randrange(1000)}"
        signon = f"SIGNON {player.capitalize()} {rnd.choice(['g', 'g', 'G', 'nogame'])} {secret}"
        orders = "\n".join(" ".join(rnd.choice(WORDS[:26]) for _ in range(rnd.randrange(2, 6)))
                           for _ in range(rnd.randrange(1, 6)))
        if kind == "orders":
            return orders
        if kind == "signon-orders":
            return f"{signon}\n{orders}\n"
        if kind == "commands":
            return "\n".join([signon] * rnd.randrange(2) + rnd.sample(COMMAND_LINES, rnd.randrange(1, 6)))
        if kind == "press":
            return f"{signon}\nPRESS TO {rnd.choice(PLAYERS)}\n{orders}\n" + rnd.choice(["ENDPRESS\n", ""])
        if kind == "junk":
            return "".join(chr(rnd.randrange(32, 0x2FFF)) for _ in range(rnd.randrange(200)))
        if kind == "unicode":
            return " ".join(rnd.choice(WORDS) for _ in range(rnd.randrange(40)))
        if kind == "binary":
            return bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(300))).decode("latin-1")
        if kind == "quoted":
            return f"> {signon}\n> A Paris - Burgundy\nOn Monday France wrote:\n{orders}\n-- \nsig"
        if kind == "long":
            return "\n".join(orders for _ in range(rnd.randrange(20, 100)))
        return ""

    def _size(self, rnd: random.Random) -> int:
        return {"tiny": 0, "small": 100, "medium": 600,
                "large": self.max_bytes + rnd.randrange(1, self.max_bytes)}[self.recipe.size]

    def _entity(self, rnd: random.Random, node: Leaf | Multi, text: str, top: bool = False) -> tuple[list[tuple[str, str]], bytes]:
        ending = self._ending(rnd)
        if isinstance(node, Leaf):
            params = f"; charset={node.charset}" if node.charset else ""
            head = [("Content-Type", f"{node.kind}{params}")]
            if node.encoding:
                head.append(("Content-Transfer-Encoding", node.encoding))
            if node.attachment:
                head.append(("Content-Disposition", f"attachment; filename=\"f{rnd.randrange(9)}.bin\""))
            payload = text if node.kind.startswith("text/") else ""
            if node.kind == "text/html":
                payload = "<html><body><p>" + payload.replace("\n", "</p><p>") + "</p></body></html>"
            padding = self._size(rnd)
            data = self._encode(rnd, payload, node) + bytes(rnd.getrandbits(8) for _ in range(min(padding, 64))) * (
                padding // 64)
            return head, data.replace(b"\n", ending.encode()) if node.encoding != "binary" else data
        boundary = f"b{rnd.getrandbits(32):x}"
        declared = {"ok": boundary, "unclosed": boundary, "wrong": "other", "missing": ""}[node.boundary]
        head = [("MIME-Version", "1.0"),
                ("Content-Type", f"multipart/{node.subtype}" + (f"; boundary=\"{declared}\"" if declared else ""))]
        out = [b"preamble" + ending.encode()]
        for index, part in enumerate(node.parts):
            part_head, part_body = self._entity(rnd, part, text if index == 0 else "")
            out.append(f"--{boundary}{ending}".encode() + self._join(rnd, part_head) + part_body + ending.encode())
        if node.boundary != "unclosed":
            out.append(f"--{boundary}--{ending}".encode())
        return head, b"".join(out)

    def _encode(self, rnd: random.Random, payload: str, node: Leaf) -> bytes:
        charset = node.charset if node.charset not in ("", "klingon") else "utf-8"
        try:
            data = payload.encode(charset, "replace")
        except LookupError:
            data = payload.encode("utf-8")
        if node.encoding == "base64":
            encoded = base64.encodebytes(data)
            return encoded if rnd.random() < 0.9 else encoded[:-3] + b"!!"
        if node.encoding == "quoted-printable":
            return quopri.encodestring(data) + (b"=Z" if rnd.random() < 0.1 else b"")
        return data
