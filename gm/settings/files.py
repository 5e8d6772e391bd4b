"""The games folder's settings files: which of its files are read, and the digest that tells a
file read already from one changed since (kept with each game it made)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path


def settings_files(directory: Path) -> list[Path]:
    """The settings files in ``directory``, by name (none when it is not a folder)."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def not_read_yet(files: Mapping[str, str], made: Mapping[str, set[str]]) -> list[str]:
    """Of ``files`` (a file's path as the games keep it -> the digest of its text), those to read:
    no game was made from the file, or not every game made from it carries its digest (``made``:
    the digests the games of each file carry)."""
    return [path for path, text_digest in files.items() if made.get(path) != {text_digest}]
