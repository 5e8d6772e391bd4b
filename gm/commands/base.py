"""The shape of a mail command, what it may use, and what it answers.

A command is a small class: its name, how it is written, one line of help, and ``run``,
which acts and returns the lines of its section of the reply (or raises ``CommandError`` with
a message for the sender). The reply to a mail has one section per command, in order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from collections.abc import Callable
from typing import Any, ClassVar

from sqlalchemy.orm import Session

from gm.commands.echo import ReplyBudget
from gm.commands.secrecy import mask_text
from gm.games.context import Services
from gm.store.models import Game, Seat


class CommandError(Exception):
    """The command was not carried out; the message says why, for the sender."""


@dataclass
class Invocation:
    """One command as written in a mail."""

    name: str  # the command's canonical name, or "" for lines that are not a command
    args: str
    line_no: int
    text: str  # the line as written
    body: list[str] = field(default_factory=list)  # PRESS text, or order lines
    body_lines: list[int] = field(default_factory=list)  # each body line's number in the mail (where read from one)


@dataclass(frozen=True)
class BodyRule:
    """How a command takes the lines after it as its body: up to a line of ``ends`` (or the
    mail's end). ``opens``: when given, only if the first line after it that is not blank passes
    it (SETTINGS alone asks for the file; SETTINGS and a setting changes it)."""

    ends: tuple[str, ...]
    opens: Callable[[str], bool] | None = None


@dataclass
class Section:
    echo: list[str]  # the lines of the mail this section answers (secrets masked)
    lines: list[str]  # gm's answer
    ok: bool = True
    attach: dict[str, Any] | None = None  # e.g. {"map": {"game": 3, "phase": 12}}
    command: str = ""  # the command's canonical name ("" for order lines)


@dataclass
class MailContext:
    """Everything a command may use while one mail is being answered.

    Authority is one game's at a time: a SIGNON or JOIN ends whatever the mail was signed on as
    before, whether or not it succeeds (``leave``, then ``enter``). What a command may do is
    read from here where it runs, and holds only for the game entered: a game master's rights
    (``is_gm``) only in the game signed on to as its game master, a power (``power``) only with
    a seat of that game."""

    services: Services
    session: Session
    sender: str  # the From address, lower case
    now: datetime
    received_at: datetime | None = None  # when the mail was stored (None: not from a mail)
    inbound_id: int | None = None
    message_id: str | None = None
    authenticated: bool = False  # a DKIM/DMARC pass for its From by the judge's mail server (gm.services.authresults)
    game: Game | None = None  # after SIGNON (or JOIN)
    seat: Seat | None = None  # the power signed on as
    acting_as: str | None = None  # the power a GM has BECOME
    observer: str = ""  # an observer of the game entered, signed in on the web: writes to its GM only
    attach: dict[str, Any] | None = None
    budget: ReplyBudget = field(default_factory=ReplyBudget)  # how much the reply may still echo
    # Secrets the reply gives out (a JOIN's): masked in the outbox's copy once it is sent.
    revealed: list[str] = field(default_factory=list)
    # What must be recorded even when the command fails and its changes are undone
    # (a wrong secret is logged; a new address is reported to the player).
    keep: list[Callable[[], None]] = field(default_factory=list)
    _gm_of: int | None = None  # the id of the game signed on to as its game master

    def enter(self, game: Game, seat: Seat | None = None, *, as_gm: bool = False) -> None:
        """Act in ``game`` from here on: as ``seat``'s power, as its game master, or (neither)
        as someone who has only joined it. Nothing is carried over from a game before: a game
        master's rights hold only in the game signed on to."""
        if seat is not None and seat.game_id is not None and seat.game_id != game.id:
            raise ValueError(f"a seat of another game entered as one of {game.name}")
        self.game, self.seat, self.acting_as, self.observer = game, seat, None, ""
        self._gm_of = game.id if as_gm else None

    def leave(self) -> None:
        """Signed on to nothing (a SIGNON or JOIN starts by this, so one that fails leaves no
        authority from before: the commands after it are refused, not run in another game)."""
        self.game, self.seat, self.acting_as, self._gm_of, self.observer = None, None, None, None, ""

    @property
    def is_gm(self) -> bool:
        """Whether the sender signed on as the game master of the game entered (and of no other)."""
        return self.game is not None and self._gm_of is not None and self._gm_of == self.game.id

    @property
    def power(self) -> str | None:
        if self.is_gm:
            return self.acting_as
        seat = self.seat
        if seat is None or self.game is None or seat.game_id != self.game.id or seat.left_at is not None:
            return None
        return seat.power

    def require_game(self) -> Game:
        if self.game is None:
            raise CommandError("sign on first: SIGNON <power> <game> <secret>")
        return self.game

    def require_power(self) -> tuple[Game, str]:
        game = self.require_game()
        power = self.power
        if power is None:
            raise CommandError("a game master must BECOME a power first" if self.is_gm
                               else "sign on as a power first: SIGNON <power> <game> <secret>")
        return game, power

    def require_gm(self) -> Game:
        game = self.require_game()
        if not self.is_gm:
            raise CommandError(f"only the game master of {game.name} may do that (SIGNON GM {game.name} <secret>)")
        return game

    @property
    def actor(self) -> str:
        return f"{self.sender} (GM)" if self.is_gm else self.sender


class Command(ABC):
    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    usage: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    for_gm: ClassVar[bool] = False
    takes_body: ClassVar[bool] = False  # PRESS ... ENDPRESS
    body_rule: ClassVar[BodyRule | None] = None  # a body of its own kind (SETTINGS ... ENDSETTINGS)
    read_only: ClassVar[bool] = False  # changes nothing in the store (so needs no savepoint)
    quotes: ClassVar[bool] = False  # its answer quotes the mail's lines (orders: each with how it was read)
    # How the command is written when it carries a secret ("SET PASSWORD"): a line within the
    # suggester's reach of one of these is masked as this command masks it (gm.commands.secrecy).
    secret_forms: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        """Act, and return the lines of this command's section of the reply."""

    def secrets(self, invocation: Invocation) -> list[str]:
        """The words of this command that are secrets: masked in its echo, and in the stored
        mail once it is handled (gm.services.masking)."""
        return []

    def echo(self, invocation: Invocation) -> list[str]:
        text = invocation.text
        for secret in self.secrets(invocation):
            before, found, after = text.rpartition(secret)
            if secret and found:
                text = f"{before}****{after}"
        return [text, *invocation.body]

    def masked(self, invocation: Invocation, lines: list[str]) -> list[str]:
        """``lines`` (what a reply shows of this command: its echo, its answer) with the secrets
        written in it masked wherever they stand."""
        secrets = self.secrets(invocation)
        return [mask_text(line, secrets) for line in lines] if secrets else lines
