"""``gm receive`` (an MTA pipes one message to stdin) and ``gm unshunt ID``.

A piped mail goes to the `gm run` of the same home when one runs (gm.transport.handoff), else
to the spool (gm.transport.spool), and a process of its own, started here and detached from the
mail server's, takes it from there: the pipe ends once the mail is on the disk, with nothing but
the configuration loaded. ``--wait`` handles it in this process instead (the answer sent before
it exits, as the classic judges do), and ``--from-spool`` is the detached process's own work.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.app import App
    from gm.config import AppConfig
    from gm.transport.pipe import PipedMessage

log = logging.getLogger(__name__)
EX_TEMPFAIL = 75  # sysexits.h: the mail server keeps the message and tries again later
HANDOFF_MARGIN = 30.0  # seconds beyond lock_timeout the running gm may take to answer a mail handed over


def register(commands: Any) -> None:
    receive = commands.add_parser(
        "receive", help="read one whole mail on standard input (headers and body, as a mail server hands it "
                        "over), act on it, and send the answers",
        description="Read one whole mail on standard input: its headers (From:, To:, Subject:) and body, as a "
                    "mail server's pipe hands it over (gm receive < message.eml). gm acts on it as on any mail "
                    "and sends the answers: the running gm run of this home does; without one, a process gm "
                    "receive starts (the mail kept in HOME/spool until then: exit 0 once it is there), or this one "
                    "with --wait. Exit 75 asks the mail server to try again later.")
    how = receive.add_mutually_exclusive_group()
    how.add_argument("--wait", action="store_true",
                     help="handle the mail in this process and send its answers before exiting, instead of "
                          "leaving it to a process of its own when no gm run takes it (slower: over half a second)")
    how.add_argument("--from-spool", action="store_true",
                     help="read nothing: handle the mails earlier gm receive runs left in the spool (HOME/spool), "
                          "and send their answers (what gm receive starts for them; gm tick and gm run do it too)")
    receive.set_defaults(run=run_receive)
    unshunt = commands.add_parser("unshunt", help="handle a shunted mail again")
    unshunt.add_argument("id", type=int, help="the shunted mail's number (as the log and the mail to the administrator name it)")
    unshunt.set_defaults(run=run_unshunt)


def run_receive(args: argparse.Namespace) -> int:
    """Exit 0 once the mail is stored, whatever it is (too large, malformed, empty, shunted: it is
    kept and its sender answered); 75 only when it could not be stored at all, or was stored but
    not yet handled (the database was busy: a redelivery is recognised and handled). A mail in
    the spool is stored: what becomes of it there is the process taking it's to say, in its log.

    A `gm run` on this machine is handed the mail (gm.transport.handoff): it has everything
    loaded already. Without one, the mail is left in the spool for a process of its own (stored
    there is stored: exit 0), or handled here with ``--wait`` (or when the spool cannot be
    written)."""
    from gm.cli.startup import loaded
    from gm.transport.handoff import Outcome, hand_over, socket_path
    from gm.transport.pipe import read_message

    if args.from_spool:
        return _take_spooled(loaded(args))
    try:
        config = loaded(args)
        piped = read_message(sys.stdin.buffer, config.read_limit)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - configuration or stdin: the MTA keeps the mail
        print(f"gm receive: cannot take the mail now: {exc}", file=sys.stderr)
        return EX_TEMPFAIL
    where = socket_path(config.home)
    answer = hand_over(where, piped.raw, piped.source_key, piped.size if piped.cut else None,
                       timeout=config.lock_timeout + HANDOFF_MARGIN)
    if answer is None:
        return _receive_here(config, piped) if args.wait else _spool(args, config, piped)
    if answer.outcome is Outcome.DONE:
        log.info("mail handed to the running gm on %s: stored and handled", where)
        return 0
    print(f"gm receive: {answer.why}", file=sys.stderr)
    return EX_TEMPFAIL


def _spool(args: argparse.Namespace, config: AppConfig, piped: PipedMessage) -> int:
    from gm.transport.spool import Spool, spool_path

    spool = Spool(spool_path(config.home))
    try:
        spooled = spool.put(piped.raw, piped.source_key, piped.size if piped.cut else None)
    except OSError as exc:
        log.warning("the spool %s cannot be written (%s): the mail is handled here", spool.path, exc)
        return _receive_here(config, piped)
    try:
        with spool.taking() as free:  # held: its holder looks again once it lets go, and finds this mail
            pass
        if free:
            _start_taker(args, config)
    except OSError as exc:  # the spooled copy is then known again by its source key, not handled twice
        log.warning("no process could be started to take the spool (%s): the mail is handled here", exc)
        return _receive_here(config, piped)
    log.info("mail left in the spool as %s for gm receive --from-spool", spooled.name)
    return 0


def _start_taker(args: argparse.Namespace, config: AppConfig) -> None:
    """``gm receive --from-spool`` with this run's configuration and log options, in a session
    of its own (the mail server waits for neither it nor its output). Its log goes where this
    one's --log-file says, else to HOME/gm-receive.log."""
    import os
    import subprocess

    log_file = os.path.abspath(args.log_file) if args.log_file else str(config.home / "gm-receive.log")
    options = ["--log-file", log_file]
    if args.config:
        options += ["--config", os.path.abspath(args.config)]
    if args.log_level:
        options += ["--log-level", args.log_level]
    if args.log_format:
        options += ["--log-format", args.log_format]
    with open(log_file, "ab") as errors:  # what the new Python says before its log is set up
        subprocess.Popen([sys.executable, "-P", "-m", "gm.cli.main", *options, "receive", "--from-spool"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors,
                         start_new_session=True, close_fds=True)


def _take_spooled(config: AppConfig) -> int:
    """The mails in the spool stored, handled and answered, while this process holds its lock
    (none when another holds it); 75 when some wait for the database (the next gm tick takes
    them). gm is loaded with the lock held, at the first mail: a `gm receive` meanwhile starts
    no other taker."""
    import asyncio

    from gm.transport.spool import Spool, spool_path

    spool = Spool(spool_path(config.home))
    loaded: list[App] = []

    async def deliver(raw: bytes, source_key: str, size: int | None = None) -> None:
        if not loaded:
            from gm.app import App
            from gm.cli.startup import prepared

            loaded.append(App(prepared(config, "receive")))
        await asyncio.to_thread(loaded[0].intake.receive, raw, source_key, size)

    async def take() -> int:
        taken = await spool.take_all(deliver)  # a failure leaves the answers of those taken for the next tick
        if loaded:
            drained = await loaded[0].dispatcher().drain()
            if drained.outage is not None:
                log.warning("the answers wait: the outbound server takes no mail (%s)", drained.outage.error)
        return taken

    try:
        taken = asyncio.run(take())
    except Exception as exc:  # noqa: BLE001 - the database: the mail stays in the spool (stderr is this log too)
        log.warning("a mail waits in the spool %s for the next gm tick or gm run: %s", spool.path, exc)
        return EX_TEMPFAIL
    finally:
        for app in loaded:
            app.close()
    if taken:
        log.info("took %d mails from the spool", taken)
    return 0


def _receive_here(config: AppConfig, piped: PipedMessage) -> int:
    import asyncio

    from gm.app import App
    from gm.cli.startup import prepared
    from gm.store.retry import DatabaseBusy

    try:
        app = App(prepared(config, "receive"))
    except Exception as exc:  # noqa: BLE001 - the database: the MTA keeps the mail
        print(f"gm receive: cannot take the mail now: {exc}", file=sys.stderr)
        return EX_TEMPFAIL
    try:
        try:
            app.intake.receive(piped.raw, piped.source_key, piped.size if piped.cut else None)
        except DatabaseBusy as exc:  # stored, not handled: a redelivery (or the next gm tick) handles it
            print(f"gm receive: {exc}", file=sys.stderr)
            return EX_TEMPFAIL
        except Exception as exc:  # noqa: BLE001 - not stored: the MTA keeps the mail and retries
            print(f"gm receive: cannot store the mail now: {exc}", file=sys.stderr)
            return EX_TEMPFAIL
        try:
            drained = asyncio.run(app.dispatcher().drain())
        except Exception as exc:  # noqa: BLE001 - the answers wait in the outbox for the next tick
            print(f"gm receive: the mail is stored; sending the answers failed ({exc}); "
                  "the next gm tick sends them", file=sys.stderr)
        else:
            if drained.outage is not None:
                print(f"gm receive: the mail is handled; its answer waits: the outbound server takes no mail "
                      f"({drained.outage.error})", file=sys.stderr)
        return 0
    finally:
        app.close()


def run_unshunt(args: argparse.Namespace) -> int:
    import asyncio

    from gm.app import App
    from gm.cli.startup import config_from

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
