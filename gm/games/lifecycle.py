"""A game's life before and after play: created from its settings, joined, started, ended."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, joinedload

from gm.games.context import Services
from gm.games.passwords import hash_secret, new_secret
from gm.games.schedule import reschedule, start_phase
from gm.settings.files import digest
from gm.settings.model import Assignment, GameSettings, StartPolicy, format_duration
from gm.adjudicator.engine import PhaseReport
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.variant import Variant
from gm.domain.position import Position
from gm.games.names import NameRules, taken_names
from gm.games.notices import recipients, tell_everyone
from gm.games.reveal import player_name, players_named
from gm.reports.names import Namer, off_board
from gm.reports.examples import examples_for
from gm.reports.results import results_context, shown_rolls
from gm.store.codec import decode_position, encode_position
from gm.store.models import Game, GameStatus, PhaseRecord, Player, Seat, SeatStatus, WebRole
from gm.variants.setup import setup_of


class GameError(Exception):
    """An action that the game's state does not allow; the message is for the person who asked."""


@dataclass(frozen=True)
class Joined:
    seat: Seat
    secret: str


# Statements built once: building a statement costs more than running it
# (docs/design/performance.md).
_GAME_NAMED = select(Game).where(Game.name == bindparam("name")).options(
    joinedload(Game.seats).joinedload(Seat.player))
# Locked: whoever changes a game holds its row until commit, so a phase is processed either
# before a mail's commands or after them, never under them. The row is locked alone, then the
# game and its seats read by a statement of their own: on PostgreSQL a statement that waited
# for a lock sees the locked row as committed since, but the rows joined to it (the seats) as
# they were when it began, so two players' last orders, each handled while the other's was
# being committed, each saw the other's power not ready, and the phase never went early.
_LOCK_NAMED = select(Game.id).where(Game.name == bindparam("name")).with_for_update()
_LOCK = select(Game.id).where(Game.id == bindparam("id")).with_for_update()
# For the scheduler's first pass alone (over the due games, and the open powers' offers): a game
# another transaction holds is passed over, not waited for, so two processes ticking at once share
# the games instead of each waiting on the one the other is processing (a mail's commands must
# still wait for their game).
_LOCK_IF_FREE = select(Game.id).where(Game.id == bindparam("id")).with_for_update(skip_locked=True)
_GAME_AFRESH = (select(Game).where(Game.id == bindparam("id"))
                .options(joinedload(Game.seats).joinedload(Seat.player)).execution_options(populate_existing=True))


def find_game(session: Session, name: str, *, lock: bool = False) -> Game | None:
    """The game and its seats with their players (nearly every caller needs them); ``lock``:
    for a caller that may change it (held to the end of the transaction)."""
    if not lock:
        return session.scalars(_GAME_NAMED, {"name": name}).unique().first()
    game_id = session.scalar(_LOCK_NAMED, {"name": name})
    return None if game_id is None else _afresh(session, game_id)


def lock_game(session: Session, game_id: int, *, skip_held: bool = False) -> Game | None:
    """The game by its id, locked and read afresh (as ``find_game(lock=True)``); None if there is
    none. ``skip_held``: None at once, not waiting, while another transaction holds the game
    (PostgreSQL's SKIP LOCKED; on SQLite the transaction holds the whole database already)."""
    locked = session.scalar(_LOCK_IF_FREE if skip_held else _LOCK, {"id": game_id})
    return None if locked is None else _afresh(session, game_id)


def _afresh(session: Session, game_id: int) -> Game | None:
    return session.scalars(_GAME_AFRESH, {"id": game_id}).unique().first()


def player_for(services: Services, session: Session, email: str, name: str = "", timezone: str | None = None) -> Player:
    address = email.strip().lower()
    player = session.scalar(select(Player).where(Player.email == address))
    if player is None:
        player = Player(email=address, name=name, timezone=timezone or "", preferences={},
                        created_at=services.clock.now())
        session.add(player)
        session.flush()
    elif timezone and player.timezone in ("", "UTC"):
        player.timezone = timezone
    return player


def current_seats(game: Game) -> list[Seat]:
    return [s for s in game.seats if s.left_at is None]


def seat_of(game: Game, power: str) -> Seat | None:
    for seat in current_seats(game):
        if seat.power == power:
            return seat
    return None


def game_powers(game: Game, variant: Variant) -> list[str]:
    """The powers a game is played with: its map's, or those its players founded as they joined."""
    return list(variant.map.powers) or [s.power for s in current_seats(game) if s.power]


def power_named(game: Game, variant: Variant, text: str) -> str | None:
    """The game's power a player means (a name, an alias of the map, or the power's initial)."""
    found = variant.map.power_named(text)
    if found is not None:
        return found.name
    names = game_powers(game, variant)
    by_name = [n for n in names if n.casefold() == text.strip().casefold()]
    initial = [n for n in names if len(text.strip()) == 1 and n[0].upper() == text.strip().upper()]
    return next(iter(by_name), None) or (initial[0] if len(initial) == 1 else None)


def name_rules(services: Services, game: Game, renaming: Seat | None = None) -> NameRules:
    """What a power's new name is checked against: every name used in the game, by a seat now or
    before (a name is never used twice in a game), the map's powers and those nobody plays;
    ``renaming``: the seat being renamed, whose own name may change its case."""
    variant = services.variant_of(game)
    mine = renaming.power_key if renaming is not None else None
    used = [s.power for s in game.seats if s.power and (mine is None or s.power_key != mine)]
    return NameRules(taken=taken_names([*used, *variant.map.powers, *variant.unplayed_powers]),
                     judge=services.config.judge_name)


def create_or_update(services: Services, session: Session, settings: GameSettings, yaml_text: str, source: str,
                     *, by: str | None = None) -> Game:
    """Bring the stored game in line with its settings file (the GM's edits take effect here);
    ``by``: the game master who changed it by mail (told in the reply, so not mailed again)."""
    game = find_game(session, settings.name, lock=True)
    if game is None:
        return create_game(services, session, settings, yaml_text, source, mail_secret=True)[0]
    text_digest = digest(yaml_text)
    if game.settings_digest == text_digest:
        return game
    if settings.variant != game.variant and game.status != GameStatus.FORMING:
        raise GameError(f"the variant of a started game cannot change (it is {game.variant})")
    before = services.settings_of(game)
    game.variant = settings.variant
    game.settings = {"yaml": yaml_text, "name": settings.name}
    game.settings_source = source
    game.settings_digest = text_digest
    if before == settings:
        return game  # the file changed elsewhere (another game in it)
    services.audit(session, game, by or settings.gm, "settings-changed", source=source, by_mail=by is not None)
    _tell_settings_changed(services, session, game, before, settings, source, by)
    known = {s.player.email for s in current_seats(game) if s.player}
    for entry in settings.players:
        if entry.email.lower() not in known and game.status == GameStatus.FORMING:
            _welcome(services, session, game, join(services, session, game, entry.email, entry.name, entry.power, entry.timezone))
    if game.status == GameStatus.ACTIVE and before.schedule != settings.schedule:
        reschedule(services, session, game, reason="the game master changed the deadlines")
    maybe_start(services, session, game)
    return game


def create_game(services: Services, session: Session, settings: GameSettings, yaml_text: str, source: str, *,
                mail_secret: bool) -> tuple[Game, str]:
    """A new game from its settings, with its game master secret (mailed to the GM when
    ``mail_secret``; else the caller gives it, as CREATE's reply does)."""
    if not services.known_variant(settings.variant):
        raise GameError(f"unknown variant {settings.variant!r}")
    game = Game(
        name=settings.name,
        variant=settings.variant,
        status=GameStatus.FORMING,
        settings={"yaml": yaml_text, "name": settings.name},
        settings_source=source,
        settings_digest=digest(yaml_text),
        created_at=services.clock.now(),
        phase_seq=0,
    )
    gm_secret = new_secret()
    game.gm_secret_hash = hash_secret(gm_secret)
    session.add(game)
    session.flush()
    services.audit(session, game, "system", "created", source=source, variant=settings.variant)
    if mail_secret:
        services.mailer.queue(
            session, to=settings.gm, subject=f"{services.config.judge_name}: game {game.name} created",
            template="mail/created.txt.j2", kind="created", game_id=game.id, game=game, secret=gm_secret,
            settings=settings, secrets=[gm_secret],
        )
    for entry in settings.players:
        joined = join(services, session, game, entry.email, entry.name, entry.power, entry.timezone)
        _welcome(services, session, game, joined)
    maybe_start(services, session, game)
    return game, gm_secret


# What a change of these says to players and observers: that they changed, not to whom (the
# addresses are the game master's to know).
_ADDRESSES = ("gm", "players", "observers")


def _tell_settings_changed(services: Services, session: Session, game: Game, before: GameSettings,
                           after: GameSettings, source: str, by: str | None) -> None:
    """Everyone of the game is told what changed (its game master in full; the others without
    addresses), but the game master who changed it by mail, whose reply says so."""
    changes = settings_changes(before, after)
    public = [f"{name}: changed" if name in _ADDRESSES else line
              for line in changes for name in [line.split(":", 1)[0]]]
    rows = []
    for recipient in recipients(services, game):
        if by is not None and recipient.address.lower() == by.lower():
            continue
        full = recipient.role == WebRole.GM
        rows.append(services.mailer.outbox_row(
            to=recipient.address, subject=f"{services.config.judge_name}: new settings of {game.name} in force",
            template="mail/settings_changed.txt.j2", kind="settings", game_id=game.id, game=game,
            changes=changes if full else public, source=source, by_mail=by is not None, zone=recipient.zone,
        ))
    services.mailer.queue_rows(session, rows)


def settings_changes(before: GameSettings, after: GameSettings) -> list[str]:
    """What a GM's edit changed, setting by setting, in words."""
    changes = []
    for name in before.__dataclass_fields__:
        old, new = getattr(before, name), getattr(after, name)
        if old != new:
            changes.append(f"{name}: {_describe(old)} -> {_describe(new)}")
    return changes


def _describe(value: Any) -> str:
    if isinstance(value, tuple):
        return ", ".join(_describe(v) for v in value) or "none"
    if hasattr(value, "__dataclass_fields__"):
        return "; ".join(f"{k} {_describe(getattr(value, k))}" for k in value.__dataclass_fields__)
    if hasattr(value, "value"):  # enums
        return str(value.value)
    if isinstance(value, timedelta):
        return format_duration(value)
    if hasattr(value, "key"):  # time zones
        return str(value.key)
    return str(value)


def join(
    services: Services,
    session: Session,
    game: Game,
    email: str,
    name: str = "",
    preference: str | None = None,
    timezone: str | None = None,
) -> Joined:
    variant = services.variant_of(game)
    if setup_of(variant).open_membership:
        return _join_open(services, session, game, email, name, preference or "", timezone)
    if game.status != GameStatus.FORMING:
        raise GameError(f"game {game.name} has ended: no one joins it now" if game.status == GameStatus.FINISHED
                        else f"game {game.name} has started: JOIN {game.name} <power> asks for a power its "
                        "player left (LIST shows them)")
    player = player_for(services, session, email, name, timezone)
    if any(s.player_id == player.id for s in current_seats(game)):
        raise GameError(f"{player.email} has already joined {game.name}")
    if len(current_seats(game)) >= seats_wanted(services, game):
        raise GameError(f"game {game.name} is full")
    wanted = None
    if preference:
        found = variant.map.power_named(preference)
        wanted = found.name if found is not None else setup_of(variant).start_request(preference)
        if wanted is None:
            raise GameError(f"{preference!r} is not a power of {variant.name} (powers: {', '.join(variant.map.powers)})")
    secret = new_secret()
    seat = Seat(game=game, player=player, preference=wanted, secret_hash=hash_secret(secret),
                status=SeatStatus.ACTIVE, joined_at=services.clock.now())
    session.add(seat)
    session.flush()
    services.audit(session, game, player.email, "joined", preference=wanted)
    return Joined(seat, secret)


def _join_open(services: Services, session: Session, game: Game, email: str, name: str, request: str,
               timezone: str | None) -> Joined:
    """A variant whose players found their powers (its set-up's ``open_membership``): the player names
    its choice (a city, a name); while the game forms the choice waits on the seat, once it is
    in play the power waits in the position until the variant brings it in. First come, first
    served: a choice already made by another is refused, and the player may choose again."""
    if game.status not in (GameStatus.FORMING, GameStatus.ACTIVE):
        raise GameError(f"game {game.name} is {game.status}")
    variant = services.variant_of(game)
    player = player_for(services, session, email, name, timezone)
    if any(s.player_id == player.id for s in current_seats(game)):
        raise GameError(f"{player.email} has already joined {game.name}")
    if game.status == GameStatus.FORMING and len(current_seats(game)) >= seats_wanted(services, game):
        raise GameError(f"game {game.name} is full")
    position = services.position_of(game) if game.position is not None else _forming(variant, current_seats(game))
    try:
        power, choice = setup_of(variant).joining_request(request, position)
        power = name_rules(services, game).check(power)
        waiting = setup_of(variant).with_joining(position, power, choice)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    if game.status == GameStatus.ACTIVE:
        game.position = encode_position(waiting)
    secret = new_secret()
    seat = Seat(game=game, player=player, power=power, preference=choice, secret_hash=hash_secret(secret),
                status=SeatStatus.ACTIVE, joined_at=services.clock.now())
    session.add(seat)
    session.flush()
    services.audit(session, game, player.email, "joined", power=power, choice=choice)
    return Joined(seat, secret)


def _forming(variant: Variant, seats: list[Seat]) -> Position:
    """The start, with the choices of those who joined while the game forms."""
    position = variant.initial_position()
    for seat in sorted(seats, key=lambda s: s.joined_at):
        if seat.power and seat.preference:
            position = setup_of(variant).with_joining(position, seat.power, seat.preference)
    return position


def _welcome(services: Services, session: Session, game: Game, joined: Joined) -> None:
    player = joined.seat.player
    assert player is not None
    variant = services.variant_of(game)
    seat = joined.seat
    power = seat.power or (seat.preference if variant.power_named(seat.preference or "") else None)
    services.mailer.queue(
        session, to=player.email, subject=f"{services.config.judge_name}: you joined {game.name}",
        template="mail/joined.txt.j2", kind="joined", game_id=game.id,
        game=game, secret=joined.secret, secrets=[joined.secret], preference=seat.preference, power=power,
        example=first_order_example(services, game, power, seat.preference),
    )


def first_order_example(services: Services, game: Game, power: str | None, choice: str | None = None) -> str | None:
    """An order the player could send first: a move of one of its own units, or, where the players
    found their powers, a build in the place it chose. None while its units are not known (the
    powers or the start are still to be drawn)."""
    variant = services.variant_of(game)
    if setup_of(variant).open_membership:
        province = variant.map.provinces.get(choice or "")
        return f"BUILD A {province.name}" if province is not None else None
    if power is None or (game.position is None and variant.rolls_dice):
        return None  # its units are drawn with the dice when the game starts
    position = services.position_of(game) if game.position else variant.initial_position()
    return examples_for(variant, position, power, own_only=True).move


def seats_wanted(services: Services, game: Game) -> int:
    """How many players the game waits for: its settings' ``seats``, else the most the variant takes."""
    return services.settings_of(game).seats or setup_of(services.variant_of(game)).player_counts()[1]


def maybe_start(services: Services, session: Session, game: Game) -> bool:
    settings = services.settings_of(game)
    full = len(current_seats(game)) == seats_wanted(services, game)
    if game.status == GameStatus.FORMING and full and settings.start is StartPolicy.WHEN_FULL:
        start(services, session, game, actor="system")
        return True
    return False


def start(services: Services, session: Session, game: Game, actor: str) -> None:
    if game.status != GameStatus.FORMING:
        raise GameError(f"game {game.name} is {game.status}, not forming")
    variant = services.variant_of(game)
    seats = current_seats(game)
    fewest, most = setup_of(variant).player_counts()
    if not fewest <= len(seats) <= most:
        wanted = str(most) if fewest == most else f"{fewest} to {most}"
        raise GameError(f"game {game.name} has {len(seats)} players; {variant.name} is played by {wanted}")
    log = PhaseLog(game.dice_seed)
    if setup_of(variant).open_membership:  # the players named their powers when they joined
        opening = setup_of(variant).admit_joining(_forming(variant, seats), log)
    else:
        _assign_powers(services, game, seats, setup_of(variant).powers_in_play(len(seats), log))
        requests = {s.power: s.preference for s in seats if s.power and s.preference
                    and setup_of(variant).start_request(s.preference) == s.preference}
        opening = setup_of(variant).opening([s.power for s in seats if s.power], log, requests)
    position = setup_of(variant).with_options(opening, services.settings_of(game).rules)
    game.position = encode_position(position)
    game.phase = str(position.phase)
    game.phase_seq = 1
    game.status = GameStatus.ACTIVE
    services.audit(session, game, actor, "started", powers={s.power: s.player.email for s in seats if s.player})
    start_phase(services, session, game, position)
    tell_everyone(services, session, game, template="mail/start.txt.j2", kind="start",
                  subject=f"{game.name} has started", seats=seats, variant=variant, position=position,
                  units_named=units_named(variant, position), rolls=shown_rolls(log.rolls),
                  waiting=bool(off_board(variant, position)))


def units_named(variant: Variant, position: Position) -> Callable[[str], list[str]]:
    """A power's units in words, as the start mail lists them: those on the board, then those
    waiting to come onto it (Rise of Rome II's leaders, placed with the first orders)."""
    namer = Namer(variant, position, whole=True)  # for the start mail, folded
    waiting = off_board(variant, position)

    def named(power: str) -> list[str]:
        return ([namer.unit(u) for u in position.units_of(power)]
                + [f"{namer.unit(u)}, to be placed" for u in waiting if u.power == power])

    return named


def _assign_powers(services: Services, game: Game, seats: list[Seat], powers: list[str]) -> None:
    rng = random.Random(f"{game.name}/{game.created_at.isoformat()}")
    settings = services.settings_of(game)
    free = list(powers)
    waiting = list(seats)
    rng.shuffle(waiting)
    if settings.assignment is Assignment.PREFERENCE:
        for seat in sorted(waiting, key=lambda s: s.joined_at):  # first come, first served
            if seat.preference in free:
                seat.power = seat.preference
                free.remove(seat.preference)
    rng.shuffle(free)
    for seat in waiting:
        if seat.power is None:
            seat.power = free.pop()


def finish(services: Services, session: Session, game: Game, result: dict[str, Any],
           record: PhaseRecord | None = None, report: PhaseReport | None = None, actor: str = "system") -> None:
    game.status = GameStatus.FINISHED
    game.result = result
    game.finished_at = services.clock.now()
    game.due_at = None
    game.deadline = None
    services.audit(session, game, actor, "finished", **result)
    from gm.games.summary import who_played, year_by_year  # it reads the deadline records, which read this module

    context: dict[str, Any] = {"result": result, "summary": game_summary(services, session, game),
                               "variant": services.variant_of(game),  # a game with dice publishes its seed
                               "players": who_played(services, session, game) if players_named(services, game) else []}
    if record is not None and report is not None:
        before = decode_position(services.variant_of(game), record.position_before)
        context.update(results_context(services.variant_of(game), record.phase, report, before))
        context["played"] = record.results.get("played", [])  # orders the judge wrote (gm.games.stand_ins)
        context["year_table"] = year_by_year(services, session, game, upto=record)  # beside the chart it carries
    tell_everyone(services, session, game, template="mail/end.txt.j2", kind="end",
                  subject=f"{game.name} is over", attach_phase_id=record.id if record else None, **context)


def game_summary(services: Services, session: Session, game: Game) -> list[dict[str, Any]]:
    """Each power's centres at the end, and who played it (none: a game ended before it started)."""
    if game.position is None:
        return []
    position = services.position_of(game)
    summary = []
    in_play = [s.power for s in current_seats(game) if s.power]  # the powers played, in a game of fewer than all
    for power in in_play or services.variant_of(game).map.powers:
        seat = seat_of(game, power)
        summary.append({
            "power": power,
            # where the game names its players (gm.games.reveal): a name, or the address
            "player": player_name(seat.player) if seat and seat.player and players_named(services, game) else "",
            "centres": len(position.centres_of(power)),
            "units": len(position.units_of(power)),
        })
    counted = "centres" if services.variant_of(game).map.supply_centres else "units"  # no centres: the units left
    return sorted(summary, key=lambda s: (-s[counted], s["power"]))
