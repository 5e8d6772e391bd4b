"""What the bench tests share: running one of bench/'s scripts as a person would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bench(script: str, *args: str, timeout: float = 600) -> str:
    """What ``bench/script args`` printed, once it ran to its end and exited 0."""
    done = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout
