"""Which incoming mails gm must never answer, as a table: no mail loops, ever.

Each rule only decides (yes, with a reason); the intake acts on the first rule that says yes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from email.message import Message

from gm.services.mailtext import sender_address


@dataclass(frozen=True)
class MailFacts:
    message: Message
    sender: str
    judge_address: str
    own_message_id: Callable[[str], bool]


def _header(facts: MailFacts, name: str) -> str:
    return str(facts.message.get(name, "")).strip().lower()


def auto_submitted(facts: MailFacts) -> bool:
    value = _header(facts, "Auto-Submitted")
    return bool(value) and value != "no"


def bulk_precedence(facts: MailFacts) -> bool:
    return _header(facts, "Precedence") in ("bulk", "junk", "list", "auto_reply")


def mailing_list(facts: MailFacts) -> bool:
    return any(facts.message.get(h) for h in ("List-Id", "List-Unsubscribe", "List-Post"))


def empty_return_path(facts: MailFacts) -> bool:
    return _header(facts, "Return-Path") == "<>"


def delivery_report(facts: MailFacts) -> bool:
    kind = facts.message.get_content_type()
    return kind == "multipart/report" or _header(facts, "X-Failed-Recipients") != ""


def no_address(facts: MailFacts) -> bool:
    return not facts.sender


def daemon_sender(facts: MailFacts) -> bool:
    local = facts.sender.split("@", 1)[0]
    return local in ("mailer-daemon", "postmaster", "noreply", "no-reply", "bounce", "bounces")


def from_ourselves(facts: MailFacts) -> bool:
    if facts.sender == facts.judge_address.lower():
        return True
    return facts.own_message_id(str(facts.message.get("Message-ID", "")))


def auto_responder(facts: MailFacts) -> bool:
    return any(facts.message.get(h) for h in ("X-Autoreply", "X-Autorespond")) or _header(facts, "X-Auto-Response-Suppress") == "all"


RULES: tuple[tuple[str, Callable[[MailFacts], bool]], ...] = (
    ("our own mail", from_ourselves),                      # a loop through our own outbox
    ("auto-submitted", auto_submitted),                   # RFC 3834 auto-replies and notices
    ("bulk precedence", bulk_precedence),                 # vacation programs, lists
    ("mailing list", mailing_list),
    ("bounce: empty return path", empty_return_path),
    ("bounce: delivery report", delivery_report),
    ("no address to answer", no_address),                # no From, or none that is a plain address
    ("daemon sender", daemon_sender),                     # MAILER-DAEMON, postmaster, no-reply
    ("auto-responder", auto_responder),
)


def reason_to_ignore(message: Message, judge_address: str, own_message_id: Callable[[str], bool]) -> str | None:
    facts = MailFacts(message, sender_address(message), judge_address, own_message_id)
    for reason, rule in RULES:
        if rule(facts):
            return reason
    return None
