"""Press: messages between powers, relayed by the game's press rules and archived.

No player's address is ever given to another: press goes out from the judge, signed with the
power's name (or with nothing, as grey press). What the sender wrote is relayed framed as
theirs, every line marked (gm.games.plaintext.quoted), so no line of it can pass for the judge.

Grey press never tells its sender: every recipient sees the list as the sender wrote it (with
the sender when it named itself), and a list of every power but the sender is press to
everyone. Press belongs to the powers' seats (Seat.power_key), not their names: a power renamed
keeps it, a newcomer given an old name never sees it; a replacement takes over the power's.

Who reads a press, mailed at once, held for the results or listed by HISTORY, is one rule
(gm.games.press_readers): the powers it names (or every power), the game master, observers
only press to everyone; press held for the results nobody but its sender until they are out.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.games import notices
from gm.games.lifecycle import current_seats, power_named, seat_of
from gm.games.plaintext import quoted
from gm.games.mailer import format_moment, reader_zone
from gm.games.press_readers import (
    ANYONE, GAME_MASTER, PUBLIC, Reader, addressed_to, mailed_to, reads, sent_by, signed, statements_until,
)
from gm.settings.model import ObserverPress
from gm.store.models import Game, GameStatus, Press, SeatStatus, WebRole

GREY_WORDS = ("GREY", "GRAY")
GM_WORDS = ("GM", "MASTER", "GAMEMASTER", "GAME MASTER")  # PRESS TO GM: the game master
LONGEST_NAME = 6  # words: a power's name is tried from this many words down


@dataclass(frozen=True)
class PressRequest:
    """What a PRESS line asks for."""

    grey: bool
    later: bool  # WITH RESULTS: held for the results of the phase
    recipients: list[str]  # power names as the sender listed them ([]: everyone, or the GM alone)
    to_gm: bool = False  # TO GM: the game master alone


class SendPress(Command):
    name = "PRESS"
    usage = "PRESS [GREY] [TO <power> ... | TO GM] [WITH RESULTS]   ...text...   ENDPRESS"
    summary = ("send a message to some powers (or to all when no TO), up to ENDPRESS; GREY leaves your "
               "name out; TO GM: to the game master alone, in every game whatever its press (the game "
               "master answers one power with PRESS TO <power>)")
    takes_body = True
    broadcast = False

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game = ctx.require_game()
        sender = None if ctx.is_gm and ctx.acting_as is None else ctx.power
        observer = ctx.observer if sender is None and not ctx.is_gm else ""
        if sender is None and not ctx.is_gm and not observer:
            raise CommandError("sign on as a power to send press")
        request = self._read(ctx, game, invocation.args)
        if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED, GameStatus.FORMING):
            _statement_allowed(ctx, game, request, observer)
        if request.to_gm:
            if sender is None and not observer:
                raise CommandError("you are the game master: PRESS TO <power> writes to a power")
            if request.grey:
                raise CommandError("press to the game master is signed: leave out GREY")
            recipients: list[str] = []
        elif observer:
            _observer_allowed(ctx, game, request)
            recipients = []
        else:
            recipients = _addressed(game, request, sender)
            if game.status != GameStatus.FINISHED:  # a statement after the end: whatever the press rules
                self._allowed(ctx, game, request, recipients, sender)
        text = "\n".join(invocation.body).strip("\n")
        if not text.strip():
            raise CommandError("the press has no text (end it with ENDPRESS)")
        press = Press(game_id=game.id, phase=game.phase, sender_power=sender, recipients=recipients,
                      sender_seat=_key(game, sender), recipient_seats=[_key(game, r) for r in recipients],
                      grey=request.grey, to_gm=request.to_gm, sender_observer=observer,
                      with_results=request.later, published_seq=None, body=text,
                      inbound_id=ctx.inbound_id, sent_at=ctx.now)
        ctx.session.add(press)
        to = "the game master" if request.to_gm else ", ".join(recipients) if recipients else "everyone"
        if request.later:
            return [f"Press to {to} will be published with the results of this phase"
                    + (", without your name." if request.grey else ".")]
        self._relay(ctx, game, press)
        return [f"Press sent to {to}" + (" without your name." if request.grey else ".")]

    @staticmethod
    def _allowed(ctx: MailContext, game: Game, request: PressRequest, recipients: list[str], sender: str | None) -> None:
        """The game's press rules bind the players (never the GM, nor press to the GM)."""
        rules = ctx.services.settings_of(game).press
        if ctx.is_gm:
            return
        if not rules.any:
            raise CommandError(f"{game.name} has no press (PRESS TO GM still reaches the game master)")
        if request.grey and not rules.grey:
            raise CommandError(f"{game.name} does not allow grey (anonymous) press")
        if not request.grey and not rules.white:
            raise CommandError(f"{game.name} allows only grey press: write PRESS GREY")
        if recipients and not rules.partial:
            raise CommandError(f"{game.name} allows only press to everyone (BROADCAST)")
        if ctx.seat is not None and ctx.seat.status == SeatStatus.ELIMINATED and not rules.eliminated:
            raise CommandError(f"{sender} is out of the game: in {game.name} powers that are out send no press")

    def _read(self, ctx: MailContext, game: Game, args: str) -> PressRequest:
        """GREY, TO and the powers, WITH RESULTS, in any order; a power's name of several words
        is read whole, the longest that names a power first (so a name is never taken for a word
        of PRESS)."""
        variant = ctx.services.variant_of(game)
        words = args.replace(",", " ").split()
        grey = later = to_gm = False
        listed: list[str] | None = None
        index = 0
        while index < len(words):
            word = words[index].upper()
            if listed is not None and not self.broadcast:
                size = _gm_at(words, index)
                if size:
                    to_gm, index = True, index + size
                    continue
            if listed is not None:
                found, size = _power_at(game, variant, words, index)
                if found is not None:
                    if found not in listed:
                        listed.append(found)
                    index += size
                    continue
            if word in GREY_WORDS:
                grey, index = True, index + 1
            elif word == "WITH" and index + 1 < len(words) and words[index + 1].upper() == "RESULTS":
                later, index = True, index + 2
            elif word == "TO" and listed is None and not self.broadcast:
                listed, index = [], index + 1
            elif listed is not None:
                raise CommandError(f"no power {words[index]!r} in {game.name}")
            else:
                raise CommandError(f"{words[index]!r}? write {self.usage}")
        if listed is not None and not listed and not to_gm:
            raise CommandError("name at least one power after TO")
        # The game master reads all press: named beside powers, it is press to them.
        return PressRequest(grey, later, listed or [], to_gm=to_gm and not listed)

    def _relay(self, ctx: MailContext, game: Game, press: Press) -> None:
        """Mailed at once to its readers (gm.games.press_readers: the powers it names, or every
        power; the GM; observers only press to everyone), never back to the address it came from."""
        signature = signed(press)
        heading = f"Press from {signature} to {addressed_to(press, press.recipients)} in {game.name}"
        for recipient in notices.recipients(ctx.services, game):
            reader = Reader.of(recipient.role, recipient.seat, recipient.address)
            if recipient.address.lower() == ctx.sender or not mailed_to(press, reader):
                continue
            ctx.services.mailer.queue(
                ctx.session, to=recipient.address,
                subject=f"{ctx.services.config.judge_name}: {game.name} press from {signature}",
                template="mail/press.txt.j2", kind="press", game_id=game.id, game=game, zone=recipient.zone,
                heading=heading, text=press.body,
            )


def _statement_allowed(ctx: MailContext, game: Game, request: PressRequest, observer: str) -> None:
    """Once a game is over, its players (and its game master) may send statements to everyone
    for the days its settings give (eog_days), whatever its press rules were: signed, at once."""
    settings = ctx.services.settings_of(game)
    until = statements_until(game, settings.eog_days)
    if observer or until is None:
        raise CommandError(f"{game.name} is over")
    if ctx.now >= until:
        closed = format_moment(until, reader_zone(None, settings.schedule.zone.key))
        raise CommandError(f"{game.name} is over, and its players' statements closed on {closed}")
    if request.grey or request.later or request.recipients or request.to_gm:
        raise CommandError(f"{game.name} is over: a statement goes to everyone, signed and at once (PRESS ... "
                           "ENDPRESS, without GREY, TO or WITH RESULTS)")


def _observer_allowed(ctx: MailContext, game: Game, request: PressRequest) -> None:
    """An observer writes to everyone where the game's press allows observers (observers: white)."""
    if ctx.services.settings_of(game).press.observers is not ObserverPress.WHITE:
        raise CommandError("an observer writes to the game master only: PRESS TO GM")
    if request.grey or request.recipients:
        raise CommandError("an observer's press goes to everyone, signed (or to the game master alone: PRESS TO GM)")


def _gm_at(words: list[str], index: int) -> int:
    """How many words name the game master at ``index`` (GM, MASTER, GAME MASTER), or 0."""
    for size in (2, 1):
        if " ".join(words[index:index + size]).upper() in GM_WORDS:
            return size
    return 0


def _power_at(game: Game, variant, words: list[str], index: int) -> tuple[str | None, int]:  # type: ignore[no-untyped-def]
    for size in range(min(LONGEST_NAME, len(words) - index), 0, -1):
        found = power_named(game, variant, " ".join(words[index:index + size]))
        if found is not None:
            return found, size
    return None, 0


def _addressed(game: Game, request: PressRequest, sender: str | None) -> list[str]:
    """The recipients as every one of them is shown them: signed press leaves out the sender;
    grey press keeps the sender where it named itself (leaving it out would name it); a list
    of every power but the sender is to everyone."""
    if not request.recipients:
        return []
    listed = [p for p in request.recipients if request.grey or p != sender]
    others = {s.power for s in current_seats(game) if s.power and s.power != sender}
    if others and others <= set(listed):
        return []
    if not listed:
        raise CommandError("name at least one other power after TO")
    return listed


def _key(game: Game, power: str | None) -> int | None:
    seat = seat_of(game, power) if power is not None else None
    return seat.power_key if seat is not None else None


class Broadcast(SendPress):
    name = "BROADCAST"
    usage = "BROADCAST [GREY] [WITH RESULTS]   ...text...   ENDPRESS"
    summary = "send a message to every power, up to ENDPRESS; GREY leaves your name out"
    broadcast = True


def reader_of(ctx: MailContext, game: Game) -> Reader:
    """Who reads ``game``'s press in this mail: what it is signed on to the game as (a power, its
    game master, an observer), else anyone (a stranger sees what a stranger on the web sees)."""
    if ctx.game is None or ctx.game.id != game.id:
        return ANYONE
    if ctx.is_gm:
        return GAME_MASTER
    power = ctx.power
    seat = seat_of(game, power) if power is not None else None
    return Reader.of(WebRole.OBSERVER if ctx.observer else PUBLIC, seat, ctx.observer)


def visible_press(ctx: MailContext, game: Game, phases: set[str] | None = None) -> list[str]:
    """The archived press that the reader may read (gm.games.press_readers): press to everyone,
    and press its power sent or received, by the power's seat whatever it is named now (press
    held for the results only once the results are out). The game master reads all of it.
    ``phases``: only press sent in these phases."""
    reader = reader_of(ctx, game)
    names = _names_now(game)
    lines: list[str] = []
    for press in ctx.session.scalars(select(Press).where(Press.game_id == game.id).order_by(Press.id)):
        if not reads(press, reader) or (phases is not None and press.phase not in phases):
            continue
        mine = sent_by(press, reader)
        legacy = press.recipient_seats is None  # stored before press had seats: read by its names
        who = signed(press, mine=mine or reader.role == WebRole.GM)
        if press.sender_seat and press.sender_power is not None and who == press.sender_power:
            who = names.get(press.sender_seat, press.sender_power)
        listed = press.recipients if legacy else [names.get(k, n) for k, n in zip(press.recipient_seats, press.recipients)]
        to = addressed_to(press, listed)
        lines += ["", f"Press in {press.phase} from {who} to {to}:", quoted(press.body)]
    return lines


def _names_now(game: Game) -> dict[int, str]:
    """Each power's name now, by its seats' key (a power that left: its last name)."""
    names: dict[int, str] = {}
    for seat in sorted(game.seats, key=lambda s: (s.left_at is None, s.id)):
        if seat.power:
            names[seat.power_key] = seat.power
    return names
