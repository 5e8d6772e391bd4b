"""``gm outbox``: what waits or failed, and why; sending failed mails again; trying now."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded by the command itself: `gm --help` loads every command's module
    from gm.app import App


def register(commands: Any) -> None:
    outbox = commands.add_parser("outbox", help="what outgoing mail waits or failed, and why; send it again")
    outbox.add_argument("--resend", type=int, nargs="+", metavar="ID", help="send these failed mails again now")
    outbox.add_argument("--resend-failed", action="store_true", help="send every failed mail again now")
    outbox.add_argument("--retry-now", action="store_true",
                        help="try every waiting mail now (after fixing the mail server or the configuration)")
    outbox.set_defaults(run=run_outbox)


def run_outbox(args: argparse.Namespace) -> int:
    import asyncio

    from gm.app import App
    from gm.cli.startup import config_from
    from gm.services import outbox_admin

    app = App(config_from(args))
    try:
        services = app.services
        if args.resend or args.resend_failed or args.retry_now:
            if args.resend or args.resend_failed:
                chosen = outbox_admin.resend(services, None if args.resend_failed else args.resend)
                missing = sorted(set(args.resend or []) - set(chosen))
                if missing:
                    print(f"gm outbox: not failed, left as they are: {', '.join(map(str, missing))}", file=sys.stderr)
                print(f"{len(chosen)} failed mails due again")
            if args.retry_now:
                outbox_admin.retry_now(services)
            drained = asyncio.run(app.dispatcher().drain())
            print(f"sent {drained.sent}")
            if drained.outage is not None:
                print(f"gm outbox: the outbound server still takes no mail: {drained.outage.error}", file=sys.stderr)
                return 75
            return 0
        return _show(app)
    finally:
        app.close()


def _show(app: App) -> int:
    from gm.games.mailer import format_moment
    from gm.services import outbound_health, outbox_admin

    services = app.services
    outage = outbound_health.outage(services)
    if outage is not None:
        print(f"The outbound server takes no mail since {format_moment(outage.since, 'UTC')}: {outage.error}")
        print(f"  every mail waits; next try {format_moment(outage.next_try_at, 'UTC')} (gm outbox --retry-now: at once)")
    entries = outbox_admin.troubled(services)
    print(f"{outbox_admin.pending_count(services)} mails waiting to be sent; {len(entries)} failed or tried in vain:")
    for entry in entries:
        when = "failed" if entry.status == "failed" else f"next try {format_moment(entry.next_attempt_at, 'UTC')}"
        print(f"  {entry.id:>6}  {entry.kind:<12} {entry.to:<32} {entry.attempts} tries, {when}")
        print(f"          {entry.subject[:60]}")
        if entry.error:
            print(f"          {entry.error.splitlines()[0][:200]}")
    failed = [e.id for e in entries if e.status == "failed"]
    if failed:
        print(f"Send failed mails again with: gm outbox --resend {' '.join(map(str, failed[:10]))}"
              f"{' ...' if len(failed) > 10 else ''} (or --resend-failed)")
    return 0
