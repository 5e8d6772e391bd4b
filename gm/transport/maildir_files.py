"""Which files of a Maildir are mail not yet done, told by their names alone (no event loop, no
email package: a cron tick looks here before it loads anything else)."""

from __future__ import annotations

import os
from pathlib import Path

INFO_SEPARATOR = ":"  # name:2,FLAGS (mailbox.Maildir.colon)


def split_name(name: str) -> tuple[str, str]:
    """``unique:2,FLAGS`` -> (unique, FLAGS)."""
    unique, separator, info = name.partition(INFO_SEPARATOR)
    flags = info[2:] if separator and info.startswith("2,") else ""
    return unique, flags


def waiting(path: Path) -> list[Path]:
    """The files not yet done, oldest first: every one in new/, and those in cur/ without the S
    (seen) flag. A folder not there holds none."""
    found: list[tuple[float, str, Path]] = []
    for sub in ("new", "cur"):
        try:
            entries = list(os.scandir(path / sub))
        except FileNotFoundError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or not entry.is_file():
                continue
            unique, flags = split_name(entry.name)
            if sub == "cur" and "S" in flags:
                continue
            try:
                mtime = entry.stat().st_mtime
            except FileNotFoundError:
                continue
            found.append((mtime, unique, Path(entry.path)))
    found.sort()
    return [path for _, _, path in found]
