"""The picture of a stored phase (its orders drawn with their outcomes), or of a game as it stands."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.adjudicator.engine import adjudicate
from gm.adjudicator.variant import Variant
from gm.games.context import Services
from gm.games.orderbook import parse_stored
from gm.orders import OrderGrammar
from gm.render import render_phase_png
from gm.store.codec import decode_position
from gm.store.models import Game, PhaseRecord


def phase_report(variant: Variant, record: PhaseRecord, seed: str):  # type: ignore[no-untyped-def]
    """A processed phase adjudicated again from its stored position and orders, with the game's
    dice seed (the engine is deterministic, so this is the outcome the players were sent)."""
    position = decode_position(variant, record.position_before)
    grammar = OrderGrammar.for_variant(variant)
    orders = [(power, order) for power, lines in (record.orders or {}).items() for order in parse_stored(grammar, lines)]
    return position, adjudicate(variant, position, orders, seed=seed)


def phase_png(services: Services, game: Game, record: PhaseRecord) -> bytes:
    variant = services.variant_of(game)
    position, report = phase_report(variant, record, game.dice_seed)
    return render_phase_png(variant, position, report)


def current_png(services: Services, game: Game) -> bytes:
    return render_phase_png(services.variant_of(game), services.position_of(game))


def start_png(services: Services, session: Session, game: Game) -> bytes | None:
    """The board the game started from: its first phase's position, once that phase is stored
    (the game may have moved on before the start mail goes out), else the game as it stands."""
    first = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game.id)
                            .order_by(PhaseRecord.seq, PhaseRecord.id).limit(1)).first()
    if first is not None:
        variant = services.variant_of(game)
        return render_phase_png(variant, decode_position(variant, first.position_before))
    return current_png(services, game) if game.position else None
