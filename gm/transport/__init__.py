"""Mail transport: getting raw messages in and sending messages out. Knows nothing of Diplomacy.

The contract with the rest of gm (services/intake.py and services/sending.py):

* An **inbox** (`Inbox` protocol) fetches raw messages and hands each to ``deliver(raw, source_key)``,
  an async callable that stores the message and acts on it in one database transaction and
  returns once that transaction is committed. Only then does the inbox mark the message done on
  its side (IMAP \\Seen and the UID watermark; Maildir: moved to cur/). If ``deliver`` raises,
  the message is left undone and retried later (``Deferred``: gm cannot take it now, its database
  away; the inbox waits a few seconds and says nothing of it). ``source_key`` names the message uniquely in
  its mailbox (e.g. ``imap:<account and mailbox>:<uidvalidity>:<uid>``, ``maildir:<path>:<file name>``) so
  that a redelivery is recognised. An inbox reads at most its ``read_limit`` bytes of a message;
  of a larger one it delivers that much and the whole size, ``deliver(raw, source_key, size)``
  (the reader keeps the headers and text parts and tells the sender: nothing is dropped unseen).
* An **outbox** (`Sender` protocol) sends one ``email.message.EmailMessage`` and raises
  ``ServerFailure`` (the server takes no mail now: everything waits for a fix),
  ``TemporaryFailure`` (this message later) or ``PermanentFailure`` (give up, tell the GM). It
  writes the message with ``headers.wire_bytes``, whose policy refuses a header that would break
  into more (a permanent failure).

Implementations: `imap.ImapInbox`, `maildir.MaildirInbox`, `maildir.MaildirSender`,
`smtp.SmtpSender`, `pipe.read_message` (one message on stdin, for `gm receive`), `spool.Spool`
(where `gm receive` leaves it for a process of its own); `factory` chooses by the configured kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.transport.base import (
        Deferred,
        Deliver,
        Inbox,
        InboxUnavailable,
        PermanentFailure,
        Sender,
        ServerFailure,
        TemporaryFailure,
        Watermark,
        WatermarkStore,
    )

__all__ = [
    "Deferred", "Deliver", "Inbox", "InboxUnavailable", "PermanentFailure", "Sender", "ServerFailure", "TemporaryFailure",
    "Watermark", "WatermarkStore",
]


def __getattr__(name: str) -> Any:
    """The contract's names, loaded when first used: `gm receive` handing a mail to the running
    judge (gm.transport.handoff) must not pay for ssl and the email package."""
    if name in __all__:
        from gm.transport import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
