"""The composition root: builds every part of gm once and connects them."""

from __future__ import annotations

import os
from functools import cached_property
from typing import TYPE_CHECKING

from gm.clock import Clock, SystemClock
from gm.config import AppConfig
from gm.games.context import Faults, Services
from gm.games.mailer import Mailer
from gm.services.intake import Intake
from gm.services.sending import Dispatcher
from gm.store.database import Database, Timeouts
from gm.transport import Sender
from gm.transport.factory import make_sender
from gm.variants.catalog import VariantCatalog

if TYPE_CHECKING:
    from gm.runtime.daemon import Daemon
    from gm.runtime.scheduler import Scheduler


class App:
    def __init__(self, config: AppConfig, clock: Clock | None = None, faults: Faults | None = None):
        self.config = config
        self.clock = clock or SystemClock()
        self.db = Database(config.database_url, timeouts=Timeouts(config.lock_timeout, config.statement_timeout))
        self.services = Services(
            config=config,
            db=self.db,
            clock=self.clock,
            catalog=VariantCatalog(),
            mailer=Mailer(config, self.clock),
            faults=faults or Faults(os.environ.get("GM_CRASH_AT")),
        )
        self.intake = Intake(self.services)

    def preload(self) -> None:
        """What a long-running judge makes at its start rather than at its first mail (a cron tick
        or a piped mail makes it only if it needs it): every command and the template engine."""
        self.intake.table.find("HELP")
        self.services.mailer.rules_template("standard")

    @cached_property
    def scheduler(self) -> Scheduler:
        """Made when first asked for: `gm receive` handles a mail without loading the scheduler."""
        from gm.runtime.scheduler import Scheduler

        return Scheduler(self.services)

    def dispatcher(self, sender: Sender | None = None) -> Dispatcher:
        return Dispatcher(self.services, sender or make_sender(self.config.outbound))

    def daemon(self) -> Daemon:
        from gm.runtime.daemon import Daemon
        from gm.store.mailboxes import DatabaseWatermarks
        from gm.transport.factory import make_inbox

        inbox = make_inbox(self.config.inbound, DatabaseWatermarks(self.db), self.config.read_limit)
        web = self.config.web is not None  # a web: section: `gm run` serves it too
        from gm.transport.handoff import socket_path
        from gm.transport.spool import Spool, spool_path

        return Daemon(inbox, self.intake, self.scheduler, self.dispatcher(), lambda: [self.web_server()] if web else [],
                      handoff=socket_path(self.config.home), spool=Spool(spool_path(self.config.home)))

    def web_app(self):  # type: ignore[no-untyped-def]
        """The web window's application (docs/web.md), on the same services as the mail."""
        from gm.web.app import build_app  # only where the web is served: the mail commands never load Starlette

        return build_app(self.services, self.intake.table)

    def web_server(self):  # type: ignore[no-untyped-def]
        from gm.config import WebConfig
        from gm.web.server import WebServer

        from gm.web.lock import LOCK_FILE

        return WebServer(self.web_app(), self.config.web or WebConfig(), lock=self.config.home / LOCK_FILE)

    def close(self) -> None:
        self.db.dispose()
