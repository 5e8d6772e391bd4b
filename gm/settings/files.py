"""The games folder's settings files: which of its files are read, and the digest that tells a
file read already from one changed since (kept with each game it made)."""

from __future__ import annotations

import hashlib
from pathlib import Path


def settings_files(directory: Path) -> list[Path]:
    """The settings files in ``directory``, by name (none when it is not a folder)."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
