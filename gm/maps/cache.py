"""What gm keeps on disk between its processes, so that each new one (a cron tick, a mail piped
in) starts quickly: a map as read from its file, a board's base layers as drawn.

The folder is ``$GM_CACHE_DIR``, which a gm command that reads the configuration sets to
``HOME/cache`` unless it is set already (gm.cli.startup); else, for the tools that read none,
``$XDG_CACHE_HOME/gm``, else ``~/.cache/gm``. Every entry is named by what it
was made from (its source file's hash, the version of the code that made it), so a changed map
or renderer never meets an entry made before; old entries are only left behind, and the folder
may be deleted at any time. Where the folder cannot be written or an entry cannot be read, the
work is done again as if there were no cache, quietly: a cache never stops gm.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path


def cache_dir() -> Path:
    chosen = os.environ.get("GM_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gm"


def code_version(*files: str | None) -> str:
    """A short key for the code that makes an entry: the bytes of its modules' files (source or
    compiled) and the Python that runs them, so that an entry outlives no change of either."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    for file in files:
        if file:
            digest.update(Path(file).read_bytes())
    return digest.hexdigest()[:16]


def read(kind: str, name: str) -> bytes | None:
    """The entry ``name`` of ``kind``, or None when there is none (or it cannot be read)."""
    try:
        return (cache_dir() / kind / name).read_bytes()
    except OSError:
        return None


def write(kind: str, name: str, data: bytes, keep: int = 32) -> None:
    """Keeps ``data`` as the entry ``name`` of ``kind``: written whole under another name, then
    renamed, so that a process reading it meanwhile sees the whole entry or none. Of ``kind``'s
    entries, the ``keep`` newest are kept: those of maps and code replaced since go in time."""
    import tempfile  # only when an entry is written: a process that reads one never loads it

    folder = cache_dir() / kind
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".new-")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, folder / name)
        except BaseException:
            os.unlink(temporary)
            raise
        _prune(folder, keep)
    except OSError:
        return  # not writable (a read-only home, a full disk): the next process does the work again


def _prune(folder: Path, keep: int) -> None:
    entries = []
    for entry in folder.iterdir():
        try:
            entries.append((entry.stat().st_mtime, entry))
        except OSError:  # removed meanwhile by another process
            continue
    for _, entry in sorted(entries, reverse=True)[keep:]:
        entry.unlink(missing_ok=True)
