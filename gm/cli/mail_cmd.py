"""``gm receive`` (an MTA pipes one message to stdin) and ``gm unshunt ID``."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
                    "and sends the answers; exit 75 asks the mail server to try again later.")
    receive.set_defaults(run=run_receive)
    unshunt = commands.add_parser("unshunt", help="handle a shunted mail again")
    unshunt.add_argument("id", type=int, help="the shunted mail's number (as the log and the mail to the administrator name it)")
    unshunt.set_defaults(run=run_unshunt)


def run_receive(args: argparse.Namespace) -> int:
    """Exit 0 once the mail is stored, whatever it is (too large, malformed, empty, shunted: it is
    kept and its sender answered); 75 only when it could not be stored at all, or was stored but
    not yet handled (the database was busy: a redelivery is recognised and handled).

    A `gm run` on this machine is handed the mail (gm.transport.handoff): it has everything
    loaded already. Without one, the mail is handled here."""
    from gm.cli.startup import loaded
    from gm.transport.handoff import Outcome, hand_over, socket_path
    from gm.transport.pipe import read_message

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
        return _receive_here(config, piped)
    if answer.outcome is Outcome.DONE:
        log.info("mail handed to the running gm on %s: stored and handled", where)
        return 0
    print(f"gm receive: {answer.why}", file=sys.stderr)
    return EX_TEMPFAIL


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
