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
from typing import Any

from sqlalchemy import Integer, bindparam, exists, func, select
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.store.models import Game, Observer, OutboundMail, Player

REPLY_KINDS = ("reply", "refusal", "map")  # answers to a mail (what the rate limit counts)
REFUSAL = "refusal"  # a reply that only says no: a failed sign-on, a mail too large, nothing read
PAUSED = "paused"  # the one notice that replies pause
HOUR = timedelta(hours=1)


def _this_hour(kinds: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """One sender's mails of these kinds queued since a moment (``to``, ``since``)."""
    return select(OutboundMail.created_at).where(
        OutboundMail.to_address == bindparam("to"), OutboundMail.kind.in_(kinds),
        OutboundMail.created_at >= bindparam("since"))


# Built once: building a statement costs more than running it (docs/design/performance.md).
_RATE_TH_REPLY = (_this_hour(REPLY_KINDS).order_by(OutboundMail.created_at.desc())
                  .offset(bindparam("skip", type_=Integer)).limit(1))
_ANY_REFUSAL = select(exists(_this_hour((REFUSAL,))))
_ANY_PAUSE_NOTICE = select(exists(_this_hour((PAUSED,))))


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

    def _ask(self, statement, **parameters: object) -> Any:  # type: ignore[no-untyped-def]
        return self.session.scalar(statement, {"to": self.to, "since": self.now - HOUR, **parameters})

    @cached_property
    def rate_th_reply(self) -> datetime | None:
        """When the ``rate``-th latest reply of the last hour was queued, or None when there were
        fewer (what pausing needs to know): one row, found in the index (ix_outbox_recipient
        holds the kind too), never more than ``rate`` entries read however many there were."""
        return self._ask(_RATE_TH_REPLY, skip=max(self.rate - 1, 0))

    @cached_property
    def refused_this_hour(self) -> bool:
        return self._ask(_ANY_REFUSAL) or False

    @property
    def paused(self) -> bool:
        return self.rate_th_reply is not None

    @property
    def resumes_at(self) -> datetime:
        """When the replies of the last hour have dropped below the rate."""
        assert self.rate_th_reply is not None
        return self.rate_th_reply + HOUR

    @cached_property
    def told_of_pause(self) -> bool:
        """A notice went out in the last hour: one an hour at most, however the replies pause
        and resume as the hour slides on."""
        return self._ask(_ANY_PAUSE_NOTICE) or False

    @cached_property
    def registered(self) -> bool:
        """A player, a game master or observer, or the administrator: anyone gm knows."""
        if self.to == self.services.config.admin_address.lower():
            return True
        if self.session.scalar(select(func.count()).select_from(Player).where(Player.email == self.to)):
            return True
        if self.session.scalar(select(func.count()).select_from(Observer).where(Observer.address == self.to)):
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
