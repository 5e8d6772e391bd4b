"""The SQL schema (SQLAlchemy 2 declarative models). Migrations in migrations/ create it."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from gm.adjudicator.dice import commitment
from gm.store.status import GameStatus, InboundStatus, OutboundStatus, SeatStatus

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UtcDateTime(TypeDecorator):
    """Aware UTC datetimes in and out, also on SQLite (which keeps no time zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UtcDateTime(), dict[str, Any]: JSON, list[Any]: JSON}


def new_dice_seed() -> str:
    """A game's secret dice seed (gm.adjudicator.dice): 256 random bits, in hex."""
    return secrets.token_hex(32)


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    variant: Mapped[str] = mapped_column(String(60))
    status: Mapped[str] = mapped_column(String(20), default=GameStatus.FORMING)
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)  # as last read from the GM's file
    settings_source: Mapped[str] = mapped_column(Text, default="")
    settings_digest: Mapped[str] = mapped_column(String(64), default="")
    phase: Mapped[str | None] = mapped_column(String(16))
    phase_seq: Mapped[int] = mapped_column(Integer, default=0)  # phases processed so far
    position: Mapped[dict[str, Any] | None] = mapped_column()
    phase_started_at: Mapped[datetime | None] = mapped_column()
    deadline: Mapped[datetime | None] = mapped_column()
    # The deadline the schedule (or the GM) gave, before players' absences held it later
    # (gm.games.absences); the same as ``deadline`` when no absence holds it.
    deadline_unheld: Mapped[datetime | None] = mapped_column()
    due_at: Mapped[datetime | None] = mapped_column(index=True)  # when the scheduler must look next
    orders_complete_at: Mapped[datetime | None] = mapped_column()  # every power in: early processing
    notices: Mapped[dict[str, Any]] = mapped_column(default=dict)  # reminders and late notices sent this phase
    paused_reason: Mapped[str] = mapped_column(Text, default="")
    result: Mapped[dict[str, Any] | None] = mapped_column()  # {"kind": "win"|"draw"|"concession", ...}
    created_at: Mapped[datetime] = mapped_column()
    finished_at: Mapped[datetime | None] = mapped_column()
    gm_secret_hash: Mapped[str] = mapped_column(String(200), default="", server_default="")
    # Every die the game rolls derives from this; never mailed or logged until the game publishes
    # it (its commitment, ``dice_commitment``, may be). The server default only lets migration
    # 0007 add the column; it then gives each existing game a seed of its own.
    dice_seed: Mapped[str] = mapped_column(String(64), default=new_dice_seed, server_default="")
    version: Mapped[int] = mapped_column(Integer, default=1)

    __mapper_args__ = {"version_id_col": version}

    seats: Mapped[list[Seat]] = relationship(back_populates="game", order_by="Seat.id")
    # who observes by mail (OBSERVE); the settings file's observers are not here (gm.games.observers)
    observed_by: Mapped[list[Observer]] = relationship(order_by="Observer.id", cascade="all, delete-orphan",
                                                       passive_deletes=True)

    @property
    def dice_commitment(self) -> str:
        """What the game may publish of its seed before any roll (its SHA-256): templates write
        ``{{ game.dice_commitment }}``."""
        return commitment(self.dice_seed)


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)  # lower case
    name: Mapped[str] = mapped_column(String(120), default="")
    timezone: Mapped[str] = mapped_column(String(64), default="")  # "": not set (the game's zone is used)
    preferences: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column()


class Observer(Base):
    """An address that asked to observe a game (OBSERVE): it is mailed what the game's observers
    are mailed until it asks no more (UNOBSERVE). Its secret signs it on by mail (SIGNON
    OBSERVER), to write press where the game allows observers' press."""

    __tablename__ = "observers"
    __table_args__ = (UniqueConstraint("game_id", "address", name="uq_observers_game_address"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    address: Mapped[str] = mapped_column(String(254))  # lower case
    secret_hash: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column()


class Absence(Base):
    """A player away from a game (SET ABSENCE): a deadline of the game that falls inside it is
    held to its end while the player holds a seat (gm.games.absences)."""

    __tablename__ = "absences"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    # None: stored before absences belonged to a game (they held nothing, and still hold nothing)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    starts: Mapped[datetime] = mapped_column()
    ends: Mapped[datetime] = mapped_column()
    cancelled_at: Mapped[datetime | None] = mapped_column()  # by the player or the GM (CANCEL ABSENCE)


class Seat(Base):
    """A power in a game and who holds it. A replaced player leaves a closed seat behind."""

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[str | None] = mapped_column(String(60))  # None until powers are assigned
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    preference: Mapped[str | None] = mapped_column(String(60))
    secret_hash: Mapped[str] = mapped_column(String(200), default="")
    status: Mapped[str] = mapped_column(String(20), default=SeatStatus.ACTIVE)
    missed: Mapped[int] = mapped_column(Integer, default=0)  # phases with no orders at all
    missed_in_row: Mapped[int] = mapped_column(Integer, default=0)
    wait_seq: Mapped[int | None] = mapped_column(Integer)  # asked to WAIT in this phase
    ready_seq: Mapped[int | None] = mapped_column(Integer)  # has given every order needed in this phase
    draw_vote: Mapped[bool] = mapped_column(Boolean, default=False)
    draw_with: Mapped[list[Any] | None] = mapped_column()  # the powers a draw vote names (None: every survivor)
    concede_to: Mapped[str | None] = mapped_column(String(60))  # the power this one concedes to
    joined_at: Mapped[datetime] = mapped_column()
    left_at: Mapped[datetime | None] = mapped_column()
    # The seat this one carries on (a replacement's seat, after EJECT or RESIGN: the first seat
    # of the power); None: it is the first. Press belongs to the power so known, whatever it is
    # named (gm.commands.press).
    first_seat_id: Mapped[int | None] = mapped_column(Integer)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship()

    @property
    def power_key(self) -> int:
        """The same for every seat that holds one power in turn, and for no other seat."""
        key = self.first_seat_id or self.id
        assert key is not None, "a seat is stored before its key is read"
        return key


class OpeningReason:
    RESIGNED = "resigned"
    EJECTED = "ejected"
    ABANDONED = "abandoned"  # the game's missed: policy gave up on its player


class Opening(Base):
    """A power open for another player to take over (gm.games.openings): offered first to the
    addresses standing by, one at a time, then to everyone (``public_at``), until someone takes
    it, its player comes back, or the GM gives it to someone (``closed_at``)."""

    __tablename__ = "openings"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power_key: Mapped[int] = mapped_column(Integer)  # Seat.power_key of the power
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))  # the seat its player left
    reason: Mapped[str] = mapped_column(String(20))  # OpeningReason
    opened_at: Mapped[datetime] = mapped_column()
    offered_to: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))  # a standby's turn
    offer_until: Mapped[datetime | None] = mapped_column(index=True)  # when the turn passes on (the scheduler looks)
    asked: Mapped[list[Any]] = mapped_column(default=list)  # the players offered it so far
    public_at: Mapped[datetime | None] = mapped_column()  # offered to everyone from then
    closed_at: Mapped[datetime | None] = mapped_column()
    closed_why: Mapped[str] = mapped_column(String(40), default="")


class TakeoverRequest(Base):
    """An address's wish to take over an open power, in a game whose GM approves takeovers."""

    __tablename__ = "takeover_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    opening_id: Mapped[int] = mapped_column(ForeignKey("openings.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    asked_at: Mapped[datetime] = mapped_column()
    decided_at: Mapped[datetime | None] = mapped_column()
    outcome: Mapped[str] = mapped_column(String(20), default="")  # "": waiting; approved, refused, lapsed
    decided_by: Mapped[str] = mapped_column(String(254), default="")


class Standby(Base):
    """An address ready to take over a power that opens: in one game, or in any (``game_id`` None)."""

    __tablename__ = "standbys"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column()


class DeadlineOutcome:
    KEPT = "kept"  # orders in by the deadline
    LATE = "late"  # in only after it, in the grace the game gives
    MISSED = "missed"  # none at all


class DeadlineRecord(Base):
    """Whether a seat's player kept one deadline of a processed phase that wanted orders of the
    power (gm.games.records): the record of who kept their deadlines, per seat and per player."""

    __tablename__ = "deadline_records"
    __table_args__ = (Index("ix_deadline_records_game_seat", "game_id", "seat_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), index=True)  # None: vacant
    power: Mapped[str] = mapped_column(String(60))
    outcome: Mapped[str] = mapped_column(String(10))  # DeadlineOutcome


class AddressChange(Base):
    """A player's wish to be written to at another address (SET ADDRESS): it takes effect when a
    mail from that address gives the code mailed there (CONFIRM ADDRESS)."""

    __tablename__ = "address_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    new_address: Mapped[str] = mapped_column(String(254), index=True)  # lower case
    code_hash: Mapped[str] = mapped_column(String(200))  # scrypt, as secrets (gm.games.passwords)
    requested_at: Mapped[datetime] = mapped_column()
    expires_at: Mapped[datetime] = mapped_column()
    wrong_codes: Mapped[int] = mapped_column(Integer, default=0)
    done_at: Mapped[datetime | None] = mapped_column()  # confirmed, withdrawn or given up


class PhaseRecord(Base):
    """One processed phase: the position before and after, the orders, every result."""

    __tablename__ = "phases"
    __table_args__ = (Index("ix_phases_game_seq", "game_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)  # 1 for the first phase processed
    phase: Mapped[str] = mapped_column(String(16))
    position_before: Mapped[dict[str, Any]] = mapped_column()
    orders: Mapped[dict[str, Any]] = mapped_column()  # power -> lines as adjudicated
    results: Mapped[dict[str, Any]] = mapped_column()  # results, dislodged, disorder, events
    position_after: Mapped[dict[str, Any]] = mapped_column()
    deadline: Mapped[datetime | None] = mapped_column()
    processed_at: Mapped[datetime] = mapped_column()
    rolled_back: Mapped[bool] = mapped_column(Boolean, default=False)


class OrderSet(Base):
    """One submission of orders for a power, as sent, and the power's orders after it."""

    __tablename__ = "order_sets"
    # the latest version of a power's set is the index's last entry for it (orderbook.latest_set)
    __table_args__ = (Index("ix_order_sets_current", "game_id", "phase_seq", "power", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_seq: Mapped[int] = mapped_column(Integer)  # the phase these orders are for
    phase: Mapped[str] = mapped_column(String(16))
    power: Mapped[str] = mapped_column(String(60))
    version: Mapped[int] = mapped_column(Integer)
    submitted_text: Mapped[str] = mapped_column(Text)
    lines: Mapped[list[Any]] = mapped_column()  # the power's whole order set after this submission
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mail.id"))
    by: Mapped[str] = mapped_column(String(254))  # who submitted (player address, or the GM)
    submitted_at: Mapped[datetime] = mapped_column()


class Press(Base):
    __tablename__ = "press"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str | None] = mapped_column(String(16))
    sender_power: Mapped[str | None] = mapped_column(String(60))  # None: the GM or an observer (the name, kept up to date by RENAME)
    sender_observer: Mapped[str] = mapped_column(String(254), default="", server_default="")  # an observer's address (to the GM)
    recipients: Mapped[list[Any]] = mapped_column()  # powers; empty list = broadcast (names, as sender_power)
    # Whose press it is: the sender's and the recipients' Seat.power_key (None: the GM; an empty
    # list: everyone). A power renamed keeps its press; a newcomer given an old name never sees it.
    sender_seat: Mapped[int | None] = mapped_column(Integer)
    recipient_seats: Mapped[list[Any] | None] = mapped_column()
    grey: Mapped[bool] = mapped_column(Boolean, default=False)
    to_gm: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")  # to the game master alone
    with_results: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")  # held for the results
    published_seq: Mapped[int | None] = mapped_column(Integer)  # the phase whose results carried it
    body: Mapped[str] = mapped_column(Text)
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mail.id"))
    sent_at: Mapped[datetime] = mapped_column()


class InboundMail(Base):
    __tablename__ = "inbound_mail"
    # The same Message-ID with other content is another mail (a client that resends corrected
    # orders under the old ID); only the same ID with the same content is a duplicate delivery.
    __table_args__ = (UniqueConstraint("message_id", "content_digest", name="uq_inbound_mail_message_content"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str | None] = mapped_column(String(998))
    content_digest: Mapped[str] = mapped_column(String(64), default="", server_default="")  # gm.services.arrival
    source_key: Mapped[str | None] = mapped_column(String(300), unique=True)  # e.g. imap:INBOX:uidvalidity:uid
    sender: Mapped[str] = mapped_column(String(254), default="")
    subject: Mapped[str] = mapped_column(Text, default="")
    raw: Mapped[bytes] = mapped_column(LargeBinary)  # as it came, or cut down to its headers and text
    cut: Mapped[str] = mapped_column(Text, default="", server_default="")  # what was cut from a too large mail
    status: Mapped[str] = mapped_column(String(20), default=InboundStatus.NEW, index=True)
    error: Mapped[str] = mapped_column(Text, default="")
    received_at: Mapped[datetime] = mapped_column()
    processed_at: Mapped[datetime | None] = mapped_column()


class OutboundMail(Base):
    __tablename__ = "outbox"
    __table_args__ = (
        # The pending mails in the order they are claimed (gm.services.sending), never passing the
        # mail sent before them.
        Index("ix_outbox_queue", "status", "id"),
        Index("ix_outbox_recipient", "to_address", "created_at", "kind"),  # per-sender rate limits, read from the index alone
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), index=True)
    kind: Mapped[str] = mapped_column(String(40))  # results, confirmation, reminder, press...
    to_address: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    message_id: Mapped[str] = mapped_column(String(300), unique=True)
    in_reply_to: Mapped[str | None] = mapped_column(String(998))
    # Indexed: a sender claims the mails that carry one phase's picture together (gm.services.sending).
    attach_phase_id: Mapped[int | None] = mapped_column(ForeignKey("phases.id", ondelete="SET NULL"), index=True)
    status: Mapped[str] = mapped_column(String(20), default=OutboundStatus.PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column()
    last_error: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column()
    sent_at: Mapped[datetime | None] = mapped_column()
    # Claimed by one sending process until then (gm.services.sending): a crashed sender's claim
    # runs out and another process sends the mail, with the same Message-ID.
    lease_until: Mapped[datetime | None] = mapped_column()
    lease_owner: Mapped[str] = mapped_column(String(64), default="", server_default="")
    # Secrets the mail gives out (a new secret, a code): masked in its body once it is sent.
    secrets: Mapped[list[Any]] = mapped_column(default=list, server_default="[]")


class ServerHealth(Base):
    """Whether a mail server gm depends on works, as every process sees it: while the outbound
    server refuses for a reason a configuration fix cures, no mail is tried against it until
    ``next_try_at``, and the administrator is told once per outage."""

    __tablename__ = "server_health"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)  # "outbound"
    failing_since: Mapped[datetime | None] = mapped_column()  # None: working
    failures: Mapped[int] = mapped_column(Integer, default=0)  # in a row
    next_try_at: Mapped[datetime | None] = mapped_column()
    last_error: Mapped[str] = mapped_column(Text, default="")
    told: Mapped[bool] = mapped_column(Boolean, default=False)  # the administrator, this outage


class MailboxState(Base):
    """How far gm has read a mailbox: UIDs above ``last_uid`` in this UIDVALIDITY are new."""

    __tablename__ = "mailbox_state"

    id: Mapped[int] = mapped_column(primary_key=True)
    mailbox: Mapped[str] = mapped_column(String(300), unique=True)  # e.g. imap://user@host:993/INBOX
    uidvalidity: Mapped[int] = mapped_column(BigInteger)  # 32-bit unsigned in IMAP
    last_uid: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[datetime] = mapped_column()


class AuditEntry(Base):
    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_actor", "actor", "at"),)  # failed sign-ons per sender

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), index=True)
    actor: Mapped[str] = mapped_column(String(254))  # an address, or "system"
    action: Mapped[str] = mapped_column(String(60))
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)
    at: Mapped[datetime] = mapped_column()


class WebRole:
    PLAYER = "player"  # a seat's player
    GM = "gm"  # the game's master
    OBSERVER = "observer"  # an address the settings list as an observer, or one that asked (OBSERVE)


class WebLink(Base):
    """A one-time sign-in link mailed to a seat's (or the GM's, or an observer's) address: only
    its hash is kept; it works once, until ``expires_at``, and only while ``grant`` still
    matches what it was mailed for (gm.games.web_access)."""

    __tablename__ = "web_links"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int | None] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    address: Mapped[str] = mapped_column(String(254))  # where it was mailed
    grant: Mapped[str] = mapped_column(String(64))  # the seat's secret and address as they were, hashed
    created_at: Mapped[datetime] = mapped_column()
    expires_at: Mapped[datetime] = mapped_column()
    used_at: Mapped[datetime | None] = mapped_column()


class WebSession(Base):
    """A browser signed in to one game: the cookie carries the token (signed); ended on sign-off,
    WEB SIGNOFF, or when the seat's secret or address changed or the seat was left."""

    __tablename__ = "web_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int | None] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    address: Mapped[str] = mapped_column(String(254))
    grant: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column()
    last_seen_at: Mapped[datetime] = mapped_column()
    expires_at: Mapped[datetime] = mapped_column()
    ended_at: Mapped[datetime | None] = mapped_column()
    ended_why: Mapped[str] = mapped_column(String(60), default="")


class WebRequest(Base):
    """One request that a rate limit counts (a link asked for, an action posted), by what it is
    and whose it is: counted over the last hour by every process alike."""

    __tablename__ = "web_requests"
    __table_args__ = (Index("ix_web_requests_kind_key_at", "kind", "key", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    key: Mapped[str] = mapped_column(String(300))
    at: Mapped[datetime] = mapped_column()


class WebKey(Base):
    """The key that signs the web's cookies and forms, one for every process on the database."""

    __tablename__ = "web_keys"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column()


__all__ = [
    "Absence", "AddressChange", "AuditEntry", "Base", "DeadlineOutcome", "DeadlineRecord", "Game", "GameStatus",
    "InboundMail", "InboundStatus", "MailboxState", "Observer", "Opening", "OpeningReason", "OrderSet", "OutboundMail",
    "OutboundStatus", "PhaseRecord", "Player", "Press", "Seat", "SeatStatus", "ServerHealth", "Standby",
    "TakeoverRequest", "WebKey", "WebLink", "WebRequest", "WebRole", "WebSession",
]
