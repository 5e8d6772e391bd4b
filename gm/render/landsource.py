"""Where the shape generator finds Natural Earth's land polygons.

The source is npm's ``world-atlas`` package (Natural Earth 4.1.0, public domain, as TopoJSON).
It is not kept in the repository: ``gm maps shapes`` fetches it once with ``npm pack`` into a
cache folder, or takes a file given with ``--land``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "world-atlas@2.0.2"
DEFAULT_FILE = "land-50m.json"
SOURCE_NOTE = (
    "Coastlines: Natural Earth 1:50m land polygons (public domain), from npm's world-atlas 2.0.2."
)


class LandSourceError(RuntimeError):
    pass


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gm" / "world-atlas-2.0.2"


def land_file(given: Path | str | None = None, name: str = DEFAULT_FILE) -> Path:
    """The TopoJSON land file: the one given, or the cached copy, fetched if missing."""
    if given:
        path = Path(given)
        if not path.is_file():
            raise LandSourceError(f"{path}: no such file")
        return path
    path = cache_dir() / "package" / name
    if path.is_file():
        return path
    npm = shutil.which("npm")
    if npm is None:
        raise LandSourceError(
            "npm is not installed: install it, or give a world-atlas land file with --land"
        )
    target = cache_dir()
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [npm, "pack", PACKAGE, "--pack-destination", tmp],
            capture_output=True, text=True, check=False,
        )
        tarballs = list(Path(tmp).glob("*.tgz"))
        if done.returncode != 0 or not tarballs:
            raise LandSourceError(f"npm pack {PACKAGE} failed: {done.stderr.strip()[-500:]}")
        with tarfile.open(tarballs[0]) as archive:
            archive.extractall(target, filter="data")
    if not path.is_file():
        raise LandSourceError(f"{PACKAGE} has no {name}")
    return path
