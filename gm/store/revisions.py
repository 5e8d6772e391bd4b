"""Where the schema's migrations are, and the newest of them read without Alembic (a cron tick
and a piped mail ask it at every start)."""

from __future__ import annotations

import re
from pathlib import Path

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
_REVISION = re.compile(r"^(down_revision|revision)\s*=\s*['\"]?([^'\"\s]*)['\"]?\s*$", re.MULTILINE)


def newest_revision() -> str | None:
    """The newest migration, read from the files as Alembic writes them (one line each for
    ``revision`` and ``down_revision``); None when they read otherwise (Alembic then decides)."""
    revisions, parents = set(), set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        found = dict(_REVISION.findall(path.read_text(encoding="utf-8")))
        if "revision" not in found or "down_revision" not in found:
            return None
        revisions.add(found["revision"])
        parents.add(found["down_revision"])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None
