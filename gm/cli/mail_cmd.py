"""``gm receive`` (an MTA pipes one message to stdin) and ``gm unshunt ID``."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from gm.app import App
from gm.cli.run_cmd import config_from
from gm.transport.pipe import PipeError, read_message, source_key


def register(commands: Any) -> None:
    receive = commands.add_parser("receive", help="read one mail from stdin, act on it, and send the answers")
    receive.set_defaults(run=run_receive)
    unshunt = commands.add_parser("unshunt", help="handle a shunted mail again")
    unshunt.add_argument("id", type=int)
    unshunt.set_defaults(run=run_unshunt)


def run_receive(args: argparse.Namespace) -> int:
    """Exit 0 once the mail is stored (even if it was shunted: it is kept); 75 (EX_TEMPFAIL,
    the MTA tries again later) when it could not be stored at all."""
    app = App(config_from(args))
    try:
        try:
            raw = read_message(sys.stdin.buffer, app.config.max_mail_bytes * 4)
        except PipeError as exc:
            print(f"gm receive: {exc}", file=sys.stderr)
            return 0  # nothing an MTA retry would fix
        app.intake.receive(raw, source_key(raw))
        asyncio.run(app.dispatcher().drain())
        return 0
    except Exception as exc:  # noqa: BLE001 - tell the MTA to keep the message and retry
        print(f"gm receive: {exc}", file=sys.stderr)
        return 75
    finally:
        app.close()


def run_unshunt(args: argparse.Namespace) -> int:
    app = App(config_from(args))
    try:
        if not app.intake.unshunt(args.id):
            print(f"gm unshunt: mail {args.id} is not shunted", file=sys.stderr)
            return 1
        asyncio.run(app.dispatcher().drain())
        print(f"mail {args.id} handled again")
        return 0
    finally:
        app.close()
