"""A game's settings file written by gm: a new game's, and a GM's change by mail.

A change (SETTINGS ... ENDSETTINGS) gives top-level settings that replace those of the file;
the others stay as they are. It is checked as an edited file is (gm.settings.reader), each
problem named by its line in the mail, or in the file for a setting the mail did not give;
then written back with ruamel.yaml's round trip, so the file keeps its comments, its order and
its layout: only the values given change. A setting given with nothing after it (``grace:``)
takes its default, as a new game has it.
"""

from __future__ import annotations

import dataclasses
import io
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from gm.settings.model import GameSettings
from gm.settings.reader import RuleCheck, SettingsError, read_game, read_settings
from gm.yamlfile import LineDict, YamlProblem, load_strict

# The file's lines are numbered past any mail's while both are checked together, so that a
# problem tells whose line it is.
_FILE_LINES = 1_000_000
# Indentations tried when writing a file back, the one that writes the file as it was kept:
# (a mapping's, a list item's, the dash's before it), gm's own first.
_STYLES = tuple(dict.fromkeys(((2, 4, 2), *(
    (mapping, max(dash + 2, sequence), dash)
    for mapping in (2, 4, 3) for dash in (0, 2, 4, 1, 3) for sequence in (dash + 2, mapping)))))
# A line that opens settings: a setting's name and a colon, or a comment.
_OPENS = re.compile(r"^\s*(#|[A-Za-z_][\w-]*\s*:(\s|$))")
FIXED = {"name": "a game's name stays as it was created (it names the game in every command and its file)"}


class EditRefused(Exception):
    """The change was not made; ``problems`` say why, each with its line."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class Mailed:
    """The settings a mail gives, as written: ``text`` holds them on the mail's own line numbers
    (checked there), ``plain`` as written, without the lines around them (written from there)."""

    text: str
    plain: str
    keys: tuple[str, ...]
    lines: Mapping[str, int]  # each key's line in the mail

    def value(self, key: str) -> Any:
        """A setting's value as given (None when not given)."""
        raw = load_strict(self.text)
        return raw.get(key) if isinstance(raw, Mapping) else None


@dataclass(frozen=True)
class Changed:
    text: str  # the file as it is to be written
    settings: GameSettings  # the game's, read from it


def opens_settings(line: str) -> bool:
    """Whether a mail's line after SETTINGS starts settings (so SETTINGS takes the lines after it)."""
    return bool(_OPENS.match(line))


def mailed(lines: list[str], numbers: list[int]) -> Mailed:
    """The settings of a SETTINGS body: ``lines`` as written, ``numbers`` their lines in the mail.
    Lines indented alike are taken as written at the margin."""
    plain = textwrap.dedent("\n".join(lines)) + "\n"
    body = plain.split("\n")
    placed = [""] * (max(numbers, default=0))
    for number, line in zip(numbers, body):
        placed[number - 1] = line
    text = "\n".join(placed) + "\n"
    try:
        raw = load_strict(text)
    except YamlProblem as exc:
        raise EditRefused([_at(exc.line, exc.message)]) from None
    if raw is None:
        return Mailed(text, plain, (), {})
    if not isinstance(raw, LineDict):
        raise EditRefused([_at(numbers[0] if numbers else None,
                               "write settings as they stand in the file, one 'setting: value' a line")])
    problems = [_at(raw.lines[key], f"{key!r} is not a setting's name (a word, then a colon)")
                for key in raw if not isinstance(key, str)]
    if problems:
        raise EditRefused(problems)
    return Mailed(text, plain, tuple(raw), {key: raw.lines[key] for key in raw})


def game_part(file_text: str, game: str) -> str:
    """What of a settings file is one game's: the whole file, or its entry in a file of several."""
    yaml = _yaml()
    doc = yaml.load(file_text)
    if isinstance(doc, CommentedMap) and "games" in doc and isinstance(doc["games"], CommentedSeq):
        for entry in doc["games"]:
            if isinstance(entry, CommentedMap) and str(entry.get("name")) == game:
                return _dump(entry, _STYLES[0])
    return file_text


def new_game(defaults_text: str, variant: str, gm: str, seats: int) -> str:
    """A new game's file: every setting at its default (``defaults_text``, with its comments),
    for ``variant``, whose game master is ``gm``."""
    yaml = _yaml()
    doc = yaml.load(defaults_text)
    doc["variant"], doc["gm"], doc["seats"] = variant, gm, seats
    return _dump(doc, _style_of(doc, defaults_text))


def change(file_text: str, file_name: str, game: str, mail: Mailed, defaults: Callable[[str], str],
           known_variants: Callable[[str], bool], check_rules: RuleCheck | None = None) -> Changed:
    """The file with the mailed settings in place of its own, checked as an edited file is;
    ``defaults(variant)``: a new game's file of that variant (a setting given empty takes its
    value there). Raise EditRefused with every problem, by its line in the mail or the file."""
    try:
        raw_file = load_strict(file_text)
    except YamlProblem as exc:
        raise EditRefused([_in_file(file_name, exc.line, exc.message)]) from None
    own, default_name = _entry(raw_file, game)
    if own is None:
        raise EditRefused([f"{file_name} no longer holds the game {game}"])
    raw_mail = load_strict(mail.text) or LineDict()
    fixed = [_at(mail.lines[key], f"{key!r}: {why}") for key, why in FIXED.items()
             if key in raw_mail and str(raw_mail[key]) != game]
    if fixed:
        raise EditRefused(fixed)
    mail = dataclasses.replace(mail, keys=tuple(k for k in mail.keys if k not in FIXED))  # the same: as not given
    variant = str(raw_mail.get("variant") or own.get("variant") or "")
    raw_defaults = load_strict(defaults(variant if known_variants(variant) else str(own.get("variant"))))
    merged = _relined(own, lambda line: line + _FILE_LINES)
    for key in mail.keys:
        value = raw_mail[key]
        line = mail.lines[key]
        if value is None and key in raw_defaults:
            value = _relined(raw_defaults[key], lambda _, line=line: line)
        merged[key] = value
        merged.lines[key] = line
    try:
        settings = read_game(merged, file_name, default_name, known_variants, check_rules)
    except SettingsError as exc:
        raise EditRefused([_whose(file_name, p.line, p.message) for p in exc.problems]) from None
    text = _written(file_text, file_name, game, mail, defaults(settings.variant))
    try:
        again = next(g for g in read_settings(text, file_name, known_variants, check_rules) if g.name == game)
    except (SettingsError, StopIteration) as exc:
        raise EditRefused([f"the file could not be written back as changed ({exc}); nothing was changed: "
                           "tell the operator"]) from None
    if again != settings:
        raise EditRefused(["the file could not be written back as changed (it would read differently); "
                           "nothing was changed: tell the operator"])
    return Changed(text, settings)


# -- writing ---------------------------------------------------------------------------------

def _written(file_text: str, file_name: str, game: str, mail: Mailed, defaults_text: str) -> str:
    yaml = _yaml()
    try:
        doc = yaml.load(file_text)
        given = yaml.load(mail.plain) or CommentedMap()
    except YAMLError as exc:
        raise EditRefused([f"{file_name} cannot be changed by mail ({exc}); ask the operator"]) from None
    defaults = yaml.load(defaults_text)
    target = doc
    if isinstance(doc, CommentedMap) and "games" in doc:
        target = next(e for e in doc["games"] if isinstance(e, CommentedMap) and str(e.get("name")) == game)
    for key in mail.keys:
        value = given[key]
        if value is None and key in defaults:
            value = defaults[key]
        if key in target:
            _match_style(target[key], value)
            target[key] = value
        else:
            target[key] = value
            if key in given.ca.items:  # a new setting comes with the comment the mail gave it
                target.ca.items[key] = given.ca.items[key]
    return _dump(doc, _style_of(yaml.load(file_text), file_text))


def _match_style(old: Any, new: Any) -> None:
    """A list or mapping written as the file wrote the one it replaces (on one line, or a line
    each), so the comments after it stay where they were."""
    if isinstance(old, (CommentedMap, CommentedSeq)) and isinstance(new, (CommentedMap, CommentedSeq)):
        if old.fa.flow_style():
            new.fa.set_flow_style()
        elif old.fa.flow_style() is False:  # None: an empty one, as [] whatever its style
            new.fa.set_block_style()


def _yaml(style: tuple[int, int, int] = _STYLES[0]) -> YAML:
    yaml = YAML()  # the round trip: comments, order, quotes and flow style kept
    yaml.preserve_quotes = True
    yaml.width = 4096  # never folds a line the GM wrote long
    mapping, sequence, offset = style
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    return yaml


def _dump(doc: Any, style: tuple[int, int, int]) -> str:
    out = io.StringIO()
    _yaml(style).dump(doc, out)
    return out.getvalue()


def _style_of(doc: Any, text: str) -> tuple[int, int, int]:
    """The indentation that writes ``doc`` as ``text`` was written, or else the nearest."""
    best, fewest = _STYLES[0], None
    lines = text.splitlines()
    for style in _STYLES:
        written = _dump(doc, style)
        if written == text:
            return style
        differ = sum(a != b for a, b in zip(lines, written.splitlines())) + abs(len(lines) - len(written.splitlines()))
        if fewest is None or differ < fewest:
            best, fewest = style, differ
    return best


# -- reading ---------------------------------------------------------------------------------

def _entry(raw: Any, game: str) -> tuple[LineDict | None, str | None]:
    """The game's own mapping in a file, and the name a file of one game gives it by default."""
    if isinstance(raw, Mapping) and "games" in raw:
        for entry in raw["games"] if isinstance(raw["games"], list) else []:
            if isinstance(entry, LineDict) and str(entry.get("name")) == game:
                return entry, None
        return None, None
    return (raw, game) if isinstance(raw, LineDict) else (None, None)


def _relined(value: Any, line: Callable[[int], int]) -> Any:
    """``value`` with the line of every key in it moved by ``line``."""
    if isinstance(value, LineDict):
        copy = LineDict((k, _relined(v, line)) for k, v in value.items())
        copy.lines = {k: line(n) for k, n in value.lines.items()}
        return copy
    if isinstance(value, list):
        return [_relined(v, line) for v in value]
    return value


def _at(line: int | None, message: str) -> str:
    return f"line {line}: {message}" if line else message


def _in_file(file_name: str, line: int | None, message: str) -> str:
    return f"{file_name}, line {line}: {message}" if line else f"{file_name}: {message}"


def _whose(file_name: str, line: int | None, message: str) -> str:
    if line is not None and line >= _FILE_LINES:
        return _in_file(file_name, line - _FILE_LINES, message)
    return _at(line, message)
