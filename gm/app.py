"""The composition root: builds every part of gm once and connects them."""

from __future__ import annotations

import os

from gm.clock import Clock, SystemClock
from gm.config import AppConfig
from gm.games.context import Faults, Services
from gm.games.mailer import Mailer
from gm.runtime.scheduler import Scheduler
from gm.store.database import Database
from gm.variants.catalog import VariantCatalog


class App:
    def __init__(self, config: AppConfig, clock: Clock | None = None, faults: Faults | None = None):
        self.config = config
        self.clock = clock or SystemClock()
        self.db = Database(config.database_url)
        self.services = Services(
            config=config,
            db=self.db,
            clock=self.clock,
            catalog=VariantCatalog(),
            mailer=Mailer(config, self.clock),
            faults=faults or Faults(os.environ.get("GM_CRASH_AT")),
        )
        self.scheduler = Scheduler(self.services)

    def close(self) -> None:
        self.db.dispose()
