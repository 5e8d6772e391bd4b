"""STATUS for a game master (signed on as GM, not acting as a power): each power's player with
the record of deadlines kept, late and missed, in this game and across every game on this judge
(gm.games.records); the powers open for takeover, the asks waiting for the GM's answer, and how
many stand by. njudge shows a GM each player's dedication; gm shows the counts it is made of."""

from __future__ import annotations

from sqlalchemy.orm import Session

from gm.commands.base import MailContext
from gm.games import openings, records
from gm.games.lifecycle import current_seats
from gm.games.mailer import hang
from gm.games.context import Services
from gm.store.models import Game, Opening, Player


def gm_status(ctx: MailContext, game: Game) -> list[str]:
    session = ctx.session
    seats = sorted((s for s in current_seats(game) if s.power), key=lambda s: s.power or "")
    if not game.position:
        return [f"{len(seats)} players have joined {game.name}; deadlines begin when it starts."]
    here = records.by_seat(session, game)
    across = records.by_player(session, [s.player_id for s in seats if s.player_id is not None])
    lines = ["", hang("The players, and their deadlines kept, late (only in the grace) and missed: in this "
                      "game, and in every game on this judge.", 0)]
    for seat in seats:
        if seat.player is None:
            lines.append(f"  {seat.power:<12} no player")
            continue
        name = f" ({seat.player.name})" if seat.player.name else ""
        lines.append(hang(f"  {seat.power:<12} {seat.player.email}{name}, {seat.status}", 16))
        record = across.get(seat.player.id)
        lines.append(hang(f"{'':15}here: {records.of_seat(here, seat)}", 17))
        if record is not None:
            games = f"{record.games} game{'s' if record.games != 1 else ''}"
            left = f"; left {record.left} before the end" if record.left else ""
            lines.append(hang(f"{'':15}on this judge: {record.tally} in {games}{left}", 17))
    open_now = openings.live(session, game)
    if open_now:
        lines += ["", "Open powers:"]
        for opening in open_now:
            seat = openings.holder(game, opening)
            lines.append(hang(f"  {seat.power if seat else '?'}: {opening_stage(ctx.services, session, game, opening)}", 4))
    asks = openings.waiting_asks(session, game, open_only=True)
    if asks:
        lines += ["", hang("Asks to take over, waiting for your answer (APPROVE <address> or REFUSE <address>):", 0)]
        for request in asks:
            player = session.get(Player, request.player_id)
            opening = session.get(Opening, request.opening_id)
            seat = openings.holder(game, opening) if opening is not None else None
            lines.append(f"  {player.email if player else '?'} for {seat.power if seat else '?'}")
    named, anyone = len(openings.standbys(session, game)), len(openings.standbys(session, None))
    lines += ["", hang(f"Standing by: {named} for {game.name}, {anyone} for any game"
                       + (" (a private game asks only its own)." if ctx.services.settings_of(game).private else "."), 0)]
    return lines


def opening_stage(services: Services, session: Session, game: Game, opening: Opening) -> str:
    """Where an open power stands: offered to a standby (until when), to everyone, or the GM's."""
    if openings.offered_to_everyone(services, game, opening):
        return f"open to everyone ({openings.policy_words(services, game)})"
    if opening.public_at is not None:
        return "waits for you to REPLACE its player (the game's takeover setting is none)"
    player = session.get(Player, opening.offered_to) if opening.offered_to is not None else None
    if player is None:
        return "being offered"
    if opening.offer_until is None:
        return f"offered to {player.email}, who stands by and has asked for it"
    return f"offered to {player.email}, who stands by, until {openings.when(services, game, opening.offer_until)}"
