"""Mails about a game to its players, its GM and its observers, each in the reader's own zone."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.store.models import Game, Seat
from gm.games.mailer import reader_zone


def recipients(services: Services, game: Game) -> list[tuple[str, str, Seat | None]]:
    """(address, time zone, seat) for every player, then the GM and the observers."""
    settings = services.settings_of(game)
    result: list[tuple[str, str, Seat | None]] = []
    for seat in game.seats:
        if seat.left_at is None and seat.player is not None:
            result.append((seat.player.email, reader_zone(seat.player.timezone, settings.schedule.zone.key), seat))
    seen = {address for address, _, _ in result}
    for address in (settings.gm, *settings.observers):
        if address.lower() not in seen:
            seen.add(address.lower())
            result.append((address, settings.schedule.zone.key, None))
    return result


def tell_everyone(
    services: Services,
    session: Session,
    game: Game,
    *,
    template: str,
    kind: str,
    subject: str,
    attach_phase_id: int | None = None,
    reader_key: Callable[[str, Seat | None], Hashable] | None = None,
    **context: Any,
) -> None:
    """``reader_key``: all the text depends on of its reader (given the zone and seat); readers
    with the same key get the same text, rendered once (results mails: the zone and the press
    the reader may read). Without it, the text is rendered for each reader."""
    texts: dict[Hashable, str] = {}
    rows = []
    for address, zone, seat in recipients(services, game):
        body = None
        if reader_key is not None:
            key = reader_key(zone, seat)
            body = texts.get(key)
            if body is None:
                body = texts[key] = services.mailer.render(template, game=game, seat=seat, zone=zone, **context)
        rows.append(services.mailer.outbox_row(
            to=address, subject=f"{services.config.judge_name}: {subject}", template=template,
            kind=kind, game_id=game.id, attach_phase_id=attach_phase_id, body=body,
            game=game, seat=seat, zone=zone, **context,
        ))
    services.mailer.queue_rows(session, rows)


def tell_gm(services: Services, session: Session, game: Game | None, *, subject: str, text: str) -> None:
    address = services.settings_of(game).gm if game is not None else services.config.admin_address
    services.mailer.queue(
        session, to=address, subject=f"{services.config.judge_name}: {subject}", template="mail/gm_alert.txt.j2",
        kind="gm-alert", game_id=game.id if game else None, game=game, text=text,
    )
