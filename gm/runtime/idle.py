"""A cron tick's first look: whether anything at all is due, found from the inbox folder's file
names, the settings files' digests and a few SELECTs (gm.store.due), before anything heavy is
loaded. Most ticks find nothing and end here in about a tenth of a second; a tick that finds
something, or cannot tell, runs whole (and says what it finds)."""

from __future__ import annotations

from datetime import datetime

from gm.config import AppConfig
from gm.settings.files import digest, settings_files
from gm.store.due import CannotTell, work_due
from gm.transport.maildir_files import waiting
from gm.transport.spool import Spool, spool_path


def what_is_due(config: AppConfig, now: datetime) -> str:
    """What is due at ``now``, or why this look cannot tell; "" when nothing is."""
    try:
        if Spool(spool_path(config.home)).waiting():
            return "mail left in the spool by gm receive"
    except OSError as exc:
        return f"a folder or file not read ({exc})"
    inbox = config.inbound
    if inbox.kind != "maildir" or inbox.path is None:
        return "an inbox on a server: only reading it tells"
    if not all((inbox.path / sub).is_dir() for sub in ("new", "cur")):
        return "an inbox folder not made yet"
    try:
        if waiting(inbox.path):
            return "mail in the inbox"
        files = {str(path): digest(path.read_text(encoding="utf-8")) for path in settings_files(config.games_dir)}
    except (OSError, UnicodeError) as exc:
        return f"a folder or file not read ({exc})"
    try:
        return work_due(config.database_url, now, files)
    except CannotTell as exc:
        return f"the database not read ({exc})"
