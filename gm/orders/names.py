"""Indexes of the names the grammar recognises, matched greedily over tokens, with suggestions.

A ``PhraseIndex`` maps normalised phrases ("north atlantic ocean", "stp", "nc") to values and
finds the longest phrase starting at a token. Names may run across a tight hyphen
("Mid-Atlantic") but across no other punctuation. ``ProvinceNames`` adds near-miss suggestions
(difflib over every normalised id, name and alias) and reports the full province name.
"""

from __future__ import annotations

import difflib
import heapq
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Generic, TypeVar

from gm.domain.geography import Terrain
from gm.maps.model import GameMap, normalise_name
from gm.orders.tokens import WORD, Token

T = TypeVar("T")


class PhraseIndex(Generic[T]):
    def __init__(self, entries: Mapping[str, T]):
        self.entries: dict[str, T] = dict(entries)
        self.max_words = max((len(k.split()) for k in self.entries), default=0)

    def __contains__(self, phrase: str) -> bool:
        return phrase in self.entries

    def get(self, phrase: str) -> T | None:
        return self.entries.get(phrase)

    def match(self, tokens: Sequence[Token], i: int) -> tuple[T, int] | None:
        """The value of the longest phrase starting at token ``i``, and the index after it."""
        n = len(tokens)
        if i >= n or tokens[i].kind != WORD or not self.max_words:
            return None
        entries = self.entries
        first = tokens[i].norm
        if self.max_words == 1 or i + 1 >= n:
            value = entries.get(first)
            return None if value is None else (value, i + 1)
        parts, ends = word_run(tokens, i, self.max_words)
        for k in range(len(parts), 0, -1):
            value = entries.get(" ".join(parts[:k]))
            if value is not None:
                return value, ends[k - 1]
        return None


def word_run(tokens: Sequence[Token], i: int, limit: int) -> tuple[list[str], list[int]]:
    """Up to ``limit`` consecutive words from ``i`` (across tight hyphens): norms and ends."""
    parts: list[str] = []
    ends: list[int] = []
    j, n = i, len(tokens)
    while j < n and len(parts) < limit and tokens[j].kind == WORD:
        parts.append(tokens[j].norm)
        j += 1
        ends.append(j)
        if j < n and tokens[j].tight:
            j += 1
    return parts, ends


def compact(phrase: str) -> str:
    return phrase.replace(" ", "")


# The words that say what kind of water a name is, and the ones around them: players write sea
# names with and without them, in either order ("Tyrrhenian Sea", "the Tyrrhenian", "Gulf of Lyon",
# "Lyon"), so each sea name is also known by its other forms.
SEA_WORDS = ("sea", "ocean", "gulf", "bay", "mare", "sinus", "oceanus")
LINK_WORDS = ("the", "of")
SUGGESTION_CUTOFF = 0.7  # below it, nothing is close enough to suggest
KIND_MARGIN = 0.1  # a name of the kind written (land, sea) is preferred unless another is this much closer


def generic_spellings(name: str, sea: bool) -> set[str]:
    """Other ways players write ``name`` (normalised): its distinctive words alone, with "the",
    and, for a sea, with each word for a kind of water before or after them ("Sea of X", "X Sea")."""
    words = normalise_name(name).split()
    core = [w for w in words if w not in SEA_WORDS and w not in LINK_WORDS]
    if not core:
        return set()
    stem = " ".join(core)
    forms = {stem, f"the {stem}"}
    if sea:
        for kind in SEA_WORDS:
            forms |= {f"{stem} {kind}", f"{kind} {stem}", f"{kind} of {stem}", f"the {stem} {kind}",
                      f"the {kind} of {stem}"}
    return forms - {normalise_name(name)}


class ProvinceNames(PhraseIndex[str]):
    """Province ids, full names and aliases, their forms with and without the generic words
    (``generic_spellings``: only those that name one province), and their forms without spaces
    -> province id."""

    def __init__(self, game_map: GameMap):
        entries: dict[str, str] = {}
        # Ids first, then names, then aliases: if two normalise alike, the earlier one wins.
        for province in game_map.provinces.values():
            entries.setdefault(normalise_name(province.id), province.id)
        for province in game_map.provinces.values():
            entries.setdefault(normalise_name(province.name), province.id)
        for province in game_map.provinces.values():
            for alias in province.aliases:
                entries.setdefault(normalise_name(alias), province.id)
        self.generated = self._generated(game_map, entries)
        entries.update(self.generated)
        for phrase, pid in list(entries.items()):
            entries.setdefault(compact(phrase), pid)  # "NorthSea", "StPetersburg"
        entries.pop("", None)
        super().__init__(entries)
        self.full_names = {pid: p.name for pid, p in game_map.provinces.items()}
        # Suggestions come from the spellings the map writes (and their forms without spaces), not
        # from the generated ones: those only widen what is read exactly.
        seas = {pid for pid, p in game_map.provinces.items() if p.terrain is Terrain.SEA}
        generated = set(self.generated) | {compact(s) for s in self.generated}
        written = {k: pid for k, pid in self.entries.items() if k not in generated}
        self._fuzzy_sea = FuzzyMatcher(k for k, pid in written.items() if pid in seas)
        self._fuzzy_land = FuzzyMatcher(k for k, pid in written.items() if pid not in seas)
        self._suggestions: dict[str, tuple[str, str, float] | None] = {}

    @staticmethod
    def _generated(game_map: GameMap, known: Mapping[str, str]) -> dict[str, str]:
        """The generic spellings that name exactly one province and no known spelling names."""
        claims: dict[str, set[str]] = {}
        for province in game_map.provinces.values():
            sea = province.terrain is Terrain.SEA
            for name in (province.name, *province.aliases):
                for spelling in generic_spellings(name, sea):
                    claims.setdefault(spelling, set()).add(province.id)
        return {s: next(iter(pids)) for s, pids in claims.items() if len(pids) == 1 and s not in known}

    def closest(self, phrase: str) -> tuple[str, float] | None:
        """The full name nearest to a normalised phrase, with the similarity ratio (0..1)."""
        found = self.closest_entry(phrase)
        return None if found is None else (found[1], found[2])

    def closest_entry(self, phrase: str) -> tuple[str, str, float] | None:
        """(nearest spelling, its province's full name, similarity ratio): a sea for a phrase
        with a word for water in it, land otherwise, unless a name of the other kind is much
        closer; None when nothing is close."""
        if phrase in self._suggestions:
            return self._suggestions[phrase]
        result: tuple[str, str, float] | None = None
        for spelling in (phrase, compact(phrase)):
            if spelling in self.entries:
                result = (spelling, self.full_names[self.entries[spelling]], 1.0)
                break
        else:
            wants_sea = any(word in SEA_WORDS for word in phrase.split())
            first, other = (self._fuzzy_sea, self._fuzzy_land) if wants_sea else (self._fuzzy_land, self._fuzzy_sea)
            found = first.best(phrase, SUGGESTION_CUTOFF)
            # The other kind only counts if it is much closer: asked for no less than that.
            rival = other.best(phrase, SUGGESTION_CUTOFF if found is None else min(1.0, found[1] + KIND_MARGIN))
            if rival is not None and (found is None or rival[1] > found[1] + KIND_MARGIN):
                found = rival
            if found:
                result = (found[0], self.full_names[self.entries[found[0]]], found[1])
        if len(self._suggestions) < 4096:
            self._suggestions[phrase] = result
        return result

    def suggestion(self, text: str) -> str | None:
        found = self.closest(normalise_name(text))
        return found[0] if found else None


class FuzzyMatcher:
    """Nearest spelling by difflib's ratio, fast enough for every failed line.

    Comparing a word with every spelling of the map costs about 0.3 ms; instead the spellings
    sharing the most letter pairs with the word are found through an index of letter pairs
    (" b", "bu", "ur", ..., "y "), and only those are compared.
    """

    def __init__(self, spellings: Iterable[str], shortlist: int = 16):
        self.spellings = sorted(spellings)
        self.shortlist = shortlist
        self.index: dict[str, list[int]] = {}
        for n, spelling in enumerate(self.spellings):
            for pair in _pairs(spelling):
                self.index.setdefault(pair, []).append(n)

    def best(self, word: str, cutoff: float) -> tuple[str, float] | None:
        """The spelling with the highest ratio (at least ``cutoff``); on a tie the first, in order,
        of those that begin with the word's first letter, else the first in order. A spelling whose upper bound of the ratio (difflib's quick ratios) cannot beat the
        best found so far is not compared in full: the answer is the same, sooner."""
        counts: Counter[int] = Counter()
        index = self.index
        for pair in _pairs(word):
            found = index.get(pair)
            if found:
                counts.update(found)
        # Most letter pairs shared first, then in order of spelling.
        shortlist = heapq.nsmallest(self.shortlist, [(-count, n) for n, count in counts.items()])

        def rank(spelling: str) -> tuple[bool, str]:  # on a tie: one with the word's first letter, then in order
            return (spelling[:1] != word[:1], spelling)

        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(word)
        best: tuple[str, float] | None = None
        floor = cutoff
        size = len(word)
        for _count, n in shortlist:
            spelling = self.spellings[n]
            total = len(spelling) + size  # matcher.real_quick_ratio(), without the call
            bound = 2.0 * min(len(spelling), size) / total if total else 1.0
            if bound < floor or (best is not None and bound == floor and rank(spelling) > rank(best[0])):
                continue
            matcher.set_seq1(spelling)
            bound = matcher.quick_ratio()
            if bound < floor or (best is not None and bound == floor and rank(spelling) > rank(best[0])):
                continue
            ratio = matcher.ratio()
            if ratio >= cutoff and (best is None or ratio > best[1]
                                    or (ratio == best[1] and rank(spelling) < rank(best[0]))):
                best = (spelling, ratio)
                floor = ratio
        return best


def _pairs(word: str) -> list[str]:
    padded = f" {word} "
    return list(dict.fromkeys(padded[k : k + 2] for k in range(len(padded) - 1)))


def closest_word(word: str, candidates: Iterable[str], cutoff: float = 0.7) -> tuple[str, float] | None:
    words = [c for c in candidates if len(c) >= 3]
    matches = difflib.get_close_matches(word, words, n=1, cutoff=cutoff)
    if not matches:
        return None
    return matches[0], difflib.SequenceMatcher(None, word, matches[0]).ratio()


def coast_spellings(coast_names: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """(every spelling -> coast id, spellings safe to read without "/" or brackets).

    For NC "north coast": nc, north coast, northcoast, north, n c (from "n.c."), n. A spelling
    shared by two coasts is dropped. Single letters are only read after "/" or inside brackets
    ("spa/n"), never bare, so "F SPA S ..." stays a support.
    """
    candidates: dict[str, set[str]] = {}

    def add(spelling: str, coast: str) -> None:
        spelling = normalise_name(spelling)
        if spelling:
            candidates.setdefault(spelling, set()).add(coast)

    for coast, name in coast_names.items():
        add(coast, coast)
        add(name, coast)
        words = normalise_name(name).split()
        if words:
            add(compact(" ".join(words)), coast)
            if len(words) > 1 and words[-1] == "coast":
                add(" ".join(words[:-1]), coast)  # "north"
            initials = [w[0] for w in words]
            add(" ".join(initials), coast)  # "n c"
            add(initials[0], coast)  # "n"
    spellings = {s: next(iter(c)) for s, c in candidates.items() if len(c) == 1}
    bare = {s: c for s, c in spellings.items() if len(compact(s)) >= 2}
    return spellings, bare


def power_words(game_map: GameMap) -> dict[str, str]:
    """Power names, adjectives and aliases, also possessive ("England's") -> power name."""
    entries: dict[str, str] = {}
    for power in game_map.powers.values():
        for word in (power.name, power.adjective, *power.aliases):
            phrase = normalise_name(word)
            if not phrase:
                continue
            for form in (phrase, f"{phrase} s", f"{phrase}s"):
                entries.setdefault(form, power.name)
    return entries
