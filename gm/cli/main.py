"""The ``gm`` command: parses the command line and hands over to one subcommand module.

Only the module of the command asked for is imported (`gm receive`, run by a mail server for
every mail, loads what handling a mail needs and nothing else); ``gm --help`` imports them all.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from gm.cli import logs

EX_TEMPFAIL = 75  # sysexits.h: try again later (cron reports it; a mail server keeps the mail)
MODULES = ("adjudicate_cmd", "maps_cmd", "run_cmd", "check_cmd", "render_cmd", "mail_cmd", "outbox_cmd", "demo_cmd",
           "web_cmd")  # in the order --help lists their commands
COMMANDS = {"adjudicate": "adjudicate_cmd", "maps": "maps_cmd", "maps-shapes": "render_cmd", "tick": "run_cmd",
            "run": "run_cmd", "reload": "run_cmd", "db": "run_cmd", "check": "check_cmd", "render-map": "render_cmd",
            "receive": "mail_cmd", "unshunt": "mail_cmd", "outbox": "outbox_cmd", "demo": "demo_cmd",
            "web": "web_cmd"}  # each command's module (tests/test_cli_commands.py holds it to the modules)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with every command, or only ``command``'s module's when it is known."""
    parser = argparse.ArgumentParser(prog="gm", description="A play-by-email Diplomacy game master.")
    parser.add_argument("--version", action=_Version, help="show gm's version and exit")
    parser.add_argument("--config", help="the server's configuration file (default: $GM_CONFIG, or built-in defaults)")
    logs.add_options(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in [COMMANDS[command]] if command in COMMANDS else MODULES:
        importlib.import_module(f"gm.cli.{name}").register(commands)
    return parser


def version() -> str:
    """gm's version as installed (the package's metadata, read without importing gm's modules)."""
    from importlib import metadata

    try:
        return f"gm {metadata.version('gm')}"
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "gm (not installed)"


class _Version(argparse.Action):
    """argparse's own version action, with the version looked up only when asked for (reading
    the package's metadata costs a tick or a mail 20-40 ms)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str | None = None):
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: object, values: object,
                 option_string: str | None = None) -> None:
        print(version())
        parser.exit()


def command_of(argv: Sequence[str]) -> str | None:
    """The command named on the command line, before parsing it (the first word that is not
    an option or an option's value)."""
    words = list(argv)
    while words:
        word = words.pop(0)
        if word in ("--config", "--log-level", "--log-format", "--log-file") and words:
            words.pop(0)
        elif not word.startswith("-"):
            return word
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "--version":  # answered before any command's module is loaded
        print(version())
        return 0
    args = build_parser(command_of(argv)).parse_args(argv)
    logs.setup_from(args)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except SystemExit as exc:  # a fatal error said in words (the configuration): in --log-file too
        if isinstance(exc.code, str):
            logs.also_in_file(args, exc.code)
        raise
    except Exception as exc:  # noqa: BLE001 - the database's errors, told apart here (their modules loaded only if used)
        try:
            return _database_error(args, exc)
        except Exception:
            logs.also_in_file(args, f"gm {args.command} failed", exc)
            raise


def _fatal(args: argparse.Namespace, text: str) -> None:
    """What ends this run, on stderr, and in --log-file too."""
    print(text, file=sys.stderr)
    logs.also_in_file(args, text)


def _database_error(args: argparse.Namespace, exc: Exception) -> int:
    from sqlalchemy.exc import DBAPIError, OperationalError

    from gm.store.database import DatabaseFileError
    from gm.store.retry import waited

    done = getattr(args, "done", None) or "nothing was done"  # what `gm tick` did before it stopped
    if isinstance(exc, DatabaseFileError):  # names the file that is wrong: nothing to retry until it is fixed
        _fatal(args, f"gm: {exc}")
        return 1
    if isinstance(exc, DBAPIError):
        wait = waited(exc)
        if wait is None and isinstance(exc, OperationalError):  # down, refused, wrong password: say so, no traceback
            _fatal(args, f"gm {args.command}: cannot use the database: {str(exc.orig).strip()}; {done}")
            return EX_TEMPFAIL
        if wait is not None:
            _fatal(args, f"gm {args.command}: gave up waiting for {wait}; {done}, the next run does the rest")
            return EX_TEMPFAIL
    raise exc


if __name__ == "__main__":
    sys.exit(main())
