"""Reading the Maildir folders gm delivers to, as a test looks at them while gm may still write."""

from __future__ import annotations

from email import message_from_bytes
from email.message import Message
from pathlib import Path


def mails_in(folder: Path) -> list[Message]:
    """The mails delivered to a Maildir folder so far. A process still starting may have made the
    folder but not yet its new/ and cur/ (Maildir makes them one by one): that is no mail yet."""
    return [message_from_bytes(path.read_bytes()) for sub in ("new", "cur") if (folder / sub).is_dir()
            for path in sorted((folder / sub).iterdir())]
