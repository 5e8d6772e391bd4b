"""What every service needs, built once by the composition root (gm/app.py)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from gm.adjudicator.kept import BoundedCache
from gm.games.passwords import SecretChecker

if TYPE_CHECKING:  # what a service uses is loaded when first used: a cron tick with nothing due loads
    # neither the variants, nor the order grammar, nor the settings reader (bench/startup.py)
    from sqlalchemy import Insert

    from gm.adjudicator.variant import Variant
    from gm.clock import Clock
    from gm.config import AppConfig
    from gm.domain.orders import Order
    from gm.domain.position import Position
    from gm.games.mailer import Mailer
    from gm.orders import OrderGrammar
    from gm.settings.model import GameSettings
    from gm.store.database import Database
    from gm.store.models import Game
    from gm.variants.catalog import VariantCatalog


@cache
def _audit_insert() -> Insert:
    """The audit log's INSERT, built once."""
    from sqlalchemy import insert

    from gm.store.models import AuditEntry

    return insert(AuditEntry.__table__)


class Faults:
    """Crash points for the atomicity tests: ``GM_CRASH_AT=name`` kills the process there."""

    def __init__(self, crash_at: str | None = None):
        self.crash_at = crash_at

    def point(self, name: str) -> None:
        if self.crash_at == name:
            os._exit(70)


@dataclass
class Services:
    config: AppConfig
    db: Database
    clock: Clock
    catalog: VariantCatalog
    mailer: Mailer
    faults: Faults = field(default_factory=Faults)
    secrets: SecretChecker = field(default_factory=SecretChecker)
    _settings_cache: dict[str, GameSettings] = field(default_factory=dict)
    _stored_orders: BoundedCache = field(default_factory=lambda: BoundedCache(100_000))

    def settings_of(self, game: Game) -> GameSettings:
        """The settings in force (the file text stored when it was last accepted)."""
        key = f"{game.settings_digest}/{game.name}"
        found = self._settings_cache.get(key)
        if found is None:
            from gm.settings.reader import read_settings

            text = game.settings["yaml"]
            games = read_settings(text, game.settings_source or game.name, self.known_variant, self.rule_problems)
            found = next(g for g in games if g.name == game.settings.get("name", game.name))
            self._settings_cache[key] = found
        return found

    def known_variant(self, name: str) -> bool:
        return name in self.catalog.names()

    def rule_problems(self, variant: str, chosen: Mapping[str, Any]) -> list[tuple[str, str]]:
        """What is wrong with a game's choice of its variant's rules (settings file ``rules:``)."""
        from gm.variants.setup import setup_of

        return setup_of(self.catalog.get(variant)).option_problems(chosen)

    def variant_of(self, game: Game) -> Variant:
        return self.catalog.get(game.variant)

    def grammar_of(self, game: Game) -> OrderGrammar:
        from gm.orders import OrderGrammar

        return OrderGrammar.for_variant(self.variant_of(game))

    def orders_from(self, game: Game, lines: list[str]) -> list[Order]:
        """Stored order lines (canonical text) as orders; each line is parsed once per process."""
        from gm.orders import parse_line

        grammar = self.grammar_of(game)
        orders = []
        for line in lines:
            key = (game.variant, line)
            order = self._stored_orders.get(key)
            if order is None:
                parsed = parse_line(line, grammar)
                if parsed.order is None:
                    continue
                order = self._stored_orders[key] = parsed.order
            orders.append(order)
        return orders

    def position_of(self, game: Game) -> Position:
        """The game's position, decoded once per loaded game object (and again when it changes)."""
        if game.position is None:
            raise ValueError(f"game {game.name} has not started")
        cached = game.__dict__.get("_decoded_position")
        if cached is not None and cached[0] is game.position:
            return cached[1]
        from gm.store.codec import decode_position

        position = decode_position(self.variant_of(game), game.position)
        game.__dict__["_decoded_position"] = (game.position, position)
        return position

    def audit(self, session: Any, game: Game | None, actor: str, action: str, **details: Any) -> None:
        """An entry in the audit log, in the caller's transaction (a plain INSERT on the
        session's connection, as for mails: gm.games.mailer.Mailer.queue_rows)."""
        session.connection().execute(_audit_insert(), {"game_id": game.id if game else None, "actor": actor, "action": action,
                                        "details": details, "at": self.clock.now()})


