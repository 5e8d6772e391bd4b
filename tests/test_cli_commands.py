"""`gm` loads only the module of the command asked for (gm.cli.main.COMMANDS): the table names
every command of every module, and each command parses alone as it does among all of them."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from gm.cli import main


def _registered(module: str) -> set[str]:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command")
    __import__(f"gm.cli.{module}", fromlist=["register"]).register(commands)
    return set(commands.choices)


def test_every_command_is_found_in_its_own_module() -> None:
    found = {command: module for module in main.MODULES for command in _registered(module)}
    assert found == main.COMMANDS


@pytest.mark.parametrize("argv", [["receive"], ["--config", "x.yaml", "tick"], ["--log-level", "info", "outbox"],
                                  ["adjudicate", "--jsonl"], ["db", "status"], ["--config=x.yaml", "unshunt", "3"]])
def test_a_command_parses_alone_as_among_all(argv: list[str]) -> None:
    alone = main.build_parser(main.command_of(argv)).parse_args(argv)
    everything = main.build_parser().parse_args(argv)
    assert {k: v for k, v in vars(alone).items() if k != "run"} == {k: v for k, v in vars(everything).items() if k != "run"}
    assert alone.run.__qualname__ == everything.run.__qualname__


def test_receiving_a_mail_loads_neither_the_daemon_nor_the_pictures_nor_a_variant() -> None:
    code = ("import sys; from gm.cli import main; main.build_parser('receive'); "
            "from gm.cli import mail_cmd; from gm.app import App; "
            "print(sorted(m for m in sys.modules if m.startswith(('gm.runtime', 'gm.render', 'gm.variants.', "
            "'alembic', 'numpy', 'PIL', 'resvg')) and m != 'gm.variants.catalog'))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
