"""The adjudicator is compiled by mypyc (setup.py) and is plain Python too: the same engine.

CI runs the suite on the compiled build; here it checks that the build really is compiled,
that the pure-Python modules pass the DATC and the engine properties on their own, and
that a source edited after compiling runs as Python instead of the stale extension.
"""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from gm import _sources_to_run

ROOT = Path(__file__).resolve().parents[1]


def compiled_modules() -> list[str]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    paths = next(ast.literal_eval(node.value) for node in tree.body
                 if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED")
    return [path.removesuffix(".py").replace("/", ".") for path in paths]


@pytest.mark.parametrize("name", compiled_modules())
def test_the_hot_modules_run_compiled(name: str) -> None:
    module = importlib.import_module(name)
    if os.environ.get("GM_PURE_PYTHON") == "1":
        assert module.__file__ is not None and module.__file__.endswith(".py")
    else:
        assert module.__file__ is not None and not module.__file__.endswith(".py"), (
            f"{name} is not compiled: scripts/setup compiles it with mypyc when a C compiler and "
            f"Python's headers are installed (see .venv/setup.log), or set GM_PURE_PYTHON=1"
        )


@pytest.mark.slow
def test_the_pure_python_adjudicator_passes_the_datc_the_mechanisms_and_the_properties() -> None:
    env = dict(os.environ, GM_PURE_PYTHON="1")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_datc.py",
         "tests/test_engine_properties.py", "tests/test_interchange.py", "tests/test_legality_cache.py",
         "tests/engine", "tests/test_compiled.py",
         "-k", "not pure_python"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert " passed" in run.stdout


def _touch(path: Path, when: float) -> None:
    path.write_text("")
    os.utime(path, (when, when))


def test_a_source_newer_than_its_extension_runs_as_python(tmp_path: Path) -> None:
    suffix = EXTENSION_SUFFIXES[0]
    (tmp_path / "sub").mkdir()
    _touch(tmp_path / f"fresh{suffix}", 1_000_000)
    _touch(tmp_path / "fresh.py", 999_000)
    _touch(tmp_path / "sub" / f"edited{suffix}", 1_000_000)
    _touch(tmp_path / "sub" / "edited.py", 1_000_100)
    _touch(tmp_path / f"native__mypyc{suffix}", 1_000_000)  # the shared runtime has no source
    with pytest.warns(UserWarning, match="edited.py changed after being compiled"):
        chosen = _sources_to_run(tmp_path, "pkg", pure=False)
    # all of them: a compiled module expects the others' compiled classes, not the source's
    assert chosen == {"pkg.sub.edited": tmp_path / "sub" / "edited.py", "pkg.fresh": tmp_path / "fresh.py"}
    assert set(_sources_to_run(tmp_path, "pkg", pure=True)) == {"pkg.sub.edited", "pkg.fresh"}
    _touch(tmp_path / "sub" / "edited.py", 999_000)
    assert _sources_to_run(tmp_path, "pkg", pure=False) == {}
