"""The games' settings files as gm writes them (CREATE and SETTINGS by mail).

The file stays the one truth: what a GM changes by mail is written into it, and takes effect
in the same unit of work as an edited file would (gm.games.lifecycle.create_or_update). Every
writer in gm holds the directory's lock (``LOCK_NAME``, an flock; an operator's script that
writes settings files may take it too); an edit on the server (a text editor takes no lock) is
caught by reading the file again just before it is replaced: if it changed since it was read,
the mail's settings are laid on the file as it now stands, so neither loses the other's. A
file is written whole or not at all: a temporary file beside it, flushed to disk, renamed.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.lifecycle import GameError, create_game, create_or_update
from gm.games.mailer import TEMPLATES_DIR
from gm.settings import edit
from gm.settings.files import digest
from gm.settings.model import GameSettings
from gm.settings.reader import SettingsError, read_settings
from gm.store.models import Game
from gm.variants.setup import setup_of

LOCK_NAME = ".gm-settings.lock"
DEFAULTS = TEMPLATES_DIR / "settings" / "new_game.yaml"
ATTEMPTS = 3  # edits on the server between reading the file and replacing it, before giving up


class FileRefused(Exception):
    """The file was not written; the message (or ``problems``) says why, for the GM."""

    def __init__(self, message: str, problems: list[str] | None = None):
        self.problems = problems or []
        super().__init__(message)


@dataclass(frozen=True)
class Created:
    game: Game
    secret: str
    text: str  # the file as written
    path: Path


@dataclass(frozen=True)
class Changed:
    settings: GameSettings
    before: GameSettings
    path: Path


def new_game_text(services: Services, variant: str, gm: str) -> str:
    """A new game's file: every setting at its default, for ``variant`` and its game master."""
    seats = setup_of(services.catalog.get(variant)).player_counts()[1] if services.known_variant(variant) else 7
    return edit.new_game(DEFAULTS.read_text(encoding="utf-8"), variant, gm, seats)


def path_of(services: Services, game: Game) -> Path | None:
    """The game's settings file, when it is one of games_dir's (else gm writes none)."""
    if not game.settings_source:
        return None
    path = Path(game.settings_source)
    directory = services.config.games_dir
    try:
        inside = path.resolve().parent == directory.resolve()
    except OSError:
        return None
    return path if inside and path.suffix in (".yaml", ".yml") else None


def name_taken(services: Services, session: Session, name: str) -> str | None:
    """Why a new game may not be called ``name`` (a game or a file has it, in any case), or None."""
    if session.scalar(select(Game.id).where(func.lower(Game.name) == name.lower())) is not None:
        return f"there is a game {name} already"
    directory = services.config.games_dir
    if directory.is_dir():
        for path in directory.iterdir():
            if path.stem.lower() == name.lower() and path.suffix.lower() in (".yaml", ".yml"):
                return f"there is a settings file {path.name} already"
    return None


def create(services: Services, session: Session, name: str, variant: str, gm: str) -> Created:
    """``name``.yaml written with every default, and the game made from it, in this unit of work
    (the scheduler finds the file already read). A file of that name already there is refused,
    unless it is this very game's, written by a first try of this unit of work that did not commit."""
    directory = services.config.games_dir
    text = new_game_text(services, variant, gm)
    path = directory / f"{name}.yaml"
    with files_locked(services):
        again = path.is_file() and session.scalar(select(Game.id).where(Game.name == name)) is None \
            and _read(path) == text
        if not again:
            taken = name_taken(services, session, name)
            if taken:
                raise FileRefused(taken)
        try:
            (settings,) = read_settings(text, str(path), services.known_variant, services.rule_problems)
            game, secret = create_game(services, session, settings, text, str(path), mail_secret=False)
        except (SettingsError, GameError) as exc:
            raise FileRefused(str(exc)) from None
        if not again:
            _write_new(path, text)
        services.audit(session, game, gm, "created-by-mail", source=str(path), variant=variant)
    return Created(game, secret, text, path)


def current(services: Services, game: Game) -> tuple[str, str]:
    """The game's settings as its file holds them now, and a note when that is not what is in
    force (an edit on the server refused or not read yet, or no file)."""
    path = path_of(services, game)
    in_force = game.settings["yaml"]
    if path is None or not path.is_file():
        return (edit.game_part(in_force, game.name),
                "There is no settings file for it on the server; these are the settings in force.")
    text = _read(path)
    note = "" if digest(text) == game.settings_digest else (
        f"{path.name} on the server differs from the settings in force: an edit there was refused, or is not "
        "read yet. A change by mail is made to the file as shown.")
    return edit.game_part(text, game.name), note


def change(services: Services, session: Session, game: Game, mailed: edit.Mailed, by: str) -> Changed:
    """The mailed settings laid on the game's file, checked, in force and written back (see
    the module's words on edits on the server meanwhile)."""
    path = path_of(services, game)
    if path is None or not path.is_file():
        raise FileRefused("its settings are not in a file of this judge's games directory, so they cannot "
                          "be changed by mail; ask the operator")
    before = services.settings_of(game)
    with files_locked(services):
        for _ in range(ATTEMPTS):
            read = _read(path)
            try:
                changed = edit.change(read, path.name, game.name, mailed, lambda v: new_game_text(services, v, before.gm),
                                      services.known_variant, services.rule_problems)
            except edit.EditRefused as exc:
                raise FileRefused("nothing was changed", exc.problems) from None
            savepoint = session.begin_nested()
            try:
                create_or_update(services, session, changed.settings, changed.text, str(path), by=by)
            except GameError as exc:
                savepoint.rollback()
                raise FileRefused(str(exc)) from None
            if _read(path) != read:  # edited on the server meanwhile: laid on the file as it is now
                savepoint.rollback()
                continue
            try:
                _replace(path, changed.text)
            except FileRefused:
                savepoint.rollback()
                raise
            savepoint.commit()
            return Changed(changed.settings, before, path)
    raise FileRefused(f"{path.name} was being edited on the server at the same time, {ATTEMPTS} times over; "
                      "nothing was changed: send it again in a while")


# -- the files themselves ----------------------------------------------------------------------

@contextmanager
def files_locked(services: Services) -> Iterator[None]:
    """The games directory's lock, held by whoever in gm writes a settings file."""
    directory = services.config.games_dir
    directory.mkdir(parents=True, exist_ok=True)
    fd = os.open(directory / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o664)
    try:
        deadline = time.monotonic() + services.config.lock_timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise FileRefused("another process is writing a settings file; send it again in a while") from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # the lock goes with it


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _temporary(path: Path, text: str) -> Path:
    """``text`` in a hidden file beside ``path`` (not a settings file: no .yaml suffix), on disk."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    return temporary


def _write_new(path: Path, text: str) -> None:
    temporary = _temporary(path, text)
    try:
        os.link(temporary, path)  # never over a file that is there
    except FileExistsError:
        raise FileRefused(f"there is a settings file {path.name} already") from None
    except OSError as exc:
        raise FileRefused(f"the settings file could not be written ({exc.strerror}); tell the operator") from None
    finally:
        temporary.unlink(missing_ok=True)
    _sync_directory(path.parent)


def _replace(path: Path, text: str) -> None:
    temporary = path
    try:
        temporary = _temporary(path, text)
        os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except OSError as exc:
        if temporary != path:
            temporary.unlink(missing_ok=True)
        raise FileRefused(f"{path.name} could not be written ({exc.strerror}); nothing was changed: "
                          "tell the operator") from None
    _sync_directory(path.parent)


def _sync_directory(directory: Path) -> None:
    """The rename itself on disk."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
