"""Whether the reply to a handled mail is sent, as a table. These rules limit what gm *says*,
never what a mail *does*: by the time they are asked, the mail's commands have run.

The first rule that says yes decides; without one, the reply is sent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from functools import cached_property

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.store.models import Game, OutboundMail, Player

REPLY_KINDS = ("reply", "refusal", "map")  # answers to a mail (what the rate limit counts)
REFUSAL = "refusal"  # a reply that only says no: a failed sign-on, a mail too large, nothing read
PAUSED = "paused"  # the one notice that replies pause
HOUR = timedelta(hours=1)


class Verdict(Enum):
    SEND = "send"
    NOTICE = "notice"  # not the reply, but one notice that replies pause until a given time
    WITHHOLD = "withhold"


@dataclass
class ReplyFacts:
    """What the rules may ask about a reply; each fact is looked up only when a rule asks."""

    services: Services
    session: Session
    to: str
    refusal: bool

    @property
    def now(self) -> datetime:
        return self.services.clock.now()

    @property
    def rate(self) -> int:
        return self.services.config.sender_rate

    @cached_property
    def sent_this_hour(self) -> list[tuple[str, datetime]]:
        """(kind, when) of what gm sent this address in answer to its mails, in the last hour."""
        rows = self.session.execute(select(OutboundMail.kind, OutboundMail.created_at).where(
            OutboundMail.to_address == self.to, OutboundMail.kind.in_((*REPLY_KINDS, PAUSED)),
            OutboundMail.created_at >= self.now - HOUR))
        return sorted(((kind, when) for kind, when in rows), key=lambda row: row[1])

    @property
    def replies_this_hour(self) -> list[datetime]:
        return [when for kind, when in self.sent_this_hour if kind in REPLY_KINDS]

    @property
    def refused_this_hour(self) -> bool:
        return any(kind == REFUSAL for kind, _ in self.sent_this_hour)

    @property
    def paused(self) -> bool:
        return len(self.replies_this_hour) >= self.rate

    @property
    def resumes_at(self) -> datetime:
        """When the replies of the last hour have dropped below the rate."""
        replies = self.replies_this_hour
        return replies[len(replies) - self.rate] + HOUR

    @property
    def told_of_pause(self) -> bool:
        """A notice went out in the last hour: one an hour at most, however the replies pause
        and resume as the hour slides on."""
        return any(kind == PAUSED for kind, _ in self.sent_this_hour)

    @cached_property
    def registered(self) -> bool:
        """A player, a game master or observer, or the administrator: anyone gm knows."""
        if self.to == self.services.config.admin_address.lower():
            return True
        if self.session.scalar(select(func.count()).select_from(Player).where(Player.email == self.to)):
            return True
        for game in self.session.scalars(select(Game)):
            settings = self.services.settings_of(game)
            if self.to in (settings.gm.lower(), *(o.lower() for o in settings.observers)):
                return True
        return False


RULES: tuple[tuple[str, Callable[[ReplyFacts], bool], Verdict], ...] = (
    # no backscatter: forged senders of guesses and junk hear from gm once an hour at most
    ("one refusal an hour to an address gm does not know",
     lambda f: f.refusal and f.refused_this_hour and not f.registered, Verdict.WITHHOLD),
    # mail loops (an auto-responder that does not say so) end here: a bounded number of mails
    ("replies paused, and the sender told", lambda f: f.paused and f.told_of_pause, Verdict.WITHHOLD),
    ("replies paused", lambda f: f.paused, Verdict.NOTICE),
)


def decide(facts: ReplyFacts) -> tuple[Verdict, str]:
    for reason, rule, verdict in RULES:
        if rule(facts):
            return verdict, reason
    return Verdict.SEND, ""
