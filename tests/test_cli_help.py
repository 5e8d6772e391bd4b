"""Every command of gm, and each of its options and inputs, says in --help what it is."""

from __future__ import annotations

import argparse

from gm.cli.main import build_parser


def undocumented(parser: argparse.ArgumentParser, name: str) -> list[str]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for command, sub in action.choices.items():
                if not helps.get(command):
                    found.append(f"{name} {command}")
                found += undocumented(sub, f"{name} {command}")
        elif not isinstance(action, argparse._HelpAction) and not action.help:
            found.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    return found


def test_every_command_option_and_input_has_its_help() -> None:
    assert undocumented(build_parser(), "gm") == []


def test_receive_says_it_reads_one_mail_on_standard_input_and_demo_says_what_the_seed_is() -> None:
    receive = build_parser("receive")._subparsers._group_actions[0].choices["receive"]  # type: ignore[union-attr]
    assert "one whole mail on standard input" in receive.format_help()
    demo = build_parser("demo")._subparsers._group_actions[0].choices["demo"]  # type: ignore[union-attr]
    text = " ".join(demo.format_help().split())
    assert "the same seed plays the same game" in text and "gm demo mail FROM --home DIR" in text
