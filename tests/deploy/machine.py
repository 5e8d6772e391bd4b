"""A Debian machine as far as a test can have one: deploy/README.md's commands run as written,
as root, with real users (gm), real files, PostgreSQL and mail servers, and gm itself, under a
sandbox directory instead of / (``/etc/gm``, ``/srv/gm``... are rewritten to lie under it).

What a container cannot do is played by stand-ins on $PATH (tests/deploy/stubs.py): ``apt-get``
(records), ``git`` (``clone`` makes the checkout from this repository, its directories linked),
``systemctl`` (runs the unit's ExecStart as its User, with its Environment and WorkingDirectory,
stderr to a file that gm sees as the journal), ``journalctl``, ``crontab`` (stores the table;
the test runs its line as cron would), ``editor`` (makes the edits a person would, given by the
test) and the checkout's ``scripts/setup`` (it would reinstall the .venv that the test is
running from: the checkout links to the repository's own, already set up).

Each command block runs in a bash of its own; the working directory and the variables a block
sets are carried to the next, as if one root shell ran them all.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# Paths of the real machine that the README and the files in deploy/ name.
MOVED = ("/etc/systemd/system", "/etc/postfix", "/etc/gm", "/srv/gm", "/var/backups")
_MOVED = re.compile(r"(?<![\w./-])(" + "|".join(map(re.escape, MOVED)) + r")(?=[/\s\"'`:;)|]|$)")
# bash's own variables that `export -p` may list and that cannot be set again
_READ_ONLY = re.compile(r"^declare -\S* (BASHOPTS|SHELLOPTS|BASH_\w+|EUID|PPID|UID)=", re.M)


def readme_blocks(text: str) -> list[str]:
    """The ```sh blocks of a Markdown text, in order, without those marked
    ``<!-- not run by tests/deploy: why -->`` on the line before."""
    blocks = []
    for match in re.finditer(r"(?m)^(<!-- not run by tests/deploy:[^\n]*-->\n)?```sh\n(.*?)^```$", text, re.S):
        if match.group(1) is None:
            blocks.append(match.group(2))
    return blocks


@dataclass
class Ran:
    block: str
    returncode: int
    stdout: str
    stderr: str

    def __str__(self) -> str:
        return f"$ {self.block}\n(exit {self.returncode})\n{self.stdout}\n{self.stderr}"


@dataclass
class Machine:
    root: Path  # the sandbox; its ``etc/gm`` is the machine's /etc/gm
    env: dict[str, str] = field(default_factory=dict)  # besides PATH and the sandbox's own
    edits: dict[str, dict[str, object]] = field(default_factory=dict)  # file name -> what `editor` does

    def __post_init__(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o755)  # the user gm must reach its files
        for directory in ("bin", "state", "journal", "var/backups", "etc/systemd/system", "etc/postfix"):
            (self.root / directory).mkdir(parents=True, exist_ok=True)
        for name in ("apt-get", "git", "systemctl", "journalctl", "crontab", "editor", "useradd"):
            stub = self.root / "bin" / name
            stub.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(REPO)!r})\n"
                            f"from tests.deploy.stubs import main\nsys.exit(main({name!r}, sys.argv[1:]))\n")
            stub.chmod(0o755)
        (self.root / "state" / "cwd").write_text("/root\n" if Path("/root").is_dir() else "/\n")
        (self.root / "state" / "vars").write_text("")

    def path(self, real: str) -> Path:
        """Where the machine's ``real`` path is in the sandbox."""
        return Path(self.moved(real))

    def moved(self, text: str) -> str:
        return _MOVED.sub(lambda match: f"{self.root}{match.group(1)}", text)

    def environment(self) -> dict[str, str]:
        return {
            "PATH": f"{self.root / 'bin'}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME": "/root", "LANG": "C.UTF-8", "TERM": "dumb", "GM_SANDBOX": str(self.root),
            "GM_TEST_REPO": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", **self.env,
        }

    def run(self, block: str, timeout: float = 180) -> Ran:
        """One block of commands, as root, where the last one left off."""
        (self.root / "state" / "edits.json").write_text(json.dumps(self.edits))
        state = self.root / "state"
        script = (f"set -euo pipefail\nset -a\n. {state / 'vars'}\ncd \"$(cat {state / 'cwd'})\"\n"
                  f"trap 'pwd > {state / 'cwd'}; export -p > {state / 'vars'}' EXIT\n"
                  f"{self.moved(block)}\n")
        done = subprocess.run(["bash", "-c", script], env=self.environment(), capture_output=True, text=True,
                              timeout=timeout, check=False)
        variables = state / "vars"
        variables.write_text(_READ_ONLY.sub(lambda m: "# " + m.group(0), variables.read_text()))
        return Ran(block, done.returncode, done.stdout, done.stderr)

    def calls(self, command: str) -> list[list[str]]:
        """The argument lists the stand-in ``command`` was called with."""
        log = self.root / "state" / "calls.jsonl"
        if not log.exists():
            return []
        return [entry["args"] for entry in map(json.loads, log.read_text().splitlines()) if entry["command"] == command]

    def journal(self, unit: str = "gm") -> str:
        file = self.root / "journal" / f"{unit}.log"
        return file.read_text(encoding="utf-8", errors="replace") if file.exists() else ""

    def as_cron(self, user: str, line: str, variables: dict[str, str]) -> subprocess.CompletedProcess[str]:
        """A crontab line's command as cron runs it: /bin/sh as ``user``, in its home, with
        cron's few variables and the table's own, nothing of this process's environment."""
        home = subprocess.run(["getent", "passwd", user], capture_output=True, text=True, check=True)
        home_dir = home.stdout.split(":")[5]
        command = line.split(None, 5)[5]
        env = {"HOME": home_dir, "LOGNAME": user, "SHELL": "/bin/sh", "PATH": "/usr/bin:/bin", **variables}
        return subprocess.run(["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "env", "-i",
                               *(f"{k}={v}" for k, v in env.items()), "/bin/sh", "-c", command],
                              cwd=home_dir if Path(home_dir).is_dir() else "/", capture_output=True, text=True,
                              timeout=120, check=False)

    def stop_everything(self) -> None:
        subprocess.run([str(self.root / "bin" / "systemctl"), "stop", "gm"], env=self.environment(),
                       capture_output=True, timeout=60, check=False)
