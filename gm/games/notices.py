"""Mails about a game to its players, its GM and its observers, each in the reader's own zone."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.store.models import Game, Seat, WebRole
from gm.games.mailer import reader_zone
from gm.games.observers import observers_of


class Recipient(NamedTuple):
    address: str
    zone: str  # the reader's time zone
    seat: Seat | None  # a player's
    role: str  # WebRole.PLAYER, WebRole.GM or WebRole.OBSERVER


def recipients(services: Services, game: Game) -> list[Recipient]:
    """Every player, then the GM and the observers (an address once, in its first role)."""
    settings = services.settings_of(game)
    result: list[Recipient] = []
    for seat in game.seats:
        if seat.left_at is None and seat.player is not None:
            result.append(Recipient(seat.player.email, reader_zone(seat.player.timezone, settings.schedule.zone.key),
                                    seat, WebRole.PLAYER))
    seen = {recipient.address.lower() for recipient in result}
    for address, role in ((settings.gm, WebRole.GM), *((a, WebRole.OBSERVER) for a in observers_of(services, game))):
        if address.lower() not in seen:
            seen.add(address.lower())
            result.append(Recipient(address, settings.schedule.zone.key, None, role))
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
    per_reader: Callable[[Recipient], tuple[Hashable, dict[str, Any]]] | None = None,
    **context: Any,
) -> None:
    """``per_reader``: all the text depends on of its reader besides its zone, as a key and what
    the template is given for it (results mails: the press the reader reads); readers with the
    same zone and key get the same text, rendered once, and the template no ``seat``. Without
    it, the text is rendered for each reader, given its seat."""
    texts: dict[Hashable, str] = {}
    rows = []
    for recipient in recipients(services, game):
        address, zone, seat, _ = recipient
        body = None
        if per_reader is not None:
            key, extra = per_reader(recipient)
            body = texts.get((zone, key))
            if body is None:
                body = texts[(zone, key)] = services.mailer.render(template, game=game, seat=None, zone=zone,
                                                                   **context, **extra)
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
