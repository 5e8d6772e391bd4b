"""Everything gm says to a person: a Jinja template rendered into the outbox table.

Queueing is part of the caller's transaction, so a mail exists exactly when the change that
caused it was committed. The sender (mail transport) drains the outbox later. What is queued
has nothing in it that does not print (gm.games.plaintext), whoever wrote the text.
"""

from __future__ import annotations

import hashlib
import textwrap
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from functools import cached_property
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import bindparam, insert, select
from sqlalchemy.orm import Session

from gm.clock import Clock
from gm.config import AppConfig
from gm.games.plaintext import header_text, printable, quoted
from gm.store.models import Game, OutboundMail, OutboundStatus

if TYPE_CHECKING:
    from jinja2 import Environment

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"
WIDTH = 72
RULES_TEMPLATE = "rules/{variant}.txt.j2"  # a variant's rules as this judge reads them (HELP)


def zone_named(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def reader_zone(own: str | None, game_zone: str | None = None) -> str:
    """The zone a reader sees times in: its own if it set one, else the game's, else UTC."""
    return own or game_zone or "UTC"


def format_moment(moment: datetime | None, zone: str | None) -> str:
    """"Fri 10 Jan 2026 21:00 CET (Europe/Rome)" in the reader's own zone."""
    if moment is None:
        return "none"
    tz = zone_named(zone)
    local = moment.astimezone(tz)
    named = "" if local.tzname() == tz.key else f" ({tz.key})"
    return f"{local:%a %d %b %Y %H:%M} {local.tzname()}{named}"


def format_span(delta: timedelta) -> str:
    minutes = max(0, int(delta.total_seconds() // 60))
    days, minutes = divmod(minutes, 1440)
    hours, minutes = divmod(minutes, 60)
    parts = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in ((days, "day"), (hours, "hour"), (minutes, "minute")) if n]
    return ", ".join(parts) or "less than a minute"


# A space no line is broken at: names written with it (gm.reports.names, a Namer made ``whole``)
# stay whole when a line is folded, and become plain spaces in the mail.
KEEP = "\u00a0"


def _fits(text: str, width: int) -> bool:
    """A line textwrap would give back as it is: short enough, only plain spaces, none at the
    end (most lines of a mail: asking is much cheaper than folding)."""
    return len(text) <= width and text.isprintable() and not text.endswith(" ") and text.strip(" ") != ""


def _fold(text: str, width: int, **how: Any) -> str:
    """``text`` folded by textwrap, never inside a name written with ``KEEP``s (nor at its hyphens,
    "Mid-Atlantic Ocean"; a name longer than a line stands alone on one)."""
    if KEEP not in text:
        return textwrap.fill(text, width=width, **how)
    plain = text.replace(KEEP, " ")
    if _fits(plain, width - len(how.get("initial_indent", ""))):
        return how.get("initial_indent", "") + plain
    return textwrap.fill(text, width=width, **{**how, "break_on_hyphens": False, "break_long_words": False}).replace(KEEP, " ")


def wrap(text: str, width: int = WIDTH, indent: str = "") -> str:
    return "\n".join(
        indent + p if _fits(p, width - len(indent))
        else _fold(p, width, initial_indent=indent, subsequent_indent=indent) if p.strip() else ""
        for p in text.split("\n")
    )


def hang(text: str, indent: int = 4, width: int = WIDTH) -> str:
    """One long line folded at ``width``, continuation lines indented (for order lists)."""
    if _fits(text, width):
        return text
    return _fold(text, width, subsequent_indent=" " * indent, break_long_words=False, break_on_hyphens=False)


def make_environment(directory: Path = TEMPLATES_DIR) -> Environment:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(
        loader=FileSystemLoader(str(directory)),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # plain-text mail  # noqa: S701
    )
    env.filters["moment"] = format_moment
    env.filters["span"] = format_span
    env.filters["wrap72"] = wrap
    env.filters["hang"] = hang
    env.filters["first_upper"] = lambda text: str(text)[:1].upper() + str(text)[1:]  # "Spring 273 B.C." stays so
    env.filters["basename"] = lambda path: Path(str(path)).name
    env.filters["quoted"] = quoted  # what a player wrote, relayed: every line marked as theirs
    return env


_OUTBOX = OutboundMail.__table__
_OUTBOX_INSERT = insert(_OUTBOX)  # built once
# Which of these Message-IDs are in the outbox already (``Mailer.message_ids``).
_TAKEN = select(_OUTBOX.c.message_id).where(_OUTBOX.c.message_id.in_(bindparam("ids", expanding=True)))


def queued_in(session: Session) -> list[str]:
    """The Message-IDs of the mails queued in ``session``, in order: what this unit of work
    queued, told from what other processes committed meanwhile (an id above a mark is not)."""
    return session.info.setdefault("gm.queued", [])  # type: ignore[no-any-return]


class Mailer:
    def __init__(self, config: AppConfig, clock: Clock, environment: Environment | None = None):
        self.config = config
        self.clock = clock
        self._environment = environment

    @cached_property
    def env(self) -> Environment:
        """The templates, loaded when a mail is first written (a cron tick with nothing to say
        loads no template engine)."""
        env = self._environment or make_environment()
        env.globals["rules_template"] = self.rules_template  # the mails mention HELP RULES
        return env

    @cached_property
    def _templates(self) -> frozenset[str]:
        return frozenset(self.env.list_templates())

    def rules_template(self, variant: str) -> str | None:
        """The template of the variant's rules as this judge reads them, if one is written."""
        name = RULES_TEMPLATE.format(variant=variant)
        return name if name in self._templates else None

    def message_prefix(self, session: Session, row: dict[str, Any]) -> str:
        """What a mail to queue is, as the start of its Message-ID: its game and the game's phase,
        its kind, its recipient, the mail it answers. The number after it counts the mails of
        the same prefix queued before (``message_ids``), so a mail made again (after a restore, a
        rollback, a mail delivered again) is the same mail to a mail service that recognises
        copies by its Message-ID."""
        game = session.get(Game, row["game_id"]) if row.get("game_id") else None
        what = "|".join(str(part) for part in (
            row.get("game_id") or "", game.phase_seq if game is not None else "", row["kind"],
            row["to_address"].strip().lower(), row.get("in_reply_to") or ""))
        return f"<gm.{hashlib.sha256(what.encode()).hexdigest()[:24]}."

    def message_ids(self, session: Session, prefixes: list[str]) -> list[str]:
        """The Message-IDs of mails queued together, one for each of ``prefixes`` in order: for
        each prefix, the lowest numbers free, in order. Every candidate is asked in one statement
        by its whole Message-ID (the unique index answers it at once: a count of the prefix is a
        LIKE, which no index serves, over the whole outbox). Only when some are taken are more
        asked: at least as many again as were asked for that prefix, so that a prefix with many
        mails before it costs a few statements, not one a mail."""
        def named(prefix: str, number: int) -> str:
            return f"{prefix}{number}@{self.config.domain}>"

        needed = Counter(prefixes)
        free: dict[str, list[int]] = {prefix: [] for prefix in needed}
        asked: Counter[str] = Counter()  # each prefix's numbers asked so far: 0 up to this
        lacking = dict(needed)
        connection = session.connection()
        while lacking:
            ranges = {prefix: range(asked[prefix], asked[prefix] + max(count, asked[prefix]))
                      for prefix, count in lacking.items()}
            taken = set(connection.scalars(_TAKEN, {"ids": [
                named(prefix, number) for prefix, numbers in ranges.items() for number in numbers]}))
            for prefix, numbers in ranges.items():
                free[prefix].extend(number for number in numbers if named(prefix, number) not in taken)
                asked[prefix] = numbers.stop
            lacking = {prefix: needed[prefix] - len(free[prefix])
                       for prefix in lacking if len(free[prefix]) < needed[prefix]}
        numbers = {prefix: iter(found) for prefix, found in free.items()}
        return [named(prefix, next(numbers[prefix])) for prefix in prefixes]

    def is_own_message_id(self, message_id: str) -> bool:
        text = message_id.strip()
        return text.startswith("<gm.") and text.endswith(f"@{self.config.domain}>")

    def render(self, template: str, **context: Any) -> str:
        context.setdefault("judge", self.config.judge_name)
        context.setdefault("judge_address", self.config.judge_address)
        return self.env.get_template(template).render(**context).replace(KEEP, " ")  # a name not folded too

    def queue(self, session: Session, **mail: Any) -> None:
        """One mail into the outbox (``mail``: as for ``outbox_row``), in the caller's transaction."""
        self.queue_rows(session, [self.outbox_row(**mail)])

    def queue_rows(self, session: Session, rows: list[dict[str, Any]]) -> None:
        """Mails into the outbox, in the caller's transaction, in one statement: a plain INSERT
        of the rows (nothing reads them back in the transaction as objects, and the ORM would
        insert them one at a time to learn their ids). On the session's connection: the rows
        they refer to are stored already (their ids are known), so the session's pending
        changes need not be flushed first; they are at commit, or at the next query."""
        if rows:
            unnamed = [row for row in rows if not row.get("message_id")]
            prefixes = [self.message_prefix(session, row) for row in unnamed]
            for row, message_id in zip(unnamed, self.message_ids(session, prefixes), strict=True):
                row["message_id"] = message_id
            session.connection().execute(_OUTBOX_INSERT, rows)
            queued_in(session).extend(row["message_id"] for row in rows)

    def outbox_row(
        self,
        *,
        to: str,
        subject: str,
        template: str,
        kind: str,
        game_id: int | None = None,
        attach_phase_id: int | None = None,
        in_reply_to: str | None = None,
        body: str | None = None,
        secrets: list[str] | None = None,
        **context: Any,
    ) -> dict[str, Any]:
        """A mail to queue, rendered from ``template`` with ``context`` (or ``body``: the text
        as ``render(template, **context)`` gives it, when the caller has it). ``secrets``: the
        ones the mail gives out (a new secret, a code), masked in the outbox once it is sent."""
        now = self.clock.now()
        # Whoever wrote what is in them, nothing that does not print goes out (gm.games.plaintext).
        return {
            "game_id": game_id, "kind": kind, "to_address": to, "subject": header_text(subject),
            "body": printable(self.render(template, **context) if body is None else body),
            "message_id": None, "in_reply_to": in_reply_to, "attach_phase_id": attach_phase_id,
            "status": OutboundStatus.PENDING, "attempts": 0, "next_attempt_at": now, "last_error": "",
            "created_at": now, "sent_at": None, "secrets": list(secrets or []),
        }
