"""The inbox and the outbox that the configuration names (``kind: maildir | imap | smtp``)."""

from __future__ import annotations

from gm.config import ConfigError, MailboxConfig
from gm.transport.base import Inbox, Sender, WatermarkStore


def make_inbox(config: MailboxConfig, watermarks: WatermarkStore, read_limit: int | None = None) -> Inbox:
    """``read_limit``: how much of one message to read at most (see `Deliver`)."""
    if config.kind == "maildir":
        from gm.transport.maildir import MaildirInbox

        if config.path is None:
            raise ConfigError("inbound: kind maildir needs a path")
        return MaildirInbox(config.path, read_limit=read_limit)
    if config.kind == "imap":
        from gm.transport.imap import ImapInbox

        try:
            return ImapInbox(config, watermarks, read_limit=read_limit)
        except ValueError as exc:
            raise ConfigError(f"inbound: {exc}") from None
    raise ConfigError(f"inbound: kind must be maildir or imap, not {config.kind!r}")


def make_sender(config: MailboxConfig) -> Sender:
    if config.kind == "maildir":
        from gm.transport.maildir import MaildirSender

        if config.path is None:
            raise ConfigError("outbound: kind maildir needs a path")
        return MaildirSender(config.path)
    if config.kind == "smtp":
        from gm.transport.smtp import SmtpSender

        try:
            return SmtpSender(config)
        except ValueError as exc:
            raise ConfigError(f"outbound: {exc}") from None
    raise ConfigError(f"outbound: kind must be maildir or smtp, not {config.kind!r}")
