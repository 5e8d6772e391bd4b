"""The ``gm`` command: parses the command line and hands over to one subcommand module."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sqlalchemy.exc import DBAPIError, OperationalError

from gm.cli import logs
from gm.cli import adjudicate_cmd, check_cmd, demo_cmd, mail_cmd, maps_cmd, outbox_cmd, render_cmd, run_cmd, web_cmd
from gm.store.database import DatabaseFileError
from gm.store.retry import waited

EX_TEMPFAIL = 75  # sysexits.h: try again later (cron reports it; a mail server keeps the mail)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gm", description="A play-by-email Diplomacy game master.")
    parser.add_argument("--config", help="the server's configuration file (default: $GM_CONFIG, or built-in defaults)")
    logs.add_options(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (adjudicate_cmd, maps_cmd, run_cmd, check_cmd, render_cmd, mail_cmd, outbox_cmd, demo_cmd, web_cmd):
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logs.setup_from(args)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except DatabaseFileError as exc:  # names the file that is wrong: nothing to retry until it is fixed
        print(f"gm: {exc}", file=sys.stderr)
        return 1
    except DBAPIError as exc:
        wait = waited(exc)
        if wait is None and isinstance(exc, OperationalError):  # down, refused, wrong password: say so, no traceback
            print(f"gm {args.command}: cannot use the database: {str(exc.orig).strip()}; nothing was done",
                  file=sys.stderr)
            return EX_TEMPFAIL
        if wait is None:
            raise
        print(f"gm {args.command}: gave up waiting for {wait}; nothing was done, the next run does it", file=sys.stderr)
        return EX_TEMPFAIL


if __name__ == "__main__":
    sys.exit(main())
