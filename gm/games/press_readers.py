"""Who reads a press: one rule for press mailed when it is sent, press held for the results and
mailed with them, HISTORY and the web's pages, so that no two of them can tell a press to
different readers.

- A power reads press to everyone, press that names it among its recipients, and its own.
- The game master reads all press (the game's press rules bind the players, not the GM).
- Press to the game master (``PRESS TO GM``, whatever the game's press rules) is read by the GM
  and its sender alone.
- An observer reads what anyone reads on the game's public page: press to everyone, white or
  grey, never press to some powers only. It writes to the game master alone (read by the GM and
  itself), or, where the game's press allows observers (``press: {observers: white}``), to
  everyone: signed "an observer" and read by everyone.
- Once the game is over, its players and GM may send statements for the days its settings give
  (``eog_days``): press to everyone, signed, read by everyone; SUMMARY and the web collect them.
- Press held for the results (``WITH RESULTS``) is read by nobody but its sender until the
  results are out; then by exactly those who would have read it had it been sent at once.

Mailed, at once or with the results, a press goes to each of its readers but its sender, whose
reply said it was sent. Press belongs to the powers' seats (``Seat.power_key``), not their names;
press stored before it had seats is read by its names. A player who took a power over (REPLACE,
a takeover) reads its private press only from then on: what was sent to or by the power before
stays its old player's (press to everyone stays everyone's).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from gm.store.models import Game, Press, Seat, WebRole

PUBLIC = "public"  # anyone: a stranger on the web (and, for press, an observer)


@dataclass(frozen=True)
class Reader:
    role: str  # WebRole.PLAYER, WebRole.GM, WebRole.OBSERVER or PUBLIC
    seat: Seat | None = None  # a power's seat (PLAYER)
    address: str = ""  # an observer's (its own press to the GM)

    @classmethod
    def of(cls, role: str, seat: Seat | None, address: str = "") -> Reader:
        """A seat's player, or what ``role`` names (a GM or an observer has no seat)."""
        if seat is not None and seat.power:
            return cls(WebRole.PLAYER, seat)
        return cls(role, address=address.lower() if role == WebRole.OBSERVER else "")


GAME_MASTER = Reader(WebRole.GM)
OBSERVER = Reader(WebRole.OBSERVER)
ANYONE = Reader(PUBLIC)


def is_out(press: Press) -> bool:
    """Sent at once, or held and published with its results."""
    return not press.with_results or press.published_seq is not None


def sent_by(press: Press, reader: Reader) -> bool:
    if reader.role == WebRole.GM:
        return press.sender_power is None and not press.sender_observer
    if reader.role == WebRole.OBSERVER:
        return bool(press.sender_observer) and press.sender_observer == reader.address
    seat = reader.seat
    if reader.role != WebRole.PLAYER or seat is None:
        return False
    if press.recipient_seats is None and press.sender_seat is None:  # stored before press had seats
        return press.sender_power is not None and press.sender_power == seat.power
    return press.sender_seat == seat.power_key and not before_tenure(press, seat)


def to_everyone(press: Press) -> bool:
    return not press.recipients and not press.to_gm


def reads(press: Press, reader: Reader) -> bool:
    """Whether ``reader`` may read ``press`` now (in HISTORY, on the web; see the module)."""
    if sent_by(press, reader):
        return True
    if not is_out(press):
        return False
    if reader.role == WebRole.GM or to_everyone(press):
        return True
    seat = reader.seat
    if reader.role != WebRole.PLAYER or seat is None or press.to_gm:
        return False  # an observer, anyone: never press to some powers only
    if before_tenure(press, seat):
        return False  # the private press of the power's player before this one
    if press.recipient_seats is None:
        return seat.power in press.recipients
    return seat.power_key in press.recipient_seats


def before_tenure(press: Press, seat: Seat) -> bool:
    """Whether ``press`` was sent before ``seat``'s player took the power over (REPLACE, a
    takeover: a seat that carries on another); what was sent to or by the power before is its
    old player's."""
    return seat.first_seat_id is not None and press.sent_at < seat.joined_at


def mailed_to(press: Press, reader: Reader) -> bool:
    """Whether ``press``, being mailed (at once, or with its results), goes to ``reader``."""
    return not sent_by(press, reader) and reads(press, reader)


def statements_until(game: Game, days: int) -> datetime | None:
    """Until when the players of a game that is over may send statements (None: it is not over,
    or its settings give none)."""
    if game.finished_at is None or days <= 0:
        return None
    return game.finished_at + timedelta(days=days)


def is_statement(press: Press, game: Game) -> bool:
    """A statement sent once the game was over (press to everyone, by a player or the GM)."""
    return game.finished_at is not None and press.sent_at >= game.finished_at and to_everyone(press)


def signed(press: Press, mine: bool = False) -> str:
    """Who a press is from, as its readers are told (``mine``: to its sender, or the GM, who
    know who wrote a grey one, and which observer wrote to everyone)."""
    if press.sender_observer:
        return f"the observer {press.sender_observer}" if press.to_gm or mine else "an observer"
    if press.sender_power is None:
        return "the game master"
    return "an anonymous power" if press.grey and not mine else press.sender_power


def addressed_to(press: Press, names: list[str]) -> str:
    """Whom a press is to, as its readers are told (``names``: its recipients' names)."""
    if press.to_gm:
        return "the game master"
    return ", ".join(names) if names else "everyone"
