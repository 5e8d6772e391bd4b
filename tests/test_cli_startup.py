"""`gm --help` and `gm --version` answer without loading what the commands run on (a cron job or
a mail server starts gm for every tick and mail; bench/startup.py times them)."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("sqlalchemy", "asyncio", "jinja2", "yaml", "gm.app", "gm.games", "gm.store", "gm.adjudicator",
         "gm.variants", "gm.render", "gm.web", "gm.config", "importlib.metadata")


def _loaded_after(argv: list[str]) -> tuple[str, list[str]]:
    code = ("import sys, io, contextlib; from gm.cli import main\n"
            "out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n"
            "    try:\n"
            f"        main.main({argv!r})\n"
            "    except SystemExit:\n"
            "        pass\n"
            f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or m.startswith({HEAVY!r}))\n"
            "print(repr((out.getvalue(), heavy)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return eval(done.stdout)  # noqa: S307 - our own repr


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["tick", "--help"], ["receive", "--help"]])
def test_help_and_version_load_nothing_the_commands_run_on(argv: list[str]) -> None:
    out, heavy = _loaded_after(argv)
    if argv == ["--version"]:  # the version is read from the package's metadata when asked for
        heavy = [m for m in heavy if not m.startswith("importlib.metadata")]
    assert heavy == []
    assert out.startswith("gm ") if argv == ["--version"] else "usage: gm" in out


def test_version_names_the_installed_package() -> None:
    from importlib import metadata

    out, _ = _loaded_after(["--version"])
    assert out.strip() == f"gm {metadata.version('gm')}"


def test_a_tick_with_nothing_due_loads_no_rules_no_commands_no_templates(tmp_path) -> None:  # type: ignore[no-untyped-def]
    config = tmp_path / "gm.yaml"
    config.write_text(f"home: {tmp_path / 'home'}\njudge_address: judge@example.test\n")
    code = ("import sys; from gm.cli import main\n"
            f"assert main.main(['--config', {str(config)!r}, 'db', 'upgrade']) == 0\n"
            f"assert main.main(['--config', {str(config)!r}, 'tick']) == 0\n"
            "print(sorted(m for m in sys.modules if m.startswith(('gm.adjudicator.engine', 'gm.commands.registry', "
            "'gm.games.lifecycle', 'gm.services.processing', 'gm.orders', 'gm.render', 'gm.variants.', 'jinja2', "
            "'gm.web')) and m != 'gm.variants.catalog'))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip().splitlines()[-1] == "[]"


def test_a_command_that_reads_the_configuration_keeps_its_cache_in_gms_home(tmp_path) -> None:  # type: ignore[no-untyped-def]
    config = tmp_path / "gm.yaml"
    config.write_text(f"home: {tmp_path / 'home'}\njudge_address: judge@example.test\n")
    code = ("import os; from gm.cli import main\n"
            f"assert main.main(['--config', {str(config)!r}, 'db', 'upgrade']) == 0\n"
            "print(os.environ['GM_CACHE_DIR'])")
    env = {k: v for k, v in __import__("os").environ.items() if k != "GM_CACHE_DIR"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.strip().splitlines()[-1] == str(tmp_path / "home" / "cache")
    env["GM_CACHE_DIR"] = str(tmp_path / "chosen")  # the operator's choice stands
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.strip().splitlines()[-1] == str(tmp_path / "chosen")
