"""gm, a play-by-email game master for Diplomacy and its Roman-era variants.

The adjudicator's hot modules are compiled with mypyc when gm is installed (setup.py). They
are plain Python all the same, and run as such when ``GM_PURE_PYTHON=1`` is set or, with a
warning, when a source file changed after it was compiled (until ``scripts/setup`` compiles
it again): the finder below sends those imports to the ``.py`` file instead of the extension.
"""

from __future__ import annotations

import os
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import spec_from_file_location
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

_BUILD_SLACK = 2.0  # seconds: an installer may write a module's .py just after its extension


class _SourcesFirst:
    """A meta path finder (importlib.abc.MetaPathFinder, not imported: `gm` starts quickly)."""

    def __init__(self, sources: dict[str, Path]):
        self.sources = sources

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        return spec_from_file_location(fullname, source) if source is not None else None


def _sources_to_run(package: Path, name: str, pure: bool) -> dict[str, Path]:
    """The compiled modules under ``package`` that must run from their source instead: all of
    them when one is stale, since compiled modules expect each other's compiled classes."""
    compiled_sources: dict[str, Path] = {}
    stale = []
    for compiled in package.rglob("*"):
        suffix = next((s for s in EXTENSION_SUFFIXES if compiled.name.endswith(s)), None)
        if suffix is None:
            continue
        source = compiled.with_name(compiled.name[: -len(suffix)] + ".py")
        if source.exists():  # not the extensions' shared runtime
            module = ".".join((name, *source.relative_to(package).with_suffix("").parts))
            compiled_sources[module] = source
            if source.stat().st_mtime > compiled.stat().st_mtime + _BUILD_SLACK:
                stale.append(source)
    if stale and not pure:
        warnings.warn(f"{', '.join(map(str, stale))} changed after being compiled: running the compiled modules "
                      f"as Python (scripts/setup compiles them again)", stacklevel=2)
    return compiled_sources if stale or pure else {}


_stale_or_pure = _sources_to_run(Path(__file__).parent, __name__, os.environ.get("GM_PURE_PYTHON") == "1")
if _stale_or_pure:
    sys.meta_path.insert(0, _SourcesFirst(_stale_or_pure))
