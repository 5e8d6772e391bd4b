"""Names players choose for their powers, checked when chosen (JOIN, RENAME, a settings file).

A name is printable letters of one script family, with single spaces, hyphens, apostrophes and
full stops between them; nothing that does not print (control, format or bidirectional
characters), no digits. It may not equal, or look like, a name already used in the game (a
power of the map, a power a player named, even one that has left), a word the judge reserves
(the game master, the judge, a command, a word of PRESS), in any case or with any letter
swapped for one of another script that looks the same ("Latіum" with a Cyrillic і beside
Latium), with its accents, spaces or hyphens changed.

Look-alikes are found as Unicode's confusable detection finds them (UTS #39's skeleton): the
name decomposed, marks dropped, each character that looks like a Latin one replaced by it,
folded to lower case. The table below holds the look-alikes of the scripts gm's players write
in; a letter of another script cannot pose as a Latin name, and a name is of one script anyway.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

MAX_LENGTH = 40
MIN_LENGTH = 2
JOINERS = " -'.\u2019"  # allowed between letters (the typographic apostrophe too)
MAX_MARKS = 2  # combining marks on one letter (more is "Zalgo" text, drawn over other lines)

# Words no name may equal or look like: who the judge is and who speaks for it, the words of
# PRESS that name recipients, and every command (tests/commands/test_names.py checks that each
# command of the table is here).
RESERVED = (
    "GM", "Master", "Game Master", "Gamemaster", "The Game Master", "Judge", "The Judge", "Admin",
    "Administrator", "Postmaster", "System", "Moderator", "Referee", "Everyone", "Everybody", "All",
    "Nobody", "Anonymous", "An Anonymous Power", "Anonymous Power", "Grey", "Gray", "To", "With",
    "Results", "With Results", "Endpress", "End Press", "Endbroadcast", "Rules", "Dice", "Civil Disorder",
    "Vacant", "Eliminated", "Neutral", "Observer",
    "Help", "List", "Join", "Signon", "Sign-on", "Login", "Signoff", "Status", "Orders", "Clear", "Press",
    "Broadcast", "History", "Map", "Wait", "Nowait", "No-wait", "Draw", "Nodraw", "No-draw", "Concede",
    "Noconcede", "Resign", "Set", "Confirm", "Process", "Preview", "Rollback", "Pause", "Resume", "Eject",
    "Replace", "Rename", "Become", "Start", "Web", "Cancel", "Terminate", "Unstart",
    "Standby", "Stand-by", "Unstandby", "Summary", "Approve", "Refuse", "Deny", "Observe", "Unobserve",
    "An Observer", "The Observer",
    "Create", "Settings", "Endsettings", "End Settings",
)

# Characters that look like a Latin letter (from UTS #39's confusables, for Cyrillic, Greek,
# Armenian, and the Latin letters that pass for others), as in Unicode's table.
_LOOKALIKE = str.maketrans({
    # Cyrillic
    "а": "a", "е": "e", "ё": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i",
    "ї": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ү": "y",
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "У": "Y", "Ү": "Y", "І": "l", "Ї": "l", "Ј": "J", "Ѕ": "S", "Ԁ": "D", "Ԛ": "Q",
    "Ԝ": "W", "Ӏ": "l",
    # Greek
    "α": "a", "γ": "y", "ι": "i", "ν": "v", "ο": "o", "ρ": "p", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j",
    "η": "n", "κ": "k",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
    # Armenian
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g", "զ": "q", "Օ": "O", "Ս": "U", "Տ": "S",
    # Latin: dotless and other variants, letters with a stroke (as accents are dropped), and
    # upper-case I, which passes for a lower-case l
    "ı": "i", "ȷ": "j", "ɑ": "a", "ɩ": "i", "ɡ": "g", "ʟ": "L", "I": "l", "ſ": "f", "ø": "o", "Ø": "O",
    "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "ħ": "h", "Ħ": "H",
})
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))  # two letters that pass for one


class NameRefused(ValueError):
    """A name that cannot be used; the message says why, for whoever chose it."""


# A game's name (CREATE): a file name in any file system and the same however it is written.
_GAME_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_DEVICES = {"con", "prn", "aux", "nul", *(f"{port}{n}" for port in ("com", "lpt") for n in range(10))}
_GAME_WORDS = ("Provinces", "Variants", "Games")  # LIST PROVINCES, HELP VARIANTS


def game_name(text: str, judge: str = "gm") -> str:
    """A new game's name as kept (lower case), or NameRefused: letters, digits, - and _, a letter
    or digit first, at most 40; no word the judge keeps (a command, GM, the judge's name...)."""
    name = text.strip().lower()
    if not _GAME_NAME.fullmatch(name):
        raise NameRefused(f"the game name {_shown(text)} cannot be used: use letters, digits, - and _ (a letter or "
                          "digit first, at most 40)")
    if name in _DEVICES:
        raise NameRefused(f"the game name {name!r} cannot be used: some systems keep it for a device; choose another")
    keys = skeletons(name.replace("_", "-"))
    for word in (*RESERVED, *_GAME_WORDS, judge):
        if keys & skeletons(word):
            raise NameRefused(f"the game name {name!r} cannot be used: it reads like {word!r}, a word the judge "
                              "keeps for itself; choose another")
    return name


@dataclass(frozen=True)
class NameRules:
    """What a new name is checked against: the names already used in its game (powers of the map,
    powers named by players, unplayed powers), and the judge's own name."""

    taken: tuple[str, ...] = ()
    judge: str = "gm"

    def check(self, text: str) -> str:
        """The name as it will be kept (normalised: NFKC, single spaces), or NameRefused."""
        name = " ".join(unicodedata.normalize("NFKC", text).split())
        problem = _form_problem(name)
        if problem:
            raise NameRefused(f"the name {_shown(text)} cannot be used: {problem}; choose another")
        keys = skeletons(name)
        for word in (*RESERVED, self.judge):
            if keys & skeletons(word):
                raise NameRefused(f"the name {_shown(text)} cannot be used: it reads like {word!r}, a word "
                                 "the judge keeps for itself; choose another")
        for other in self.taken:
            if other.casefold() == name.casefold():
                raise NameRefused(f"the name {_shown(text)} is taken: choose another")
            if keys & skeletons(other):
                raise NameRefused(f"the name {_shown(text)} looks like {other!r}, which is taken: choose another")
        return name


def _shown(text: str) -> str:
    """The name as refused, with what does not print shown escaped (never relayed raw)."""
    return "'" + "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text[:60]) + "'"


def _form_problem(name: str) -> str:
    if len(name) < MIN_LENGTH:
        return f"a name needs at least {MIN_LENGTH} letters"
    if len(name) > MAX_LENGTH:
        return f"a name has at most {MAX_LENGTH} characters"
    families: set[str] = set()
    marks = 0
    previous = ""
    for ch in name:
        category = unicodedata.category(ch)
        if category.startswith("M"):
            marks += 1
            if not previous or unicodedata.category(previous)[0] != "L" and not unicodedata.category(previous).startswith("M"):
                return "an accent must follow a letter"
            if marks > MAX_MARKS:
                return "too many accents on one letter"
            previous = ch
            continue
        marks = 0
        if ch in JOINERS:
            if not previous or previous in JOINERS and not (previous == "." and ch == " "):  # "St. Albans"
                return "spaces, hyphens, apostrophes and full stops only between letters"
        elif category in ("Lu", "Ll", "Lt", "Lo"):
            families.add(script_family(ch))
        elif category.startswith("N"):
            return "digits are not allowed in a name"
        elif category.startswith("C") or category in ("Zl", "Zp", "Zs"):
            return f"it holds a character that does not print (U+{ord(ch):04X})"
        else:
            return f"only letters, with spaces, hyphens and apostrophes between them ({ch!r} is not allowed)"
        previous = ch
    if previous in JOINERS:
        return "spaces, hyphens, apostrophes and full stops only between letters"
    if not families:
        return "a name needs letters"
    if len(families) > 1:
        return f"letters of one script only (it mixes {', '.join(sorted(families))})"
    return ""


_FAMILIES = {"CJK": "Han", "HIRAGANA": "Han", "KATAKANA": "Han", "HANGUL": "Han", "KATAKANA-HIRAGANA": "Han"}


def script_family(ch: str) -> str:
    """The script a letter belongs to, as its Unicode name says ("LATIN SMALL LETTER A": Latin);
    Chinese, Japanese and Korean writing, which mix scripts, are one family."""
    word = unicodedata.name(ch, "UNKNOWN").split()[0]
    return _FAMILIES.get(word, word.title())


def skeleton(text: str) -> str:
    """What a name looks like: decomposed, marks dropped, look-alikes replaced by the Latin
    letter they pass for, lower case, without spaces, hyphens, apostrophes or full stops."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.category(ch).startswith("M"))
    folded = bare.translate(_LOOKALIKE).casefold().translate(_LOOKALIKE)
    flat = "".join(ch for ch in folded if ch not in JOINERS and not ch.isspace())
    for pair, single in _PAIRS:
        flat = flat.replace(pair, single)
    return flat


def skeletons(text: str) -> set[str]:
    """The skeletons of a name as written and in lower case: "LatIum" (a capital I) passes for
    "Latlum" as written, for "Latium" in lower case."""
    return {skeleton(text), skeleton(text.lower())}


def taken_names(names: Iterable[str | None]) -> tuple[str, ...]:
    return tuple(sorted({n for n in names if n}))
