"""scripts/setup: --production installs gm and what it runs on (PostgreSQL's driver included),
no test tools and no browser; without it, the test tools and Chromium. Every apt-get waits for
another apt that holds the lock instead of failing. scripts/demo sets up for production. Run
with stand-ins for apt-get and the venv's python on $PATH, recording what they were asked."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT_USER = os.geteuid() == 0
ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("bash", "grep", "find", "tr", "head", "cat", "dirname", "basename", "env", "touch", "echo", "id")

STUB = """#!/bin/bash
echo "$(basename "$0") $*" >> "{calls}"
case " $* " in *" -o DPkg::Lock::Timeout="*) ;; *) [ "$(basename "$0")" = apt-get ] && {{ echo "E: Could not get lock /var/lib/dpkg/lock-frontend" >&2; exit 100; }} ;; esac
exit 0
"""


def _checkout(tmp_path: Path) -> tuple[Path, Path, Path]:
    checkout = tmp_path / "gm"
    (checkout / "scripts").mkdir(parents=True)
    for name in ("setup", "demo"):
        shutil.copy(ROOT / "scripts" / name, checkout / "scripts" / name)
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy(ROOT / name, checkout / name)
    for module in re.findall(r'"(gm/[^"]*\.py)"', (ROOT / "setup.py").read_text()):
        (checkout / module).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / module, checkout / module)
    calls = tmp_path / "calls"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    for stub in ("apt-get",):
        (bin_dir / stub).write_text(STUB.format(calls=calls))
        (bin_dir / stub).chmod(0o755)
    venv = checkout / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text(STUB.format(calls=calls))  # pip's installs, recorded
    (venv / "python").chmod(0o755)
    (venv / "gm").write_text(STUB.format(calls=calls))
    (venv / "gm").chmod(0o755)
    return checkout, bin_dir, calls


def _run(checkout: Path, bin_dir: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), cwd=checkout, capture_output=True, text=True, timeout=120,
                          env={"PATH": str(bin_dir), "HOME": os.environ.get("HOME", "/root"), "PYTHON": "python3"})


def _calls(calls: Path) -> list[str]:
    lines = calls.read_text().splitlines() if calls.exists() else []
    calls.unlink(missing_ok=True)
    return lines


def test_production_installs_no_test_tools_and_no_browser_and_apt_waits_for_its_lock(tmp_path: Path) -> None:
    checkout, bin_dir, calls = _checkout(tmp_path)
    done = _run(checkout, bin_dir, "scripts/setup", "--production")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    made = _calls(calls)
    apt = [line for line in made if line.startswith("apt-get ")]
    assert all("-o DPkg::Lock::Timeout=300" in line for line in apt), apt
    assert bool(apt) == ROOT_USER, apt  # Debian's packages only as root (here: the C compiler is not on $PATH)
    assert not any("chromium" in line for line in made), made
    pip = [line for line in made if " -m pip install " in line and " -e " in line]
    assert pip == ["python -m pip install --disable-pip-version-check -e .[postgres]"], made
    assert (checkout / ".venv" / ".gm-installed").read_text().strip() == "production"

    assert _run(checkout, bin_dir, "scripts/setup", "--production").returncode == 0
    assert not [line for line in _calls(calls) if " pip install " in line]  # nothing changed: nothing done

    done = _run(checkout, bin_dir, "scripts/setup")  # for tests: the test tools added, and the browser
    assert done.returncode == 0, done.stderr
    made = _calls(calls)
    assert any(line.startswith("apt-get -o DPkg::Lock::Timeout=300 install") and "chromium chromium-driver" in line
               for line in made) == ROOT_USER, made
    assert [line for line in made if " -e " in line] == ["python -m pip install --disable-pip-version-check -e .[test]"]
    assert (checkout / ".venv" / ".gm-installed").read_text().strip() == "test"

    assert _run(checkout, bin_dir, "scripts/setup", "--production").returncode == 0
    assert not [line for line in _calls(calls) if " pip install " in line]  # the test tools are kept

    assert _run(checkout, bin_dir, "scripts/setup", "--frobnicate").returncode == 2


def test_the_demo_sets_up_for_production_and_says_nothing_of_browsers_or_tests(tmp_path: Path) -> None:
    checkout, bin_dir, calls = _checkout(tmp_path)
    done = _run(checkout, bin_dir, "scripts/demo", "--years", "1")
    assert done.returncode == 0, done.stderr
    made = _calls(calls)
    assert not any("chromium" in line or "[test]" in line for line in made), made
    assert made[-1] == "gm demo --years 1"
    said = (done.stdout + done.stderr).lower()
    assert "browser" not in said and "chromium" not in said and "test" not in said, said
