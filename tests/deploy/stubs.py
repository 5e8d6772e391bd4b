"""The stand-ins tests/deploy/machine.py puts on $PATH for what a container cannot do. Each
records its call (state/calls.jsonl) and does what the real command would, as far as the
test needs. They find the sandbox in $GM_SANDBOX."""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(os.environ.get("GM_SANDBOX", "/nonexistent"))
STATE = ROOT / "state"
MOVED = ("/etc/systemd/system", "/etc/postfix", "/etc/gm", "/srv/gm", "/var/backups")
_MOVED = re.compile(r"(?<![\w./-])(" + "|".join(map(re.escape, MOVED)) + r")(?=[/\s\"'`:;)|]|$)")


def moved(text: str) -> str:
    return _MOVED.sub(lambda match: f"{ROOT}{match.group(1)}", text)


def main(command: str, args: list[str]) -> int:
    with (STATE / "calls.jsonl").open("a") as log:
        log.write(json.dumps({"command": command, "args": args}) + "\n")
    return COMMANDS[command](args)


def apt_get(args: list[str]) -> int:
    return 0  # the packages the README names are checked against apt's lists by the test


def useradd(args: list[str]) -> int:
    name = args[-1]
    if subprocess.run(["id", name], capture_output=True, check=False).returncode == 0:
        return 0  # made by an earlier run of the test: as good as new
    (STATE / f"made-user-{name}").touch()
    return subprocess.run(["/usr/sbin/useradd", *args], check=False).returncode


def git(args: list[str]) -> int:
    if args[:1] == ["clone"]:
        source, target = Path(os.environ["GM_TEST_REPO"]), Path(args[-1])
        target.mkdir(parents=True)
        for entry in source.iterdir():
            if entry.name in ("var", "scripts") or entry.name.startswith("."):
                continue
            if entry.is_dir():
                (target / entry.name).symlink_to(entry)
            else:
                shutil.copy2(entry, target / entry.name)
        (target / "scripts").mkdir()
        for script in (source / "scripts").iterdir():
            (target / "scripts" / script.name).symlink_to(script)
        setup = target / "scripts" / "setup"
        setup.unlink()
        setup.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(source)!r})\n"
                         "from tests.deploy.stubs import setup\nsys.exit(setup(__file__))\n")
        setup.chmod(0o755)
        return 0
    if args[:1] == ["pull"]:
        print("Already up to date.")
        return 0
    print(f"git stand-in: {args} not known", file=sys.stderr)
    return 1


def setup(script: str) -> int:
    """Stands in for scripts/setup, which would install gm and its libraries from PyPI into the
    checkout's .venv: a .venv of Debian's python3, as scripts/setup makes it, that finds them
    installed in the repository's own .venv (that one may be of a Python only root can run)."""
    checkout = Path(script).parent.parent
    (STATE / "setup-ran").touch()
    venv = checkout / ".venv"
    if (venv / "bin" / "gm").exists():
        return 0
    made = subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(venv)], check=False)
    if made.returncode != 0:
        return made.returncode
    (ours,) = (venv / "lib").glob("python3.*/site-packages")
    installed = Path(os.environ["GM_TEST_REPO"]) / ".venv" / "lib" / ours.parent.name / "site-packages"
    if not installed.is_dir():
        print(f"scripts/setup stand-in: the repository's .venv is not of Debian's {ours.parent.name}, so its "
              "libraries cannot serve the machine's", file=sys.stderr)
        return 1
    (ours / "gm-test.pth").write_text(f"import site; site.addsitedir({str(installed)!r})\n")
    gm = venv / "bin" / "gm"
    gm.write_text(f"#!{venv}/bin/python3\nimport sys\nfrom gm.cli.main import main\nsys.exit(main())\n")
    gm.chmod(0o755)
    return 0


def _unit(name: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(moved((ROOT / "etc/systemd/system" / f"{name}.service").read_text()))
    return unit


def _pid(name: str) -> int | None:
    file = STATE / f"{name}.pid"
    if not file.exists():
        return None
    pid = int(file.read_text())
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return None if "\nState:\tZ" in status else pid


def _start(name: str) -> int:
    if _pid(name) is not None:
        return 0
    if not (STATE / "daemon-reload").exists() or (STATE / "daemon-reload").stat().st_mtime < \
            (ROOT / "etc/systemd/system" / f"{name}.service").stat().st_mtime:
        print(f"Warning: The unit file of {name}.service changed on disk. Run 'systemctl daemon-reload'.",
              file=sys.stderr)
        return 1
    service = _unit(name)["Service"]
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "INVOCATION_ID": "stand-in"}
    for assignment in service.get("Environment", "").split():
        key, _, value = assignment.partition("=")
        environment[key] = value
    file = service.get("EnvironmentFile")
    if file:
        optional = file.startswith("-")
        path = Path(file.lstrip("-"))
        if path.exists():
            for line in path.read_text().splitlines():
                if line.strip() and not line.lstrip().startswith("#") and "=" in line:
                    key, _, value = line.partition("=")
                    environment[key.strip()] = value.strip().strip("'\"")
        elif not optional:
            print(f"{name}.service: EnvironmentFile {path} missing", file=sys.stderr)
            return 1
    journal = (ROOT / "journal" / f"{name}.log").open("ab")
    stat = os.fstat(journal.fileno())
    environment["JOURNAL_STREAM"] = f"{stat.st_dev}:{stat.st_ino}"
    user, group = service.get("User", "root"), service.get("Group", service.get("User", "root"))
    command = ["setpriv", f"--reuid={user}", f"--regid={group}", "--init-groups", "--",
               *service["ExecStart"].split()]
    process = subprocess.Popen(command, cwd=service.get("WorkingDirectory", "/"), env=environment,
                               stdin=subprocess.DEVNULL, stdout=journal, stderr=journal, start_new_session=True)
    (STATE / f"{name}.pid").write_text(str(process.pid))
    time.sleep(0.5)
    if process.poll() is not None:
        print(f"{name}.service: ExecStart exited at once ({process.returncode}); journalctl -u {name}",
              file=sys.stderr)
        return 1
    return 0


def _stop(name: str) -> int:
    pid = _pid(name)
    if pid is None:
        return 0
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while _pid(name) is not None:
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            print(f"{name}.service: did not stop within 30 s of SIGTERM: killed", file=sys.stderr)
            return 1
        time.sleep(0.05)
    return 0


def systemctl(args: list[str]) -> int:
    words = [a for a in args if not a.startswith("-")]
    action, names = words[0], [n.removesuffix(".service") for n in words[1:]]
    if action == "daemon-reload":
        (STATE / "daemon-reload").touch()
        return 0
    if action == "enable":
        for name in names:
            (STATE / f"{name}.enabled").touch()
        return _start(names[0]) if "--now" in args else 0
    if action == "start":
        return _start(names[0])
    if action == "stop":
        return _stop(names[0])
    if action == "restart":
        return _stop(names[0]) or _start(names[0])
    if action == "is-active":
        active = _pid(names[0]) is not None
        print("active" if active else "inactive")
        return 0 if active else 3
    print(f"systemctl stand-in: {args} not known", file=sys.stderr)
    return 1


def journalctl(args: list[str]) -> int:
    unit = args[args.index("-u") + 1].removesuffix(".service") if "-u" in args else "gm"
    lines = (ROOT / "journal" / f"{unit}.log").read_text(errors="replace").splitlines() \
        if (ROOT / "journal" / f"{unit}.log").exists() else []
    lines = [re.sub(r"^<\d>", "", line) for line in lines]  # the priority is the journal's, not the text's
    if "-n" in args:
        lines = lines[-int(args[args.index("-n") + 1]):]
    print("\n".join(lines))
    return 0


def crontab(args: list[str]) -> int:
    user = args[args.index("-u") + 1] if "-u" in args else "root"
    table = ROOT / "state" / f"crontab-{user}"
    if "-r" in args:
        table.unlink(missing_ok=True)
        return 0
    if "-l" in args:
        if not table.exists():
            print(f"no crontab for {user}", file=sys.stderr)
            return 1
        print(table.read_text(), end="")
        return 0
    shutil.copyfile(args[-1], table)
    return 0


def editor(args: list[str]) -> int:
    """Makes the edits the test gives for this file's name: replacements (each must find its
    text: the file is as the README says), then lines added."""
    file = Path(args[-1])
    edits = json.loads((STATE / "edits.json").read_text()).get(file.name)
    if edits is None:
        print(f"editor stand-in: the test gave no edits for {file.name}", file=sys.stderr)
        return 1
    text = file.read_text() if file.exists() else ""
    for old, new in edits.get("replace", []):
        if old not in text:
            print(f"editor stand-in: {file} has no {old!r} to change", file=sys.stderr)
            return 1
        text = text.replace(old, new)
    if edits.get("move_paths"):  # the machine's paths, as they are in the sandbox
        text = moved(text)
    text += str(edits.get("append", ""))
    file.write_text(text)
    return 0


COMMANDS = {"apt-get": apt_get, "useradd": useradd, "git": git, "systemctl": systemctl, "journalctl": journalctl,
            "crontab": crontab, "editor": editor}
