"""Commands for players: signing on, joining, orders, waiting, votes, resigning, history, maps."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import bindparam, func, select

from gm.commands.base import Command, CommandError, Invocation, MailContext
from gm.commands.echo import count_lines
from gm.commands.guessing import GM_SEAT, HOUR, MAX_FAILED_PER_ADDRESS, Target, record_failure, refuse_guessers
from gm.commands import takeover
from gm.commands.gm_actions import eject
from gm.commands.gm_status import gm_status
from gm.games import observers, openings, orderbook, records, votes
from gm.games.lifecycle import (
    GameError,
    current_seats,
    find_game,
    first_order_example,
    game_powers,
    join,
    maybe_start,
    power_named,
    seat_of,
    seats_wanted,
)
from gm.games.mailer import format_moment, hang, zone_named
from gm.games.mailer import reader_zone as zone_seen
from gm.games.notices import tell_gm
from gm.games.privacy import game_seen_by, hidden_from, no_such_game
from gm.games.reveal import player_name, players_named
from gm.games.pictures import CHART, announce, chart_title, phase_names, phase_named, record_named
from gm.games.summary import year_by_year
from gm.games.voids import void_by_own_orders
from gm.commands import topics
from gm.reports.counts import plural, units_counted
from gm.reports.names import Namer
from gm.reports.words import words_of
from gm.settings.model import StartPolicy
from gm.store.models import AuditEntry, Game, GameStatus, OpeningReason, PhaseRecord, Seat, SeatStatus
from gm.variants.setup import setup_of

GM_WORDS = ("GM", "MASTER", "GAMEMASTER")
OBSERVER_WORDS = ("OBSERVER",)
OBSERVER_SEAT = "observer"  # the seat a wrong observer secret counts at (gm.commands.guessing)


def reader_zone(ctx: MailContext) -> str:
    game_zone = ctx.services.settings_of(ctx.game).schedule.zone.key if ctx.game is not None else None
    if ctx.seat is not None and ctx.seat.player is not None and not ctx.is_gm:
        return zone_seen(ctx.seat.player.timezone, game_zone)
    return zone_seen(None, game_zone)


def phase_title(ctx: MailContext, game: Game) -> str:
    """The current phase as players read it ("Spring 273 B.C. movement"), never its id."""
    if not game.phase:
        return "before the start"
    variant = ctx.services.variant_of(game)
    return variant.title(variant.calendar.parse(game.phase))


def deadline_line(ctx: MailContext, game: Game) -> str:
    if game.status != GameStatus.ACTIVE or game.deadline is None:
        return f"{game.name} is {game.status}{': ' + game.paused_reason if game.paused_reason else ''}."
    return hang(f"Deadline for {phase_title(ctx, game)}: {format_moment(game.deadline, reader_zone(ctx))}", 4)


_ADJUDICATED_SINCE = (select(PhaseRecord.phase)  # built once
                      .where(PhaseRecord.game_id == bindparam("game"), PhaseRecord.rolled_back.is_(False),
                             PhaseRecord.processed_at > bindparam("received"))
                      .order_by(PhaseRecord.seq).limit(1))


def adjudicated_meanwhile(ctx: MailContext, game: Game) -> list[str]:
    """When a phase was processed after the mail arrived (it waited behind the processing, or
    arrived while it ran), the mail's commands count for the phase now current: say so."""
    if ctx.received_at is None or not game.phase:
        return []
    phase = ctx.session.scalar(_ADJUDICATED_SINCE, {"game": game.id, "received": ctx.received_at})
    if phase is None:
        return []
    variant = ctx.services.variant_of(game)
    return [hang(f"Note: {variant.title(variant.calendar.parse(phase))} was adjudicated while your mail waited "
                 f"to be read; what it asks counts for {phase_title(ctx, game)}.", 4)]


class Signon(Command):
    read_only = True
    name = "SIGNON"
    aliases = ("SIGN-ON", "LOGIN")
    usage = "SIGNON <power> <game> <secret>   (GM or OBSERVER for <power>)"
    summary = "sign on as a power (or as the game master, or an observer) for the rest of this mail"
    secret_forms = ("SIGNON", *aliases)

    def secrets(self, invocation: Invocation) -> list[str]:
        words = invocation.args.split()
        return words[-1:] if len(words) >= 2 else []

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        ctx.leave()  # whatever happens, nothing signed on to before counts after this line
        words = invocation.args.split()
        if len(words) == 2:  # njudge style: the power's initial and the game run together
            who, game_name, secret = words[0][:1], words[0][1:], words[1]
        elif len(words) >= 3:  # a power's name may have several words: "SIGNON Greek States g secret"
            who, game_name, secret = " ".join(words[:-2]), words[-2], words[-1]
        else:
            raise CommandError(f"write {self.usage}")
        if ctx.services.config.require_authentication_results and not ctx.authenticated:
            raise CommandError("this judge takes SIGNON only in mail that its mail server found signed by the "
                               "domain of your address (a DKIM or DMARC pass), and this one was not: send it "
                               "straight from your own mail provider, not forwarded or through another server")
        # Locked for the rest of the mail: its commands run wholly before or after a phase is processed.
        game = find_game(ctx.session, game_name, lock=True) or find_game(ctx.session, game_name.lower(), lock=True)
        if game is not None and not hidden_from(ctx.services, game, ctx.sender):
            return self._signon(ctx, game, who, secret)
        # No such game, or a private one the sender is not inside: the same answer, and the same
        # trace on the sender's count of wrong secrets. A sign-on from outside a game never works
        # (only from the seat's or the game master's own address); tried all the same, it counts
        # at the seat and tells the player or GM of a secret used elsewhere, as in any game.
        before = _failures_from(ctx)
        if game is not None:
            try:
                self._signon(ctx, game, who, secret)
            except CommandError:
                pass
            ctx.leave()
        ctx.keep.append(lambda: _one_failure(ctx, who, before))
        raise CommandError(no_such_game(game_name))

    def _signon(self, ctx: MailContext, game: Game, who: str, secret: str) -> list[str]:
        if who.upper() in GM_WORDS:
            return self._gm(ctx, game, secret)
        if who.upper() in OBSERVER_WORDS:
            return self._observer(ctx, game, secret)
        seat = self._seat(ctx, game, who)
        assert seat.power is not None
        holder = seat.player.email if seat.player else None
        target = Target(game, seat.power, holder, seat)
        refuse_guessers(ctx, secret, seat.secret_hash, target)
        right = seat.player is not None and bool(seat.secret_hash) and ctx.services.secrets.verify(secret, seat.secret_hash)
        if ctx.sender != holder:
            # From any other address the answer is the same, right secret or wrong: no oracle.
            # Both count against the address's limit; a right one is reported to the player.
            record_failure(ctx, target)
            if right:
                self._new_address(ctx, game, seat)
            raise CommandError(f"wrong secret for {seat.power} in {game.name}, or {ctx.sender} is not "
                               f"the registered address of {seat.power}")
        if not right:
            record_failure(ctx, target)
            raise CommandError(f"wrong secret for {seat.power} in {game.name}")
        ctx.enter(game, seat)
        return [f"Signed on as {seat.power} in {game.name}, {phase_title(ctx, game)}.", *adjudicated_meanwhile(ctx, game)]

    def _seat(self, ctx: MailContext, game: Game, who: str) -> Seat:
        variant = ctx.services.variant_of(game)
        name = power_named(game, variant, who)
        seat = seat_of(game, name) if name else None
        if seat is None:
            raise CommandError(f"{game.name} has no power {who!r} (powers: {', '.join(game_powers(game, variant))})")
        return seat

    def _gm(self, ctx: MailContext, game: Game, secret: str) -> list[str]:
        settings = ctx.services.settings_of(game)
        address = settings.gm.lower()
        target = Target(game, GM_SEAT, address)
        refuse_guessers(ctx, secret, game.gm_secret_hash, target)
        right = ctx.services.secrets.verify(secret, game.gm_secret_hash)
        if ctx.sender != address:
            record_failure(ctx, target)  # the same answer, right secret or wrong, and the GM is told
            ctx.keep.append(lambda: gm_signon_failed(ctx, game, right))
            raise CommandError(f"wrong game master secret for {game.name}, or {ctx.sender} is not "
                               "the game master's address")
        if not right:
            record_failure(ctx, target)
            raise CommandError(f"wrong game master secret for {game.name}")
        ctx.enter(game, as_gm=True)
        return [f"Signed on as the game master of {game.name}.", *adjudicated_meanwhile(ctx, game), deadline_line(ctx, game)]

    def _observer(self, ctx: MailContext, game: Game, secret: str) -> list[str]:
        """An observer that asked by mail (OBSERVE gave it its secret), from its own address."""
        row = observers.row_of(game, ctx.sender)
        target = Target(game, OBSERVER_SEAT, ctx.sender if row is not None else None)
        stored = row.secret_hash if row is not None else ""
        refuse_guessers(ctx, secret, stored, target)
        if row is None or not ctx.services.secrets.verify(secret, stored):
            record_failure(ctx, target)
            raise CommandError(f"wrong observer secret for {game.name}, or {ctx.sender} does not observe it "
                               f"(OBSERVE {game.name} mails you a secret)")
        ctx.enter(game)
        ctx.observer = ctx.sender
        return [f"Signed on as an observer of {game.name}, {phase_title(ctx, game)}."]

    def _new_address(self, ctx: MailContext, game: Game, seat: Seat) -> None:
        ctx.keep.append(lambda: self._report_new_address(ctx, game, seat))

    def _report_new_address(self, ctx: MailContext, game: Game, seat: Seat) -> None:
        assert seat.player is not None
        ctx.services.audit(ctx.session, game, ctx.sender, "signon-new-address", power=seat.power)
        ctx.services.mailer.queue(
            ctx.session, to=seat.player.email, subject=f"{ctx.services.config.judge_name}: {game.name}: your secret was used",
            template="mail/announcement.txt.j2", kind="security", game_id=game.id, game=game,
            zone=zone_seen(seat.player.timezone, ctx.services.settings_of(game).schedule.zone.key), deadline=None,
            text=f"Someone signed on as {seat.power} in {game.name} with your secret from another address, "
                 f"{ctx.sender}. The mail was refused, and nothing in it was done.\n\n"
                 f"If it was you: mail the judge from this address, {seat.player.email}, which is the one "
                 f"registered for {seat.power}. To play from the other address instead, send from this "
                 f"address SIGNON {seat.power} {game.name} <secret> and SET ADDRESS {ctx.sender}, then "
                 "answer the confirmation mailed there.\n\n"
                 f"If it was not you, someone knows your secret: change it now with SIGNON and "
                 "SET PASSWORD <new secret>, from this address.",
        )


def _failures_from(ctx: MailContext) -> int:
    """The sender's wrong secrets in the last hour (what gm.commands.guessing limits)."""
    return ctx.session.scalar(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.action == "signon-failed", AuditEntry.actor == ctx.sender, AuditEntry.at >= ctx.now - HOUR)) or 0


def _one_failure(ctx: MailContext, who: str, before: int) -> None:
    """A sign-on to no game the sender may see counts as one wrong secret of the address, while
    it is under its limit, however it failed (a power not in the game, a seat locked for
    guessing, or the game not there at all): kept without a game, so that it counts at no seat."""
    if before < MAX_FAILED_PER_ADDRESS and _failures_from(ctx) == before:
        ctx.services.audit(ctx.session, None, ctx.sender, "signon-failed", power=who)


def gm_signon_failed(ctx: MailContext, game: Game, right_secret: bool) -> None:
    """A sign-on as the game master from an address not the GM's: the GM is told at once when
    the secret was right (it is known elsewhere), else of the first such attempt in an hour (more
    come in the report of guessing, gm.commands.guessing)."""
    when = format_moment(ctx.now, ctx.services.settings_of(game).schedule.zone.key)
    if right_secret:
        ctx.services.audit(ctx.session, game, ctx.sender, "gm-signon-new-address")
        tell_gm(ctx.services, ctx.session, game, subject=f"{game.name}: your game master secret was used",
                text=f"Someone signed on as the game master of {game.name} with the right secret from "
                     f"{ctx.sender}, which is not your address, on {when}. The mail was refused, and nothing "
                     "in it was done. If it was not you, someone knows the secret: change it now by mailing "
                     f"SIGNON GM {game.name} <secret> and SET PASSWORD <new secret> from your address.")
        return
    if gm_failure_reported(ctx, game):
        return
    ctx.services.audit(ctx.session, game, "system", "gm-signon-failure-reported", address=ctx.sender)
    tell_gm(ctx.services, ctx.session, game, subject=f"{game.name}: a failed sign-on as game master",
            text=f"Someone tried to sign on as the game master of {game.name} from {ctx.sender} on {when}, "
                 "with a wrong secret. It was refused. You are told of the first such attempt in an hour; "
                 "if there are many, a report lists them all. No secret was accepted.")


def gm_failure_reported(ctx: MailContext, game: Game) -> bool:
    since = ctx.now - timedelta(hours=1)
    return ctx.session.scalar(select(AuditEntry.id).where(
        AuditEntry.game_id == game.id, AuditEntry.action == "gm-signon-failure-reported",
        AuditEntry.at >= since).limit(1)) is not None


class Join(Command):
    name = "JOIN"
    usage = "JOIN <game> [power]"
    summary = ("join a game that is still forming (with the power you would like); in a game in play, ask "
               "to take over a power its player left (LIST shows them)")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        ctx.leave()  # a JOIN, joined or not, ends what the mail was signed on as before
        words = invocation.args.split()
        if not words:
            raise CommandError(f"write {self.usage}")
        # A private game takes its players from its settings (and its GM and observers by JOIN):
        # to anyone else it is not there.
        game = game_seen_by(ctx.services, ctx.session, words[0], ctx.sender, lock=True)
        if game is None:
            raise CommandError(no_such_game(words[0]))
        preference = " ".join(words[1:]) or None
        if game.status in (GameStatus.ACTIVE, GameStatus.PAUSED) and not (
                setup_of(ctx.services.variant_of(game)).open_membership and not takeover.names_open_power(ctx, game, preference)):
            return takeover.join_started(ctx, game, preference)  # a power its player left
        try:
            joined = join(ctx.services, ctx.session, game, ctx.sender, preference=preference)
        except GameError as exc:
            raise CommandError(str(exc)) from None
        ctx.enter(game, joined.seat)  # a joined player, never a game master here
        variant = ctx.services.variant_of(game)
        seat = joined.seat
        if setup_of(variant).open_membership and seat.power:  # the player founds a power of its own
            province = variant.map.provinces.get(seat.preference or "")
            choice = province.name if province else seat.preference
            first = f"You have joined {game.name} as {seat.power}, with {choice}."
            if game.status == GameStatus.ACTIVE:
                first += " You come into the game at its next adjustment phase."
        else:
            first = f"You have joined {game.name}" + (f", asking for {seat.preference}." if seat.preference else ".")
        ctx.revealed.append(joined.secret)
        started = maybe_start(ctx.services, ctx.session, game)  # the last seat: the powers are drawn now
        power = seat.power or (seat.preference if variant.power_named(seat.preference or "") else None)
        example = first_order_example(ctx.services, game, power, seat.preference)  # of its own units, or none
        lines = [first,
                 "", "Your secret for this game (keep it to yourself; it is shown only this once):",
                 "", f"    {joined.secret}", "",
                 f"Sign on with: SIGNON {power or '<power>'} {game.name} <secret>"
                 + (f", then your orders, e.g.\n    {example}" if example else "")]
        if started:
            lines += ["", f"The game is full and has started: you play {joined.seat.power}."]
        return lines


class List(Command):
    read_only = True
    name = "LIST"
    usage = "LIST [game | PROVINCES [variant | game]]"
    summary = ("the games on this judge under a header, each with its variant, state, phase and next deadline "
               "(and the powers open to take over); one game's state (seats taken "
               "and open while it forms; each power's deadlines kept and missed once in play); or the board's "
               "province names and abbreviations")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        name = invocation.args.strip()
        if not name:
            games = [g for g in ctx.session.scalars(select(Game).order_by(Game.name))
                     if not hidden_from(ctx.services, g, ctx.sender)]
            if not games:
                return ["There are no games on this judge."]
            return _game_table(ctx, games)
        word, _, rest = name.partition(" ")
        game = game_seen_by(ctx.services, ctx.session, name, ctx.sender)
        if game is None and word.upper() in topics.PROVINCES:
            return topics.provinces_of(ctx, rest.strip())
        if game is None:
            raise CommandError(no_such_game(name))
        variant = ctx.services.variant_of(game)
        lines = [f"Game {game.name}: {game.variant}, {game.status}" + (f", {phase_title(ctx, game)}" if game.phase else "")]
        if game.position:
            position = ctx.services.position_of(game)
            counts = {p: len(c) for p, c in _centres_by_power(game).items()}
            tallies = records.by_seat(ctx.session, game)
            open_now = dict(openings.open_powers(ctx.services, ctx.session, game))
            named = players_named(ctx.services, game)
            order = list(variant.map.powers)
            for seat in sorted(current_seats(game), key=lambda s: (order.index(s.power) if s.power in order
                                                                   else len(order), s.id)):
                state = {SeatStatus.ACTIVE: "", SeatStatus.CIVIL_DISORDER: " (civil disorder)",
                         SeatStatus.VACANT: " (vacant)", SeatStatus.ELIMINATED: " (eliminated)"}[seat.status]
                power = seat.power or "?"
                held = units_counted(variant, position.units_of(power))
                if variant.map.supply_centres:
                    held = f"{plural(counts.get(power, 0), 'centre', 2)}, {held}"
                kept = "open to take over" if power in open_now else (
                    f"deadlines: {records.of_seat(tallies, seat)}" if seat.player is not None else "no player")
                if named and seat.player is not None and power not in open_now:
                    kept = f"{player_name(seat.player)}; {kept}"  # where the game names its players
                lines.append(hang(f"  {power:<12} {held}{state}; {kept}", 15))
            if open_now:
                lines.append(hang(f"Open to take over: {', '.join(open_now)} (JOIN {game.name} <power>; "
                                  f"{openings.policy_words(ctx.services, game)}).", 4))
        else:
            lines.append(seats_line(ctx, game))
        if game.status == GameStatus.ACTIVE and game.deadline is not None:
            lines.append(deadline_line(ctx, game))
        elif game.paused_reason:  # the state is said above; why it is paused is not
            lines.append(hang(f"Paused: {game.paused_reason}", 4))
        return lines


def _game_table(ctx: MailContext, games: list[Game]) -> list[str]:
    """The games on the judge under a header: each one's variant, state, phase and next
    deadline (in the reader's zone if signed on with one, else the game's), and the powers open
    to take over."""
    own = ctx.seat.player.timezone if ctx.seat is not None and ctx.seat.player is not None else None
    rows = [("Game", "Variant", "State", "Phase", "Next deadline")]
    for game in games:
        due = ""
        if game.status == GameStatus.ACTIVE and game.deadline is not None:
            zone = zone_named(zone_seen(own, ctx.services.settings_of(game).schedule.zone.key))
            local = game.deadline.astimezone(zone)
            due = f"{local:%d %b %Y %H:%M} {local.tzname()}"
        rows.append((game.name, game.variant, str(game.status), game.phase or "", due))
    widths = [max(len(row[k]) for row in rows) for k in range(4)]
    lines = []
    for game, row in zip([None, *games], rows):
        lines.append(("  " + "  ".join(f"{cell:<{width}}" for cell, width in zip(row, widths)) + "  " + row[4]).rstrip())
        if game is not None and game.status in (GameStatus.ACTIVE, GameStatus.PAUSED):
            found = [power for power, _ in openings.open_powers(ctx.services, ctx.session, game)]
            if found:
                lines.append(hang(f"{'':{widths[0] + 4}}open to take over: {', '.join(found)}", widths[0] + 4))
    return lines


def seats_line(ctx: MailContext, game: Game) -> str:
    """How many seats of a forming game are taken and open, and when it starts."""
    settings = ctx.services.settings_of(game)
    fewest = setup_of(ctx.services.variant_of(game)).player_counts()[0]
    wanted, joined = seats_wanted(ctx.services, game), len(current_seats(game))
    text = f"  {joined} of {wanted} seats taken, {wanted - joined} open"
    if settings.start is StartPolicy.WHEN_FULL:
        text += ": it starts when every seat is taken"
        if fewest < wanted:
            text += f", or when its game master starts it with {fewest} or more players"
    else:
        text += f": its game master starts it (START) with {fewest} or more players"
    return hang(text + ".", 4)


def _centres_by_power(game: Game) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for centre, owner in (game.position or {}).get("centres", {}).items():
        result.setdefault(owner, []).append(centre)
    return result


class Orders(Command):
    name = ""  # lines that are not commands
    summary = "order lines, one per line, in any usual spelling"
    quotes = True  # each line, with what gm made of it

    def __init__(self, line_secrets: Callable[[str], list[str]] = lambda line: []):
        self.line_secrets = line_secrets  # a line taken for a sign-on: its secret (CommandTable.line_secrets)

    def secrets(self, invocation: Invocation) -> list[str]:
        """The secrets of lines that are no orders but a sign-on mistyped (``STE PASSWORD x``)."""
        return [secret for line in invocation.body for secret in self.line_secrets(line)]

    def echo(self, invocation: Invocation) -> list[str]:
        return []  # each line is shown with how it was understood

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game, power = ctx.require_power()
        if game.status != GameStatus.ACTIVE:
            raise CommandError(f"{game.name} is {game.status}: no orders now")
        submission = orderbook.submit(ctx.services, ctx.session, game, power, "\n".join(invocation.body),
                                      by=ctx.actor, inbound_id=ctx.inbound_id)
        orderbook.note_orders_changed(ctx.services, ctx.session, game)
        namer = Namer(ctx.services.variant_of(game), submission.board, whole=True)  # lines folded: names kept whole
        lines = []
        unshown = 0
        for report in submission.lines:
            if not report.error and not ctx.budget.echo():
                unshown += 1  # a long mail: its lines with errors are shown, the rest counted
                continue
            lines.append(hang(f"> {report.text}", 4))
            if report.error:
                lines.append(hang(f"    ERROR: {report.error}", 11))
            else:
                lines.append(hang(f"    = {namer.order(report.order, power)}", 6))  # type: ignore[arg-type]
            lines.extend(hang(f"    note: {w}", 10) for w in report.warnings)
        if unshown:
            lines.append(f"({count_lines(unshown, 'more')} read, all fine: not shown.)")
        return lines + [""] + order_summary(ctx, game, power, submission.orders, submission.missing, namer,
                                            submission.void)


def order_summary(ctx: MailContext, game: Game, power: str, orders: list, missing: list[str],
                  namer: Namer | None = None, void: dict[int, str] | None = None) -> list[str]:
    """``namer``: names on the board the orders are read on (made here when not given);
    ``void``: the orders (by index) the set makes void, with why, where not said above (found
    here when not given)."""
    position = ctx.services.position_of(game)
    variant = ctx.services.variant_of(game)
    if namer is None or void is None:
        board = orderbook.board_for(variant, position, power, orders)
        namer = namer or Namer(variant, board, whole=True)
        void = void if void is not None else void_by_own_orders(variant, board, power, orders, Namer(variant, board))
    title = variant.title(position.phase)
    lines = [hang(f"Current orders for {power} in {game.name}, {title}:", 4)]
    for index, order in enumerate(orders):
        lines.append(hang(f"  {namer.order(order, power)}", 6))
        if index in void:
            lines.append(hang(f"      ({void[index]})", 7))
    if not orders:
        lines.append("  (none)")
    if missing:
        lines.append(hang("Still without orders: " + ", ".join(missing), 4))
    lines += [hang(line, 4) for line in words_of(variant).orders_note(position, power, orders)]
    lines.append(deadline_line(ctx, game))
    return lines


class Status(Command):
    read_only = True
    name = "STATUS"
    aliases = ("ORDERS",)
    summary = ("your current orders, the units still without orders, and the deadline; to a game master, "
               "each player's deadlines kept and missed, here and across this judge")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        if ctx.is_gm and ctx.acting_as is None:  # the game master: every player's record
            game = ctx.require_game()
            return [deadline_line(ctx, game), *gm_status(ctx, game)]
        game, power = ctx.require_power()
        if game.status != GameStatus.ACTIVE:
            return [deadline_line(ctx, game)]
        variant = ctx.services.variant_of(game)
        position = ctx.services.position_of(game)
        latest = orderbook.latest_set(ctx.session, game, power)
        orders = ctx.services.orders_from(game, latest.lines if latest else [])
        missing = orderbook.missing_for(variant, position, power, orders)
        return order_summary(ctx, game, power, orders, missing)


class Clear(Command):
    name = "CLEAR"
    summary = "forget all your orders for this phase"

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game, power = ctx.require_power()
        orderbook.clear(ctx.services, ctx.session, game, power, by=ctx.actor, inbound_id=ctx.inbound_id)
        orderbook.note_orders_changed(ctx.services, ctx.session, game)
        return [f"All orders of {power} for {phase_title(ctx, game)} are cleared."]


class Wait(Command):
    name = "WAIT"
    summary = "do not process early this phase, even when all orders are in"
    waiting = True

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game, power = ctx.require_power()
        seat = seat_of(game, power)
        assert seat is not None
        seat.wait_seq = game.phase_seq if self.waiting else None
        orderbook.note_orders_changed(ctx.services, ctx.session, game)
        if self.waiting:
            return [f"{game.name} will not be processed before the deadline of {phase_title(ctx, game)}."]
        return [f"{game.name} may be processed early when all orders are in."]


class NoWait(Wait):
    name = "NOWAIT"
    aliases = ("NO-WAIT",)
    summary = "allow early processing again"
    waiting = False


class Draw(Command):
    name = "DRAW"
    usage = "DRAW [<power> <power> ...]"
    summary = ("vote for a draw shared by every surviving power; naming powers, for a draw shared by them only, "
               "where the game allows it (draw: among: any); it passes when every surviving power votes for the "
               "same draw")
    agree = True

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game, power = ctx.require_power()
        try:
            among = votes.powers_listed(ctx.services, game, invocation.args) if self.agree else None
            ended = votes.vote_draw(ctx.services, ctx.session, game, power, self.agree, among=among)
        except GameError as exc:
            raise CommandError(str(exc)) from None
        if ended:
            shared = ", ".join((game.result or {}).get("powers", []))
            return [hang(f"Every surviving power agreed: {game.name} ends in a draw shared by {shared}.", 4)]
        seat = seat_of(game, power)
        if self.agree and seat is not None and seat.draw_with:
            return [hang(f"{power} votes for a draw shared by {', '.join(seat.draw_with)} only (it passes when "
                         "every surviving power votes for the same powers).", 4)]
        return [f"{power} {'votes for' if self.agree else 'does not vote for'} a draw."]


class NoDraw(Draw):
    name = "NODRAW"
    aliases = ("NO-DRAW",)
    usage = "NODRAW"
    summary = "withdraw your draw vote"
    agree = False


class Concede(Command):
    name = "CONCEDE"
    usage = "CONCEDE [TO] <power>   (NOCONCEDE withdraws)"
    summary = "concede the game to a power (it wins when all the others do)"

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game, power = ctx.require_power()
        words = [w for w in invocation.args.split() if w.upper() != "TO"]
        if not words:
            raise CommandError(f"write {self.usage}")
        found = power_named(game, ctx.services.variant_of(game), " ".join(words))
        if found is None:
            raise CommandError(f"no power {' '.join(words)!r} in {game.name}")
        try:
            ended = votes.concede(ctx.services, ctx.session, game, power, found)
        except GameError as exc:
            raise CommandError(str(exc)) from None
        return [f"{game.name} is over: conceded to {found}."] if ended else [f"{power} concedes to {found}."]


class NoConcede(Command):
    name = "NOCONCEDE"
    summary = "withdraw your concession"

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game, power = ctx.require_power()
        votes.concede(ctx.services, ctx.session, game, power, None)
        return [f"{power} no longer concedes."]


class Resign(Command):
    name = "RESIGN"
    summary = "leave the game; your power waits for a replacement"

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game, power = ctx.require_power()
        if ctx.is_gm:
            raise CommandError("a game master ejects players with EJECT")
        left = seat_of(game, power)
        assert left is not None
        eject(ctx.services, ctx.session, game, power, actor=ctx.sender, tell=False)  # they know
        tell_gm(ctx.services, ctx.session, game, subject=f"{game.name}: {power} resigned",
                text=f"The player of {power} has resigned. {openings.gm_hint(ctx.services, game, power)}")
        ctx.session.flush()
        openings.open_power(ctx.services, ctx.session, game, left, OpeningReason.RESIGNED)
        ctx.seat = None
        return [f"You have left {game.name}. Thank you for playing {power}."]


class Map(Command):
    read_only = True
    name = "MAP"
    usage = "MAP [phase | CHART]"
    summary = ("a picture of the board as it stands, of a phase with its orders (MAP F1901M), or of "
               "the powers' centres year by year (MAP CHART, with its numbers as a table), attached")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        game = ctx.require_game()
        if not game.position:
            raise CommandError(f"{game.name} has not started: there is no board to draw yet")
        variant = ctx.services.variant_of(game)
        wanted = invocation.args.strip()
        # the picture is drawn when the reply is sent, from what its ":: Attached:" line names
        if wanted.upper() == CHART.upper():
            ctx.attach = {"map": {"game": game.id, "phase": None}}
            return [f"The chart of {game.name}, {chart_title(variant)} year by year, is attached.",
                    *year_by_year(ctx.services, ctx.session, game), "", announce(game, CHART)]
        names = phase_names(ctx.session, game)
        phase = phase_named(variant, wanted, names) if wanted else game.phase
        if phase is None:
            raise CommandError(f"{game.name} has no phase {wanted!r} to draw: its phases run from {names[0]} to "
                               f"{names[-1]} (e.g. MAP {names[0]}), or write MAP CHART")
        title = variant.title(variant.calendar.parse(phase))
        record = record_named(ctx.session, game, phase)
        ctx.attach = {"map": {"game": game.id, "phase": record.id if record is not None else None}}
        if record is not None:
            text = f"The map of {game.name}, {title}, with its orders and their results, is attached."
        else:
            text = f"The map of {game.name}, {title}, the board as it stands, is attached."
        return [text, announce(game, phase)]